// A deliberately naive Gadur written straight from RULES.md section 4 and its
// clarifications, sharing no code with model/gadur or model/common: its own
// coordinates, breadth-first groups, subsets enumerated one by one. It is the
// independent oracle for the perft goldens (tests/data/gadur_perft.txt) and
// for the model's move lists on random positions.
#pragma once

#include <cstdint>
#include <map>
#include <queue>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace naive {

class Gadur {
 public:
  Gadur(int n, bool subset, bool merge_only) : n_(n), subset_(subset), merge_only_(merge_only) {
    for (int r = 0; r <= 2 * n - 2; ++r)
      for (int q = 0; q <= 2 * n - 2; ++q)
        if (q - r <= n - 1 && r - q <= n - 1) {
          index_[{q, r}] = static_cast<int>(cells_.size());
          cells_.push_back({q, r});
        }
    const int dq[6] = {1, 1, 0, -1, -1, 0}, dr[6] = {0, 1, 1, 0, -1, -1};
    adj_.resize(cells_.size());
    for (size_t i = 0; i < cells_.size(); ++i)
      for (int d = 0; d < 6; ++d) {
        auto it = index_.find({cells_[i].first + dq[d], cells_[i].second + dr[d]});
        if (it != index_.end()) adj_[i].push_back(it->second);
      }
  }

  /// Board: '.', 'B', 'W' per cell (cells ordered by row, then column).
  struct Pos {
    std::vector<char> board;
    char turn = 'B';
    bool operator<(const Pos& o) const { return std::tie(board, turn) < std::tie(o.board, o.turn); }
    bool operator==(const Pos& o) const = default;
  };

  Pos start() const { return Pos{std::vector<char>(cells_.size(), '.'), 'B'}; }
  int num_cells() const { return static_cast<int>(cells_.size()); }
  std::string name(int cell) const {
    return std::string(1, static_cast<char>('a' + cells_[cell].first)) +
           std::to_string(cells_[cell].second + 1);
  }
  int cell_of(int q, int r) const { return index_.at({q, r}); }

  std::set<int> group(const std::vector<char>& b, int cell) const {
    std::set<int> seen{cell};
    std::queue<int> todo;
    todo.push(cell);
    while (!todo.empty()) {
      int c = todo.front();
      todo.pop();
      for (int t : adj_[c])
        if (b[t] == b[cell] && seen.insert(t).second) todo.push(t);
    }
    return seen;
  }

  struct Effect {
    bool legal = false;
    std::vector<std::set<int>> enemy_groups;
    int group_size = 0;
    bool captures = false;
  };

  Effect effect(const Pos& p, int c) const {
    Effect e;
    if (p.board[c] != '.') return e;
    char me = p.turn, them = me == 'B' ? 'W' : 'B';
    bool touches_friend = false;
    for (int t : adj_[c]) touches_friend |= p.board[t] == me;
    std::vector<char> b = p.board;
    b[c] = me;
    std::set<int> g = group(b, c);
    e.group_size = static_cast<int>(g.size());
    std::set<std::set<int>> es;
    for (int x : g)
      for (int t : adj_[x])
        if (b[t] == them) es.insert(group(b, t));
    e.enemy_groups.assign(es.begin(), es.end());
    int k = static_cast<int>(e.enemy_groups.size());
    int total = 0;
    for (const auto& eg : e.enemy_groups) total += static_cast<int>(eg.size());
    if (!touches_friend) {
      e.legal = true;
    } else if (k >= 2) {
      if (!subset_) {
        e.legal = total <= e.group_size;
      } else {
        for (uint32_t mask = 0; mask < (1u << k) && !e.legal; ++mask) {
          if (__builtin_popcount(mask) < 2) continue;
          int s = 0;
          for (int i = 0; i < k; ++i)
            if (mask >> i & 1) s += static_cast<int>(e.enemy_groups[i].size());
          e.legal = s <= e.group_size;
        }
      }
    }
    e.captures = e.legal && k > 0 && total == e.group_size && (!merge_only_ || k >= 2);
    return e;
  }

  std::vector<int> legal(const Pos& p) const {
    std::vector<int> out;
    for (int c = 0; c < num_cells(); ++c)
      if (effect(p, c).legal) out.push_back(c);
    return out;
  }

  Pos play(const Pos& p, int c) const {
    Effect e = effect(p, c);
    Pos q = p;
    q.board[c] = p.turn;
    if (e.captures)
      for (const auto& g : e.enemy_groups)
        for (int x : g) q.board[x] = '.';
    q.turn = p.turn == 'B' ? 'W' : 'B';
    return q;
  }

  uint64_t perft(const Pos& p, int depth) const {
    if (depth == 0) return 1;
    auto ms = legal(p);
    if (depth == 1) return ms.size();
    uint64_t total = 0;
    for (int c : ms) total += perft(play(p, c), depth - 1);
    return total;
  }

 private:
  int n_;
  bool subset_, merge_only_;
  std::vector<std::pair<int, int>> cells_;
  std::map<std::pair<int, int>, int> index_;
  std::vector<std::vector<int>> adj_;
};

}  // namespace naive
