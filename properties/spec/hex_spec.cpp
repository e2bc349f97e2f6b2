#include "properties/spec/hex_spec.h"

#include <cstdlib>
#include <stdexcept>

namespace loom::spec {

HexBoard::HexBoard(int n) : n_(n) {
  if (n < 2 || n > 13) throw std::invalid_argument("hex board side must be 2..13");
  const int w = 2 * n - 1;
  index_.assign(w * w, -1);
  for (int r = 0; r < w; ++r)
    for (int q = 0; q < w; ++q)
      if (std::abs(q - r) <= n - 1) {  // RULES.md 1: valid iff |q - r| <= n-1
        index_[q + r * w] = static_cast<int>(q_.size());
        q_.push_back(q);
        r_.push_back(r);
      }
  nb_.resize(q_.size());
  ray_.resize(q_.size());
  for (int i = 0; i < size(); ++i)
    for (int d = 0; d < 6; ++d) {
      nb_[i][d] = at(q_[i] + kStep[d][0], r_[i] + kStep[d][1]);
      for (int k = 1;; ++k) {
        int j = at(q_[i] + k * kStep[d][0], r_[i] + k * kStep[d][1]);
        if (j < 0) break;
        ray_[i][d].push_back(j);
      }
    }
}

int HexBoard::at(int q, int r) const {
  const int w = 2 * n_ - 1;
  if (q < 0 || r < 0 || q >= w || r >= w) return -1;
  return index_[q + r * w];
}

std::string HexBoard::name(int i) const {
  return std::string(1, static_cast<char>('a' + q_[i])) + std::to_string(r_[i] + 1);
}

int HexBoard::parse(std::string_view s) const {
  if (s.size() < 2 || s[0] < 'a' || s[0] > 'z' || s[1] == '0') return -1;
  int row = 0;
  for (size_t k = 1; k < s.size(); ++k) {
    if (s[k] < '0' || s[k] > '9' || k > 3) return -1;
    row = row * 10 + (s[k] - '0');
  }
  return at(s[0] - 'a', row - 1);
}

int HexBoard::line_of(int i, int l) const {
  // Along E-W the row is constant; along NE-SW q-r is; along NW-SE q is.
  return l == 0 ? r_[i] : l == 1 ? q_[i] - r_[i] : q_[i];
}

int HexBoard::map_site(int k, int i) const {
  // Axial offsets from the centre; a 60-degree turn maps E(1,0) to NE(1,1)
  // and NE to NW(0,1): (x, y) -> (x - y, x). The mirror keeps E and swaps
  // NE with SE(0,-1): (x, y) -> (x - y, -y).
  int x = q_[i] - (n_ - 1), y = r_[i] - (n_ - 1);
  if (k >= 6) {
    int mx = x - y, my = -y;
    x = mx, y = my;
    k -= 6;
  }
  for (int t = 0; t < k; ++t) {
    int rx = x - y, ry = x;
    x = rx, y = ry;
  }
  return at(x + n_ - 1, y + n_ - 1);
}

std::vector<int> HexBoard::orbit_representatives() const {
  std::vector<int> out;
  for (int i = 0; i < size(); ++i) {
    bool least = true;
    for (int k = 0; k < 12; ++k) least = least && map_site(k, i) >= i;
    if (least) out.push_back(i);
  }
  return out;
}

}  // namespace loom::spec
