// Long Nardy (RULES.md section 6 and 7): one die step, and a turn as a chain
// of steps, as Z3 constraints. The whole-turn rules that quantify over all
// ways to play a roll (play as many dice as possible; with one die of a
// non-double playable, the larger) are stated over the set of step
// sequences: NardyTurnSpec asks which sequence lengths and dice orders admit
// a legal sequence, then keeps those the rules allow.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "properties/spec/encoder.h"
#include "properties/spec/variants.h"

namespace loom::spec {

/// Route index of point p (1..24) for a side: White 24-p, Black (12-p) mod 24.
int nardy_route(bool white, int p);
/// Point of route index t (0..23) for a side.
int nardy_point(bool white, int t);

/// Checkers per point as Int terms: index p-1 for point p.
struct NardyPosition {
  Exprs white, black;
  const Exprs& side(bool w) const { return w ? white : black; }
};
/// A concrete position: 24 signed counts (positive White, negative Black).
using NardyBoard = std::vector<int>;

/// Fresh variables with the basic shape: counts >= 0, no point shared, at most
/// `checkers` (15, or K under checkers=K) per side on the board, and a side
/// that has borne off has all its checkers home (checkers never leave home
/// once all are there).
NardyPosition fresh_nardy_position(Encoder& e, const std::string& name, int checkers);
z3::expr nardy_equals(const Encoder& e, const NardyPosition& p, const NardyBoard& b);
NardyBoard read_nardy(const z3::model& m, const NardyPosition& p);
/// Checkers of a side borne off (15, or K, minus those on the board).
z3::expr nardy_borne_off(const Encoder& e, const NardyPosition& p, bool white, int checkers);
/// A run of 6+ consecutive points held by `white`'s side, measured along the
/// opponent's route, with no opposing checker further along the opponent's
/// route than the run's end, while the opponent has borne off none.
z3::expr nardy_block_violation(const Encoder& e, const NardyPosition& p, bool white, int checkers);

struct NardyStep {
  NardyPosition after;
  Exprs from;  ///< one-hot over points 1..24 (index p-1)
  z3::expr legal;
  z3::expr from_head;  ///< the checker left the mover's head
  z3::expr bears_off;
};

/// One step of `die` pips for the side `white`. `head_left` counts head
/// checkers moved earlier this turn, `head_limit` is 1 or 2. `from` >= 1
/// fixes the starting point. The block check follows the step unless
/// rules.block_end_of_turn.
NardyStep encode_nardy_step(Encoder& e, const NardyRules& rules, bool white, int die,
                            const NardyPosition& before, const z3::expr& head_left,
                            const z3::expr& head_limit, int from = -1);

struct NardySequence {
  std::vector<NardyStep> steps;
  NardyPosition final;
  z3::expr legal;
};

/// A sequence of steps with the given dice in order, from `before`, by the
/// side `white` whose roll is `roll` (for the first-turn head exception). Under
/// block=end-of-turn the final position must pass the block check.
NardySequence encode_nardy_sequence(Encoder& e, const NardyRules& rules, bool white,
                                    std::pair<int, int> roll, const std::vector<int>& dice,
                                    const NardyPosition& before,
                                    const std::vector<int>& froms = {});

/// The orders in which dice may be played: every ordering of `count` dice
/// of the roll (doubles: one order).
std::vector<std::vector<int>> nardy_orders(std::pair<int, int> roll, int count);

/// The dice the rules let a turn play, for a concrete position and roll: the
/// greatest number of dice some legal sequence plays, and the dice orders of
/// that length that have a legal sequence (only the larger die when one die
/// of a non-double can be played and the larger can be).
struct NardyOrders {
  int dice_played = 0;
  std::vector<std::vector<int>> orders;
  int solver_checks = 0;
};
NardyOrders nardy_allowed_orders(const NardyRules& rules, bool white, const NardyBoard& board,
                                 std::pair<int, int> roll);
/// The position as constants.
NardyPosition nardy_constant(const Encoder& e, const NardyBoard& b);

/// The whole-turn rules over sequences, for a concrete position and roll.
struct NardyTurnResult {
  int dice_played = 0;                   ///< the maximum number of dice playable
  std::vector<std::vector<int>> orders;  ///< the dice orders the rules allow
  std::vector<NardyBoard> results;       ///< every distinct final board, sorted
  int solver_checks = 0;
};
NardyTurnResult nardy_turn_results(const NardyRules& rules, bool white, const NardyBoard& board,
                                   std::pair<int, int> roll);

}  // namespace loom::spec
