// Cross-check: the Z3 specification of Long Nardy (properties/spec/nardy_spec.h)
// against the model's turn generator (model/nardy/movegen.h): for random
// positions reached by play and every one of the 21 rolls, the set of
// positions a turn can end in.
//
// Per roll the spec decides how many dice must be played and in which orders
// (nardy_allowed_orders), then enumerates the end positions of the allowed
// sequences until the solver answers UNSAT (no other end position exists);
// that set must equal the model's.
#include <catch2/catch.hpp>

#include <rapidcheck.h>

#include <algorithm>
#include <sstream>

#include "model/nardy/movegen.h"
#include "model/nardy/nardy.h"
#include "properties/spec/nardy_spec.h"
#include "tests/common/cli_run.h"
#include "tests/spec/spec_check.h"

using namespace loom;
using loom::testing::CrossCheckStats;

namespace {

spec::NardyBoard board_of(const nardy::Position& p) {
  spec::NardyBoard b(24);
  for (int pt = 1; pt <= 24; ++pt) b[pt - 1] = p.at(pt);
  return b;
}

/// "" if the spec allows exactly the model's results for this roll.
///
/// The spec decides how many dice must be played and in which orders
/// (nardy_allowed_orders). Soundness: each of the model's results, with the
/// turn the model gives for it, is a legal sequence of an allowed dice order
/// that ends there (the checkers' starting points fixed, so Z3 only checks).
/// Completeness: for each allowed order, "a legal sequence ends outside the
/// model's set" must be UNSAT.
std::string check_roll(const spec::NardyRules& rules, const nardy::Position& p, nardy::Roll roll,
                       const std::vector<nardy::Child>& children, CrossCheckStats& stats) {
  const bool white = p.to_move() == Color::kWhite;
  const spec::NardyBoard board = board_of(p);
  const std::pair<int, int> dice{roll.hi, roll.lo};
  std::vector<spec::NardyBoard> model;
  for (const auto& c : children) {
    if (c.position.to_move() == p.to_move()) return "a child keeps the side to move";
    model.push_back(board_of(c.position));
  }
  std::sort(model.begin(), model.end());
  model.erase(std::unique(model.begin(), model.end()), model.end());
  stats.candidates += static_cast<long>(children.size());
  spec::NardyOrders allowed = spec::nardy_allowed_orders(rules, white, board, dice);
  stats.solver_checks += allowed.solver_checks;
  ++(allowed.dice_played == 0 ? stats.illegal : stats.legal);
  if (allowed.dice_played == 0)
    return model == std::vector<spec::NardyBoard>{board} ? ""
                                                         : "the spec finds no step, the model does";
  z3::context c;
  z3::solver sv(c);
  // Soundness, one child at a time.
  for (const auto& child : children) {
    std::vector<int> froms;
    for (int k = 0; k < child.turn.size; ++k) froms.push_back(child.turn.steps[k].from);
    const spec::NardyBoard want = board_of(child.position);
    bool found = false;
    for (const auto& order : allowed.orders) {
      if (order.size() != froms.size()) continue;
      spec::Encoder e(c);
      spec::NardySequence s = spec::encode_nardy_sequence(e, rules, white, dice, order,
                                                          spec::nardy_constant(e, board), froms);
      sv.push();
      sv.add(e.definitions());
      sv.add(s.legal && spec::nardy_equals(e, s.final, want));
      ++stats.solver_checks;
      found = sv.check() == z3::sat;
      sv.pop();
      if (found) break;
    }
    if (!found)
      return "the model's turn " + child.turn.text() + " is no legal turn of the spec's " +
             std::to_string(allowed.dice_played) + " dice ending at " + child.position.to_string();
  }
  // Completeness, one query per allowed order.
  for (const auto& order : allowed.orders) {
    spec::Encoder e(c);
    spec::NardySequence s =
        spec::encode_nardy_sequence(e, rules, white, dice, order, spec::nardy_constant(e, board));
    spec::Exprs outside{s.legal};
    for (const auto& r : model) outside.push_back(!spec::nardy_equals(e, s.final, r));
    // Fixed start: every Int is a sum of ite terms over the step choices;
    // turning those into cardinality constraints first is ~5x faster than
    // the default solver on rolls with hundreds of results.
    z3::solver cs =
        (z3::tactic(c, "simplify") & z3::tactic(c, "propagate-values") &
         z3::tactic(c, "solve-eqs") & z3::tactic(c, "elim-term-ite") & z3::tactic(c, "simplify") &
         z3::tactic(c, "lia2card") & z3::tactic(c, "card2bv") & z3::tactic(c, "smt"))
            .mk_solver();
    cs.add(e.definitions());
    cs.add(e.all(outside));
    ++stats.solver_checks;
    z3::check_result r = cs.check();
    std::string err;
    if (r == z3::sat) {
      spec::NardyBoard b = spec::read_nardy(cs.get_model(), s.final);
      err = "the spec allows a turn ending outside the model's set, at";
      for (int v : b) err += " " + std::to_string(v);
    }
    if (r != z3::unsat) return err.empty() ? "the completeness query is unknown" : err;
  }
  return "";
}

/// A random position reached by play (random rolls and random turns).
nardy::Position random_play(nardy::TurnGenerator& gen, int max_plies) {
  nardy::Position p = nardy::Position::start();
  int plies = *rc::gen::inRange(0, max_plies + 1);
  std::vector<nardy::Position> out;
  for (int i = 0; i < plies; ++i) {
    nardy::Roll roll = nardy::all_rolls()[*rc::gen::inRange(0, 21)];
    gen.positions(p, roll, out);
    if (out.empty()) break;
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.to_string() < b.to_string(); });
    p = out[*rc::gen::inRange<size_t>(0, out.size())];
  }
  return p;
}

/// Random positions reached by play; `rolls` of the 21 rolls (chosen at
/// random; 21: all) checked at each.
void random_check(const nardy::Options& opt, int cases, int rolls) {
  spec::NardyRules rules{opt.block_end_of_turn, opt.last_roll};
  nardy::TurnGenerator gen(opt);
  CrossCheckStats stats("nardy " + opt.to_string() + " (random, " + std::to_string(rolls) +
                        " rolls a position; positions = rolls checked, candidates = results)");
  testing::spec_prop("nardy " + opt.to_string(), cases, [&] {
    nardy::Position p = random_play(gen, 160);
    std::vector<nardy::Child> children;
    for (int k = 0; k < rolls; ++k) {
      nardy::Roll roll =
          rolls >= 21 ? nardy::all_rolls()[k] : nardy::all_rolls()[*rc::gen::inRange(0, 21)];
      gen.turns(p, roll, children);
      if (children.empty()) return;  // the game is over
      ++stats.positions;
      std::string err = check_roll(rules, p, roll, children, stats);
      if (!err.empty()) RC_FAIL(p.to_string() + " roll " + roll.name() + ": " + err);
    }
  });
}

}  // namespace

TEST_CASE("nardy spec: random positions under every rule variant", "[spec][nardy]") {
  const int scale = testing::kSanitized ? 2 : 1;
  random_check(nardy::Options{false, false}, 8 / scale, 2);
  random_check(nardy::Options{true, false}, 5 / scale, 2);
  random_check(nardy::Options{false, true}, 3 / scale, 2);
}

TEST_CASE("nardy spec: the seed's examples (RULES.md section 7)", "[spec][nardy]") {
  // White opens 5-5: one checker 24/19/14/9/4. Black's 4-4 is then 12/8 12/8.
  spec::NardyRules rules;
  spec::NardyBoard start(24, 0);
  start[23] = 15;
  start[11] = -15;
  auto r = spec::nardy_turn_results(rules, true, start, {5, 5});
  spec::NardyBoard after = start;
  after[23] = 14;
  after[3] = 1;
  CHECK(std::find(r.results.begin(), r.results.end(), after) != r.results.end());
  auto b = spec::nardy_turn_results(rules, false, after, {4, 4});
  spec::NardyBoard black = after;
  black[11] = -13;
  black[7] = -2;
  REQUIRE(b.results.size() == 1);
  CHECK(b.results[0] == black);
  CHECK(b.dice_played == 2);
}

TEST_CASE("nardy spec: the cross-check catches a wrong result set", "[spec][nardy]") {
  // The model's children with one left out, or with a foreign position
  // added, must be rejected; the true set accepted.
  nardy::Position p =
      nardy::Position::parse("W:0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,1,0,0,1,0,0,0,0,13");
  nardy::TurnGenerator gen;
  std::vector<nardy::Child> children;
  gen.turns(p, *nardy::Roll::parse("31"), children);
  REQUIRE(children.size() >= 2);
  CrossCheckStats stats("nardy mismatch probe");
  spec::NardyRules rules;
  CHECK(check_roll(rules, p, *nardy::Roll::parse("31"), children, stats) == "");
  auto fewer = children;
  fewer.pop_back();
  CHECK(check_roll(rules, p, *nardy::Roll::parse("31"), fewer, stats) != "");
  auto more = children;
  nardy::Child odd = children[0];  // a foreign position with a real turn
  odd.position.set(1, odd.position.at(1) + 1);
  odd.position.set(24, odd.position.at(24) - 1);
  more.push_back(odd);
  CHECK(check_roll(rules, p, *nardy::Roll::parse("31"), more, stats) != "");
}

TEST_CASE("nardy spec: slow sweep", "[spec][nardy][.slow]") {
  // About 0.5 s a roll: some 15 minutes.
  random_check(nardy::Options{false, false}, 40, 21);
  random_check(nardy::Options{true, false}, 25, 21);
  random_check(nardy::Options{false, true}, 15, 21);
}

TEST_CASE("nardy spec queries: block-one-ahead", "[spec][nardy][query]") {
  testing::check_query("nardy", "block-one-ahead", 0, true);
}

TEST_CASE("nardy spec queries read checkers=K; their witnesses replay under it",
          "[spec][nardy][query]") {
  // They used to answer for 15 checkers whatever K was: a 15-checker
  // witness that `loom moves --rule checkers=K` refuses, and a 6-block
  // "occurs" with 1 or 2 checkers.
  using loom::testing::last_json;
  using loom::testing::run;
  auto verify = [](const std::string& k, const std::string& query) {
    auto r = run({"verify", "nardy", "--rule", "checkers=" + k, "--query", query, "--json"});
    REQUIRE(r.code == 0);
    return last_json(r.out);
  };
  // Each side's checkers in a witness position: at most K.
  auto fits = [](const std::string& pos, int k) {
    int w = 0, b = 0;
    std::stringstream ss(pos.substr(2));
    for (std::string x; std::getline(ss, x, ',');)
      (std::stoi(x) > 0 ? w : b) += std::abs(std::stoi(x));
    return w <= k && b <= k;
  };
  CHECK(verify("2", "block-one-ahead")["result"] == "unsat");  // a 6-block needs 6 checkers
  const auto block = verify("6", "block-one-ahead");
  REQUIRE(block["result"] == "sat");
  const std::string bp = block["witness"]["position"].get<std::string>();
  CHECK(fits(bp, 6));
  auto after = run({"moves", "nardy", "--rule", "checkers=6", "--position", bp, "--dice",
                    block["witness"]["die"].get<std::string>() + "1"});
  CHECK(after.code == 0);
  const auto larger = verify("1", "larger-die-decides");
  REQUIRE(larger["result"] == "sat");
  const std::string lp = larger["witness"]["position"].get<std::string>();
  CHECK(fits(lp, 1));
  auto turns = run({"moves", "nardy", "--rule", "checkers=1", "--position", lp, "--dice",
                    larger["witness"]["dice"].get<std::string>()});
  REQUIRE(turns.code == 0);
  // The one turn the rules allow: the larger die alone.
  CHECK(turns.out.find(" " + larger["witness"]["larger_alone"].get<std::string>() + "\n") !=
        std::string::npos);
  CHECK(loom::testing::lines(turns.out).size() == 1);
}

TEST_CASE("nardy spec queries: a time limit stops the refinement loop", "[spec][nardy][query]") {
  // The counterexample-guided search takes about half a second in Release;
  // a millisecond is gone before its first candidate.
  const spec::QueryInfo* q = spec::find_spec_query("nardy", "larger-die-decides");
  REQUIRE(q != nullptr);
  CHECK_THROWS_AS(spec::run_spec_query(*q, 0, {}, 0.001), spec::QueryTimeout);
}

TEST_CASE("nardy spec queries: larger-die-decides (slow)", "[spec][nardy][query][.slow]") {
  testing::check_query("nardy", "larger-die-decides", 0, true);
}
