// Fiodar, one turn (RULES.md section 2 and 7), as Z3 constraints.
//
// Threads are never materialised: "stone i lies on a cut thread along line
// l" is read off the two rays from i along l (same-coloured stones, then, for
// cut=gap, empty points, then an enemy stone). A weave is cut when all its
// stones are on cut threads, so the stones of UNcut weaves are those
// connected (6-adjacency, same colour) to a stone on no cut thread: a least
// fixed point. Superko is not part of the one-move relation; it is supplied as
// an explicit list of forbidden boards (the mover's earlier end-of-turn
// boards).
#pragma once

#include <vector>

#include "properties/spec/hex_position.h"
#include "properties/spec/variants.h"

namespace loom::spec {

/// Per site: `mine[i]` and i lies on at least one cut thread of `mine`.
Exprs fiodar_on_cut_thread(const Encoder& e, const HexBoard& b, const Exprs& mine,
                           const Exprs& theirs, bool gap);
/// Per site: `mine[i]` and the weave of i is cut.
Exprs fiodar_cut_weave_stones(Encoder& e, const HexBoard& b, const std::string& name,
                              const Exprs& mine, const Exprs& theirs, bool gap);

struct FiodarMove {
  HexPosition before, after;
  Exprs at;       ///< one-hot placement site (all false for a pass)
  z3::expr pass;  ///< the turn is a pass
  z3::expr legal;
  Exprs removed;  ///< enemy stones removed by the placement
  z3::expr removed_count;
  z3::expr friendly_cut_before_removal;  ///< right after placing, a friendly weave is cut
  z3::expr friendly_cut_after;           ///< after the removals, a friendly weave is cut
};

/// Encodes one turn: a pass or a placement. `before` null: fresh variables;
/// `site` >= 0 fixes the placement, `site` == kPass fixes a pass, -1 leaves
/// the move free. `forbidden`: boards (mover's frame) the result must differ
/// from (superko); a pass is exempt.
inline constexpr int kPassMove = -2;
FiodarMove encode_fiodar_move(Encoder& e, const HexBoard& b, const FiodarRules& rules,
                              const HexPosition* before = nullptr, int site = -1,
                              const std::vector<Cells>& forbidden = {});

}  // namespace loom::spec
