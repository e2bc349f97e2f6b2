#include "app/solve_nardy.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "model/common/errors.h"
#include "solver/nardy/bearoff.h"
#include "solver/nardy/fewcheckers.h"

namespace loom {

namespace solve_nardy_detail {

using nlohmann::json;
using namespace nardy;

json rules_json(const Options& o) {
  return json{{"block", o.block_end_of_turn ? "end-of-turn" : "every-step"},
              {"end", o.last_roll ? "last-roll" : "first-off"},
              {"checkers", std::to_string(o.checkers)}};
}

std::string fixed(double x, int digits = 6) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

using exact::clamp_chance;
using exact::clamp_points;

struct TurnValue {
  Position position;
  Turn turn;
  double p_win;
};

/// The recursion's reach (homes either side can become) at most: 4.2 M
/// pairs, 71 MB of memo, a few seconds at worst.
constexpr uint32_t kRecursionHomes = 2048;

void print_value(const Position& p, const Options& opt, double p_win, double points,
                 const json& expected, std::vector<TurnValue> turns, const NardySolveArgs& a,
                 const std::string& method, json extra, std::ostream& out) {
  p_win = clamp_chance(p_win);
  points = clamp_points(points);
  for (auto& t : turns) t.p_win = clamp_chance(t.p_win);
  // The turn minimising the expected turns to bear off (docs/findings.md),
  // when the side to move has every checker home.
  if (a.dice && !turns.empty())
    if (auto mine = exact::home_of(p, p.to_move())) {
      const int ri = static_cast<int>(std::find(all_rolls().begin(), all_rolls().end(), *a.dice) -
                                      all_rolls().begin());
      const uint32_t race = exact::OneSided::get().best_race_move(exact::home_index(*mine), ri);
      for (const auto& t : turns)
        if (exact::home_index(*exact::home_of(t.position, p.to_move())) == race) {
          extra["race_turn"] = t.turn.text();
          extra["race_p_win"] = t.p_win;
          break;
        }
    }
  out << "position " << p.to_string() << " (" << color_name(p.to_move()) << " to move)\n";
  out << "p_win " << fixed(p_win) << "  points " << fixed(points) << "  (" << method << ")\n";
  for (auto it = expected.begin(); it != expected.end(); ++it)
    out << "expected turns to bear off, " << it.key() << ": " << fixed(it.value().get<double>(), 4)
        << "\n";
  if (a.dice) {
    out << "roll " << a.dice->name() << ": " << turns.size() << " distinct results, best first\n";
    for (const auto& t : turns)
      out << "  " << fixed(t.p_win) << "  " << (t.turn.size ? t.turn.text() : "(no move)") << "  "
          << t.position.to_string() << "\n";
    if (extra.contains("race_turn"))
      out << "fewest expected turns: " << extra["race_turn"].get<std::string>() << " (p_win "
          << fixed(extra["race_p_win"].get<double>()) << ")\n";
  }
  if (extra.contains("error_bound") && extra["error_bound"]["p_win"].get<double>() > 1e-9) {
    char line[160];
    std::snprintf(line, sizeof line,
                  "fixed-point table (N=%d): |p_win - exact| <= %.1e, |points - exact| <= %.1e\n",
                  extra["db_n"].get<int>(), extra["error_bound"]["p_win"].get<double>(),
                  extra["error_bound"]["points"].get<double>());
    out << line;
  }
  if (!a.json) return;
  json j{{"game", "nardy"}, {"rules", rules_json(opt)}, {"position", p.to_string()},
         {"p_win", p_win},  {"points", points},         {"expected_turns", expected},
         {"method", method}};
  if (a.dice) {
    json ts = json::array();
    for (const auto& t : turns)
      ts.push_back(
          {{"turn", t.turn.text()}, {"position", t.position.to_string()}, {"p_win", t.p_win}});
    j["dice"] = a.dice->name();
    j["turns"] = ts;
  }
  for (auto it = extra.begin(); it != extra.end(); ++it) j[it.key()] = it.value();
  out << j.dump() << "\n";
}

/// expected_turns for each side whose checkers are all home (none left: 0).
json expected_turns(const Position& p) {
  json e = json::object();
  for (Color c : {Color::kWhite, Color::kBlack})
    if (auto h = exact::home_of(p, c))
      e[color_name(c)] = exact::OneSided::get().expected_off_all(exact::home_index(*h));
  return e;
}

/// The few-checker table: solved in memory for K <= 2 (under a second),
/// from or into the table directory for larger K (docs/nardy-exact.md).
exact::FewCheckers few_checkers(const Options& opt, const NardySolveArgs& a, std::ostream& err) {
  if (opt.checkers <= 2) return exact::FewCheckers::solve(opt, a.threads);
  const std::string dir = a.db_dir.empty() ? exact::default_cache_dir() : a.db_dir;
  return exact::FewCheckers::cached(opt, dir, &err, a.tty, a.threads, a.stop_after);
}

void solve_whole_game(const Options& opt, const NardySolveArgs& a, std::ostream& out,
                      std::ostream& err) {
  auto f = few_checkers(opt, a, err);
  const Position start = Position::start(opt.checkers);
  const double p = clamp_chance(*f.p_win(start)), e = clamp_points(*f.points(start));
  out << "Long Nardy, checkers=" << opt.checkers << ", solved from the start: " << f.states()
      << " states (" << f.configs() << " placements a side), " << f.generator_calls()
      << " generator calls, " << f.pass_couples() << " states with a forced pass, " << f.endless()
      << " endless, " << fixed(f.seconds(), 2) << " s\n";
  out << "White to move: p_win " << fixed(p, 9) << "  points " << fixed(e, 9) << "\n";
  json ops = json::array();
  for (auto o : f.openings()) {
    o.p_win = clamp_chance(o.p_win);
    o.points = clamp_points(o.points);
    out << "  roll " << o.roll.name() << ": " << o.turn.text() << "  p_win " << fixed(o.p_win, 9);
    if (!(o.points_turn == o.turn)) out << "  (for points: " << o.points_turn.text() << ")";
    out << "  points " << fixed(o.points, 9) << "\n";
    ops.push_back({{"roll", o.roll.name()},
                   {"turn", o.turn.text()},
                   {"p_win", o.p_win},
                   {"points_turn", o.points_turn.text()},
                   {"points", o.points},
                   {"distinct", o.distinct}});
  }
  if (a.json) {
    json j{{"game", "nardy"},
           {"rules", rules_json(opt)},
           {"position", start.to_string()},
           {"p_win", p},
           {"points", e},
           {"expected_turns", json::object()},
           {"method", "few-checkers"},
           {"openings", ops},
           {"states", f.states()},
           {"pass_states", f.pass_couples()},
           {"endless_states", f.endless()},
           {"generator_calls", f.generator_calls()},
           {"seconds", f.seconds()}};
    out << j.dump() << "\n";
  }
}

}  // namespace solve_nardy_detail

using namespace solve_nardy_detail;

void solve_nardy(const NardyGame& game, const NardySolveArgs& a, std::ostream& out,
                 std::ostream& err) {
  const Options& opt = game.options();
  const Position& p = game.position();
  if (!a.position_given && !a.dice) {
    solve_whole_game(opt, a, out, err);
    return;
  }
  if (opt.last_roll) throw InputError("loom solve nardy values positions under end=first-off only");
  Result res = result(p, opt);
  if (res.over()) {
    int v = res.value(p.to_move());
    print_value(p, opt, v > 0 ? 1.0 : 0.0, v, expected_turns(p), {}, a, "finished", json::object(),
                out);
    return;
  }
  std::vector<TurnValue> turns;
  // With one or two checkers a side the whole-game table (doubles, solved in
  // under a second) values every position, all-home ones included. The
  // bear-off tables hold doubles up to 8 checkers a side (before, every
  // table rounded to 1/65535: 0.8124971 for 0.8125) and fixed point above.
  const auto homes = opt.checkers <= 2 ? std::nullopt : exact::bearoff_homes(p);
  if (homes) {
    const int n =
        std::max({1, exact::home_checkers(homes->first), exact::home_checkers(homes->second)});
    const uint32_t me = exact::home_index(homes->first), them = exact::home_index(homes->second);
    // The value, the roll's results and the proven bounds on |value -
    // exact| (docs/nardy-exact.md) from a table or the recursion. Mars needs
    // a side with all K on the board; both read mars at checkers=N, so
    // their points hold when K = N, and 2 p - 1 when K > N.
    // `more` adds the source's own fields once everything is valued.
    const auto report = [&](auto& values, const std::string& method, double p_bound,
                            double points_bound, const auto& more) {
      const double pw = values.p_win(me, them);
      const double pts = opt.checkers == n ? values.points(me, them) : 2 * pw - 1;
      if (a.dice)
        for (auto& r : exact::rank_roll(p, *a.dice, values, opt))
          turns.push_back({r.position, r.turn, r.p_win});
      json extra = json::object();
      more(extra);
      extra["db_n"] = n;
      extra["error_bound"] = {{"p_win", p_bound},
                              {"points", opt.checkers == n ? points_bound : 2 * p_bound}};
      print_value(p, opt, pw, pts, expected_turns(p), turns, a, method, extra, out);
    };
    // Above 8 checkers the tables are fixed point (and up to 11.8 GB): when
    // the homes the two sides can still reach are few, the values come
    // exactly from a recursion over them instead, with no table.
    if (n > exact::TwoSided::kExactMax) {
      exact::BearoffRecursion rec(n, me, them, kRecursionHomes);
      if (rec.ok()) {
        report(rec, "bear-off recursion", exact::TwoSided::kExactBound,
               exact::TwoSided::kExactBound, [&](json& x) {
                 x["reachable_homes"] = rec.homes();
                 x["pairs"] = rec.pairs();
               });
        return;
      }
    }
    std::string dir = a.db_dir.empty() ? exact::default_cache_dir() : a.db_dir;
    const auto& db = exact::TwoSided::cached(n, dir, &err, a.tty, a.threads, a.stop_after);
    report(db, "bear-off database", db.p_bound(), db.points_bound(), [](json&) {});
    return;
  }
  if (opt.checkers <= exact::FewCheckers::kMaxK) {
    auto f = few_checkers(opt, a, err);
    if (a.dice) {
      TurnGenerator gen(opt);
      std::vector<Child> kids;
      gen.turns(p, *a.dice, kids);
      for (const Child& c : kids)
        turns.push_back({c.position, c.turn, f.after_turn(c.position, p.to_move()).first});
      std::sort(turns.begin(), turns.end(), [](const TurnValue& x, const TurnValue& y) {
        if (x.p_win != y.p_win) return x.p_win > y.p_win;
        return x.position.to_string() < y.position.to_string();
      });
    }
    print_value(p, opt, *f.p_win(p), *f.points(p), expected_turns(p), turns, a, "few-checkers",
                json::object(), out);
    return;
  }
  throw InputError("position " + p.to_string() +
                   " cannot be valued exactly: the toolkit values bear-off positions (every "
                   "checker of both sides home) and whole games with checkers=1.." +
                   std::to_string(exact::FewCheckers::kMaxK));
}

}  // namespace loom
