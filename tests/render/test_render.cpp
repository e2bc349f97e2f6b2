// SVG diagrams and the collection page (puzzles/render.h, puzzles/html.h):
// one site element per board site, marks where asked, well-formed XML, and
// `loom render` on the command line.
#include <sys/stat.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <filesystem>

#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "app/registry.h"
#include "app/typed_game.h"
#include "puzzles/html.h"
#include "puzzles/render.h"
#include "tests/common/cli_run.h"

using namespace loom;
using loom::puzzles::RenderOptions;

namespace {

/// A small XML well-formedness check (enough for what the renderer writes):
/// tags nest and close, attribute values are quoted, `&` starts an entity,
/// `<` never appears in text, one root element. Returns "" or the problem.
std::string xml_problem(const std::string& x) {
  std::vector<std::string> stack;
  int roots = 0;
  size_t i = 0;
  auto entity_ok = [&](size_t at) {
    static const std::regex kEntity("&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);");
    auto end = x.find(';', at);
    return end != std::string::npos && std::regex_match(x.substr(at, end - at + 1), kEntity);
  };
  while (i < x.size()) {
    if (x[i] == '&') {
      if (!entity_ok(i)) return "bad entity at " + std::to_string(i);
      ++i;
      continue;
    }
    if (x[i] == '>') return "stray > at " + std::to_string(i);
    if (x[i] != '<') {
      if (stack.empty() && !std::isspace(static_cast<unsigned char>(x[i])))
        return "text outside the root at " + std::to_string(i);
      ++i;
      continue;
    }
    size_t end = i + 1;
    char quote = 0;
    for (; end < x.size(); ++end) {
      if (quote) {
        if (x[end] == quote)
          quote = 0;
        else if (x[end] == '<')
          return "< inside an attribute at " + std::to_string(end);
        else if (x[end] == '&' && !entity_ok(end))
          return "bad entity at " + std::to_string(end);
      } else if (x[end] == '"' || x[end] == '\'') {
        quote = x[end];
      } else if (x[end] == '>') {
        break;
      }
    }
    if (end >= x.size()) return "unterminated tag at " + std::to_string(i);
    std::string tag = x.substr(i + 1, end - i - 1);
    i = end + 1;
    if (tag.empty()) return "empty tag";
    if (tag[0] == '/') {
      std::string name = tag.substr(1);
      if (stack.empty() || stack.back() != name) return "mismatched </" + name + ">";
      stack.pop_back();
      continue;
    }
    bool self = tag.back() == '/';
    std::string name = tag.substr(0, tag.find_first_of(" \t\n/"));
    if (!std::regex_match(name, std::regex("[A-Za-z][A-Za-z0-9_.:-]*"))) return "bad name " + name;
    // Attributes: name="value" pairs, each name once.
    std::string attrs = tag.substr(name.size(), tag.size() - name.size() - (self ? 1 : 0));
    static const std::regex kAttr("\\s+([A-Za-z_:][A-Za-z0-9_.:-]*)=(\"[^\"]*\"|'[^']*')");
    std::set<std::string> seen;
    auto it = std::sregex_iterator(attrs.begin(), attrs.end(), kAttr);
    size_t covered = 0;
    for (; it != std::sregex_iterator(); ++it) {
      if (static_cast<size_t>(it->position()) != covered) return "junk in <" + name + ">";
      covered += it->length();
      if (!seen.insert((*it)[1]).second) return "attribute twice in <" + name + ">";
    }
    if (attrs.find_first_not_of(" \t\n", covered) != std::string::npos)
      return "junk in <" + name + ">";
    if (stack.empty()) ++roots;
    if (!self) stack.push_back(name);
  }
  if (!stack.empty()) return "unclosed <" + stack.back() + ">";
  if (roots != 1) return std::to_string(roots) + " root elements";
  return "";
}

int occurrences(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

/// The data-site values in document order.
std::vector<std::string> data_sites(const std::string& svg) {
  static const std::regex kSite("class=\"site\" data-site=\"([a-z][0-9]+)\"");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), kSite); it != std::sregex_iterator();
       ++it)
    out.push_back((*it)[1]);
  return out;
}

std::string render_game(const char* game, int size, const std::string& record,
                        const RenderOptions& o, const std::vector<std::string>& rules = {}) {
  auto g = make_game(game, size, rules);
  if (!record.empty()) g->play_record(record);
  std::string svg;
  visit_state(*g, [&](const auto& s) {
    using S = std::remove_cvref_t<decltype(s)>;
    if constexpr (kWidthOf < S >> 0) svg = puzzles::render_svg(s, o);
  });
  return svg;
}

}  // namespace

TEST_CASE("the well-formedness check rejects broken XML", "[render]") {
  CHECK(xml_problem("<svg a=\"1\"><g/></svg>").empty());
  CHECK_FALSE(xml_problem("<svg><g></svg>").empty());
  CHECK_FALSE(xml_problem("<svg a=1></svg>").empty());
  CHECK_FALSE(xml_problem("<svg>a & b</svg>").empty());
  CHECK_FALSE(xml_problem("<svg a=\"1\" a=\"2\"></svg>").empty());
  CHECK_FALSE(xml_problem("<svg></svg><svg></svg>").empty());
}

TEST_CASE("hex diagrams have one site element per site, named as the board names them",
          "[render]") {
  struct Case {
    const char* game;
    int size;
    const char* record;
  };
  for (auto c :
       {Case{"gadur", 3, "c3 b2 d3"}, Case{"gadur", 4, ""}, Case{"fiodar", 2, "a1 b2"},
        Case{"fiodar", 7, "d4 e5 pass"}, Case{"enfargar", 3, "a1"}, Case{"enfargar", 9, ""},
        Case{"migong", 2, ""}, Case{"migong", 7, ""}, Case{"migong", 13, ""}}) {
    CAPTURE(c.game, c.size, c.record);
    RenderOptions o;
    o.caption = "A & B <test>";
    std::string svg = render_game(c.game, c.size, c.record, o);
    CHECK(xml_problem(svg) == "");
    const HexGeometry& g = HexGeometry::get(c.size);
    std::multiset<std::string> want;
    for (int s : g.sites())
      if (std::string(c.game) != "migong" || s != g.centre()) want.insert(g.name(s));
    auto got = data_sites(svg);
    CHECK(std::multiset<std::string>(got.begin(), got.end()) == want);
    CHECK(occurrences(svg, "class=\"site\"") == static_cast<int>(want.size()));
    CHECK(svg.find("A &amp; B &lt;test&gt;") != std::string::npos);
    // Rim coordinates: every letter and row number of the board.
    for (int k = 0; k < 2 * c.size - 1; ++k) {
      CHECK(svg.find(">" + std::string(1, static_cast<char>('a' + k)) + "</text>") !=
            std::string::npos);
      CHECK(svg.find(">" + std::to_string(k + 1) + "</text>") != std::string::npos);
    }
  }
}

TEST_CASE("stones, pieces and the last move are drawn where the record put them", "[render]") {
  RenderOptions o;
  o.last_move = "d3";
  std::string svg = render_game("gadur", 3, "c3 b2 d3", o);
  // b2 (a lone stone next to the lone c3) captured c3 (RULES.md section 4), so
  // one black stone (d3) and one white (b2) remain.
  CHECK(occurrences(svg, "fill=\"#1d1d1f\"") == 1);
  CHECK(occurrences(svg, "fill=\"#fbfbf8\"") == 1);
  CHECK(occurrences(svg, "class=\"last-move\"") == 1);
  // The mark sits at d3's position: x = q - r/2 = 3 - 1 = 2 units, y = -r*sqrt(3)/2.
  CHECK(svg.find("class=\"last-move\" cx=\"80.00\" cy=\"-69.28\"") != std::string::npos);

  o.last_move = "pass";
  o.numbered = {"a1", "pass", "b1"};
  svg = render_game("fiodar", 2, "a1 b2", o);
  CHECK(occurrences(svg, "class=\"last-move\"") == 0);
  CHECK(occurrences(svg, "class=\"step\"") == 2);
  CHECK(svg.find("data-step=\"3\"") != std::string::npos);
  // Fiodar draws the grid: side 2 has 12 lines between its 7 points.
  CHECK(occurrences(svg, "<line ") == 12);
}

TEST_CASE("a Fiodar diagram says when a pass would end the game and whose prisoners it counts",
          "[render]") {
  // The status read "Black to move; captured: Black 0, White 0" after a
  // pass, which leaves no mark: nothing said that a second pass ends the game.
  std::string svg = render_game("fiodar", 3, "a1 pass", {});
  CHECK(svg.find("Black to move after a pass (a pass ends the game); stones taken: by Black 0, "
                 "by White 0") != std::string::npos);
  svg = render_game("fiodar", 3, "a1", {});
  CHECK(svg.find("White to move; stones taken") != std::string::npos);
}

TEST_CASE("Migong pieces are six wedges and every board edge is coloured", "[render]") {
  for (int n : {2, 3}) {
    auto g = make_game("migong", n, {});
    // Two pieces from the legal moves, whatever they are.
    std::string rec;
    for (int k = 0; k < 2; ++k) {
      auto moves = g->legal_tokens();
      REQUIRE_FALSE(moves.empty());
      g->play(moves[moves.size() / 2], k + 1);
      rec += moves[moves.size() / 2] + " ";
    }
    std::string svg;
    visit_state(*g, [&](const auto& s) {
      using S = std::remove_cvref_t<decltype(s)>;
      if constexpr (std::is_same_v<S, migong::State<1>>) {
        svg = puzzles::render_svg(s, {});
        // Wedges: 6 per piece, each Blue or Yellow as the pattern says.
        int blue = 0, yellow = 0;
        s.occupied().for_each([&](int site) {
          int p = s.pattern_at(site);
          for (int i = 0; i < 6; ++i) ((p >> i) & 1 ? blue : yellow)++;
        });
        int edge_blue = 0, edge_yellow = 0;
        for (int site : s.geo().sites())
          for (int d = 0; d < 6; ++d)
            if (site != s.geo().centre() && s.context().edges().is_edge(site, d))
              (s.context().edges().is_blue(site, d) ? edge_blue : edge_yellow)++;
        // Rim 6(2n-1) segments plus the 6 sides of the centre border.
        CHECK(edge_blue + edge_yellow == 6 * (2 * n - 1) + 6);
        // Each piece also carries a disc of the set it came from (a
        // mixed pattern can be in either set).
        const int from_blue =
            static_cast<int>((s.occupied() & s.placed_from(Color::kBlack)).count());
        const int from_yellow = static_cast<int>(s.occupied().count()) - from_blue;
        CHECK(occurrences(svg, "class=\"set-blue\"") == from_blue);
        CHECK(occurrences(svg, "class=\"set-yellow\"") == from_yellow);
        CHECK(from_blue == 1);  // the first placement is Blue's
        CHECK(occurrences(svg, "fill=\"#2f6fd6\"") == blue + from_blue);
        CHECK(occurrences(svg, "fill=\"#f2c230\"") == yellow + from_yellow);
        CHECK(occurrences(svg, "stroke=\"#2f6fd6\"/>") == edge_blue);
        CHECK(occurrences(svg, "stroke=\"#f2c230\"/>") == edge_yellow);
      }
    });
    CAPTURE(rec);
    CHECK(xml_problem(svg) == "");
    CHECK(occurrences(svg, "class=\"border\"") == 1);
  }
}

TEST_CASE("Long Nardy: 24 points, stacks with counts, borne-off trays and dice", "[render]") {
  nardy::Options opt;
  RenderOptions o;
  o.last_move = "24/18 18/13";
  o.numbered = {"6/off 5/3"};
  std::string svg =
      puzzles::render_nardy_svg(nardy::Position::start(), opt, nardy::Roll::parse("65"), o);
  CHECK(xml_problem(svg) == "");
  for (int k = 1; k <= 24; ++k)
    CHECK(occurrences(svg, "data-point=\"" + std::to_string(k) + "\"") == 1);
  CHECK(occurrences(svg, "class=\"point\"") == 24);
  // 15 on each head: five drawn, the count on the fifth.
  CHECK(occurrences(svg, "class=\"checker\"") == 10);
  CHECK(occurrences(svg, "font-weight=\"bold\">15</text>") == 2);
  CHECK(occurrences(svg, "class=\"die\"") == 2);
  CHECK(svg.find("class=\"die\" data-value=\"6\"") != std::string::npos);
  CHECK(svg.find("class=\"die\" data-value=\"5\"") != std::string::npos);
  CHECK(occurrences(svg, "stroke=\"#d62d20\" stroke-width=\"3\"") == 3);  // 24, 18, 13
  CHECK(occurrences(svg, "class=\"step\"") == 2);                         // off and 3

  // A bear-off position: White 2 on 1 and 1 on 3 (12 off), Black 1 on 13 (14 off).
  auto p = nardy::Position::parse("W:2,0,1,0,0,0,0,0,0,0,0,0,-1,0,0,0,0,0,0,0,0,0,0,0");
  svg = puzzles::render_nardy_svg(p, opt, std::nullopt, {});
  CHECK(xml_problem(svg) == "");
  CHECK(occurrences(svg, "class=\"checker\"") == 4);
  CHECK(occurrences(svg, "class=\"die\"") == 0);
  CHECK(svg.find("data-side=\"white\"><text") != std::string::npos);
  CHECK(svg.find(">12</text></g>") != std::string::npos);
  CHECK(svg.find(">14</text></g>") != std::string::npos);
  // With checkers=4 the same board has 1 and 3 off (it showed 12 and 14:
  // the counts were taken out of 15 whatever the rule).
  nardy::Options four;
  four.checkers = 4;
  svg = puzzles::render_nardy_svg(p, four, std::nullopt, {});
  CHECK(svg.find(">1</text></g>") != std::string::npos);
  CHECK(svg.find(">3</text></g>") != std::string::npos);
  CHECK(svg.find(">12</text></g>") == std::string::npos);
}

TEST_CASE("collection_html inlines every diagram and escapes the data", "[render]") {
  nlohmann::json p = {{"id", "gadur-3-</script>-1"},
                      {"game", "gadur"},
                      {"size", 3},
                      {"to_move", "black"},
                      {"question", "win"},
                      {"answer", "a1"},
                      {"moves", {{{"move", "a1"}, {"value", "win"}}}},
                      {"line", {"a1"}},
                      {"difficulty", 1.5}};
  std::string svg = render_game("gadur", 3, "", {});
  std::string html = puzzles::collection_html("Test & co", {p, p}, {svg, svg});
  CHECK(occurrences(html, svg) == 2);
  CHECK(occurrences(html, "<section class=\"puzzle\"") == 2);
  CHECK(html.find("<title>Test &amp; co</title>") != std::string::npos);
  // "</script" inside the data would end the script element early.
  CHECK(occurrences(html, "</script>") == 2);
  CHECK(html.find("difficulty 1.5") != std::string::npos);
  CHECK(html.find("Black to move: find the only winning move.") != std::string::npos);
  // An answer key that needs no script, every puzzle's answer escaped.
  CHECK(occurrences(html, "<li>gadur-3-&lt;/script&gt;-1: <b>a1</b> (line: a1)</li>") == 2);
  // Nothing to fetch: no URL but the SVG namespace name, no src attribute.
  std::string no_ns = html;
  for (auto at = no_ns.find("http://www.w3.org/2000/svg"); at != std::string::npos;
       at = no_ns.find("http://www.w3.org/2000/svg"))
    no_ns.erase(at, 26);
  CHECK(no_ns.find("http") == std::string::npos);
  CHECK(no_ns.find("src=") == std::string::npos);
  CHECK_THROWS_AS(puzzles::collection_html("x", {p}, {}), std::invalid_argument);
}

TEST_CASE("loom render writes the SVG, bad input exits 2", "[render][cli]") {
  std::string path = "test_render_out.svg";
  std::remove(path.c_str());
  auto r = testing::run({"render", "gadur", "--size", "3", "--record", "c3 b2", "--out", path});
  REQUIRE(r.code == 0);
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  CHECK(xml_problem(ss.str()) == "");
  CHECK(data_sites(ss.str()).size() == 19);
  CHECK(occurrences(ss.str(), "class=\"last-move\"") == 1);

  r = testing::run({"render", "nardy", "--position",
                    "W:2,0,1,0,0,0,0,0,0,0,0,0,-1,0,0,0,0,0,0,0,0,0,0,0", "--dice", "31", "--out",
                    path});
  REQUIRE(r.code == 0);
  std::ifstream f2(path);
  std::stringstream s2;
  s2 << f2.rdbuf();
  CHECK(occurrences(s2.str(), "class=\"point\"") == 24);
  CHECK(occurrences(s2.str(), "class=\"die\"") == 2);
  std::remove(path.c_str());

  for (std::vector<std::string> bad :
       {std::vector<std::string>{"render", "nosuchgame", "--out", path},
        {"render", "gadur", "--size", "3", "--record", "zz9", "--out", path},
        {"render", "gadur", "--size", "3", "--record", "a1 a1", "--out", path},
        {"render", "gadur", "--out", "/nonexistent-dir/x.svg"},
        {"render", "nardy", "--position", "W:1,2", "--out", path},
        {"render", "nardy", "--dice", "71", "--out", path},
        {"render", "gadur", "--rule", "nosuch=1", "--out", path},
        {"render", "gadur"}}) {
    CAPTURE(bad);
    auto b = testing::run(bad);
    CHECK(b.code == 2);
    CHECK(testing::lines(b.err).size() == 1);
  }
  // A file that cannot be written: the reason is given.
  for (const std::string& out : {std::string("/nonexistent-dir/x.svg"), std::string("")}) {
    auto b = testing::run({"render", "gadur", "--out", out});
    CHECK(b.code == 2);
    CHECK(b.err.find("cannot write '" + out + "': No such file or directory") != std::string::npos);
  }
  // A directory, and a FIFO nobody reads (opening it for writing blocked
  // for ever before): refused at once.
  const auto dir =
      std::filesystem::temp_directory_path() / ("loom-render-fifo-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string fifo = (dir / "f.svg").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  for (const auto& [out, why] :
       {std::pair<std::string, std::string>{dir.string(), "Is a directory"},
        {fifo, "nothing reads it (a FIFO"}}) {
    auto b = testing::run({"render", "gadur", "--out", out});
    CHECK(b.code == 2);
    CHECK(b.err.find("cannot write '" + out + "': " + why) != std::string::npos);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("markup text is well-formed UTF-8 whatever bytes it is given", "[render]") {
  using puzzles::markup_escape;
  // Well-formed characters of every length are kept.
  CHECK(markup_escape("a\u00e9\u4e2d\U0001F600b") == "a\u00e9\u4e2d\U0001F600b");
  // Stray, truncated, overlong, surrogate and too-large sequences become
  // U+FFFD, one for each byte that starts no character.
  const std::string fffd = "\xEF\xBF\xBD";
  CHECK(markup_escape("a\xff") == "a" + fffd);
  CHECK(markup_escape("\xc3") == fffd);
  CHECK(markup_escape("\xc0\xaf") == fffd + fffd);
  CHECK(markup_escape("\xed\xa0\x80") == fffd + fffd + fffd);
  CHECK(markup_escape("\xf4\x90\x80\x80") == fffd + fffd + fffd + fffd);
  CHECK(markup_escape("\xef\xbf\xbe") == fffd + fffd + fffd);
  CHECK(markup_escape("<\x01&") == "&lt; &amp;");
  // The command: a caption in another encoding still gives valid XML.
  std::string path = "test_render_caption.svg";
  auto r =
      testing::run({"render", "gadur", "--size", "2", "--caption", "caf\xe9 \xff", "--out", path});
  REQUIRE(r.code == 0);
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  CHECK(xml_problem(ss.str()) == "");
  CHECK(ss.str().find("caf" + fffd + " " + fffd) != std::string::npos);
  CHECK(ss.str().find('\xff') == std::string::npos);
  std::remove(path.c_str());
}
