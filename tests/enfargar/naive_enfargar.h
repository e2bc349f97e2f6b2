// A deliberately naive Enfargar written straight from RULES.md section 3 and
// the Enfargar clarifications of section 7, sharing no code with
// model/enfargar or model/common: its own centred coordinates, literal walks
// point by point along each direction, lifelines as a fixed point by repeated
// passes over the board, both placement conditions checked literally. It is
// the independent oracle for the perft goldens (tests/data/enfargar_perft.txt)
// and for the model's move lists and flips on random games.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace naive {

class Enfargar {
 public:
  /// touch: edge=touch; more_stones: stall=more-stones.
  Enfargar(int n, bool touch, bool more_stones) : n_(n), touch_(touch), more_stones_(more_stones) {
    // Centred coordinates: x = q - (n-1), y = r - (n-1); on the board iff
    // |x|, |y| and |x - y| are at most n-1 (RULES.md section 1).
    for (int y = -(n - 1); y <= n - 1; ++y)
      for (int x = -(n - 1); x <= n - 1; ++x)
        if (on_board(x, y)) {
          index_[{x, y}] = static_cast<int>(pts_.size());
          pts_.push_back({x, y});
        }
  }

  /// Board: '.', 'B', 'W' per point (points ordered by row, then column).
  struct Pos {
    std::vector<char> board;
    char turn = 'B';
    int passes = 0;      ///< consecutive passes just made
    bool wiped = false;  ///< the last turn left no enemy stone (there was one)
    bool operator==(const Pos& o) const = default;
  };

  Pos start() const { return Pos{std::vector<char>(pts_.size(), '.'), 'B', 0, false}; }
  int num_points() const { return static_cast<int>(pts_.size()); }
  std::string name(int p) const {
    return std::string(1, static_cast<char>('a' + pts_[p].first + n_ - 1)) +
           std::to_string(pts_[p].second + n_);
  }
  /// Point with that name, or -1.
  int point(const std::string& nm) const {
    for (int p = 0; p < num_points(); ++p)
      if (name(p) == nm) return p;
    return -1;
  }

  bool on_board(int x, int y) const {
    return std::abs(x) <= n_ - 1 && std::abs(y) <= n_ - 1 && std::abs(x - y) <= n_ - 1;
  }

  /// Which stones have a lifeline ('B' and 'W' each judged for its own colour).
  std::vector<bool> lifelines(const std::vector<char>& b) const {
    // E, NE, NW, W, SW, SE (RULES.md section 1).
    const int dx[6] = {1, 1, 0, -1, -1, 0}, dy[6] = {0, 1, 1, 0, -1, -1};
    std::vector<bool> life(b.size(), false);
    bool changed = true;
    while (changed) {
      changed = false;
      for (int p = 0; p < num_points(); ++p) {
        if (b[p] == '.' || life[p]) continue;
        for (int d = 0; d < 6 && !life[p]; ++d) {
          int x = pts_[p].first, y = pts_[p].second, empties = 0;
          for (;;) {
            x += dx[d];
            y += dy[d];
            if (!on_board(x, y)) {
              // Off the board: a lifeline after at least one empty point
              // (edge=touch: after any number).
              if (empties >= 1 || touch_) life[p] = true;
              break;
            }
            int q = index_.at({x, y});
            if (b[q] == '.') {
              ++empties;
              continue;
            }
            // The first stone met decides.
            if (b[q] == b[p] && life[q]) life[p] = true;
            break;
          }
        }
        if (life[p]) changed = true;
      }
    }
    return life;
  }

  struct Effect {
    bool lifeline = false;   ///< condition (1)
    bool all_alive = false;  ///< condition (2)
    bool legal = false;
    std::vector<char> after;  ///< board after placing and flipping
  };

  Effect effect(const Pos& s, int p) const {
    Effect e;
    if (s.board[p] != '.') return e;
    char me = s.turn, them = me == 'B' ? 'W' : 'B';
    std::vector<char> b = s.board;
    b[p] = me;
    std::vector<bool> life = lifelines(b);
    e.lifeline = life[p];
    // Flips judged once, on the board right after the placement.
    for (int q = 0; q < num_points(); ++q)
      if (b[q] == them && !life[q]) b[q] = me;
    std::vector<bool> life2 = lifelines(b);
    e.all_alive = true;
    for (int q = 0; q < num_points(); ++q)
      if (b[q] == me && !life2[q]) e.all_alive = false;
    e.legal = e.lifeline && e.all_alive;
    e.after = b;
    return e;
  }

  bool over(const Pos& s) const { return s.wiped || s.passes >= 2; }

  /// Legal moves as point indices, -1 for pass; empty when the game is over.
  std::vector<int> legal(const Pos& s) const {
    std::vector<int> out;
    if (over(s)) return out;
    for (int p = 0; p < num_points(); ++p)
      if (effect(s, p).legal) out.push_back(p);
    if (out.empty()) out.push_back(-1);
    return out;
  }

  Pos play(const Pos& s, int p) const {
    Pos t = s;
    t.turn = s.turn == 'B' ? 'W' : 'B';
    if (p < 0) {
      t.passes = s.passes + 1;
      return t;
    }
    t.passes = 0;
    t.board = effect(s, p).after;
    char them = t.turn;
    int before = 0, after = 0;
    for (int q = 0; q < num_points(); ++q) {
      before += s.board[q] == them;
      after += t.board[q] == them;
    }
    t.wiped = before > 0 && after == 0;
    return t;
  }

  /// "B", "W", "unresolved", or "" while the game goes on. `last_placer` is
  /// the colour of the last placement (stall=more-stones tie-break).
  std::string result(const Pos& s, char last_placer) const {
    if (s.wiped) return std::string(1, s.turn == 'B' ? 'W' : 'B');
    if (s.passes < 2) return "";
    if (!more_stones_) return "unresolved";
    int b = 0, w = 0;
    for (char c : s.board) {
      b += c == 'B';
      w += c == 'W';
    }
    if (b != w) return b > w ? "B" : "W";
    return std::string(1, last_placer == 'B' ? 'W' : 'B');
  }

  uint64_t perft(const Pos& s, int depth) const {
    if (depth == 0) return 1;
    auto ms = legal(s);
    if (depth == 1) return ms.size();
    uint64_t total = 0;
    for (int p : ms) total += perft(play(s, p), depth - 1);
    return total;
  }

 private:
  int n_;
  bool touch_, more_stones_;
  std::vector<std::pair<int, int>> pts_;
  std::map<std::pair<int, int>, int> index_;
};

}  // namespace naive
