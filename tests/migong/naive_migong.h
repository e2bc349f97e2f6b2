// A deliberately naive Migong written straight from RULES.md section 5 and its
// section 7 clarifications, sharing no code with model/migong or model/common:
// centred coordinates (x, y) with the centre at (0, 0), pieces as six-letter
// strings, every pattern of every cell checked wedge by wedge, the rim walked
// literally as section 7 describes it, groups found by breadth-first search
// over wedges. It is the independent oracle for the perft goldens
// (tests/data/migong_perft.txt) and for the model's moves and results.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <queue>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace naive {

class Migong {
 public:
  /// Side n; `wedges`: measure=wedges; `pie`: the swap on Yellow's first turn.
  Migong(int n, bool wedges = false, bool pie = false) : n_(n), wedges_(wedges), pie_(pie) {
    for (int y = -(n - 1); y <= n - 1; ++y)
      for (int x = -(n - 1); x <= n - 1; ++x)
        if (on_board(x, y) && !(x == 0 && y == 0)) {
          index_[{x, y}] = static_cast<int>(cells_.size());
          cells_.push_back({x, y});
        }
    // Centre border: its side facing direction j is B for even j and
    // touches wedge j+3 of the cell centre + j.
    for (int j = 0; j < 6; ++j)
      edge_[{cell_at(kDx[j], kDy[j]), (j + 3) % 6}] = j % 2 == 0 ? 'B' : 'Y';
    // Rim walk (section 7): side s starts at corner c_s (c_0 = a1, then
    // c_{s+1} = c_s + (n-1) * direction s) and lists n-1 cells along
    // direction s. Along side s the outside lies towards s+4 and s+5; the
    // corner c_s also has s+3 outside, first (a1: W, SW, SE).
    int cx = -(n - 1), cy = -(n - 1);
    int k = 0;
    for (int s = 0; s < 6; ++s) {
      for (int step = 0; step < n - 1; ++step) {
        int x = cx + step * kDx[s], y = cy + step * kDy[s];
        std::vector<int> outside = {(s + 4) % 6, (s + 5) % 6};
        if (step == 0) outside.insert(outside.begin(), (s + 3) % 6);
        for (int d : outside) {
          if (on_board(x + kDx[d], y + kDy[d]))
            throw std::logic_error("naive rim walk: not outside");
          if (!edge_.emplace(std::pair{cell_at(x, y), d}, k % 2 == 0 ? 'B' : 'Y').second)
            throw std::logic_error("naive rim walk: segment twice");
          ++k;
        }
      }
      cx += (n - 1) * kDx[s];
      cy += (n - 1) * kDy[s];
    }
    if (k != 6 * (2 * n - 1)) throw std::logic_error("naive rim walk: wrong length");
    // Every off-board side must have been walked.
    for (int c = 0; c < num_cells(); ++c)
      for (int d = 0; d < 6; ++d) {
        auto [x, y] = cells_[c];
        bool outside = !on_board(x + kDx[d], y + kDy[d]) || (x + kDx[d] == 0 && y + kDy[d] == 0);
        if (outside != (edge_.count({c, d}) == 1))
          throw std::logic_error("naive rim walk: a side was missed");
      }
    for (int p = 0; p < 64; ++p) {
      std::string s;
      for (int i = 0; i < 6; ++i) s += (p >> i) & 1 ? 'B' : 'Y';
      patterns_.push_back(s);
    }
  }

  struct Pos {
    std::vector<std::string> piece;  ///< per cell: "" or the six letters
    std::vector<char> owner;         ///< per cell: the colour whose set it came from
    int seat = 0;                    ///< seat to move: 0 moved first
    bool swapped = false;            ///< after a swap seat 0 holds Yellow
    int passes = 0;                  ///< passes in a row
    int last_placer = -1;            ///< seat
    int plies = 0;                   ///< moves made
    bool operator<(const Pos& o) const {
      return std::tie(piece, owner, seat, swapped, passes, last_placer, plies) <
             std::tie(o.piece, o.owner, o.seat, o.swapped, o.passes, o.last_placer, o.plies);
    }
  };

  Pos start() const {
    Pos p;
    p.piece.assign(cells_.size(), "");
    p.owner.assign(cells_.size(), '.');
    return p;
  }
  int num_cells() const { return static_cast<int>(cells_.size()); }
  std::string name(int c) const {
    return std::string(1, static_cast<char>('a' + cells_[c].first + n_ - 1)) +
           std::to_string(cells_[c].second + n_);
  }
  int cell_named(const std::string& nm) const {
    for (int c = 0; c < num_cells(); ++c)
      if (name(c) == nm) return c;
    return -1;
  }
  /// Colour of a rim or centre segment (cell, direction), '?' if none.
  char edge(int c, int d) const {
    auto it = edge_.find({c, d});
    return it == edge_.end() ? '?' : it->second;
  }
  char colour_of_seat(const Pos& p, int seat) const { return (seat == 0) != p.swapped ? 'B' : 'Y'; }

  bool fits(const Pos& p, int c, const std::string& pat) const {
    if (!p.piece[c].empty()) return false;
    auto [x, y] = cells_[c];
    for (int d = 0; d < 6; ++d) {
      int nx = x + kDx[d], ny = y + kDy[d];
      char need = '.';
      if (!on_board(nx, ny) || (nx == 0 && ny == 0)) {
        need = edge(c, d);
      } else {
        const std::string& other = p.piece[cell_at(nx, ny)];
        if (!other.empty()) need = other[(d + 3) % 6];
      }
      if (need != '.' && need != pat[d]) return false;
    }
    return true;
  }

  bool owns_unplaced(const Pos& p, char colour, const std::string& pat) const {
    if (pat.find(colour) == std::string::npos) return false;
    for (int c = 0; c < num_cells(); ++c)
      if (p.owner[c] == colour && p.piece[c] == pat) return false;
    return true;
  }

  /// Legal tokens, sorted in byte order.
  std::vector<std::string> legal(const Pos& p) const {
    std::vector<std::string> out;
    if (p.passes >= 2) return out;
    char colour = colour_of_seat(p, p.seat);
    for (int c = 0; c < num_cells(); ++c)
      for (const auto& pat : patterns_)
        if (owns_unplaced(p, colour, pat) && fits(p, c, pat)) out.push_back(pat + "@" + name(c));
    if (out.empty()) out.push_back("pass");
    if (pie_ && p.plies == 1) out.push_back("swap");  // Yellow's first turn
    std::sort(out.begin(), out.end());
    return out;
  }

  Pos play(const Pos& p, const std::string& tok) const {
    Pos q = p;
    ++q.plies;
    if (tok == "pass") {
      ++q.passes;
    } else if (tok == "swap") {
      q.swapped = true;
      q.passes = 0;
    } else {
      auto at = tok.find('@');
      int c = cell_named(tok.substr(at + 1));
      q.piece[c] = tok.substr(0, at);
      q.owner[c] = colour_of_seat(p, p.seat);
      q.passes = 0;
      q.last_placer = p.seat;
    }
    q.seat = 1 - p.seat;
    return q;
  }

  struct Group {
    char colour;
    int extent;
    int wedges;
  };
  std::vector<Group> groups(const Pos& p) const {
    std::set<std::pair<int, int>> seen;
    std::vector<Group> out;
    for (int c = 0; c < num_cells(); ++c) {
      if (p.piece[c].empty()) continue;
      for (int i = 0; i < 6; ++i) {
        if (seen.count({c, i})) continue;
        char colour = p.piece[c][i];
        std::set<int> pieces;
        int count = 0;
        std::queue<std::pair<int, int>> todo;
        todo.push({c, i});
        seen.insert({c, i});
        while (!todo.empty()) {
          auto [cc, w] = todo.front();
          todo.pop();
          ++count;
          pieces.insert(cc);
          std::vector<std::pair<int, int>> next = {{cc, (w + 1) % 6}, {cc, (w + 5) % 6}};
          auto [x, y] = cells_[cc];
          int nx = x + kDx[w], ny = y + kDy[w];
          if (on_board(nx, ny) && !(nx == 0 && ny == 0))
            next.push_back({cell_at(nx, ny), (w + 3) % 6});
          for (auto [oc, ow] : next)
            if (!p.piece[oc].empty() && p.piece[oc][ow] == colour && seen.insert({oc, ow}).second)
              todo.push({oc, ow});
        }
        out.push_back({colour, static_cast<int>(pieces.size()), count});
      }
    }
    return out;
  }

  int score(const std::vector<Group>& gs, char colour) const {
    int best = 0;
    for (int k = 1; k <= 6 * num_cells(); ++k) {
      int mine = 0, theirs = 0;
      for (const auto& g : gs) {
        int m = wedges_ ? g.wedges : g.extent;
        if (m != k) continue;
        (g.colour == colour ? mine : theirs)++;
      }
      if (mine > theirs) best = k;
    }
    return best;
  }

  /// Winning seat of a finished game.
  int winner_seat(const Pos& p) const {
    auto gs = groups(p);
    int b = score(gs, 'B'), y = score(gs, 'Y');
    char winner;
    if (b != y) {
      winner = b > y ? 'B' : 'Y';
    } else {
      if (b != 0) throw std::logic_error("naive: equal nonzero scores");
      return 1 - (p.last_placer < 0 ? 0 : p.last_placer);
    }
    return colour_of_seat(p, 0) == winner ? 0 : 1;
  }

  uint64_t perft(const Pos& p, int depth) const {
    if (depth == 0) return 1;
    auto ms = legal(p);
    if (depth == 1) return ms.size();
    uint64_t total = 0;
    for (const auto& m : ms) total += perft(play(p, m), depth - 1);
    return total;
  }

  /// Plain minimax: the seat that wins with perfect play from p.
  int winner_with_best_play(const Pos& p) const {
    auto ms = legal(p);
    if (ms.empty()) return winner_seat(p);
    for (const auto& m : ms)
      if (winner_with_best_play(play(p, m)) == p.seat) return p.seat;
    return 1 - p.seat;
  }

  /// Every finished game of the whole tree: how many, and how many the first seat wins.
  struct Games {
    uint64_t games = 0, first_seat_wins = 0, zero_zero = 0;
  };
  void all_games(const Pos& p, Games& g) const {
    auto ms = legal(p);
    if (ms.empty()) {
      ++g.games;
      g.first_seat_wins += winner_seat(p) == 0;
      const auto gs = groups(p);
      g.zero_zero += score(gs, 'B') == 0 && score(gs, 'Y') == 0;
      return;
    }
    for (const auto& m : ms) all_games(play(p, m), g);
  }

 private:
  static constexpr int kDx[6] = {1, 1, 0, -1, -1, 0};
  static constexpr int kDy[6] = {0, 1, 1, 0, -1, -1};

  bool on_board(int x, int y) const {
    return std::abs(x) <= n_ - 1 && std::abs(y) <= n_ - 1 && std::abs(x - y) <= n_ - 1;
  }
  int cell_at(int x, int y) const { return index_.at({x, y}); }

  int n_;
  bool wedges_, pie_;
  std::vector<std::pair<int, int>> cells_;
  std::map<std::pair<int, int>, int> index_;
  std::map<std::pair<int, int>, char> edge_;
  std::vector<std::string> patterns_;
};

}  // namespace naive
