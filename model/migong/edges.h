// Migong board-edge colours as data (RULES.md section 5 "Edge colours" and
// section 7 "Centre border", "Rim walk").
//
// A segment is one edge of the board that a wedge touches: the outer rim (a
// cell's side whose neighbour is off the board) or one of the six sides of the
// centre border. It is named by the cell and the direction of the wedge that
// touches it (`a1 W`, `h7 W` for side 7). The default colouring is the
// project's assumption (the seed's board image is not available); users load
// another one with `loom ... --edges FILE` in the text format below.
//
// Text format (one item per line; `#` starts a comment; blank lines ignored):
//   size N              required, first item: the board side the file is for
//   SITE DIR COLOUR     one segment: `a1 W B` (DIR in E NE NW W SW SE, COLOUR B or Y)
//   rim LETTERS         shorthand: 6(2n-1) letters B/Y for the rim segments in
//                       rim-walk order (RULES.md section 7), starting at a1 W
//   centre LETTERS      shorthand: 6 letters for the centre sides facing
//                       E, NE, NW, W, SW, SE (seen from the centre)
// Every segment must be given exactly once, by a segment line or a shorthand.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/common/hex.h"

namespace loom::migong {

/// Direction names in index order (RULES.md section 1): E NE NW W SW SE.
inline constexpr std::array<const char*, 6> kDirNames = {"E", "NE", "NW", "W", "SW", "SE"};

/// One edge segment: wedge `dir` of cell `site` (padded index) touches it.
struct Segment {
  int site = -1;
  int dir = -1;
  bool operator==(const Segment&) const = default;
};

/// The 6(2n-1) rim segments in rim-walk order (RULES.md section 7): side s
/// starts at corner c_s (c_0 = a1), lists its n-1 cells in direction s, each
/// cell contributing its off-board sides in counter-clockwise order.
std::vector<Segment> rim_walk(const HexGeometry& g);
/// The six centre-border segments, side j (facing direction j from the
/// centre) first: the cell centre+j, wedge (j+3) mod 6.
std::vector<Segment> centre_sides(const HexGeometry& g);

/// A colouring of every segment of a side-n board: Blue or Yellow.
class EdgeColouring {
 public:
  /// The default (RULES.md section 5): centre side j is B for even j; rim
  /// segment k of the walk is B for even k.
  static EdgeColouring standard(int n);
  /// Parses the text format above for a board of side n. Throws InputError
  /// ("line L: ...") on any problem: syntax, wrong size, a site off the board
  /// or the centre, a side that is no edge, a segment given twice or missing.
  static EdgeColouring parse(std::string_view text, int n);
  /// The colouring in the text format (one segment line each; parse(to_text())
  /// gives it back).
  std::string to_text() const;

  int side() const { return n_; }
  const HexGeometry& geo() const { return *geo_; }
  /// Directions of `site` that face an edge (bit d), and which of them are Blue.
  uint8_t edge_mask(int site) const { return mask_[site]; }
  uint8_t blue_mask(int site) const { return blue_[site]; }
  bool is_edge(int site, int dir) const { return (mask_[site] >> dir) & 1; }
  bool is_blue(int site, int dir) const { return (blue_[site] >> dir) & 1; }
  void set(int site, int dir, bool blue);

  /// The colouring carried along by symmetry k: segment (s, d) goes to
  /// (map_site(k, s), map_dir(k, d)) with its colour.
  EdgeColouring mapped(int k) const;
  /// Every colour exchanged (B <-> Y).
  EdgeColouring inverted() const;
  /// A 64-bit digest of the colouring (equal colourings, equal digests).
  uint64_t digest() const;

  bool operator==(const EdgeColouring& o) const {
    return n_ == o.n_ && mask_ == o.mask_ && blue_ == o.blue_;
  }

 private:
  explicit EdgeColouring(int n);
  int n_;
  const HexGeometry* geo_;
  std::vector<uint8_t> mask_, blue_;  ///< per padded site
};

}  // namespace loom::migong
