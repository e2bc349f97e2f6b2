// A stone position on a hex board as Z3 variables, seen from the player to
// move: `own` are the mover's stones, `opp` the opponent's. Encodings of one
// move keep this frame for the position after the move too (own = the stones
// of the player who moved), so a position and its successor compare directly.
#pragma once

#include <string>
#include <vector>

#include "properties/spec/encoder.h"
#include "properties/spec/hex_spec.h"

namespace loom::spec {

struct HexPosition {
  Exprs own, opp;
};

/// Fresh variables for a position; requires no site to hold both colours.
HexPosition fresh_position(Encoder& e, const HexBoard& b, const std::string& name);

/// A concrete position: per site 0 empty, 1 own, 2 opp (site order of HexBoard).
using Cells = std::vector<int>;

/// The position equals the concrete cells.
z3::expr equals(const Encoder& e, const HexPosition& p, const Cells& cells);
/// Reads a position out of a model.
Cells read_cells(const z3::model& m, const HexPosition& p);

/// `on` sites (a one-hot choice or constants) as Exprs: site `fixed` if >= 0,
/// else fresh variables constrained to exactly one.
Exprs choose_site(Encoder& e, const HexBoard& b, int fixed, const std::string& name);
/// The chosen site in a model (-1 if none).
int read_site(const z3::model& m, const Exprs& at);

/// Neighbour support lists (every neighbour supports, unconditionally).
std::vector<std::vector<Encoder::Support>> adjacency(const Encoder& e, const HexBoard& b);

/// The connected set of `allowed` sites reachable from `seed` (seed sites
/// outside `allowed` are ignored): a least fixed point.
Exprs reach(Encoder& e, const HexBoard& b, const std::string& name, const Exprs& seed,
            const Exprs& allowed);

/// For each site, some neighbour is in `set`.
Exprs touching(const Encoder& e, const HexBoard& b, const Exprs& set);

}  // namespace loom::spec
