// Migong groups and scores (RULES.md section 5 "Groups", "Score").
//
// A group is a maximal set of same-coloured wedges joined through shared
// edges: inside a piece wedge i touches i-1 and i+1 (wedge 5 touches wedge 0),
// across pieces wedge i touches the neighbour's wedge i+3. Board edges join
// nothing. A group counts for its colour, whoever placed the pieces. Its
// extent is the number of distinct pieces with a wedge in it; under
// `measure=wedges` a group is measured by its number of wedges instead.
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "model/common/game.h"

namespace loom::migong {

/// One group of wedges. Colour kBlack = Blue, kWhite = Yellow.
struct Group {
  Color colour = Color::kBlack;
  int extent = 0;  ///< distinct pieces with a wedge in the group
  int wedges = 0;  ///< wedges in the group
  int site = -1;   ///< a representative wedge: its site (the lowest) ...
  int wedge = -1;  ///< ... and its direction there (the lowest on that site)
};

/// The groups of a position and what they score.
struct ScoreSheet {
  bool by_wedges = false;     ///< measure=wedges in force
  std::vector<Group> groups;  ///< ordered by representative wedge
  /// Per colour: measure -> number of groups with that measure.
  std::array<std::map<int, int>, 2> counts;
  std::array<int, 2> score{};  ///< per colour (RULES.md section 5)
  int measure(const Group& g) const { return by_wedges ? g.wedges : g.extent; }
};

/// Fills counts and scores of a sheet from its groups.
void tally(ScoreSheet& sheet);

/// Score of a player whose groups have measures `mine` against an opponent
/// with `theirs`: the largest k for which the player has strictly more groups
/// of measure k than the opponent; 0 if there is none.
int score_of(const std::vector<int>& mine, const std::vector<int>& theirs);

/// The winning colour: the higher score; at 0-0 the colour of the last placer
/// loses. Two equal nonzero scores cannot occur (each would need strictly
/// more groups of that measure than the other); it throws std::logic_error.
Color decide(int blue_score, int yellow_score, Color last_placer_colour);

}  // namespace loom::migong
