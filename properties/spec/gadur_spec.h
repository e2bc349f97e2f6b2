// Gadur, one placement (RULES.md section 4 and 7), as Z3 constraints.
//
// Inputs: the position before (mover's frame) and the placement site. The
// encoding defines G (the friendly group of the new stone, a least fixed
// point), the union X of the enemy groups touching G (another), the number
// of distinct groups in X (component labels: the least site index of each
// enemy group, justified by a level function), and from them legality and
// the position after. Superfluous to the rules and therefore absent: any
// notion of move history (Gadur has none).
#pragma once

#include "properties/spec/hex_position.h"
#include "properties/spec/variants.h"

namespace loom::spec {

struct GadurMove {
  HexPosition before, after;
  Exprs at;             ///< one-hot placement site
  z3::expr legal;       ///< the placement is legal
  Exprs group;          ///< G
  Exprs enemies;        ///< union of the groups of E
  z3::expr group_size;  ///< |G|
  z3::expr enemy_size;  ///< S
  z3::expr
      enemy_groups;   ///< |E| if labels are encoded (subset, or `labels` given), else min(|E|, 2)
  z3::expr merges;    ///< the new stone touches a friendly stone
  z3::expr captures;  ///< the groups of E are removed
};

/// Group labels of a set of stones: for every stone the least site index of
/// its group (a fixed point justified by a level function), -1 elsewhere, and
/// per site whether it is that least site (the group's root).
struct GroupLabels {
  Exprs label, root;
};
GroupLabels group_labels(Encoder& e, const HexBoard& b, const std::string& name,
                         const Exprs& stones);

/// Encodes one placement. `before` null: fresh position variables (with the
/// no-overlap constraint); `site` >= 0 fixes the placement site. `labels`:
/// the labels of before.opp if already encoded (several moves from one
/// position share them).
GadurMove encode_gadur_move(Encoder& e, const HexBoard& b, const GadurRules& rules,
                            const HexPosition* before = nullptr, int site = -1,
                            const GroupLabels* labels = nullptr);

}  // namespace loom::spec
