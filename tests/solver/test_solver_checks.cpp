// The exhaustive property checks (termination, drawless) and neutral ends.
#include <catch2/catch.hpp>

#include "solver/driver.h"
#include "solver/graph_checks.h"
#include "tests/enfargar/enfargar_fixture.h"
#include "tests/gadur/gadur_fixture.h"
#include "tests/solver/toy_superko.h"

using namespace loom;
using Board = testing::GadurBoard<1>;
using GState = gadur::State<1>;
using St = solver::PropertyResult::Status;

namespace {

template <class S>
S replay(S s, const std::vector<std::string>& tokens) {
  typename S::Undo u;
  std::vector<typename S::Move> ms;
  for (const auto& t : tokens) {
    auto m = s.parse_move(t);
    REQUIRE(m);
    s.legal_moves(ms);
    REQUIRE(std::binary_search(ms.begin(), ms.end(), *m));
    s.apply(*m, u);
  }
  return s;
}

/// A failed termination check's witness: after its record and cycle the
/// position is the one after its record alone.
template <class S>
void cycle_returns(const S& root, const solver::PropertyResult& r) {
  REQUIRE(!r.cycle.empty());
  const S at = replay(root, r.record);
  std::vector<std::string> all = r.record;
  all.insert(all.end(), r.cycle.begin(), r.cycle.end());
  CHECK(replay(root, all) == at);
}

/// s after `plies` random legal moves (fewer if the game ends), drawn with
/// splitmix64 from seed.
GState random_walk(GState s, int plies, uint64_t& seed) {
  std::vector<GState::Move> ms;
  GState::Undo u;
  for (int i = 0; i < plies; ++i) {
    s.legal_moves(ms);
    if (ms.empty()) break;
    s.apply(ms[splitmix64(seed) % ms.size()], u);
  }
  return s;
}

}  // namespace

TEST_CASE("termination: Gadur as written has a cycle, with a replayable record",
          "[solver][termination]") {
  for (int side : {2, 3, 4}) {
    for (bool sym : {true, false}) {
      Board b(side, {});
      solver::RunControl ctl;
      auto r = solver::check_termination(b.start(), sym, 0, ctl);
      REQUIRE(r.status == St::kFails);
      cycle_returns(b.start(), r);
    }
  }
}

TEST_CASE("termination: a cycle closing on a symmetric image is lifted to a real cycle",
          "[solver][termination][dense]") {
  // From many random side-3 positions, every cycle found (with symmetry on)
  // by the hash check and by the dense one (a third of them: each takes a
  // 317 MiB bitmap) must replay to the identical position.
  Board b(3, {});
  uint64_t seed = 99;
  int found = 0, dense_found = 0;
  for (int t = 0; t < 40; ++t) {
    const GState s = random_walk(b.start(), static_cast<int>(splitmix64(seed) % 8), seed);
    solver::RunControl ctl;
    for (const bool dense : {false, true}) {
      if (dense && (t % 3 != 0 || s.is_terminal())) continue;
      auto r = dense ? solver::dense_termination(s, true, ctl)
                     : solver::check_termination(s, true, 200000, ctl);
      if (r.status != St::kFails) continue;
      ++(dense ? dense_found : found);
      cycle_returns(s, r);
    }
  }
  CHECK(found > 10);
  CHECK(dense_found > 5);
}

TEST_CASE("termination holds for merge-only side 2 and 3, drawless holds for Gadur side 2",
          "[solver][termination]") {
  solver::RunControl ctl;
  Board m2(2, {false, true});
  auto r2 = solver::check_termination(m2.start(), true, 0, ctl);
  CHECK(r2.status == St::kHolds);
  CHECK(r2.positions == 58);  // = the retrograde enumeration of the same graph
  Board b2(2, {});
  auto d2 = solver::check_drawless(b2.start(), true, 0, ctl);
  CHECK(d2.status == St::kHolds);
  auto lim = solver::check_drawless(Board(3, {}).start(), true, 1000, ctl);
  CHECK(lim.status == St::kIncomplete);
  CHECK(lim.note.find("position limit") != std::string::npos);
}

TEST_CASE("drawless fails with a shortest record when an end has no winner", "[solver][drawless]") {
  // 0 -> 1 -> 2 -> 3(stall) and 0 -> 3 directly would be shortest; here the
  // only routes to the stall node 4 are 0-1-4 and 0-2-3-4.
  toy::Graph g;
  g.out = {{1, 2}, {4}, {3}, {4}, {}};
  g.stall = 4;
  toy::Superko start(&g, 0);
  solver::RunControl ctl;
  auto r = solver::check_drawless(start, false, 0, ctl);
  REQUIRE(r.status == St::kFails);
  CHECK(r.record == std::vector<std::string>{"n1", "n4"});
  CHECK(r.outcome == "unresolved");
  // Values: from 0 Black chooses 1 (White must go to the stall: neutral) or
  // 2 (White to 3, Black to 4: stall). Both neutral: the value is "stall".
  solver::SolveOptions o;
  for (auto m : {solver::SolveOptions::Method::kDfs, solver::SolveOptions::Method::kRetrograde}) {
    o.method = m;
    auto rep = solver::solve_position(start, o);
    CHECK(rep.value.kind == solver::Value::Kind::kStall);
  }
  // A stall beats a loss: a dead end 5 reachable from 2.
  toy::Graph h = g;
  h.out = {{1, 2}, {4}, {5}, {4}, {}, {}};
  toy::Superko s2(&h, 0);
  for (auto m : {solver::SolveOptions::Method::kDfs, solver::SolveOptions::Method::kRetrograde}) {
    o.method = m;
    // 0-2 (Black), White 2-5, Black at 5 is stuck: White wins that line;
    // 0-1, White must go to 4: stall. Black prefers the stall.
    CHECK(solver::solve_position(s2, o).value.kind == solver::Value::Kind::kStall);
  }
}

TEST_CASE("drawless gives the same table, counts and witness on any number of threads",
          "[solver][drawless]") {
  // Positions are expanded in batches on several threads and taken in
  // order: every figure equals the one-thread run's. Failing checks
  // (Enfargar stalls; on side 3, after 7 plies of the shortest record to
  // a stall, the rest is found past several batches) and holding ones,
  // complete and cut at a position limit.
  const auto same = [](const solver::PropertyResult& a, const solver::PropertyResult& b) {
    CHECK(a.status == b.status);
    CHECK(a.positions == b.positions);
    CHECK(a.moves == b.moves);
    CHECK(a.depth == b.depth);
    CHECK(a.record == b.record);
    CHECK(a.outcome == b.outcome);
    CHECK(a.note == b.note);
  };
  solver::RunControl ctl;
  testing::EnfargarBoard<1> e2(2, {}), e3board(3, {});
  // loom verify enfargar --size 3 --property drawless: "a1 e3 a2 e5 e4 c5
  // c1 d4 b4 c4 d3 c3 c2 b2 b3 b1 pass pass".
  const auto e3 = replay(e3board.start(), {"a1", "e3", "a2", "e5", "e4", "c5", "c1"});
  Board g3(3, {false, true});
  const auto e2one = solver::check_drawless(e2.start(), true, 0, ctl, 1);
  CHECK(e2one.status == St::kFails);
  const auto e3one = solver::check_drawless(e3, true, 0, ctl, 1);
  REQUIRE(e3one.status == St::kFails);
  CHECK(e3one.record.size() == 11);
  CHECK(e3one.positions > 100'000);  // past the first batches (257,169)
  const auto g3one = solver::check_drawless(g3.start(), true, 50'000, ctl, 1);
  CHECK(g3one.status == St::kIncomplete);
  const auto m2one = solver::check_drawless(Board(2, {false, true}).start(), true, 0, ctl, 1);
  CHECK(m2one.status == St::kHolds);
  for (int threads : {2, 3}) {
    INFO(threads << " threads");
    same(solver::check_drawless(e2.start(), true, 0, ctl, threads), e2one);
    same(solver::check_drawless(e3, true, 0, ctl, threads), e3one);
    same(solver::check_drawless(g3.start(), true, 50'000, ctl, threads), g3one);
    same(solver::check_drawless(Board(2, {false, true}).start(), true, 0, ctl, threads), m2one);
  }
}

namespace {

/// The dense checks against the hash checks from `root`, on 1-3 threads:
/// the same verdicts; witnesses of the same length that replay (a record
/// into an end without a winner, with that outcome; a cycle back to the
/// same position); and, where a check holds, every position the dense
/// solver's enumeration stores (an independent listing of the same set).
template <class S>
void dense_agrees(const S& root) {
  solver::RunControl ctl;
  solver::DenseRetrograde<S> solve(root, {});
  solve.run(ctl);
  for (const char* prop : {"termination", "drawless"}) {
    INFO(prop);
    const bool term = std::string(prop) == "termination";
    const auto hash = term ? solver::check_termination(root, true, 0, ctl)
                           : solver::check_drawless(root, true, 0, ctl);
    const auto dense = term ? solver::dense_termination(root, true, ctl)
                            : solver::dense_drawless(root, true, ctl, 1);
    CHECK(hash.method == "hash");
    CHECK(dense.method == "dense");
    REQUIRE(dense.status == hash.status);
    if (dense.status == St::kHolds) CHECK(dense.positions == solve.positions());
    if (dense.status == St::kFails && term) cycle_returns(root, dense);
    if (dense.status == St::kFails && !term) {
      CHECK(dense.record.size() == hash.record.size());
      const S end = replay(root, dense.record);
      REQUIRE(end.is_terminal());
      CHECK(outcome_name(end.outcome().kind) == dense.outcome);
      CHECK(dense.outcome == hash.outcome);
    }
    if (term) continue;
    for (int threads : {2, 3}) {
      INFO(threads << " threads");
      const auto t = solver::dense_drawless(root, true, ctl, threads);
      CHECK(t.status == dense.status);
      CHECK(t.positions == dense.positions);
      CHECK(t.moves == dense.moves);
      CHECK(t.record == dense.record);
      CHECK(t.depth == dense.depth);
    }
  }
}

}  // namespace

TEST_CASE("the dense property checks agree with the hash checks",
          "[solver][dense][termination][drawless]") {
  // Gadur: as written (cycles; drawless holds), merge-only (terminates)
  // and exception=subset; Enfargar (terminates; stalls) on side 2 and from
  // 7 plies into the shortest side-3 stall record.
  for (gadur::Options o :
       {gadur::Options{}, gadur::Options{false, true}, gadur::Options{true, false}})
    dense_agrees(Board(2, o).start());
  testing::EnfargarBoard<1> e2(2, {}), e3(3, {});
  dense_agrees(e2.start());
  dense_agrees(replay(e3.start(), {"a1", "e3", "a2", "e5", "e4", "c5", "c1"}));
  // Merge-only side 3 from 12 random plies in: holds, against the solver's set.
  const Board m3(3, {false, true});
  uint64_t seed = 5;
  const GState s = random_walk(m3.start(), 12, seed);
  REQUIRE(!s.is_terminal());
  dense_agrees(s);
}

TEST_CASE("the auto method goes on by the dense index past the position limit",
          "[solver][dense][drawless]") {
  const Board b(2, {});
  const GState root = b.start();
  solver::PropertyOptions o;
  o.max_positions = 20;
  o.method = solver::PropertyOptions::Method::kHash;
  auto hash = solver::check_property(root, "drawless", o);
  CHECK(hash.status == St::kIncomplete);
  CHECK(hash.at_limit);
  o.method = solver::PropertyOptions::Method::kAuto;
  auto any = solver::check_property(root, "drawless", o);
  CHECK(any.status == St::kHolds);
  CHECK(any.method == "dense");
  CHECK(any.note.find("position limit (20)") != std::string::npos);
  o.method = solver::PropertyOptions::Method::kDense;
  auto dense = solver::check_property(root, "drawless", o);
  CHECK(dense.positions == any.positions);
  CHECK(dense.note.empty());
  // Within the limit auto is the hash check.
  o.max_positions = 0;
  o.method = solver::PropertyOptions::Method::kAuto;
  CHECK(solver::check_property(root, "termination", o).method == "hash");
}
