// Enfargar, one placement (RULES.md section 3 and 7), as Z3 constraints.
//
// Lifelines are the least fixed point of "walking from a stone in some
// direction over empty points reaches the off-board (after >= 1 empty point;
// `edge=touch`: also after none) or, as the first stone met, a friendly stone
// that has a lifeline", stated with a level function (Encoder::least_fixed_point)
// so a ring of friendly stones with no route out has no lifeline.
#pragma once

#include "properties/spec/hex_position.h"
#include "properties/spec/variants.h"

namespace loom::spec {

/// Per site: `mine[i]` and the stone has a lifeline (with `theirs` the enemy).
Exprs enfargar_lifelines(Encoder& e, const HexBoard& b, const std::string& name, const Exprs& mine,
                         const Exprs& theirs, bool touch);

struct EnfargarMove {
  HexPosition before, after;
  Exprs at;                    ///< one-hot placement site
  z3::expr legal;              ///< (1) and (2) and the point is empty
  z3::expr new_has_lifeline;   ///< condition (1)
  z3::expr all_have_lifeline;  ///< condition (2)
  Exprs flipped;               ///< enemy stones that become the mover's
  z3::expr annihilates;        ///< the opponent had stones and has none after
};

/// Encodes one placement. `before` null: fresh variables; `site` >= 0 fixes
/// the placement. `clause2` false leaves condition (2) out of `legal` (used
/// to ask whether it is redundant; the rules always include it).
EnfargarMove encode_enfargar_move(Encoder& e, const HexBoard& b, const EnfargarRules& rules,
                                  const HexPosition* before = nullptr, int site = -1,
                                  bool clause2 = true);

}  // namespace loom::spec
