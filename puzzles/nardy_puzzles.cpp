// Long Nardy `roll` puzzles (puzzles/nardy_puzzles.h, docs/puzzles.md).
#include "puzzles/nardy_puzzles.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "model/common/errors.h"
#include "model/common/rules.h"
#include "model/nardy/movegen.h"
#include "properties/spec/nardy_spec.h"
#include "puzzles/html.h"
#include "puzzles/progress.h"
#include "puzzles/render.h"
#include "puzzles/rng.h"
#include "puzzles/search.h"
#include "solver/control.h"
#include "solver/nardy/bearoff.h"

namespace loom::puzzles {

namespace {

using nardy::Position;
using nardy::Roll;

/// A chance or gap for a message: six decimals, or six significant digits
/// when it is too large for them to stay short (a listed 1e308 printed in
/// full was cut in the middle of its digits).
std::string decimal6(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, std::isfinite(x) && std::abs(x) < 1e6 ? "%.6f" : "%.6g", x);
  return buf;
}

// --- the checker's route: expectimax over positions ----------------------

/// Point of distance d (1..6) from off in c's home.
int home_point(Color c, int d) {
  return c == Color::kWhite ? d : 12 + d;
}

/// c's home as six 4-bit counts (distance 1 lowest); 0 = all borne off.
uint32_t pack_home(const Position& p, Color c) {
  uint32_t k = 0;
  for (int d = 1; d <= 6; ++d)
    k |= static_cast<uint32_t>(p.count(c, home_point(c, d))) << (4 * (d - 1));
  return k;
}

/// Every checker c has on the board is in its home.
bool all_home(const Position& p, Color c) {
  int n = 0;
  for (int d = 1; d <= 6; ++d) n += p.count(c, home_point(c, d));
  return n == p.on_board(c);
}

void place_home(Position& p, Color c, uint32_t k) {
  for (int d = 1; d <= 6; ++d) {
    int n = static_cast<int>(k >> (4 * (d - 1)) & 15);
    p.set(home_point(c, d), c == Color::kWhite ? n : -n);
  }
}

/// p_win(c, a, b): the winning chance of c to move with home a against the
/// opponent's home b, both maximising their winning chance; memoised in a
/// table of its own, in doubles, recursing top-down from the position.
///
/// Successor homes come from the model's turn generator on the real board
/// and are kept per (side, home): in the bear-off a side's turns depend on
/// its own home only (no checker leaves home, no landing point of a home
/// can hold an opposing checker, and no 6-block can stand in one's own
/// home with the opponent still behind it; docs/nardy-exact.md proves and
/// tests/nardy tests this).
class Expectimax {
 public:
  Expectimax(const nardy::Options& opt, uint64_t max_positions) : gen_(opt), max_(max_positions) {}

  double p_win(const Position& p) {
    const Color c = p.to_move();
    return value(c, pack_home(p, c), pack_home(p, other(c)));
  }
  uint64_t positions() const { return memo_.size(); }

 private:
  using Lists = std::array<std::vector<uint32_t>, 21>;

  double value(Color c, uint32_t a, uint32_t b) {
    if (b == 0) return 0.0;  // the opponent has borne off all
    if (a == 0) return 1.0;
    const uint64_t key = uint64_t{c == Color::kWhite} << 48 | uint64_t{a} << 24 | b;
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    if (memo_.size() >= max_) throw SearchBudget("the independent search went over its budget");
    const Lists& succ = successors(c, a, b);
    double sum = 0;
    for (size_t r = 0; r < succ.size(); ++r) {
      double best = 0;
      for (uint32_t a2 : succ[r]) {
        if (a2 == a) throw std::logic_error("puzzles: a bear-off turn without a step");
        best = std::max(best, a2 == 0 ? 1.0 : 1.0 - value(other(c), b, a2));
      }
      sum += nardy::all_rolls()[r].weight() * best;
    }
    return memo_[key] = sum / 36.0;
  }

  const Lists& successors(Color c, uint32_t a, uint32_t b) {
    const uint64_t key = uint64_t{c == Color::kWhite} << 24 | a;
    if (auto it = succ_.find(key); it != succ_.end()) return it->second;
    Position p;
    place_home(p, c, a);
    place_home(p, other(c), b);
    p.set_to_move(c);
    Lists lists;
    for (size_t r = 0; r < lists.size(); ++r) {
      gen_.positions(p, nardy::all_rolls()[r], kids_);
      for (const Position& k : kids_) lists[r].push_back(pack_home(k, c));
    }
    return succ_.emplace(key, std::move(lists)).first->second;
  }

  nardy::TurnGenerator gen_;
  uint64_t max_;
  std::unordered_map<uint64_t, double> memo_;
  std::unordered_map<uint64_t, Lists> succ_;
  std::vector<Position> kids_;
};

/// The value of a result for the side that rolled: 1 or 0 if it ends the
/// game, else one minus the opponent's chance.
double result_value(Expectimax& em, const Position& kid, Color roller, const nardy::Options& opt) {
  nardy::Result r = nardy::result(kid, opt);
  if (r.over()) return r.value(roller) > 0 ? 1.0 : 0.0;
  return 1.0 - em.p_win(kid);
}

nardy::Options options_of(const nlohmann::json& rules) {
  RuleSet rs(nardy::Options::specs());
  for (const auto& [k, v] : rules.items()) rs.set(k + "=" + v.get<std::string>());
  return nardy::Options::from(rs);
}

/// Rounded to 6 decimals (the fixed-point databases, N >= 9, hold 1/65535
/// steps; the double ones, N <= 8, more than these digits).
double round6(double x) {
  return std::round(x * 1e6) / 1e6;
}

Roll random_roll(detail::Rng& rng) {
  int a = 1 + static_cast<int>(rng.below(6)), b = 1 + static_cast<int>(rng.below(6));
  return Roll{static_cast<uint8_t>(std::max(a, b)), static_cast<uint8_t>(std::min(a, b))};
}

int borne_off_by(const Position& before, const Position& after, Color c) {
  return before.on_board(c) - after.on_board(c);
}

/// Whether two turn texts hold the same steps, in any order.
bool same_steps(const std::string& a, const std::string& b) {
  auto steps = [](const std::string& t) {
    std::vector<std::string> v;
    std::istringstream in(t);
    for (std::string w; in >> w;) v.push_back(w);
    std::sort(v.begin(), v.end());
    return v;
  };
  return steps(a) == steps(b);
}

}  // namespace

std::optional<double> nardy_exact_p_win(const Position& p, const nardy::Options& opt,
                                        uint64_t max_pairs, uint64_t* positions) {
  if (!all_home(p, Color::kWhite) || !all_home(p, Color::kBlack))
    throw InputError("position " + p.to_string() + " is not a bear-off position");
  Expectimax em(opt, max_pairs);
  std::optional<double> out;
  try {
    nardy::Result r = nardy::result(p, opt);
    out = r.over() ? (r.value(p.to_move()) > 0 ? 1.0 : 0.0) : em.p_win(p);
  } catch (const SearchBudget&) {
  }
  if (positions) *positions = em.positions();
  return out;
}

CheckResult check_nardy_puzzle(const nlohmann::json& p, const NardyCheckOptions& co) {
  validate_shape(p);
  CheckResult res;
  auto fail = [&](std::string why) {
    res.confirmed = false;
    res.reason = std::move(why);
    return res;
  };
  if (p["game"] != "nardy") return fail("not a Long Nardy puzzle");
  if (p["question"] != "roll")
    return fail("question '" + clip_token(p["question"].get<std::string>()) +
                "' is not Long Nardy's (roll)");
  const nardy::Options opt = options_of(p["rules"]);
  if (opt.last_roll) return fail("roll puzzles are valued under end=first-off");
  const Position pos = Position::parse(p["position"].get<std::string>());
  auto roll = Roll::parse(p["dice"].get<std::string>());
  if (!roll)
    throw InputError("dice '" + clip_token(p["dice"].get<std::string>()) +
                     "' are not two digits 1-6");
  if (std::string why = nardy::check_playable(pos, opt); !why.empty())
    return fail("the position cannot stand in a game: " + why);
  if (nardy::result(pos, opt).over()) return fail("the game is over at the position");
  if (!all_home(pos, Color::kWhite) || !all_home(pos, Color::kBlack))
    return fail("not a bear-off position (a checker is outside its home)");
  const Color me = pos.to_move();
  if (p["to_move"].get<std::string>() != color_name(me))
    return fail("to_move is " + p["to_move"].get<std::string>() + " but " + color_name(me) +
                " is to move");

  // 1. The listed turns are exactly the distinct results of the roll.
  nardy::TurnGenerator gen(opt);
  std::vector<nardy::Child> kids;
  gen.turns(pos, *roll, kids);
  std::map<std::string, Position> result_of;
  for (const auto& k : kids) result_of.emplace(k.turn.text(), k.position);
  std::map<std::string, nlohmann::json> listed;
  for (const auto& e : p["moves"]) {
    const std::string tok = e["move"].get<std::string>();
    if (!listed.emplace(tok, e).second)
      return fail("turn '" + clip_token(tok) + "' is listed twice");
    const auto it = result_of.find(tok);
    if (it == result_of.end()) {
      // The same steps in another order: say so, not "not a result".
      for (const auto& [text, pos2] : result_of)
        if (same_steps(text, tok))
          return fail("listed turn '" + clip_token(tok) +
                      "' is written in another step order than '" + text +
                      "': a turn is listed as the toolkit writes it (the smallest step order "
                      "reaching its result, docs/puzzles.md)");
      return fail("listed turn '" + clip_token(tok) + "' is not a result of the roll");
    }
    // A listed position after the turn is a claim like the others (it was
    // never read: any string passed).
    if (e.contains("position")) {
      const Position listed_pos = Position::parse(e["position"].get<std::string>());
      if (listed_pos != it->second)
        return fail("turn '" + tok + "': the listed position " +
                    clip_token(e["position"].get<std::string>(), 100) + " is not its result " +
                    it->second.to_string());
    }
  }
  for (const auto& [tok, pos2] : result_of)
    if (!listed.count(tok)) return fail("the turn '" + tok + "' is missing from the list");
  if (kids.size() < 2) return fail("fewer than two distinct results");

  // 2. The Z3 specification gives the same set of results (its encoding
  //    reads checkers=K as the model does: the first-turn head exception
  //    and the 6-block's "borne off" count K).
  if (co.spec) {
    spec::NardyBoard board(pos.points().begin(), pos.points().end());
    auto sr = spec::nardy_turn_results(
        spec::NardyRules{opt.block_end_of_turn, opt.last_roll, opt.checkers}, me == Color::kWhite,
        board, {roll->hi, roll->lo});
    res.spec_checks = sr.solver_checks;
    std::vector<spec::NardyBoard> mine;
    for (const auto& k : kids)
      mine.emplace_back(k.position.points().begin(), k.position.points().end());
    std::sort(mine.begin(), mine.end());
    if (mine != sr.results)
      return fail("the specification gives " + std::to_string(sr.results.size()) +
                  " results of the roll, the model " + std::to_string(mine.size()));
  }

  // 3. Every winning chance re-derived.
  Expectimax em(opt, co.max_pairs);
  std::map<std::string, double> exact;
  try {
    for (const auto& [tok, kid] : result_of) exact[tok] = result_value(em, kid, me, opt);
  } catch (const SearchBudget&) {
    res.positions = em.positions();
    return fail("the independent search went over its budget (" + std::to_string(co.max_pairs) +
                " positions)");
  }
  res.positions = em.positions();
  for (const auto& [tok, v] : exact) {
    const auto& e = listed.at(tok);
    if (!e["value"].is_number())
      return fail("turn '" + tok + "': value " + json_in_message(e["value"]) + " is not a number");
    double lv = e["value"].get<double>();
    if (std::abs(lv - v) > co.tolerance) {
      return fail("turn '" + tok + "': listed " + decimal6(lv) + ", proved " + decimal6(v));
    }
  }

  // 4. The answer is the one best turn, ahead by the puzzle's min_gap.
  std::vector<std::pair<double, std::string>> order;
  for (const auto& [tok, v] : exact) order.emplace_back(v, tok);
  std::sort(order.rbegin(), order.rend());
  const std::string answer = p["answer"].get<std::string>();
  const double gap = order[0].first - order[1].first;
  // Exact ties come out of the doubles as differences of about 1e-16: a
  // gap that small is a tie (make refuses the same, "several best turns").
  if (gap <= kNardyTieGap)
    return fail("turns '" + order[0].second + "' and '" + order[1].second + "' tie");
  if (order[0].second != answer && same_steps(order[0].second, answer))
    return fail("the answer '" + clip_token(answer) + "' is the best turn '" + order[0].second +
                "' written in another step order (a turn is written as in the list)");
  if (order[0].second != answer)
    return fail("the answer '" + clip_token(answer) + "' is not the best turn '" + order[0].second +
                "'");
  const double min_gap = p.contains("min_gap") ? p["min_gap"].get<double>() : kDefaultMinGap;
  // The listed gap is a claim like the values (its shape: validate_shape).
  if (p.contains("gap")) {
    if (std::abs(p["gap"].get<double>() - gap) > co.tolerance) {
      return fail("the listed gap is " + decimal6(p["gap"].get<double>()) + ", proved " +
                  decimal6(gap));
    }
  }
  if (gap < min_gap - co.tolerance) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", min_gap);  // min_gap is in (0, 1)
    return fail("the best turn is only " + decimal6(gap) + " ahead (min_gap " + buf + ")");
  }
  // The listed values may each be off by the tolerance, but never so that
  // another turn reads as good as the answer.
  const double listed_answer = listed.at(answer)["value"].get<double>();
  for (const auto& [tok, e] : listed)
    if (tok != answer && !(e["value"].get<double>() < listed_answer))
      return fail("turn '" + tok + "' is listed at least as high as the answer '" +
                  clip_token(answer) + "'");
  if (p["line"].size() != 1 || p["line"][0] != answer)
    return fail("the line is not the answer's turn");
  res.confirmed = true;
  return res;
}

void check_nardy_make(const NardyMakeOptions& mo) {
  if (mo.opt.last_roll)
    throw InputError(
        "Long Nardy puzzles are valued under end=first-off (the bear-off databases do not "
        "cover end=last-roll)");
  if (mo.max_checkers < 1 || mo.max_checkers > 15) throw InputError("--max-checkers must be 1..15");
  if (!(mo.min_gap > 0 && mo.min_gap < 1)) throw InputError("--min-gap must be in (0, 1)");
}

MakeReport make_nardy_puzzles(const NardyMakeOptions& mo) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  const nardy::Options& opt = mo.opt;
  check_nardy_make(mo);
  const int n = std::min(mo.max_checkers, opt.checkers);
  const std::string dir = mo.db_dir.empty() ? nardy::exact::default_cache_dir() : mo.db_dir;

  MakeReport rep;
  detail::Rng rng(mo.seed);
  nardy::TurnGenerator gen(opt);
  const auto& one = nardy::exact::OneSided::get();
  std::unordered_set<std::string> seen;
  struct Found {
    nlohmann::json j;
    Position pos;
    Roll roll;
    double difficulty;
  };
  std::vector<Found> found;
  auto reject = [&](const std::string& why) { ++rep.rejected[why]; };
  // Games are cheap (a few ms) and few reach a close bear-off: 200 a puzzle
  // (--race-wrong: 4,000; about one candidate in 200 qualifies).
  const int max_games =
      mo.max_games > 0 ? mo.max_games : (mo.race_wrong_only ? 4000 : 200) * std::max(1, mo.count);
  std::vector<Position> kids;
  int g = 0;
  // The checker's re-proof of every puzzle kept, new or resumed (no Z3).
  NardyCheckOptions check_options;
  check_options.spec = false;
  check_options.max_pairs = mo.check_pairs;
  // The progress file: resume from it, save to it at game boundaries.
  const bool keep = !mo.progress_file.empty();
  const std::string signature = keep ? nardy_make_signature(mo, max_games) : "";
  rep.job = signature;
  if (keep) {
    auto check = [&](const nlohmann::json& j) -> std::string {
      if (!j.contains("position") || !j["position"].is_string() || !j.contains("dice") ||
          !j["dice"].is_string() || !j.contains("difficulty") || !j["difficulty"].is_number())
        return "no position, dice or difficulty";
      auto roll = Roll::parse(j["dice"].get<std::string>());
      if (!roll) return "bad dice";
      Position pos;
      try {
        pos = Position::parse(j["position"].get<std::string>());
      } catch (const InputError& e) {
        return e.what();
      }
      // Proved again, as a new puzzle is: the file is a claim (an older
      // build's, or edited), and the collection is written from it.
      try {
        if (CheckResult cr = check_nardy_puzzle(j, check_options); !cr.confirmed)
          return "not confirmed: " + cr.reason;
      } catch (const InputError& e) {
        return e.what();
      }
      found.push_back({j, pos, *roll, j["difficulty"].get<double>()});
      return "";
    };
    if (auto pr = load_progress(mo.progress_file, kNardyProgressKind, signature, check)) {
      rng = detail::Rng(pr->rng);
      g = resume_counters(*pr, rep, mo.progress_file, found.size(), mo.count, mo.notes);
      seen.insert(pr->seen_keys.begin(), pr->seen_keys.end());
    }
  }
  // The database after the directory's checks (another job's progress
  // file or collection): a refusal came after a build of up to 40 CPU
  // minutes. Signals are caught only once it is there (the build resumes
  // from its chunks; a caught signal would wait for its end).
  const auto& db = nardy::exact::TwoSided::cached(n, dir, mo.notes, mo.tty);
  solver::RunControl ctl(
      make_control(mo.tty, mo.checkpoint_interval, mo.stop_after, mo.progress_file));
  auto save = [&] {
    Progress pr = progress_of(rng.state(), g, rep);
    pr.seen_keys.assign(seen.begin(), seen.end());
    for (const auto& f : found) pr.found.push_back(f.j);
    save_progress(mo.progress_file, kNardyProgressKind, signature, pr);
    ctl.checkpoint_written();
  };
  for (; g < max_games && static_cast<int>(found.size()) < mo.count;) {
    const bool greedy = g % 2 == 1;
    ++rep.games;
    Position p = Position::start(opt.checkers);
    std::vector<Found> here;
    for (int turn = 0; turn < 4000 && !nardy::result(p, opt).over(); ++turn) {
      auto homes = nardy::exact::bearoff_homes(p);
      // Every roll of a candidate position, in a seeded order: the puzzle
      // asks about one roll, not necessarily the one the game threw.
      std::array<Roll, 21> rolls = nardy::all_rolls();
      for (size_t i = rolls.size(); i > 1; --i) std::swap(rolls[i - 1], rolls[rng.below(i)]);
      const bool candidate = homes &&
                             nardy::exact::home_checkers(homes->first) <= mo.max_checkers &&
                             nardy::exact::home_checkers(homes->second) <= mo.max_checkers;
      for (size_t ri = 0;
           candidate && ri < rolls.size() && static_cast<int>(here.size()) < mo.per_game; ++ri) {
        const Roll roll = rolls[ri];
        ++rep.candidates;
        ctl.status("nardy: " + std::to_string(found.size()) + " of " + std::to_string(mo.count) +
                   " puzzles, " + std::to_string(rep.games) + " games, " +
                   std::to_string(rep.candidates) + " positions examined");
        const auto t1 = Clock::now();
        auto ranked = nardy::exact::rank_roll(p, roll, db, opt);
        // Duplicate: the same position and the same set of results (two
        // rolls can leave the same choice), up to the colour swap.
        const bool flip = p.mirrored().to_string() < p.to_string();
        std::vector<std::string> results;
        for (const auto& r : ranked)
          results.push_back(flip ? r.position.mirrored().to_string() : r.position.to_string());
        std::sort(results.begin(), results.end());
        std::string key = flip ? p.mirrored().to_string() : p.to_string();
        for (const auto& r : results) key += " " + r;
        std::string why;
        double gap = 0;
        if (!seen.insert(key).second)
          why = "duplicate";
        else if (ranked.size() < 2)
          why = "single result";
        else if ((gap = ranked[0].p_win - ranked[1].p_win) <= kNardyTieGap)
          why = "several best turns";
        else if (gap < mo.min_gap)
          why = "gap below --min-gap";
        if (!why.empty()) {
          reject(why);
        } else {
          const Color me = p.to_move();
          // The race move: fewest expected turns to bear off (the one-sided
          // table); and how many each result bears off.
          int roll_index = static_cast<int>(
              std::find(nardy::all_rolls().begin(), nardy::all_rolls().end(), roll) -
              nardy::all_rolls().begin());
          // A result whose expected turns tie the fewest is a race move too:
          // a racing player may pick any of them.
          const double fewest = one.expected_off_all(
              one.best_race_move(nardy::exact::home_index(homes->first), roll_index));
          const auto races = [&](const nardy::Position& q) {
            return one.expected_off_all(nardy::exact::home_index(*nardy::exact::home_of(q, me))) <=
                   fewest + 1e-9;
          };
          const int answer_off = borne_off_by(p, ranked[0].position, me);
          int attractive = 0;
          const bool race_wrong = !races(ranked[0].position);
          std::vector<std::pair<std::string, nlohmann::json>> moves;
          for (size_t i = 0; i < ranked.size(); ++i) {
            const auto& r = ranked[i];
            if (i > 0 && (races(r.position) || borne_off_by(p, r.position, me) > answer_off))
              ++attractive;
            moves.emplace_back(r.turn.text(), nlohmann::json{{"move", r.turn.text()},
                                                             {"value", round6(r.p_win)},
                                                             {"position", r.position.to_string()}});
          }
          std::sort(moves.begin(), moves.end(),
                    [](const auto& a, const auto& b) { return a.first < b.first; });
          nlohmann::json j;
          j["id"] = "";
          j["game"] = "nardy";
          j["size"] = 0;
          nlohmann::json rules = nlohmann::json::object();
          for (const auto& [k, v] : mo.rules) rules[k] = v;
          j["rules"] = rules;
          j["position"] = p.to_string();
          j["dice"] = roll.name();
          j["to_move"] = color_name(me);
          j["question"] = "roll";
          j["answer"] = ranked[0].turn.text();
          j["moves"] = nlohmann::json::array();
          for (auto& [tok, e] : moves) j["moves"].push_back(std::move(e));
          j["line"] = nlohmann::json::array({ranked[0].turn.text()});
          j["min_gap"] = mo.min_gap;
          j["gap"] = round6(gap);
          std::set<std::string> tags{"bear-off"};
          if (roll.is_double()) tags.insert("double");
          if (race_wrong) tags.insert("race move wrong");
          if (attractive > 0) tags.insert("tempting alternatives");
          if (borne_off_by(p, ranked[0].position, me) == 0) tags.insert("no checker off");
          j["tags"] = std::vector<std::string>(tags.begin(), tags.end());
          j["source"] = greedy ? "greedy" : "random";
          j["ply"] = turn;
          j["attractive"] = attractive;
          j["db_n"] = n;
          j["difficulty"] = 0.0;
          j["proof"] = {{"method", "bear-off database (two-sided, N=" + std::to_string(n) + ")"},
                        {"nodes", ranked.size()},
                        {"seconds", 0.0}};
          CheckResult cr;
          if (mo.race_wrong_only && !race_wrong) {
            // --race-wrong: the fewest-expected-turns move (what a player
            // races with) is the answer, so the puzzle asks nothing of him.
            reject("answer is the race move");
          } else if (cr = check_nardy_puzzle(j, check_options); !cr.confirmed) {
            reject(cr.reason.find("budget") != std::string::npos ? "check over budget"
                                                                 : "not confirmed: " + cr.reason);
          } else {
            // Difficulty (docs/puzzles.md): as for the board games, with the
            // checker's positions as the search effort.
            double d =
                1.0 + 0.5 * std::log2(1.0 + static_cast<double>(cr.positions)) + 2.0 * attractive;
            d = std::round(d * 10) / 10;
            j["difficulty"] = d;
            j["proof"]["seconds"] = std::chrono::duration<double>(Clock::now() - t1).count();
            j["check"] = {{"method", "expectimax"}, {"positions", cr.positions}};
            here.push_back({std::move(j), p, roll, d});
          }
        }
      }
      // Play on with the roll the game throws: a random result, or the greedy one (most checkers
      // home; in the bear-off the fewest expected turns to bear off).
      const Roll thrown = random_roll(rng);
      gen.positions(p, thrown, kids);
      std::sort(kids.begin(), kids.end());
      size_t pick = rng.below(kids.size());
      // Once home, both policies mostly race well (as people do): random
      // play in the bear-off shuffles checkers inside home and gives
      // positions no one reaches.
      const bool racing = nardy::exact::home_of(p, p.to_move()).has_value();
      if ((greedy || racing) && rng.below(10) < 8) {
        const Color me = p.to_move();
        auto score = [&](const Position& k) {
          if (auto h = nardy::exact::home_of(k, me))
            return -one.expected_off_all(nardy::exact::home_index(*h));
          int home = 0;
          for (int d = 1; d <= 6; ++d) home += k.count(me, home_point(me, d));
          return -1000.0 + home;
        };
        for (size_t i = 0; i < kids.size(); ++i)
          if (score(kids[i]) > score(kids[pick])) pick = i;
      }
      p = kids[pick];
    }
    int take =
        std::min<int>(static_cast<int>(here.size()), mo.count - static_cast<int>(found.size()));
    for (int i = 0; i < take; ++i) found.push_back(std::move(here[static_cast<size_t>(i)]));
    if (static_cast<int>(here.size()) > take)
      rep.rejected["proved, not kept (per-game or count limit)"] +=
          here.size() - static_cast<size_t>(take);
    ++g;
    ctl.work(1);
    if (keep && ctl.checkpoint_due()) save();
    if (ctl.stop_requested() && g < max_games && static_cast<int>(found.size()) < mo.count) {
      // Saved just above (a stop makes the checkpoint due).
      throw Interrupted("stopped after " + std::to_string(g) + " games" +
                        (keep ? "; rerun the same command to resume" : ""));
    }
  }
  // Once more at the end: a kill while the collection is written loses no game.
  if (keep) save();
  ctl.clear_status();
  order_and_name(found,
                 "nardy-c" + std::to_string(mo.max_checkers) + "-s" + std::to_string(mo.seed));
  for (size_t i = 0; i < found.size(); ++i) {
    RenderOptions ro;
    ro.caption = side_title("nardy", color_name(found[i].pos.to_move())) + " to play " +
                 found[i].roll.name() + ": find the turn with the best chance" +
                 rules_suffix(mo.variant);
    rep.svgs.push_back(render_nardy_svg(found[i].pos, opt, found[i].roll, ro));
    rep.puzzles.push_back(std::move(found[i].j));
  }
  rep.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return rep;
}

}  // namespace loom::puzzles
