// loom audit: the parts of a rule audit and the report (see audit.h).
#include "app/audit/audit.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <functional>
#include <iterator>
#include <set>
#include <sstream>
#include <unordered_set>

#include "app/audit/nardy_playouts.h"
#include "app/audit/playouts.h"
#include "app/audit/report_html.h"
#include "app/registry.h"
#include "app/render_game.h"
#include "app/solve_output.h"
#include "app/typed_game.h"
#include "model/common/errors.h"
#include "model/common/files.h"
#include "properties/spec/queries.h"
#include "puzzles/render.h"
#include "solver/checkpoint.h"
#include "solver/control.h"
#include "solver/nardy/bearoff.h"
#include "solver/nardy/fewcheckers.h"

namespace loom::audit {

namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

/// The note of a part that Ctrl-C or SIGTERM stopped or kept from running.
constexpr const char* kInterruptedNote = "interrupted (Ctrl-C or SIGTERM): not determined";

/// The audit's clock: the whole budget and what is left of it.
class Budget {
 public:
  explicit Budget(double total) : total_(total), t0_(Clock::now()) {}
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - t0_).count(); }
  /// Nothing once Ctrl-C or SIGTERM arrived: every part still to run stops.
  double left() const { return interrupted() ? 0.0 : std::max(0.0, total_ - elapsed()); }
  static bool interrupted() { return solver::stop_signal_received(); }
  /// A share of what is left for one part, at least a tenth of a second.
  double share(double fraction) const { return std::max(0.1, left() * fraction); }

 private:
  double total_;
  Clock::time_point t0_;
};

/// One progress line on a terminal, fitted to its width (as every
/// command's: solver::fit_status_line).
class Progress {
 public:
  explicit Progress(std::ostream* tty) : tty_(tty) {}
  void show(const std::string& line) {
    if (!tty_) return;
    *tty_ << "\r\033[K" << solver::fit_status_line(line, solver::terminal_columns()) << std::flush;
  }
  void clear() {
    if (tty_) *tty_ << "\r\033[K" << std::flush;
  }

 private:
  std::ostream* tty_;
};

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
  return out;
}

json rules_json(const std::vector<std::pair<std::string, std::string>>& in_force) {
  json r = json::object();
  for (const auto& [k, v] : in_force) r[k] = v;
  return r;
}

/// The command-line arguments that select a board and a rule set.
std::string board_args(const std::string& game, std::optional<int> size,
                       const std::vector<std::pair<std::string, std::string>>& rules) {
  std::string s = game;
  if (size) s += " --size " + std::to_string(*size);
  for (const auto& [k, v] : rules) s += " --rule " + k + "=" + v;
  return s;
}

/// One rule set to examine: its --rule arguments, the options they put in
/// force, and its label.
struct RuleSetToExamine {
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> rules;
  std::string label;
};

/// Rule sets to examine: the base set, then (with --variants) the base set
/// with one option changed to each of its other values, then the default
/// rule set and its named variants (the default with one option changed),
/// each rule set in force once (CONVENTIONS.md: "the default and every named
/// variant", whatever --rule chose as the base). Labels: "base", "default"
/// for the default rules wherever they come, else the options in force that
/// differ from the base's ("K=V", or several separated by spaces for a
/// variant of the default), so no two rule sets share a label.
std::vector<RuleSetToExamine> rule_sets(const GameInfo& g, const std::vector<std::string>& base,
                                        bool variants) {
  const auto in_force = [&](const std::vector<std::string>& args) {
    RuleSet rs(g.rule_specs());
    rs.set_all(args);
    return rs.in_force();
  };
  std::vector<RuleSetToExamine> out{{base, in_force(base), "base"}};
  if (!variants) return out;
  const auto base_rules = out[0].rules;  // a copy: out grows; every option, in order
  const auto default_rules = in_force({});
  const auto add = [&](const std::vector<std::string>& set) {
    auto f = in_force(set);
    for (const auto& o : out)
      if (o.rules == f) return;
    std::string label;
    if (f == default_rules) {
      label = "default";
    } else {
      for (size_t i = 0; i < f.size(); ++i)
        if (f[i] != base_rules[i])
          label += (label.empty() ? "" : " ") + f[i].first + "=" + f[i].second;
    }
    out.push_back({set, std::move(f), std::move(label)});
  };
  const auto neighbours = [&](const std::vector<std::string>& from) {
    RuleSet rs(g.rule_specs());
    rs.set_all(from);
    for (const auto& spec : g.rule_specs())
      for (const auto& v : spec.values) {
        if (v == rs.get(spec.key)) continue;
        auto set = from;
        set.push_back(spec.key + "=" + v);
        add(set);
      }
  };
  neighbours(base);
  add({});  // the default rule set
  neighbours({});
  return out;
}

/// Runs one proof part; a stop at its deadline or a request the game refuses
/// (a board too large, a dice game) leaves the part's nulls with a note.
template <class F>
void noted(json& j, F&& part) {
  try {
    part();
  } catch (const Interrupted& e) {
    j["note"] =
        Budget::interrupted()
            ? std::string(kInterruptedNote)
            : std::string("did not finish within its share of the time budget (") + e.what() + ")";
  } catch (const InputError& e) {
    j["note"] = e.what();
  }
}

// --- proved on the small board ------------------------------------------

/// " --method dense" when a property part went on by the dense index (its
/// reproducing command then names the method: a hash check without the
/// audit's position limit would count differently).
std::string method_arg(const json& part) {
  return part.value("method", "") == "dense" ? " --method dense" : "";
}

/// termination / drawless as {"holds", "witness", "positions", ...}.
json property_part(const AnyGame& g, const std::string& property, const AuditArgs& a,
                   double seconds) {
  json j;
  j["holds"] = nullptr;
  j["witness"] = nullptr;
  j["positions"] = 0;
  solver::PropertyOptions o;
  o.max_positions = a.max_positions;
  o.deadline_seconds = seconds;
  o.outer_stop = true;  // Ctrl-C stops the part; the audit reports
  o.threads = a.threads;
  noted(j, [&] {
    solver::PropertyResult r = g.check_property(property, o);
    using St = solver::PropertyResult::Status;
    j["positions"] = r.positions;
    j["moves"] = r.moves;
    j["seconds"] = r.seconds;
    j["method"] = r.method;
    if (r.status != St::kIncomplete) j["holds"] = r.status == St::kHolds;
    if (r.status == St::kFails) {
      if (property == "termination") {
        std::vector<std::string> whole = r.record;
        whole.insert(whole.end(), r.cycle.begin(), r.cycle.end());
        j["witness"] = join(whole);
        j["cycle_from"] = r.record.size();  // plies before the repeated stretch
        j["cycle"] = join(r.cycle);
      } else {
        j["witness"] = join(r.record);
        j["outcome"] = r.outcome;
      }
    }
    if (!r.note.empty()) j["note"] = r.note;
  });
  return j;
}

/// The value under perfect play, the openings and the pie decisions.
json value_part(const AnyGame& g, const std::string& game, bool pie_on, const AuditArgs& a,
                double seconds) {
  json j;
  j["value"] = nullptr;
  j["complete"] = false;
  // Present (empty) when the solve does not finish in its share, too.
  j["method"] = nullptr;
  j["nodes"] = 0;
  j["openings"] = json::array();
  j["pv"] = json::array();
  solver::SolveOptions o;
  o.max_nodes = a.max_nodes;
  o.max_positions = a.max_positions;
  o.deadline_seconds = seconds;
  o.outer_stop = true;  // Ctrl-C stops the part; the audit reports
  o.threads = a.threads;
  // Where the dense index fits (Gadur and Enfargar up to side 3), a job past
  // the position limit is valued by the dense method: its memory is the
  // board's index, and it is many times faster than the hash retrograde.
  o.dense_past_limit = true;
  noted(j, [&] {
    solver::SolveReport r = g.solve(o);
    j["method"] = r.method;
    j["complete"] = r.complete;
    j["value"] = value_json(r.value);
    j["nodes"] = r.nodes;
    j["seconds"] = r.seconds;
    if (r.plies >= 0) j["plies"] = r.plies;
    // An array of move tokens, as in `loom solve --json` (it was one string).
    j["pv"] = r.pv;
    json ops = json::array();
    // With the pie rule on (Migong pie=on) the values include the swap: no
    // decision can be read from them.
    const bool pie = one_move_pie(game) && !pie_on && r.value.kind != solver::Value::Kind::kMargin;
    for (const auto& op : r.openings) {
      json o2{{"move", op.move}, {"value", value_json(op.value)}};
      if (pie && op.value.known()) o2["pie"] = pie_decision(op.value, r.to_move);
      ops.push_back(o2);
    }
    j["openings"] = ops;
    if (!r.note.empty()) j["note"] = r.note;
  });
  return j;
}

/// The Z3 rule questions of the game: which clauses never fire (a proof
/// query answered UNSAT) and which situations occur (a witness).
json queries_part(const std::string& game, int size, const RuleSet& rules, const Budget& budget,
                  double fraction) {
  json arr = json::array();
  // The questions share one part of the rule set's budget (a side-4 query
  // can take minutes and left nothing to the next rule sets).
  const double stop_at = budget.elapsed() + budget.share(fraction);
  for (const auto& q : spec::spec_queries()) {
    if (q.game != game) continue;
    json j{{"name", q.name}, {"summary", q.proof ? q.claim : q.summary}, {"proof", q.proof}};
    int s = q.sized ? std::clamp(size, q.min_size, q.max_size) : 0;
    if (q.sized) j["size"] = s;
    // The rule set's own rules: a variant's answer can differ from the base's.
    std::string rule_args;
    for (const auto& [k, v] : rules.in_force()) rule_args += " --rule " + k + "=" + v;
    j["command"] = "loom verify " + game + (q.sized ? " --size " + std::to_string(s) : "") +
                   rule_args + " --query " + q.name;
    // Most queries take well under a second on side 2; some run for
    // minutes on larger sides. Each may use what is left of the part.
    const double left = std::min(stop_at - budget.elapsed(), budget.left());
    if (left < 0.5) {
      j["result"] = nullptr;
      j["note"] = Budget::interrupted()
                      ? std::string(kInterruptedNote) + " (run the command)"
                      : "not run: the rule questions' share of the audit's time budget is used up "
                        "(run the command)";
      arr.push_back(j);
      continue;
    }
    try {
      spec::QueryAnswer ans = spec::run_spec_query(q, s, rules.in_force(), left);
      j["result"] = ans.witness ? "sat" : "unsat";
      if (q.proof) j["proved"] = !ans.witness;
      if (ans.record) {
        j["witness"] = join(*ans.record) + (ans.move.empty() ? "" : " " + ans.move);
      } else if (ans.witness && !ans.facts.empty()) {
        // A witness that is no game line (Long Nardy: a position and dice).
        std::string w;
        for (const auto& [k, v] : ans.facts) w += (w.empty() ? "" : ", ") + k + " " + v;
        j["witness"] = w;
      } else if (ans.witness) {
        // Found, but its shortest game line was not in time: the query's
        // own words say so ("exists on some board, but ...").
        std::string said;
        for (const auto& line : ans.lines) said += (said.empty() ? "" : "; ") + line;
        j["note"] = said;
      }
      j["seconds"] = ans.seconds;
    } catch (const spec::QueryTimeout&) {
      j["result"] = nullptr;
      char secs[32];
      std::snprintf(secs, sizeof secs, "%.*f", left < 10 ? 1 : 0, left);
      j["note"] = std::string("not answered within the ") + secs +
                  " s left of the rule questions' share of the audit's time budget (run the "
                  "command)";
    } catch (const std::exception& e) {
      j["result"] = nullptr;
      j["note"] = std::string("no answer: ") + e.what();
    }
    arr.push_back(j);
  }
  return arr;
}

/// A drawing (AnyGame::show) without its line counting the legal moves
/// ("white to move, 6 legal placements"): the board, score and result.
std::string without_move_counts(const std::string& drawing) {
  std::istringstream in(drawing);
  std::string line, out;
  while (std::getline(in, line))
    if (line.find(" legal ") == std::string::npos) out += line + "\n";
  return out;
}

/// A shortest record after which the rule set and the base rules differ:
/// another set of legal moves, another position after a common move, or
/// another result. Breadth-first over the positions of the base rules.
json distinguish_part(const std::string& game, std::optional<int> size,
                      const std::vector<std::string>& base, const std::vector<std::string>& rules,
                      const Budget& budget, double fraction, uint64_t limit) {
  json j;
  j["found"] = nullptr;
  const double stop_at = budget.elapsed() + budget.share(fraction);
  auto at = [&](const std::vector<std::string>& rs, const std::string& rec) {
    auto g = make_game(game, size, rs);
    g->play_record(rec);
    return g;
  };
  std::deque<std::string> queue{""};
  std::unordered_set<std::string> seen;
  uint64_t explored = 0;
  while (!queue.empty()) {
    if (budget.elapsed() > stop_at || explored >= limit || Budget::interrupted()) {
      j["positions"] = explored;
      j["note"] = Budget::interrupted() ? kInterruptedNote
                  : explored >= limit   ? "stopped at the position limit"
                                        : "did not finish within its share of the time budget";
      return j;
    }
    std::string rec = queue.front();
    queue.pop_front();
    ++explored;
    auto a = at(base, rec), b = at(rules, rec);
    // The legal moves here, then the positions each common move leads to.
    // Two positions drawn alike may still differ in their legal moves: that
    // is found one ply later and reported there, move by move (it was shown
    // as two identical diagrams, the differing move never named).
    const auto legal_diffs = [](const std::vector<std::string>& ma,
                                const std::vector<std::string>& mb) {
      json diffs = json::array();
      std::vector<std::string> only_a, only_b;
      std::set_difference(ma.begin(), ma.end(), mb.begin(), mb.end(), std::back_inserter(only_a));
      std::set_difference(mb.begin(), mb.end(), ma.begin(), ma.end(), std::back_inserter(only_b));
      for (const auto& t : only_a)
        diffs.push_back({{"move", t}, {"base", "legal"}, {"variant", "illegal"}});
      for (const auto& t : only_b)
        diffs.push_back({{"move", t}, {"base", "illegal"}, {"variant", "legal"}});
      return diffs;
    };
    const auto ma = a->legal_tokens(), mb = b->legal_tokens();
    json diffs = legal_diffs(ma, mb);
    if (ma.empty() && mb.empty() && !(a->outcome() == b->outcome()))
      diffs.push_back({{"move", nullptr},
                       {"base", outcome_name(a->outcome().kind)},
                       {"variant", outcome_name(b->outcome().kind)}});
    for (const auto& t : ma) {
      if (!diffs.empty()) break;
      if (!std::binary_search(mb.begin(), mb.end(), t)) continue;
      std::string next = rec.empty() ? t : rec + " " + t;
      auto a2 = at(base, next), b2 = at(rules, next);
      const std::string sa = a2->show(), sb = b2->show();
      if (without_move_counts(sa) != without_move_counts(sb) || !(a2->outcome() == b2->outcome())) {
        diffs.push_back({{"move", t}, {"base", sa}, {"variant", sb}});
      } else if (json d = legal_diffs(a2->legal_tokens(), b2->legal_tokens()); !d.empty()) {
        rec = next;
        diffs = d;
      } else if (seen.insert(sa).second) {
        queue.push_back(next);
      }
    }
    if (!diffs.empty()) {
      j["found"] = true;
      j["record"] = rec;
      j["differs"] = diffs;
      j["positions"] = explored;
      return j;
    }
  }
  j["found"] = false;
  j["positions"] = explored;
  j["note"] = "every reachable position plays the same under both rule sets";
  return j;
}

// --- measured on the recommended board ---------------------------------

json stats_json(const PlayoutStats& st) {
  json j;
  j["policy"] = st.policy;
  j["games"] = st.games;
  auto [lo, hi] = wilson95(st.first_wins, st.games);
  j["first_player_wins"] = st.first_wins;
  j["second_player_wins"] = st.second_wins;
  j["no_winner"] = st.neutral;
  j["cut_off"] = st.cut_off;
  j["first_player_win_rate"] = st.games ? json(double(st.first_wins) / st.games) : json(nullptr);
  j["ci95"] = st.games ? json::array({lo, hi}) : json(nullptr);
  j["endings"] = st.endings;
  j["length"] = length_json(st.lengths);
  if (!st.lengths.empty()) j["length"]["unit"] = "plies";
  j["branching"] = st.games ? json(st.branching()) : json(nullptr);  // no game: no figure
  j["max_plies"] = st.max_plies;
  j["seconds"] = st.seconds;
  if (st.budget_hit)
    j["note"] = "stopped early by the time budget after " + std::to_string(st.games) + " games";
  return j;
}

/// Both policies' games in `seconds` at most: random play at most half of
/// them, greedy play what random play leaves.
json playouts_part(const AnyGame& g, const AuditArgs& a, const Budget& budget, double seconds) {
  const double ends = budget.elapsed() + seconds;
  json arr = json::array();
  for (Policy p : {Policy::kRandom, Policy::kGreedy}) {
    const double secs = std::max(0.1, p == Policy::kRandom ? seconds / 2 : ends - budget.elapsed());
    visit_state(g, [&](const auto& s) {
      using S = std::remove_cvref_t<decltype(s)>;
      if constexpr (kWidthOf<S> == 0) {
        arr.push_back(nardy_playouts(s.position(), s.options(), p, a.games, a.seed, secs));
      } else {
        // Ten plies a site: far beyond any game that does not loop.
        const int max_plies = 10 * s.geo().num_sites();
        // Fiodar and Migong score the board after two passes; Enfargar's
        // stall=more-stones counts the stones.
        const std::string pass_win = a.game == "enfargar" ? "win on more stones"
                                     : a.game == "fiodar" || a.game == "migong"
                                         ? "win on points"
                                         : "win after two passes";
        arr.push_back(stats_json(run_playouts(s, p, a.games, a.seed, max_plies, secs, pass_win)));
      }
    });
  }
  return arr;
}

/// Long Nardy: the exact value of the whole game where the few-checker
/// solver covers the rule set in the audit's time (checkers=1..3, in memory:
/// at most seconds; checkers=3 only with a minute of the budget left), else
/// null with the reason (checkers=4 takes about 20 minutes and 6.7 GB: the
/// command builds and keeps its table).
json nardy_value_part(const AnyGame& g, const Budget& budget) {
  json j{{"value", nullptr}, {"complete", false}};
  const auto* ng = dynamic_cast<const NardyGame*>(&g);
  if (!ng) return j;
  const nardy::Options& opt = ng->options();
  const int k = opt.checkers;
  // The command exists only where the whole game can be solved (it exits 2
  // for checkers above kMaxK).
  if (k <= nardy::exact::FewCheckers::kMaxK)
    j["command"] = "loom solve nardy --rule checkers=" + std::to_string(k);
  const bool affordable = k <= 2 || (k == 3 && budget.left() > 60);
  if (!affordable) {
    j["note"] = k == 3   ? "checkers=3 takes seconds to a minute: left out under this budget (run "
                           "the command)"
                : k == 4 ? "checkers=4 takes about 20 minutes and 6.7 GB: left out of the audit "
                           "(run the command; it keeps its table)"
                         : "the whole game is solved exactly only with checkers=1.." +
                               std::to_string(nardy::exact::FewCheckers::kMaxK) +
                               " (bear-off positions: loom solve nardy --position POS)";
    return j;
  }
  noted(j, [&] {
    auto t0 = std::chrono::steady_clock::now();
    auto f = nardy::exact::FewCheckers::solve(opt, 2);
    const nardy::Position& start = ng->position();
    j["value"] = {{"p_win", nardy::exact::clamp_chance(*f.p_win(start))},
                  {"points", nardy::exact::clamp_points(*f.points(start))},
                  {"side_to_move", start.to_move() == Color::kWhite ? "white" : "black"}};
    j["complete"] = true;
    j["method"] = "few-checkers";
    j["states"] = f.states();
    j["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  });
  return j;
}

/// Long Nardy's sentences: the exact value where solved, the playouts' draws
/// and mars (their first-player rates are printed for every game).
std::vector<std::string> nardy_verdicts(const json& rs) {
  std::vector<std::string> out;
  char buf[256];
  const json& v = rs["solution"];
  if (v["complete"] == true) {
    std::snprintf(buf, sizeof buf,
                  "solved exactly: %s, moving first, wins with probability %.6f and expects "
                  "%+.6f points under perfect play",
                  v["value"]["side_to_move"].get<std::string>().c_str(),
                  v["value"]["p_win"].get<double>(), v["value"]["points"].get<double>());
    out.push_back(buf);
  }
  for (const auto& p : rs["playouts"]) {
    if (p.value("games", 0) == 0) continue;
    std::snprintf(buf, sizeof buf, "%s play: %.1f%% draws, %d of %d games end in mars",
                  p["policy"].get<std::string>().c_str(), 100 * p.value("draw_rate", 0.0),
                  p.value("mars", 0), p["games"].get<int>());
    out.push_back(buf);
  }
  return out;
}

// --- verdicts -----------------------------------------------------------

/// A solver value ("black", "white", "stall", "draw" or Black's margin) in
/// plain words, with the game's own colour names (Migong: Blue and Yellow;
/// the players' seats under its pie rule).
std::string value_words(const json& value, const std::string& game, bool seats) {
  std::string first = side_word(game, true, seats), second = side_word(game, false, seats);
  first[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(first[0])));
  second[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(second[0])));
  if (value.is_number()) {
    const double m = value.get<double>();
    if (m == 0) return "a tie on points";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s wins by %g", (m > 0 ? first : second).c_str(),
                  m > 0 ? m : -m);
    return buf;
  }
  const std::string v = value.get<std::string>();
  if (v == "black") return first + " wins";
  if (v == "white") return second + " wins";
  if (v == "stall") return "stalls (no winner)";
  if (v == "draw") return "draw (play goes on for ever)";
  return v;
}

std::vector<std::string> verdicts(const json& rs, const std::string& decisive_key, int size,
                                  const std::string& game) {
  std::vector<std::string> out;
  const std::string side = "side " + std::to_string(size);
  const json& t = rs["termination"];
  if (t["holds"] == true)
    out.push_back("every game ends: no cycle among " +
                  std::to_string(t["positions"].get<uint64_t>()) + " positions (proved on " + side +
                  ")");
  else if (t["holds"] == false)
    out.push_back("can loop for ever: " + t["witness"].get<std::string>() + " (" + side + ")");
  else
    out.push_back("whether every game ends on " + side + " is not determined" +
                  (t.contains("note") ? ": " + t["note"].get<std::string>() : std::string()));
  const json& d = rs[decisive_key];
  if (d["holds"] == true)
    out.push_back("every end has a winner (proved on " + side + ")");
  else if (d["holds"] == false)
    out.push_back("can end without a winner (" + d.value("outcome", std::string("no winner")) +
                  "): shortest record " + d["witness"].get<std::string>() + " (" + side + ")");
  else
    out.push_back("whether every end has a winner on " + side + " is not determined" +
                  (d.contains("note") ? ": " + d["note"].get<std::string>() : std::string()));
  const json& v = rs["solution"];
  if (v.contains("value") && !v["value"].is_null() && v["complete"] == true) {
    out.push_back("under perfect play on " + side + ": " +
                  value_words(v["value"], game, pie_rule_on(rs["rules"])));
  } else {
    // The reason, when the solve gave one (a position or node limit is no
    // time budget).
    out.push_back(
        "perfect play on " + side + " not determined" +
        (v.contains("note") ? ": " + v["note"].get<std::string>() : " within the budget"));
  }
  if (rs.contains("queries"))
    for (const auto& q : rs["queries"])
      if (q.value("proof", false) && q.value("proved", false))
        out.push_back("proved by Z3 on side " + std::to_string(q.value("size", 0)) + ": " +
                      q["summary"].get<std::string>());
  return out;
}

/// The position after `record` as a page diagram.
Diagram diagram_for(const std::string& game, std::optional<int> size,
                    const std::vector<std::string>& rules, const std::string& record,
                    const std::string& title) {
  auto g = make_game(game, size, rules);
  g->play_record(record);
  // The SVG of `loom render` (puzzles/render.h), the last move marked.
  puzzles::RenderOptions ro;
  ro.last_move = last_token(record);
  return {title + (record.empty() ? " (the start)" : ": " + record), render_game_svg(*g, ro)};
}

/// Diagrams of a rule set's witnesses.
std::vector<Diagram> witness_diagrams(const std::string& game, std::optional<int> size,
                                      const std::vector<std::string>& rules, const json& r,
                                      const std::string& decisive_key) {
  std::vector<Diagram> out;
  const json& t = r["termination"];
  if (t["holds"] == false)
    out.push_back(diagram_for(game, size, rules, t["witness"].get<std::string>(),
                              "a position on the cycle, reached again"));
  const json& d = r[decisive_key];
  if (d["holds"] == false)
    out.push_back(diagram_for(game, size, rules, d["witness"].get<std::string>(),
                              "a shortest end without a winner"));
  return out;
}

/// What an audit is of, as its report.json gives it: the game, the two
/// boards and the base rule set in force (not the budget, seed or games:
/// an audit of the same subject run again replaces its report).
json subject(const json& report) {
  if (!report.is_object()) return nullptr;
  json s = json::object();
  for (const char* k : {"game", "size", "play_size"}) {
    if (!report.contains(k)) return nullptr;
    s[k] = report[k];
  }
  const auto sets = report.find("rule_sets");
  if (sets == report.end() || !sets->is_array() || sets->empty() || !(*sets)[0].is_object() ||
      !(*sets)[0].contains("rules"))
    return nullptr;
  s["rules"] = (*sets)[0]["rules"];
  return s;
}

std::string describe(const json& s) {
  std::string d = s["game"].is_string() ? s["game"].get<std::string>() : s["game"].dump();
  if (s["size"] != 0) d += ", proofs on side " + s["size"].dump();
  if (s["play_size"] != 0) d += ", playouts on side " + s["play_size"].dump();
  std::string rules;
  if (s["rules"].is_object())
    for (auto it = s["rules"].begin(); it != s["rules"].end(); ++it)
      rules += " " + it.key() + "=" + (it->is_string() ? it->get<std::string>() : it->dump());
  return d + (rules.empty() ? "" : ", rules" + rules);
}

/// An audit never writes over another's report (nor a report.json that is
/// not an audit's): its work would be lost. `mine`: this audit's subject.
void check_report_dir(const std::string& dir, const json& mine) {
  struct stat st {};
  const std::string json_file = dir + "/report.json", html_file = dir + "/report.html";
  const auto refuse = [&](const std::string& what) {
    throw InputError("--out " + clip_token(dir, 200) + " already holds " + what +
                     ", which this audit (" + describe(mine) +
                     ") does not write over: remove it or name another directory");
  };
  const bool has_json = ::stat(json_file.c_str(), &st) == 0;
  // An empty report.json: a name made beforehand, or a loom before
  // 2026-12-07 cut short while writing it. Nothing in it to lose.
  if (has_json && S_ISREG(st.st_mode) && st.st_size == 0) return;
  if (!has_json) {
    if (::stat(html_file.c_str(), &st) == 0)
      refuse("a report.html without its report.json (whose audit it is cannot be told)");
    return;
  }
  std::ifstream in(json_file, std::ios::binary);
  const json theirs =
      subject(json::parse(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(),
                          nullptr, /*allow_exceptions=*/false));
  if (theirs.is_null()) refuse("a report.json that is not an audit report");
  if (theirs != mine)
    refuse("the report of another audit (" + clip_token(describe(theirs), 300) + ")");
}

void ensure_dir(const std::string& dir) {
  if (dir.empty()) throw InputError("audit needs --out DIR");
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode))
      throw InputError("--out " + clip_token(dir, 200) + ": exists and is not a directory");
  } else if (::mkdir(dir.c_str(), 0777) != 0) {
    throw InputError("--out " + clip_token(dir, 200) +
                     ": cannot create the directory: " + std::strerror(errno));
  }
  for (const char* name : {"report.json", "report.html"})
    check_whole_writable(dir + "/" + name, "--out");
  // A link is refused: the lock would be taken beside its target, while
  // the report's rename replaces the link itself.
  const std::string json_file = dir + "/report.json";
  if (::lstat(json_file.c_str(), &st) == 0 && S_ISLNK(st.st_mode))
    throw InputError("--out " + clip_token(dir, 200) +
                     ": report.json is a symbolic link; remove it or name another directory");
}

/// Is this proof part (`key`: a property, or the solve) still undetermined?
bool undetermined(const std::string& key, const json& j) {
  return key == "solution" ? j["complete"] != true : j["holds"].is_null();
}

/// Is this proof part undetermined because the clock stopped it (its note
/// names the time budget), not a position or node limit (a rerun would
/// stop at the same limit)?
bool cut_by_clock(const std::string& key, const json& j) {
  return undetermined(key, j) && j.contains("note") && j["note"].is_string() &&
         j["note"].get<std::string>().find("time budget") != std::string::npos;
}

}  // namespace

json run_audit(const AuditArgs& a, std::ostream& out) {
  const GameInfo& info = find_game(a.game);
  if (!info.has_size && (a.size || a.play_size))
    throw InputError(a.game + " has a fixed board: --size and --play-size are not used");
  if (a.seconds <= 0) throw InputError("--seconds must be positive");
  if (a.games < 1) throw InputError("--games must be at least 1");
  std::optional<int> size, play_size;
  if (info.has_size) {
    size = a.size.value_or(info.default_size);
    play_size = a.play_size.value_or(info.default_size);
    // Validates both sizes and the base rules before any work.
    make_game(a.game, size, a.rules);
    make_game(a.game, play_size, a.rules);
  } else {
    make_game(a.game, std::nullopt, a.rules);
  }
  const auto all = rule_sets(info, a.rules, a.variants);
  ensure_dir(a.out_dir);
  // One audit at a time writes into DIR (DIR/report.json.lock), and never
  // over another audit's report.
  const solver::CheckpointLock lock(a.out_dir + "/report.json", "--out",
                                    solver::CheckpointLock::Busy::kRefuse, nullptr,
                                    "report directory");
  check_report_dir(a.out_dir, {{"game", a.game},
                               {"size", size ? *size : 0},
                               {"play_size", play_size ? *play_size : 0},
                               {"rules", rules_json(all[0].rules)}});
  const bool scored = a.game == "fiodar" || a.game == "migong";
  const std::string decisive_key = scored ? "decisive" : "drawless";
  Budget budget(a.seconds);
  Progress progress(a.tty);
  // Ctrl-C or SIGTERM stops the part that runs and skips the rest; the
  // report then holds the rule sets so far (the last one partial).
  solver::RunControl::Config catch_cfg;
  catch_cfg.catch_signals = true;
  solver::RunControl catcher(catch_cfg);

  json report;
  report["game"] = a.game;
  // Long Nardy has one board: size 0, as in its puzzles (CONVENTIONS.md).
  report["size"] = size ? *size : 0;
  report["play_size"] = play_size ? *play_size : 0;
  report["seconds_budget"] = a.seconds;
  report["games_per_policy"] = a.games;
  report["seed"] = a.seed;
  json sets = json::array();
  std::vector<std::vector<Diagram>> diagrams;
  for (size_t i = 0; i < all.size(); ++i) {
    const auto& rs_args = all[i].args;
    RuleSet rs(info.rule_specs());
    rs.set_all(rs_args);
    const std::string tag = "rule set " + std::to_string(i + 1) + "/" + std::to_string(all.size());
    // Every rule set gets an equal share of what is left.
    const double share = 1.0 / double(all.size() - i);
    const double set_starts = budget.elapsed();
    const double set_ends = set_starts + budget.left() * share;
    json r;
    r["rules"] = rules_json(rs.in_force());
    r["label"] = all[i].label;
    const std::string args = board_args(a.game, size, rs.in_force());
    auto small = make_game(a.game, size, rs_args);
    // The proofs cut by their share of the clock, to run again with what
    // the rule set has left: each with the seconds it had and how to run it.
    struct Cut {
      std::string key;
      double had;
      std::function<json(double)> run;
    };
    std::vector<Cut> cut;
    const auto timed = [&](const std::string& key, double seconds, auto&& part) {
      json& j = r[key] = part(seconds);
      if (Budget::interrupted() && undetermined(key, j))
        j["note"] = kInterruptedNote;  // not the clock's note
      else if (cut_by_clock(key, j))
        cut.push_back({key, seconds, part});
    };
    if (info.has_size) {
      progress.show("audit " + a.game + ": " + tag + ": termination");
      timed("termination", budget.share(share * 0.15), [&, args](double secs) {
        json j = property_part(*small, "termination", a, secs);
        j["command"] = "loom verify " + args + " --property termination" + method_arg(j);
        return j;
      });
      progress.show("audit " + a.game + ": " + tag + ": " + decisive_key);
      timed(decisive_key, budget.share(share * 0.15), [&, args](double secs) {
        json j = property_part(*small, "drawless", a, secs);
        j["command"] = "loom verify " + args + " --property drawless" + method_arg(j);
        return j;
      });
      progress.show("audit " + a.game + ": " + tag + ": solving");
      timed("solution", budget.share(share * 0.3), [&, args](double secs) {
        json j = value_part(*small, a.game, pie_rule_on(rs.in_force()), a, secs);
        j["command"] = "loom solve " + args;
        return j;
      });
    } else {
      const char* why =
          "Long Nardy is a dice game: exhaustive graph checks apply to deterministic games "
          "(exact values: loom solve nardy)";
      r["termination"] = {
          {"holds", nullptr}, {"witness", nullptr}, {"positions", 0}, {"note", why}};
      r[decisive_key] = r["termination"];
      progress.show("audit " + a.game + ": " + tag + ": solving");
      r["solution"] = nardy_value_part(*small, budget);
    }
    if (a.queries) {
      progress.show("audit " + a.game + ": " + tag + ": Z3 rule questions");
      r["queries"] = queries_part(a.game, size.value_or(0), rs, budget, share * 0.5);
    }
    if (i > 0 && info.has_size) {
      progress.show("audit " + a.game + ": " + tag + ": where it differs from the base rules");
      r["differs_from_base"] =
          distinguish_part(a.game, size, all[0].args, rs_args, budget, share * 0.1, 200000);
    }
    // Exact results come before sampled ones. The proofs the clock cut run
    // again from the start with what the rule set has left, less a tenth
    // of its share kept for the playouts; a proof cut again gets a last try
    // after them (the playouts often end early: --games). Each run shares
    // what is left among the cut proofs still to run and runs only when that
    // is more than it had (else it would stop where it did; its part goes to
    // the next).
    const auto rerun = [&](double keep) {
      std::vector<Cut> still;
      for (size_t k = 0; k < cut.size(); ++k) {
        const double more = std::min(set_ends - keep - budget.elapsed(), budget.left()) /
                            static_cast<double>(cut.size() - k);
        if (more < 1.1 * cut[k].had) {
          still.push_back(cut[k]);
          continue;
        }
        progress.show("audit " + a.game + ": " + tag + ": " + cut[k].key + " again, with " +
                      std::to_string(static_cast<int>(more)) + " s");
        const json& j = r[cut[k].key] = cut[k].run(more);
        if (cut_by_clock(cut[k].key, j)) still.push_back({cut[k].key, more, cut[k].run});
      }
      cut = std::move(still);
    };
    rerun(0.1 * (set_ends - set_starts));
    progress.show("audit " + a.game + ": " + tag + ": playouts");
    auto big = make_game(a.game, play_size, rs_args);
    // The last part of the rule set: all of its share that is left (not
    // more: the next rule sets' shares are theirs), or half of it when a
    // proof is still cut by the clock.
    const double play = std::min(set_ends - budget.elapsed(), budget.left());
    r["playouts"] = playouts_part(*big, a, budget, cut.empty() ? play : play / 2);
    rerun(0);
    r["verdict"] = info.has_size ? verdicts(r, decisive_key, *size, a.game) : nardy_verdicts(r);
    diagrams.push_back(info.has_size ? witness_diagrams(a.game, size, rs_args, r, decisive_key)
                                     : std::vector<Diagram>{});
    r["seconds_share"] = set_ends - set_starts;
    r["seconds"] = budget.elapsed() - set_starts;
    sets.push_back(r);
    if (Budget::interrupted()) break;
  }
  progress.clear();
  // Repairs: a hole of the base rules that a variant closes, on this board.
  for (size_t i = 1; i < sets.size() && info.has_size; ++i)
    for (const char* key : {"termination", decisive_key.c_str()}) {
      if (sets[0][key]["holds"] == false && sets[i][key]["holds"] == true)
        sets[i]["verdict"].push_back(std::string("repairs the base rules' hole (") + key + ": " +
                                     sets[0][key]["witness"].get<std::string>() + ") on side " +
                                     std::to_string(*size) + " (proved)");
    }
  report["rule_sets"] = sets;
  report["seconds"] = budget.elapsed();
  const bool interrupted = Budget::interrupted();
  if (interrupted) report["interrupted"] = true;

  // report.json first: it says whose the directory is, so that a run
  // killed between the two leaves no report.html without it.
  write_whole(a.out_dir + "/report.json", report.dump(2) + "\n");
  write_whole(a.out_dir + "/report.html", report_html(report, diagrams));

  out << "audit of " << a.game
      << (size ? " (proofs on side " + std::to_string(*size) + ", playouts on side " +
                     std::to_string(*play_size) + ")"
               : "")
      << ": " << sets.size() << " rule set" << (sets.size() == 1 ? "" : "s") << "\n";
  for (const auto& s : sets) {
    out << "- " << s["label"].get<std::string>() << " (";
    std::string rr;
    for (auto it = s["rules"].begin(); it != s["rules"].end(); ++it)
      rr += (rr.empty() ? "" : " ") + it.key() + "=" + it.value().get<std::string>();
    out << rr << ")\n";
    for (const auto& v : s["verdict"]) out << "    " << v.get<std::string>() << "\n";
    for (const auto& p : s["playouts"]) {
      char line[260];
      if (p.contains("first_player_win_rate") && !p["first_player_win_rate"].is_null()) {
        // The games without a winner too: "first player wins 10%" hid that
        // 26 of Enfargar's 30 random games stalled.
        const int games = p["games"].get<int>();
        const int none = p.value("no_winner", 0), cut = p.value("cut_off", 0);
        std::string rest;
        if (none > 0) rest += ", " + std::to_string(none) + " without a winner";
        if (cut > 0) rest += ", " + std::to_string(cut) + " cut off";
        std::snprintf(line, sizeof line,
                      "    %s play: first player wins %.1f%% of %d games (95%% CI %.1f-%.1f%%)%s",
                      p["policy"].get<std::string>().c_str(),
                      100 * p["first_player_win_rate"].get<double>(), games,
                      100 * p["ci95"][0].get<double>(), 100 * p["ci95"][1].get<double>(),
                      rest.c_str());
      } else {
        std::snprintf(line, sizeof line, "    %s play: no game finished within the budget",
                      p["policy"].get<std::string>().c_str());
      }
      out << line << "\n";
    }
  }
  out << "report: " << a.out_dir << "/report.html, " << a.out_dir << "/report.json ("
      << static_cast<int>(budget.elapsed() + 0.5) << " s)\n";
  if (a.json) out << report.dump() << "\n";
  if (interrupted)
    throw Interrupted("interrupted: the report holds " + std::to_string(sets.size()) + " of " +
                      std::to_string(all.size()) +
                      " rule sets, the parts not finished marked \"interrupted\" (an audit does "
                      "not resume: run it again)");
  return report;
}

}  // namespace loom::audit
