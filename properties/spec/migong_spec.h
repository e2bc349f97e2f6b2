// Migong, one placement (RULES.md section 5 and 7), as Z3 constraints, and
// the default edge colouring computed from the rim walk of section 7.
//
// A position: per cell (hex sites minus the centre) whether it is occupied,
// whether Blue placed the piece there, and its six wedges (true = B). Which
// patterns a player has used is read off the board (the pieces that player
// placed), so the position needs no separate piece lists.
#pragma once

#include <array>
#include <vector>

#include "properties/spec/encoder.h"
#include "properties/spec/hex_spec.h"
#include "properties/spec/variants.h"

namespace loom::spec {

/// The Migong board: the hex sites of side n without the centre.
class MigongBoard {
 public:
  explicit MigongBoard(int n);
  const HexBoard& hex() const { return hex_; }
  int cells() const { return static_cast<int>(site_.size()); }
  int site(int cell) const { return site_[cell]; }
  /// Cell of a hex site, or -1 for the centre.
  int cell(int site) const { return cell_[site]; }
  /// Neighbouring cell of `cell` in direction d, or -1 (off the board or centre).
  int neighbour(int cell, int d) const;
  std::string name(int cell) const { return hex_.name(site_[cell]); }

 private:
  HexBoard hex_;
  std::vector<int> site_, cell_;
};

/// Edge colour per (cell, direction): -1 where the neighbour is a cell,
/// else 1 for B and 0 for Y.
using MigongEdges = std::vector<std::array<int, 6>>;
/// The default colouring (RULES.md 5 and 7: centre sides B for even j; the rim
/// walk from the W edge of a1 alternating B, Y, ...).
MigongEdges migong_default_edges(const MigongBoard& b);

struct MigongPosition {
  Exprs occupied;  ///< per cell
  Exprs blue;      ///< per cell: Blue placed the piece (false when empty)
  Exprs wedge;     ///< cell*6 + direction: true = B (false when empty)
};

/// Fresh position variables; empty cells carry no wedges and no owner.
MigongPosition fresh_migong_position(Encoder& e, const MigongBoard& b, const std::string& name);

struct MigongMove {
  MigongPosition before, after;
  z3::expr blue_moves;  ///< the mover is Blue
  Exprs at;             ///< one-hot cell
  Exprs pattern;        ///< six wedges, true = B
  z3::expr legal;
};

/// Encodes one placement. `blue_moves` may be a constant; `cell` >= 0 fixes
/// the cell, `pattern` >= 0 (bit i = wedge i is B) fixes the piece.
MigongMove encode_migong_move(Encoder& e, const MigongBoard& b, const MigongEdges& edges,
                              const z3::expr& blue_moves, const MigongPosition* before = nullptr,
                              int cell = -1, int pattern = -1);

/// The piece fits `cell` on an otherwise empty board: every wedge facing an
/// edge has that edge's colour.
z3::expr migong_fits_edges(const Encoder& e, const MigongEdges& edges, int cell,
                           const Exprs& pattern);

}  // namespace loom::spec
