// The shared conformance properties (properties/conformance) run on Enfargar,
// plus Enfargar's own: a legal placement never leaves a friendly stone without
// a lifeline; the stone count grows by exactly one per placement (flips only
// change colours); a pass changes nothing but the turn and is made only
// without a legal placement; the game ends only as the rules say, with the
// result they give.
#include <catch2/catch.hpp>

#include "properties/conformance/conformance.h"
#include "tests/enfargar/enfargar_fixture.h"

using namespace loom;

namespace {

template <int W>
std::string enfargar_step(const enfargar::State<W>& before,
                          const typename enfargar::State<W>::Move& m,
                          const enfargar::State<W>& after) {
  using BB = Bitboard<W>;
  const Color me = before.to_move(), them = other(me);
  if (after.to_move() != them) return "side to move did not change";
  const BB occ_before = before.stones(me) | before.stones(them);
  const BB occ_after = after.stones(me) | after.stones(them);
  if (m.is_pass()) {
    if (before.legal_sites().any()) return "passed although a placement was legal";
    if (after.stones(me) != before.stones(me) || after.stones(them) != before.stones(them))
      return "a pass changed the board";
    if (after.passes() != before.passes() + 1) return "pass count not incremented";
  } else {
    if (occ_after.count() != occ_before.count() + 1) return "stone count did not grow by one";
    if (occ_after != (occ_before | BB::single(m.site))) return "occupied points changed otherwise";
    if (!after.stones(me).test(m.site)) return "placed stone missing";
    if (after.stones(them).andnot(before.stones(them)).any()) return "enemy stones appeared";
    BB flipped = before.stones(them).andnot(after.stones(them));
    if (flipped != before.analyse(m.site).flips) return "flips differ from the literal rules";
    if (after.lifelines(me) != after.stones(me)) return "a friendly stone has no lifeline";
    if (after.passes() != 0) return "pass count not reset by a placement";
  }
  // Every stone of both colours has a lifeline after every turn (invariant A).
  if (!after.all_alive()) return "a stone without a lifeline after the turn";
  // The game ends only as the rules say.
  const bool wiped = !m.is_pass() && before.stones(them).any() && after.stones(them).none();
  const bool stalled = m.is_pass() && before.passes() == 1;
  if (after.is_terminal() != (wiped || stalled)) return "end of game not as the rules say";
  Outcome o = after.outcome();
  if (wiped && o != Outcome::win(me)) return "annihilation did not win for the mover";
  if (stalled) {
    if (!after.context().opt.more_stones) {
      if (o.kind != Outcome::Kind::kUnresolved) return "stall not unresolved";
    } else {
      int mine = after.stones(me).count(), theirs = after.stones(them).count();
      // The opponent passed first and I pass second, so the move before the
      // opponent's pass was my placement: a tie goes against me.
      Outcome expect = mine > theirs   ? Outcome::win(me)
                       : theirs > mine ? Outcome::win(them)
                                       : Outcome::win(them);
      if (o != expect) return "more-stones result wrong";
    }
  }
  return "";
}

template <int W>
void run_conformance(int side, enfargar::Options opt, conformance::Options copt = {}) {
  auto board = std::make_shared<testing::EnfargarBoard<W>>(side, opt);
  // Proven length bound: every placement adds one stone (flips only change
  // colours), so there are at most N placements on N points; two passes in a
  // row end the game, so at most one pass follows each placement, and the
  // first move is a placement (every point of the empty board is legal).
  // Hence at most N placements + (N - 1) single passes + 2 final passes.
  copt.length_bound = 2 * board->geo().num_sites() + 1;
  std::function<enfargar::State<W>()> start = [board] { return board->start(); };
  conformance::run_all<enfargar::State<W>>(start, copt, &enfargar_step<W>);
}

}  // namespace

TEST_CASE("enfargar conformance, side 2, all variants", "[enfargar][conformance]") {
  for (bool touch : {false, true})
    for (bool more : {false, true})
      run_conformance<1>(2, enfargar::Options{.touch = touch, .more_stones = more});
}

TEST_CASE("enfargar conformance, side 3", "[enfargar][conformance]") {
  run_conformance<1>(3, {});
  run_conformance<1>(3, enfargar::Options{.touch = true, .more_stones = true});
}

TEST_CASE("enfargar conformance, side 4", "[enfargar][conformance]") {
  run_conformance<1>(4, enfargar::Options{.touch = false, .more_stones = true});
}

TEST_CASE("enfargar conformance, side 6 (three-word bitboards)", "[enfargar][conformance]") {
  conformance::Options o;
  o.max_prefix = 80;
  run_conformance<3>(6, {}, o);
}

TEST_CASE("enfargar conformance, side 9 and 13", "[enfargar][conformance][.slow]") {
  conformance::Options o;
  o.max_prefix = 200;
  run_conformance<5>(9, {}, o);
  run_conformance<10>(13, enfargar::Options{.touch = true, .more_stones = false}, o);
}
