#include "app/audit/report_html.h"

#include <cstdio>
#include <sstream>

#include "app/solve_output.h"
#include "puzzles/render.h"

namespace loom::audit {

using json = nlohmann::json;

namespace {

std::string text_of(const json& v) {
  if (v.is_null()) return "not decided";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  return v.dump();
}

/// A solution's value as a sentence part: the game's side names (Migong:
/// Blue, Yellow; the players' seats under its pie rule), a margin with whose
/// score it is, Long Nardy's chance.
std::string value_text(const std::string& game, const json& v, bool seats) {
  if (v.is_string() && (v == "black" || v == "white"))
    return side_word(game, v == "black", seats) + " wins";
  if (v.is_number()) {
    char b[96];
    std::snprintf(b, sizeof b, "%+g (%s's score minus %s's)", v.get<double>(),
                  side_word(game, true).c_str(), side_word(game, false).c_str());
    return b;
  }
  if (v.is_object() && v.contains("p_win")) {
    char b[160];
    std::snprintf(b, sizeof b,
                  "%s, moving first, wins with probability %.6f and expects %+.6f points",
                  v.value("side_to_move", std::string("white")).c_str(), v["p_win"].get<double>(),
                  v["points"].get<double>());
    return b;
  }
  return text_of(v);
}

std::string pct(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f%%", 100 * x);
  return b;
}

void property_row(std::ostringstream& h, const std::string& name, const json& p) {
  std::string holds = p["holds"].is_null() ? "not decided" : p["holds"] == true ? "holds" : "FAILS";
  std::string cls = p["holds"].is_null() ? "open" : p["holds"] == true ? "ok" : "hole";
  h << "<tr><td>" << name << "</td><td class=\"" << cls << "\">" << holds << "</td><td>";
  if (!p["witness"].is_null())
    h << "<code>" << puzzles::markup_escape(p["witness"].get<std::string>()) << "</code>";
  if (p.contains("note"))
    h << " <span class=\"note\">" << puzzles::markup_escape(p["note"].get<std::string>())
      << "</span>";
  h << "</td><td>" << p.value("positions", uint64_t{0}) << "</td><td><code>"
    << puzzles::markup_escape(p.value("command", std::string())) << "</code></td></tr>\n";
}

}  // namespace

std::string report_html(const json& r, const std::vector<std::vector<Diagram>>& diagrams) {
  std::ostringstream h;
  const std::string game = r["game"].get<std::string>();
  h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>Loom audit: "
    << puzzles::markup_escape(game) << "</title>\n<style>\n"
    << "body{font-family:sans-serif;max-width:70em;margin:1em auto;padding:0 1em;color:#222}\n"
    << "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;"
       "text-align:left;vertical-align:top}\n"
    << ".ok{color:#070}.hole{color:#b00;font-weight:bold}.open{color:#a60}.note{color:#666;"
       "font-size:90%}\n"
    << "section{border-top:2px solid #888;margin-top:1.5em}pre{background:#f6f6f6;padding:.4em}\n"
    << ".diagram{display:inline-block;margin:.5em;vertical-align:top}\n</style></head><body>\n";
  h << "<h1>Rule audit: " << puzzles::markup_escape(game) << "</h1>\n<p>"
    << (r["size"] == 0 ? std::string("The one board of 24 points")  // Long Nardy
                       : "Proofs on side " + text_of(r["size"]) + ", playouts on side " +
                             text_of(r["play_size"]))
    << " (" << r["games_per_policy"].get<int>() << " games per policy, seed " << r["seed"].dump()
    << "). Budget " << r["seconds_budget"].dump() << " s; the audit took ";
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.1f", r["seconds"].get<double>());
  h << secs << " s. A part that did not finish says so: nothing here is a guess.</p>\n";
  const auto& sets = r["rule_sets"];
  for (size_t i = 0; i < sets.size(); ++i) {
    const auto& s = sets[i];
    std::string rules;
    for (auto it = s["rules"].begin(); it != s["rules"].end(); ++it)
      rules += (rules.empty() ? "" : " ") + it.key() + "=" + it.value().get<std::string>();
    h << "<section class=\"ruleset\" id=\"set" << i << "\"><h2>"
      << puzzles::markup_escape(s["label"].get<std::string>()) << ": <code>"
      << puzzles::markup_escape(rules) << "</code></h2>\n<h3>Verdict</h3><ul class=\"verdict\">\n";
    for (const auto& v : s["verdict"])
      h << "<li>" << puzzles::markup_escape(v.get<std::string>()) << "</li>\n";
    h << "</ul>\n<h3>Proved on the small board</h3>\n<table><tr><th>property</th><th>result</th>"
         "<th>witness</th><th>positions</th><th>reproduce</th></tr>\n";
    property_row(h, "termination", s["termination"]);
    const char* dk = s.contains("decisive") ? "decisive" : "drawless";
    property_row(h, dk, s[dk]);
    h << "</table>\n";
    const auto& sol = s["solution"];
    const bool seats = pie_rule_on(s["rules"]);
    h << "<p>Value under perfect play: <b>"
      << puzzles::markup_escape(value_text(game, sol["value"], seats)) << "</b>"
      << (sol["complete"] == true ? "" : " (not complete)");
    if (sol.contains("note"))
      h << " <span class=\"note\">" << puzzles::markup_escape(sol["note"].get<std::string>())
        << "</span>";
    if (sol.contains("command"))
      h << " — <code>" << puzzles::markup_escape(sol["command"].get<std::string>()) << "</code>";
    h << "</p>\n";
    if (sol.contains("openings") && !sol["openings"].empty()) {
      // The pie column holds the one-move pie decision; Fiodar's pie is the
      // 2-stone set-up instead (loom solve fiodar --pie).
      const bool one_move = one_move_pie(game) && !seats;
      h << "<table><tr><th>opening</th><th>value</th>" << (one_move ? "<th>pie</th>" : "")
        << "</tr>\n";
      for (const auto& o : sol["openings"]) {
        h << "<tr><td>" << puzzles::markup_escape(o["move"].get<std::string>()) << "</td><td>"
          << puzzles::markup_escape(value_text(game, o["value"], seats)) << "</td>";
        if (one_move)
          h << "<td>" << puzzles::markup_escape(o.value("pie", std::string(""))) << "</td>";
        h << "</tr>\n";
      }
      h << "</table>\n";
      if (seats)
        h << "<p class=\"note\">With pie=on each value is after the second player's best "
             "reply, a swap included; the pie column of the rule set with pie=off says when to "
             "swap.</p>\n";
      else if (!one_move)
        h << "<p class=\"note\">The pie rule of " << puzzles::markup_escape(game)
          << " is the 2-stone set-up: <code>loom solve " << puzzles::markup_escape(game)
          << " --size N --pie</code> solves every set-up.</p>\n";
    }
    if (s.contains("queries") && !s["queries"].empty()) {
      h << "<h3>Rule questions (Z3 specification)</h3>\n<table><tr><th>question</th><th>answer</th>"
           "<th>witness</th><th>reproduce</th></tr>\n";
      for (const auto& q : s["queries"]) {
        std::string ans =
            q["result"].is_null()
                ? (q.contains("note") ? q["note"].get<std::string>() : std::string("not run"))
            : q.value("proof", false)
                ? (q.value("proved", false) ? "proved (never fires / always holds)" : "refuted")
                : (q["result"] == "sat" ? "occurs" : "never occurs");
        // A sized query's answer is about its board only (a clause that never
        // fires on side 2 can on side 3).
        if (!q["result"].is_null() && q.contains("size"))
          ans += " on side " + std::to_string(q["size"].get<int>());
        h << "<tr><td>" << puzzles::markup_escape(q["name"].get<std::string>()) << ": "
          << puzzles::markup_escape(q["summary"].get<std::string>()) << "</td><td>" << ans
          << "</td><td>"
          << (q.contains("witness")
                  ? "<code>" + puzzles::markup_escape(q["witness"].get<std::string>()) + "</code>"
              : !q["result"].is_null() && q.contains("note")
                  ? puzzles::markup_escape(q["note"].get<std::string>())
                  : std::string())
          << "</td><td><code>" << puzzles::markup_escape(q.value("command", std::string()))
          << "</code></td></tr>\n";
      }
      h << "</table>\n";
    }
    if (s.contains("differs_from_base")) {
      const auto& d = s["differs_from_base"];
      h << "<h3>Where this rule set differs from the base rules</h3>\n<p>";
      if (d["found"] == true) {
        h << "After <code>"
          << puzzles::markup_escape(d["record"].get<std::string>().empty()
                                        ? "(the start)"
                                        : d["record"].get<std::string>())
          << "</code>:</p><ul>\n";
        for (const auto& x : d["differs"]) {
          std::string mv = x["move"].is_null() ? "the result" : x["move"].get<std::string>();
          std::string da = x["base"].get<std::string>(), db = x["variant"].get<std::string>();
          if (da.find('\n') == std::string::npos)
            h << "<li><code>" << puzzles::markup_escape(mv)
              << "</code>: " << puzzles::markup_escape(da) << " under the base rules, "
              << puzzles::markup_escape(db) << " here</li>\n";
          else
            h << "<li><code>" << puzzles::markup_escape(mv)
              << "</code> leads to positions that differ (drawn below):"
              << "<div class=\"diagram\">base<pre>" << puzzles::markup_escape(da)
              << "</pre></div><div class=\"diagram\">this rule set<pre>"
              << puzzles::markup_escape(db) << "</pre></div></li>\n";
        }
        h << "</ul>\n";
      } else {
        h << puzzles::markup_escape(text_of(d["found"]) +
                                    (d.contains("note") ? ": " + d["note"].get<std::string>() : ""))
          << "</p>\n";
      }
    }
    h << "<h3>Measured on the recommended board (seeded playouts)</h3>\n<table><tr><th>policy</th>"
         "<th>games</th><th>first player wins (95% CI)</th><th>endings</th><th>length (mean / "
         "median / max)</th>"
         "<th>branching</th></tr>\n";
    for (const auto& p : s["playouts"]) {
      h << "<tr><td>" << p["policy"].get<std::string>() << "</td><td>" << p["games"].get<int>()
        << "</td><td>";
      if (!p["first_player_win_rate"].is_null())
        h << pct(p["first_player_win_rate"].get<double>()) << " ("
          << pct(p["ci95"][0].get<double>()) << " – " << pct(p["ci95"][1].get<double>()) << ")";
      h << "</td><td>";
      for (auto it = p["endings"].begin(); it != p["endings"].end(); ++it) {
        h << puzzles::markup_escape(it.key()) << ": " << it.value().dump();
        if (it.key() == "draw" && p.contains("draw_ci95") && p["draw_ci95"].is_array())
          h << " (95% CI " << pct(p["draw_ci95"][0].get<double>()) << " – "
            << pct(p["draw_ci95"][1].get<double>()) << ")";
        h << "<br>";
      }
      h << "</td><td>";
      if (!p["length"].is_null()) {
        char b[96];
        std::snprintf(b, sizeof b, "%.1f / %d / %d", p["length"]["mean"].get<double>(),
                      p["length"]["median"].get<int>(), p["length"]["max"].get<int>());
        h << b;
        // Long Nardy counts turns (a roll and its moves), the board games plies.
        if (p["length"].contains("unit")) h << " " << p["length"]["unit"].get<std::string>();
      }
      char br[32] = "";
      if (p["games"].get<int>() > 0 && p["branching"].is_number())
        std::snprintf(br, sizeof br, "%.1f", p["branching"].get<double>());
      h << "</td><td>" << br << "</td></tr>\n";
      if (p.contains("note"))
        h << "<tr><td colspan=\"6\" class=\"note\">"
          << puzzles::markup_escape(p["note"].get<std::string>()) << "</td></tr>\n";
    }
    h << "</table>\n";
    if (i < diagrams.size() && !diagrams[i].empty()) {
      h << "<h3>Diagrams</h3>\n";
      for (const auto& d : diagrams[i])
        h << "<div class=\"diagram\"><div>" << puzzles::markup_escape(d.title) << "</div>" << d.html
          << "</div>\n";
    }
    h << "</section>\n";
  }
  h << "</body></html>\n";
  return h.str();
}

}  // namespace loom::audit
