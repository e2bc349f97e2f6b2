// Long Nardy turn generation: every distinct position a roll can lead to
// (RULES.md section 6 and section 7), with one turn reaching each.
//
// A turn plays the dice one step at a time. The generator works in the
// mover's route frame (index 0 = head .. 23, 24 = off). Each step is checked
// for landing (no opposing checker, also on a middle stop), the head limit,
// bearing off (all home before the step; exact, or a larger die from the
// farthest point) and, under block=every-step, the 6-block rule. The turns
// kept are those playing the most dice (a turn that bears off the last
// checker counts as playing them all); when only one die of a non-double can
// be played, the larger if it can. Under block=end-of-turn only turns whose
// final position passes the block check count.
//
// Two expansions give the same positions (tested against each other and
// against the naive reference):
// - exact (turns(), and positions() where order matters for the block rule):
//   level by level (level k = k dice played), merging equal intermediate
//   positions with the dice still to play in an open-addressing set and
//   keeping the smallest turn text reaching each;
// - fast (positions()): one working board changed in place; doubles search
//   their steps in ascending source order only (each multiset of steps once,
//   see movegen.cpp for why that is complete), non-doubles merge their
//   finals by the net change of the two steps.
// No allocation per step: scratch space is reused across calls.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "model/nardy/nardy.h"

namespace loom::nardy {

/// A resulting position (the other side to move) and one turn reaching it.
struct Child {
  Position position;
  /// The lexicographically smallest turn text (byte order) among the legal
  /// turns that reach `position`; empty for a forfeited turn.
  Turn turn;
};

/// A side's checkers by route index in its own frame (0 = head .. 23).
using Routes = std::array<uint8_t, kPoints>;

/// Counters of what the last generate call met (tests and benchmarks).
struct GenStats {
  uint64_t steps_tried = 0;     ///< step attempts of the exact expansion (turns())
  uint64_t block_rejected = 0;  ///< steps refused only by the 6-block rule
  uint64_t head_rejected = 0;   ///< steps refused only by the head limit
};

class TurnGenerator {
 public:
  explicit TurnGenerator(Options opt = {});
  ~TurnGenerator();
  TurnGenerator(const TurnGenerator&) = delete;
  TurnGenerator& operator=(const TurnGenerator&) = delete;

  const Options& options() const { return opt_; }

  /// Clears `out` and fills it with the distinct positions reachable by a
  /// legal turn of `roll` from `p` (in no particular order). A roll with no
  /// legal step gives one position: `p` with the other side to move. A
  /// finished game (result(p).over()) gives none.
  void positions(const Position& p, Roll roll, std::vector<Position>& out);
  /// positions() in the mover's frame, for solvers that keep their own
  /// state: the mover `me` has `mine` (route counts, at most 15 in all), the
  /// opponent has `opp_on` checkers on the board, standing on the mover-frame
  /// route indices set in `opp_mask` (bit r: point_of(me, r)). Fills `out`
  /// with the mover's route counts after each distinct legal turn, the same
  /// set positions() gives for that board (a roll with no legal step gives
  /// `mine`; a finished game gives none).
  void routes(Color me, const Routes& mine, uint32_t opp_mask, int opp_on, Roll roll,
              std::vector<Routes>& out);
  /// routes() for all 21 rolls at once (the board is read once): roll
  /// all_rolls()[i] gives out[begin[i]] .. out[begin[i + 1] - 1].
  void routes(Color me, const Routes& mine, uint32_t opp_mask, int opp_on, std::vector<Routes>& out,
              std::array<uint32_t, 22>& begin);
  /// As positions(), with the canonical turn of each (see Child::turn).
  void turns(const Position& p, Roll roll, std::vector<Child>& out);

  /// Totals since construction.
  const GenStats& stats() const { return stats_; }

 private:
  struct Impl;
  Options opt_;
  std::unique_ptr<Impl> impl_;
  GenStats stats_;
};

/// perft per CONVENTIONS.md: perft(p, 0) = 1; deeper, every one of the 21
/// rolls is expanded over its distinct resulting positions (unweighted); a
/// finished game has none.
uint64_t perft(const Position& p, int depth, const Options& opt);
/// (roll, perft of the positions it leads to at depth-1, summed), for the 21
/// rolls in byte order of their names. Empty for depth <= 0.
std::vector<std::pair<Roll, uint64_t>> perft_divide(const Position& p, int depth,
                                                    const Options& opt);

}  // namespace loom::nardy
