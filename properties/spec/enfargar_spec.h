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

/// The one-step rule whose least fixed point is the lifeline set: per site
/// the base (the walk reaches the edge) and the supports (the first stone met
/// walking a direction over empty points, with the condition that the points
/// before it are empty).
struct LifelineStep {
  Exprs base;
  std::vector<std::vector<Encoder::Support>> supports;
};
LifelineStep enfargar_lifeline_step(const Encoder& e, const HexBoard& b, const Exprs& mine,
                                    const Exprs& theirs, bool touch);

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

/// Clause (3) alone: the chosen point (`at`, one-hot) is empty in `before`.
/// `EnfargarMove::legal` is this clause and the lifeline conditions, so a
/// point this clause refuses is no legal placement; it builds no fixed point
/// (the per-site puzzle check decides occupied points with it).
z3::expr enfargar_point_empty(const Encoder& e, const HexPosition& before, const Exprs& at);

/// Encodes one placement. `before` null: fresh variables; `site` >= 0 fixes
/// the placement. `clause2` false leaves condition (2) out of `legal` (used
/// to ask whether it is redundant; the rules always include it).
EnfargarMove encode_enfargar_move(Encoder& e, const HexBoard& b, const EnfargarRules& rules,
                                  const HexPosition* before = nullptr, int site = -1,
                                  bool clause2 = true);

/// The end-clause question in witness form, for proofs on larger boards:
/// "every stone has a lifeline before; the placement at `site` is on an empty
/// point and its stone has one; afterwards some friendly stone has none",
/// with least-fixed-point membership shown by level functions, non-membership
/// by a pre-fixed point that omits the stone (the least fixed point lies
/// inside every pre-fixed point), and, implied by the level functions being
/// well-founded, a least-level stone among those without a lifeline in each
/// class. Satisfiable exactly when the relation above has such a placement.
struct EnfargarClauseProbe {
  HexPosition before, after;
  z3::expr claim_fails;  ///< the constraints of a counterexample
};
/// `assume_lifelines` false drops the hypothesis (for tests: a counterexample
/// must then exist).
EnfargarClauseProbe encode_enfargar_clause_probe(Encoder& e, const HexBoard& b,
                                                 const EnfargarRules& rules, int site,
                                                 bool assume_lifelines = true);

}  // namespace loom::spec
