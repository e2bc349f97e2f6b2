#include "model/common/hex.h"

#include <mutex>
#include <stdexcept>

namespace loom {

namespace {

// Symmetries act on centred axial offsets (a, b) = (q - c, r - c).
// Rotation by 60 degrees counter-clockwise maps E(1,0) to NE(1,1) and
// NW(0,1) to W(-1,0): R(a, b) = (a - b, a). The mirror in the E-W line keeps
// E and maps NE(1,1) to SE(0,-1): M(a, b) = (a - b, -b).
std::array<int, 2> rotate(std::array<int, 2> v) {
  return {v[0] - v[1], v[0]};
}
std::array<int, 2> mirror(std::array<int, 2> v) {
  return {v[0] - v[1], -v[1]};
}
std::array<int, 2> apply_sym(int k, std::array<int, 2> v) {
  if (k >= 6) {
    v = mirror(v);
    k -= 6;
  }
  for (int i = 0; i < k; ++i) v = rotate(v);
  return v;
}

}  // namespace

const HexGeometry& HexGeometry::get(int n) {
  if (n < kMinSide || n > kMaxSide)
    throw std::invalid_argument("board side must be " + std::to_string(kMinSide) + ".." +
                                std::to_string(kMaxSide) + ", got " + std::to_string(n));
  static std::array<const HexGeometry*, kMaxSide + 1> table{};
  static std::once_flag once;
  std::call_once(once, [] {
    for (int side = kMinSide; side <= kMaxSide; ++side) table[side] = new HexGeometry(side);
  });
  return *table[n];
}

HexGeometry::HexGeometry(int n) : n_(n), stride_(2 * n - 1) {
  compact_.assign(slots(), -1);
  for (int r = 0; r < stride_; ++r)
    for (int q = 0; q < stride_; ++q)
      if (valid(q, r)) {
        compact_[site(q, r)] = static_cast<int>(sites_.size());
        sites_.push_back(site(q, r));
      }
  nb_.assign(static_cast<size_t>(slots()) * 6, -1);
  for (int d = 0; d < 6; ++d) delta_[d] = kDirStep[d][0] + kDirStep[d][1] * stride_;
  for (int s : sites_) {
    for (int d = 0; d < 6; ++d) {
      int q = q_of(s) + kDirStep[d][0], r = r_of(s) + kDirStep[d][1];
      if (valid(q, r)) nb_[s * 6 + d] = site(q, r);
    }
    if (degree(s) < 6) edge_sites_.push_back(s);
  }
  for (int l = 0; l < 3; ++l) {
    lines_[l].resize(stride_);
    // Positive direction of orientation l is direction l (E, NE, NW); the
    // sites are already in increasing index order, which is also the order
    // along E, NE and NW (each step adds a positive delta).
    for (int s : sites_) lines_[l][line_index(s, l)].push_back(s);
  }
  for (int k = 0; k < kNumSymmetries; ++k) {
    sym_[k].assign(slots(), -1);
    for (int s : sites_) {
      auto v = apply_sym(k, {q_of(s) - (n - 1), r_of(s) - (n - 1)});
      sym_[k][s] = site(v[0] + n - 1, v[1] + n - 1);
    }
  }
}

bool HexGeometry::valid(int q, int r) const {
  return q >= 0 && r >= 0 && q < stride_ && r < stride_ && q - r <= n_ - 1 && r - q <= n_ - 1;
}

int HexGeometry::degree(int s) const {
  int c = 0;
  for (int d = 0; d < 6; ++d) c += nb_[s * 6 + d] >= 0;
  return c;
}

int HexGeometry::line_index(int s, int orientation) const {
  switch (orientation) {
    case 0:
      return r_of(s);
    case 1:
      return q_of(s) - r_of(s) + n_ - 1;
    default:
      return q_of(s);
  }
}

std::string HexGeometry::name(int s) const {
  // Built in place: GCC 12 warns (-Wrestrict, a known false positive) on
  // std::string(1, c) + std::to_string(...).
  char buf[4];
  int row = r_of(s) + 1;
  int len = 0;
  buf[len++] = static_cast<char>('a' + q_of(s));
  if (row >= 10) buf[len++] = static_cast<char>('0' + row / 10);
  buf[len++] = static_cast<char>('0' + row % 10);
  return std::string(buf, len);
}

std::optional<int> HexGeometry::parse(std::string_view t) const {
  if (t.size() < 2 || t.size() > 3) return std::nullopt;
  if (t[0] < 'a' || t[0] > 'z') return std::nullopt;
  if (t[1] < '1' || t[1] > '9') return std::nullopt;  // no sign, no leading zero
  int row = t[1] - '0';
  if (t.size() == 3) {
    if (t[2] < '0' || t[2] > '9') return std::nullopt;
    row = row * 10 + (t[2] - '0');
  }
  int q = t[0] - 'a', r = row - 1;
  if (!valid(q, r)) return std::nullopt;
  return site(q, r);
}

int HexGeometry::compose(int a, int b) {
  // Find the symmetry matching "a then b" on two independent vectors.
  for (int k = 0; k < kNumSymmetries; ++k) {
    bool ok = true;
    for (std::array<int, 2> v : {std::array<int, 2>{1, 0}, std::array<int, 2>{0, 1}})
      ok = ok && apply_sym(b, apply_sym(a, v)) == apply_sym(k, v);
    if (ok) return k;
  }
  throw std::logic_error("symmetry composition not closed");
}

int HexGeometry::inverse(int k) {
  for (int j = 0; j < kNumSymmetries; ++j)
    if (compose(k, j) == 0) return j;
  throw std::logic_error("symmetry without inverse");
}

}  // namespace loom
