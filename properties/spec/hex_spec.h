// The board graph of RULES.md section 1, written again for the specification
// (it deliberately shares no code with model/common/hex.h, so that a slip in
// one geometry shows up as a disagreement in the cross-check).
//
// Sites are numbered 0..N-1 row by row (r ascending, then q ascending); the
// cross-check joins spec and model by site NAME ("d4"), never by number.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace loom::spec {

/// Axial steps of the six directions, counter-clockwise from East (RULES.md 1).
inline constexpr std::array<std::array<int, 2>, 6> kStep = {
    {{1, 0}, {1, 1}, {0, 1}, {-1, 0}, {-1, -1}, {0, -1}}};
inline constexpr const char* kDirName[6] = {"E", "NE", "NW", "W", "SW", "SE"};

/// The hex-hex board of side n (2..13): sites, names, neighbours, lines.
class HexBoard {
 public:
  explicit HexBoard(int n);  // throws std::invalid_argument outside 2..13

  int side() const { return n_; }
  int size() const { return static_cast<int>(q_.size()); }
  int q(int i) const { return q_[i]; }
  int r(int i) const { return r_[i]; }
  /// Site index of (q, r), or -1 if the coordinates are off the board.
  int at(int q, int r) const;
  /// Neighbour of site i in direction d (0..5), or -1 off the board.
  int neighbour(int i, int d) const { return nb_[i][d]; }
  /// The sites met walking from i in direction d, nearest first, up to the edge.
  const std::vector<int>& ray(int i, int d) const { return ray_[i][d]; }
  int centre() const { return at(n_ - 1, n_ - 1); }
  /// Name per RULES.md 1: letter 'a'+q, then r+1 in decimal.
  std::string name(int i) const;
  /// Site of an exact name, or -1.
  int parse(std::string_view name) const;
  /// Index of the line of orientation l (0: E-W, 1: NE-SW, 2: NW-SE) through i.
  int line_of(int i, int l) const;
  /// Image of site i under symmetry k (0..11): k < 6 rotates 60k degrees
  /// counter-clockwise about the centre; k >= 6 mirrors in the E-W line
  /// through the centre first, then rotates by 60(k-6) degrees.
  int map_site(int k, int i) const;
  /// One site of each orbit of the 12 symmetries, in increasing order.
  std::vector<int> orbit_representatives() const;

 private:
  int n_;
  std::vector<int> q_, r_;
  std::vector<int> index_;  // (q + r*(2n-1)) -> site or -1
  std::vector<std::array<int, 6>> nb_;
  std::vector<std::array<std::vector<int>, 6>> ray_;
};

}  // namespace loom::spec
