// Hexagonal board geometry shared by the four hex games (RULES.md section 1).
//
// Layout. A site (q, r), 0 <= q, r <= 2n-2, |q - r| <= n-1, is stored at the
// padded index q + r * (2n-1). "Site" everywhere in the model means this padded
// index; only valid sites are ever used. The padding makes the six direction
// shifts uniform bit shifts: E +1, NE +(S+1), NW +S, W -1, SW -(S+1), SE -S with
// stride S = 2n-1. A shifted board masked with the valid sites is exact: the
// one-row wrap-around of a shift always lands outside the hexagon (a site with
// q = 2n-2 has r >= n-1, and (0, r+1) needs r <= n-2; the other cases alike).
//
// `compact(site)` numbers the valid sites 0..N-1 in increasing padded order
// (row 1 first, west to east) for dense tables and external encodings.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/common/bitboard.h"

namespace loom {

enum class Dir : int { kE = 0, kNE = 1, kNW = 2, kW = 3, kSW = 4, kSE = 5 };
inline constexpr int kNumDirs = 6;
inline constexpr int kNumSymmetries = 12;
/// Axial steps (dq, dr) of the six directions, counter-clockwise from East.
inline constexpr std::array<std::array<int, 2>, 6> kDirStep = {
    {{1, 0}, {1, 1}, {0, 1}, {-1, 0}, {-1, -1}, {0, -1}}};
constexpr int opposite(int d) {
  return (d + 3) % 6;
}

/// Immutable geometry of a hex-hex board of side n (2..13). Obtain with get(n);
/// instances live for the whole program, so references to them never dangle.
class HexGeometry {
 public:
  static const HexGeometry& get(int n);  // throws std::invalid_argument if n out of range

  int side() const { return n_; }
  int stride() const { return stride_; }
  /// Number of padded slots ((2n-1)^2); site indices are < slots().
  int slots() const { return stride_ * stride_; }
  int num_sites() const { return static_cast<int>(sites_.size()); }
  /// Valid sites in increasing index order.
  const std::vector<int>& sites() const { return sites_; }
  bool valid(int q, int r) const;
  bool is_site(int site) const { return site >= 0 && site < slots() && compact_[site] >= 0; }
  int site(int q, int r) const { return q + r * stride_; }  // caller ensures valid(q, r)
  int q_of(int site) const { return site % stride_; }
  int r_of(int site) const { return site / stride_; }
  int centre() const { return site(n_ - 1, n_ - 1); }
  int compact(int site) const { return compact_[site]; }
  int site_of_compact(int index) const { return sites_[index]; }

  /// Neighbour of `site` in direction d, or -1 off the board.
  int neighbour(int site, int d) const { return nb_[site * 6 + d]; }
  int degree(int site) const;
  bool is_edge(int site) const { return degree(site) < 6; }
  const std::vector<int>& edge_sites() const { return edge_sites_; }
  /// Shift amount of direction d in the padded layout (signed).
  int delta(int d) const { return delta_[d]; }

  /// Lines: orientation l in {0: E-W, 1: NE-SW, 2: NW-SE}; index of the line
  /// of that orientation through the site, 0..2n-2 (rows, q-r+n-1, q).
  int line_index(int site, int orientation) const;
  /// Sites of one line, in the line's positive direction (E, NE or NW).
  const std::vector<int>& line(int orientation, int index) const {
    return lines_[orientation][index];
  }

  /// Name per RULES.md section 1: letter 'a'+q then r+1 ("d4").
  std::string name(int site) const;
  /// Parses a name (exact form only: lowercase letter, row without sign or
  /// leading zero). Returns nullopt if malformed or off the board.
  std::optional<int> parse(std::string_view token) const;

  /// Symmetry k in 0..11: k < 6 rotates by 60k degrees counter-clockwise
  /// about the centre; k >= 6 first mirrors in the E-W line through the
  /// centre, then rotates by 60(k-6) degrees.
  int map_site(int k, int site) const { return sym_[k][site]; }
  /// Image of direction d under symmetry k.
  static int map_dir(int k, int d) { return k < 6 ? (d + k) % 6 : ((6 - d) % 6 + k - 6) % 6; }
  /// Symmetry index of the composition "first a, then b".
  static int compose(int a, int b);
  static int inverse(int k);

 private:
  explicit HexGeometry(int n);

  int n_;
  int stride_;
  std::vector<int> sites_;
  std::vector<int> compact_;
  std::vector<int> nb_;
  std::vector<int> edge_sites_;
  std::array<int, 6> delta_{};
  std::array<std::vector<std::vector<int>>, 3> lines_;
  std::array<std::vector<int>, kNumSymmetries> sym_;
};

/// Typed masks for bitboard work on a geometry. Obtain with get(n); W must be
/// at least words_for_side(n) (use dispatch_width).
template <int W>
class HexMasks {
 public:
  using BB = Bitboard<W>;
  static const HexMasks& get(int n);

  const HexGeometry& geo() const { return *geo_; }
  const BB& valid() const { return valid_; }
  /// Sites whose neighbour in direction d is off the board.
  const BB& edge_in(int d) const { return edge_in_[d]; }
  /// The (up to six) neighbours of a site.
  const BB& neighbours(int site) const { return nbr_[site]; }

  /// Board shifted one step in direction d (every stone moves to its
  /// neighbour in d; stones leaving the board vanish).
  BB shift(const BB& b, int d) const {
    int k = geo_->delta(d);
    return (k > 0 ? b.shl(k) : b.shr(-k)) & valid_;
  }
  /// b together with all its neighbours.
  BB dilate(const BB& b) const {
    BB r = b;
    for (int d = 0; d < 6; ++d) r |= shift(b, d);
    return r;
  }
  /// Neighbours of b that are not in b.
  BB rim(const BB& b) const { return dilate(b).andnot(b); }
  /// The connected component of `within` containing `seed` (seed must be a
  /// subset of `within`).
  BB flood(BB seed, const BB& within) const {
    for (;;) {
      BB next = dilate(seed) & within;
      if (next == seed) return seed;
      seed = next;
    }
  }
  /// Applies symmetry k to a bitboard.
  BB map(int k, const BB& b) const {
    BB r;
    b.for_each([&](int s) { r.set(geo_->map_site(k, s)); });
    return r;
  }

 private:
  explicit HexMasks(const HexGeometry& g);
  const HexGeometry* geo_;
  BB valid_;
  std::array<BB, 6> edge_in_;
  std::vector<BB> nbr_;
};

template <int W>
HexMasks<W>::HexMasks(const HexGeometry& g) : geo_(&g), nbr_(g.slots()) {
  for (int s : g.sites()) {
    valid_.set(s);
    for (int d = 0; d < 6; ++d) {
      int t = g.neighbour(s, d);
      if (t < 0)
        edge_in_[d].set(s);
      else
        nbr_[s].set(t);
    }
  }
}

template <int W>
const HexMasks<W>& HexMasks<W>::get(int n) {
  static const std::array<HexMasks*, kMaxSide + 1> table = [] {
    std::array<HexMasks*, kMaxSide + 1> t{};
    for (int side = kMinSide; side <= kMaxSide; ++side)
      if (words_for_side(side) <= W) t[side] = new HexMasks(HexGeometry::get(side));
    return t;
  }();
  if (n < kMinSide || n > kMaxSide || table[n] == nullptr)
    throw std::invalid_argument("board side " + std::to_string(n) + " does not fit width " +
                                std::to_string(W));
  return *table[n];
}

}  // namespace loom
