// The puzzle collection page (puzzles/html.h). The puzzles travel into the
// page as one JSON block that the script reads; the diagrams are inlined SVG
// whose sites (class="site", data-site / class="point", data-point) the
// script makes clickable. Nothing is fetched: no fonts, images or scripts
// from elsewhere (the icon link is an empty data: URL so that the browser
// does not ask for /favicon.ico).
#include "puzzles/html.h"

#include <sstream>
#include <stdexcept>

#include "puzzles/render.h"

namespace loom::puzzles {

std::string side_title(const std::string& game, const std::string& to_move) {
  bool black = to_move == "black";
  if (game == "migong") return black ? "Blue" : "Yellow";
  return black ? "Black" : "White";
}

namespace {

/// The strings of the puzzle's array `key`, joined by ", " ("" if none).
std::string joined(const nlohmann::json& p, const char* key) {
  std::string list;
  if (auto it = p.find(key); it != p.end() && it->is_array())
    for (const auto& t : *it)
      if (t.is_string()) list += (list.empty() ? "" : ", ") + t.get<std::string>();
  return list;
}

/// " · tags: a, b" from the puzzle's tags (docs/puzzles.md says the page
/// shows them; it did not), or "" when it has none.
std::string tags_html(const nlohmann::json& p) {
  const std::string list = joined(p, "tags");
  return list.empty() ? ""
                      : " &middot; <span class=\"tags\">tags: " + markup_escape(list) + "</span>";
}

std::string str_field(const nlohmann::json& p, const char* key) {
  auto it = p.find(key);
  if (it == p.end()) return "";
  if (it->is_string()) return it->get<std::string>();
  return it->dump();
}

std::string game_title(const std::string& g) {
  if (g == "fiodar") return "Fiodar";
  if (g == "enfargar") return "Enfargar";
  if (g == "gadur") return "Gadur";
  if (g == "migong") return "Migong";
  if (g == "nardy") return "Long Nardy";
  return g;
}

std::string question_text(const nlohmann::json& p) {
  std::string game = str_field(p, "game"), side = side_title(game, str_field(p, "to_move"));
  std::string q = str_field(p, "question");
  if (q == "win") return side + " to move: find the only winning move.";
  if (q == "best") return side + " to move: find the only move that reaches the best final margin.";
  if (q == "roll")
    return side + " to play " + str_field(p, "dice") +
           ": find the turn that gives the highest winning chance.";
  return side + " to move: " + q;
}

constexpr const char* kCss = R"CSS(
body { font-family: sans-serif; margin: 1.5em auto; max-width: 60em; color: #222; background: #fafafa; }
h1 { margin-bottom: 0.2em; }
.puzzle { background: #fff; border: 1px solid #ccc; border-radius: 6px; padding: 0.8em 1.2em; margin: 1.2em 0; }
.puzzle h2 { margin: 0.1em 0 0.3em 0; font-size: 1.2em; }
.meta { color: #555; margin: 0.2em 0; }
.question { font-weight: bold; margin: 0.4em 0; }
.diagram svg { max-width: 100%; height: auto; }
.diagram .site, .diagram .point { cursor: pointer; }
.choices button, .extra button, .controls button { margin: 0.15em; padding: 0.25em 0.6em; font-size: 0.95em; cursor: pointer; }
.choices button.pattern { font-family: monospace; font-weight: bold; }
.choices .b { color: #2f6fd6; } .choices .y { color: #c99700; }
.feedback { min-height: 1.3em; margin: 0.4em 0; }
.feedback.correct { color: #17803d; font-weight: bold; }
.feedback.wrong { color: #b3261e; font-weight: bold; }
.feedback.illegal { color: #8a6d00; }
.solution-steps { margin: 0.3em 0; }
)CSS";

constexpr const char* kScript = R"JS(
(function () {
  'use strict';
  var SVGNS = 'http://www.w3.org/2000/svg';
  var data = JSON.parse(document.getElementById('puzzle-data').textContent);

  function sideName(p, colour) {
    if (p.game === 'migong') return colour === 'black' ? 'Blue' : 'Yellow';
    return colour === 'black' ? 'Black' : 'White';
  }
  function otherColour(c) { return c === 'black' ? 'white' : 'black'; }
  function findMove(p, token) {
    for (var i = 0; i < p.moves.length; i++) if (p.moves[i].move === token) return p.moves[i];
    return null;
  }
  function meaning(p, v) {
    if (typeof v === 'number') {
      if (p.question === 'best') return 'final margin for ' + sideName(p, p.to_move);
      if (p.question === 'roll') return 'winning chance for ' + sideName(p, p.to_move);
      return '';
    }
    return {win: 'a win', loss: 'a loss', draw: 'a draw: play can go on for ever',
            stall: 'a stall: the game ends without a result'}[v] || '';
  }
  function valueText(p, v) {
    var m = meaning(p, v);
    return 'value: ' + String(v) + (m ? ' (' + m + ')' : '');
  }
  function label(token) { return token === '' ? '(no step)' : token; }

  function siteOf(p, token) {
    var at = token.indexOf('@');
    return at >= 0 ? token.substring(at + 1) : token;
  }
  function centreOf(el) {
    var b = el.getBBox();
    return {x: b.x + b.width / 2, y: b.y + b.height / 2};
  }
  function addMark(svg, el, text, colour) {
    var c = centreOf(el);
    var g = document.createElementNS(SVGNS, 'g');
    g.setAttribute('class', 'js-mark');
    g.setAttribute('pointer-events', 'none');
    var circle = document.createElementNS(SVGNS, 'circle');
    circle.setAttribute('cx', c.x); circle.setAttribute('cy', c.y); circle.setAttribute('r', 11);
    circle.setAttribute('fill', '#fff'); circle.setAttribute('fill-opacity', '0.92');
    circle.setAttribute('stroke', colour); circle.setAttribute('stroke-width', 2.5);
    g.appendChild(circle);
    if (text) {
      var t = document.createElementNS(SVGNS, 'text');
      t.setAttribute('x', c.x); t.setAttribute('y', c.y);
      t.setAttribute('text-anchor', 'middle'); t.setAttribute('dominant-baseline', 'central');
      t.setAttribute('font-size', 13); t.setAttribute('font-weight', 'bold');
      t.setAttribute('font-family', 'sans-serif'); t.setAttribute('fill', colour);
      t.textContent = text;
      g.appendChild(t);
    }
    svg.appendChild(g);
    return g;
  }

  function setup(section, p) {
    var svg = section.querySelector('.diagram svg');
    var feedback = section.querySelector('.feedback');
    var choices = section.querySelector('.choices');
    var extra = section.querySelector('.extra');
    var steps = section.querySelector('.solution-steps');
    var showBtn = section.querySelector('.show-solution');
    var nextBtn = section.querySelector('.next-step');
    var resetBtn = section.querySelector('.reset');
    var picked = null;
    var shown = 0;

    function say(kind, text) {
      feedback.className = 'feedback ' + kind;
      feedback.textContent = text;
      section.setAttribute('data-result', kind);
    }
    function judge(token) {
      var m = findMove(p, token);
      if (!m) { say('illegal', label(token) + ' is not a legal move here.'); return; }
      if (token === p.answer) say('correct', 'Correct: ' + label(token) + ' is the answer (' + valueText(p, m.value) + ').');
      else say('wrong', 'Wrong: ' + label(token) + ' is not the answer; ' + valueText(p, m.value) + '.');
    }
    function pick(el) {
      if (picked) picked.remove();
      picked = el ? addMark(svg, el, '', '#444') : null;
    }
    function button(text, token, cls) {
      var b = document.createElement('button');
      b.type = 'button';
      b.className = cls;
      b.setAttribute('data-move', token);
      if (cls === 'pattern') {
        for (var i = 0; i < text.length; i++) {
          var s = document.createElement('span');
          s.className = text[i] === 'B' ? 'b' : 'y';
          s.textContent = text[i];
          b.appendChild(s);
        }
        b.appendChild(document.createTextNode(token.substring(6)));
      } else {
        b.textContent = text;
      }
      b.addEventListener('click', function () { judge(token); });
      return b;
    }

    if (p.game === 'nardy') {
      p.moves.forEach(function (m) { choices.appendChild(button(label(m.move), m.move, 'turn')); });
    } else {
      Array.prototype.forEach.call(svg.querySelectorAll('.site'), function (el) {
        el.addEventListener('click', function () {
          var site = el.getAttribute('data-site');
          pick(el);
          if (p.game !== 'migong') { judge(site); return; }
          choices.textContent = '';
          var here = p.moves.filter(function (m) { return siteOf(p, m.move) === site && m.move.indexOf('@') >= 0; });
          if (here.length === 0) { say('illegal', 'No piece of ' + sideName(p, p.to_move) + ' fits at ' + site + '.'); return; }
          say('', 'Pieces that fit at ' + site + ': pick one.');
          here.forEach(function (m) { choices.appendChild(button(m.move.substring(0, 6), m.move, 'pattern')); });
        });
      });
      if (findMove(p, 'pass')) extra.appendChild(button('pass', 'pass', 'pass'));
    }

    function showStep() {
      if (shown >= p.line.length) return;
      var token = p.line[shown];
      var mover = shown % 2 === 0 ? p.to_move : otherColour(p.to_move);
      var li = document.createElement('li');
      li.textContent = sideName(p, mover) + ': ' + label(token);
      steps.appendChild(li);
      if (p.game === 'nardy') {
        token.split(' ').forEach(function (st) {
          var parts = st.split('/');
          if (parts.length !== 2) return;
          var pt = parts[1] === 'off' ? parts[0] : parts[1];
          var el = svg.querySelector('.point[data-point="' + pt + '"]');
          if (el) addMark(svg, el, String(shown + 1), '#d62d20');
        });
      } else {
        var el = svg.querySelector('.site[data-site="' + siteOf(p, token) + '"]');
        if (el) addMark(svg, el, String(shown + 1), mover === p.to_move ? '#d62d20' : '#1f5fbf');
      }
      shown++;
      section.setAttribute('data-shown', String(shown));
      nextBtn.disabled = shown >= p.line.length;
    }
    showBtn.addEventListener('click', function () {
      if (shown === 0) showStep();
      showBtn.disabled = true;
    });
    nextBtn.addEventListener('click', showStep);
    resetBtn.addEventListener('click', function () {
      Array.prototype.forEach.call(svg.querySelectorAll('.js-mark'), function (m) { m.remove(); });
      picked = null;
      steps.textContent = '';
      if (p.game === 'migong') choices.textContent = '';
      say('', '');
      shown = 0;
      section.setAttribute('data-shown', '0');
      showBtn.disabled = false;
      nextBtn.disabled = true;
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll('section.puzzle'), function (section) {
    setup(section, data[Number(section.getAttribute('data-index'))]);
  });
})();
)JS";

}  // namespace

std::string collection_html(const std::string& title, const std::vector<nlohmann::json>& puzzles,
                            const std::vector<std::string>& svgs) {
  if (puzzles.size() != svgs.size())
    throw std::invalid_argument("collection_html: " + std::to_string(puzzles.size()) +
                                " puzzles but " + std::to_string(svgs.size()) + " diagrams");
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    << "<link rel=\"icon\" href=\"data:,\">\n<title>" << markup_escape(title) << "</title>\n<style>"
    << kCss << "</style>\n</head>\n<body>\n<h1>" << markup_escape(title)
    << "</h1>\n<p class=\"summary\">" << puzzles.size()
    << (puzzles.size() == 1 ? " puzzle" : " puzzles")
    << ". Click a point or cell (Long Nardy: a turn; Migong: a cell, then a piece) to answer."
    << "</p>\n";
  nlohmann::json all = nlohmann::json::array();
  for (size_t i = 0; i < puzzles.size(); ++i) {
    const auto& p = puzzles[i];
    if (!p.is_object()) throw std::invalid_argument("collection_html: a puzzle is not an object");
    std::string game = str_field(p, "game");
    std::string where = game_title(game);
    if (game != "nardy") where += ", side " + str_field(p, "size");
    o << "<section class=\"puzzle\" id=\"puzzle-" << i + 1 << "\" data-index=\"" << i
      << "\" data-id=\"" << markup_escape(str_field(p, "id")) << "\" data-game=\""
      << markup_escape(game) << "\">\n"
      << "<h2>" << i + 1 << ". " << markup_escape(str_field(p, "id")) << "</h2>\n"
      << "<p class=\"meta\">" << markup_escape(where) << " &middot; <span class=\"to-move\">"
      << markup_escape(side_title(game, str_field(p, "to_move"))) << " to move</span> &middot; "
      << "<span class=\"difficulty\">difficulty " << markup_escape(str_field(p, "difficulty"))
      << "</span>" << tags_html(p) << "</p>\n"
      << "<p class=\"question\">" << markup_escape(question_text(p)) << "</p>\n"
      << "<div class=\"diagram\">" << svgs[i] << "</div>\n"
      << "<div class=\"choices\"></div><div class=\"extra\"></div>\n"
      << "<p class=\"feedback\" aria-live=\"polite\"></p>\n"
      << "<div class=\"controls\"><button type=\"button\" class=\"show-solution\">Show "
         "solution</button><button type=\"button\" class=\"next-step\" disabled>Next "
         "step</button><button type=\"button\" class=\"reset\">Reset</button></div>\n"
      << "<ol class=\"solution-steps\"></ol>\n</section>\n";
    // The script needs these fields only; missing ones get safe defaults.
    nlohmann::json q;
    q["game"] = game;
    q["to_move"] = str_field(p, "to_move");
    q["question"] = str_field(p, "question");
    q["answer"] = p.value("answer", nlohmann::json(""));
    q["moves"] = p.value("moves", nlohmann::json::array());
    q["line"] = p.value("line", nlohmann::json::array());
    all.push_back(q);
  }
  std::string js = all.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
  // "</script" must not occur inside the script element.
  for (size_t at = js.find("</"); at != std::string::npos; at = js.find("</", at + 3))
    js.replace(at, 2, "<\\/");
  // An answer key that needs no script (to print, or to read without
  // JavaScript): each puzzle's answer and solution line, folded.
  o << "<details class=\"answer-key\"><summary>Answer key</summary>\n<ol>\n";
  for (const auto& p : puzzles) {
    const std::string line = joined(p, "line");
    o << "<li>" << markup_escape(str_field(p, "id")) << ": <b>"
      << markup_escape(str_field(p, "answer")) << "</b>"
      << (line.empty() ? "" : " (line: " + markup_escape(line) + ")") << "</li>\n";
  }
  o << "</ol>\n</details>\n";
  o << "<script type=\"application/json\" id=\"puzzle-data\">" << js << "</script>\n"
    << "<script>" << kScript << "</script>\n</body>\n</html>\n";
  return o.str();
}

}  // namespace loom::puzzles
