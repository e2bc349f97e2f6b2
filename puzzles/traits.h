// What a game contributes to puzzles: one specialisation of PuzzleTraits<S>
// per game, in puzzles/<game>_puzzles.cpp beside that game's explicit
// instantiations. The generator and checker (generator.h, checker.h) are
// written against this interface only, so a new game or question plugs in
// by a new specialisation (Long Nardy `roll` puzzles will bring their own
// candidate source: bear-off positions and rolls instead of played games).
//
// Required members (S::Move written Move):
//   static constexpr Question kQuestion;          win or best
//   static Color colour_to_move(const S&);        "to_move" (Migong: Blue = black)
//   static int greedy_weight(const S&, const Move&);
//       > 0 for a move the greedy policy prefers (it captures, flips, merges)
//   static bool attractive(const S&, const Move&);
//       the move looks good (captures, flips, merges): counted in the
//       difficulty when it does not win
//   static bool playout_allows(const S&, const Move&, size_t legal);
//       candidate games skip moves that end play at once (Fiodar's pass)
//   static void events(const S& before, const Move&, const S& after,
//                      std::set<std::string>& tags);   rule events along the line
//   static std::string spec_confirm(const S&, const std::vector<Move>& listed);
//       "" when the Z3 specification's legal moves at S are exactly `listed`
//       and each gives the model's position after; else the disagreement
#pragma once

#include <set>
#include <string>
#include <vector>

#include "puzzles/search.h"

namespace loom::puzzles {

template <class S>
struct PuzzleTraits;

inline const char* question_name(Question q) {
  return q == Question::kWin ? "win" : "best";
}

}  // namespace loom::puzzles
