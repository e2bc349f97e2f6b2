// A deliberately naive Fiodar written straight from RULES.md section 2 and the
// Fiodar clarifications of section 7, sharing no code with model/fiodar or
// model/common: its own centred coordinates, threads found by walking each
// line stone by stone, weaves and territories by breadth-first search, the
// superko history as a plain list of boards, and the half point read off the
// list of moves played. It is the independent oracle for the perft goldens
// (tests/data/fiodar_perft.txt) and for the engine along random games.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <queue>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace naive {

class Fiodar {
 public:
  struct Rules {
    bool gap = false;                 // cut=gap
    bool capture_first = false;       // suicide=capture-first
    bool first_pass_of_game = false;  // half=first-pass-of-game
  };

  /// Points are (a, b) centred on the middle of the board: the point is on
  /// the board iff |a| <= n-1, |b| <= n-1 and |a-b| <= n-1. The three lines
  /// step by (1,0), (1,1) and (0,1).
  Fiodar(int n, Rules rules) : n_(n), rules_(rules) {
    for (int b = -(n - 1); b <= n - 1; ++b)
      for (int a = -(n - 1); a <= n - 1; ++a)
        if (on_board(a, b)) {
          id_[{a, b}] = static_cast<int>(pts_.size());
          pts_.push_back({a, b});
        }
  }

  struct Pos {
    std::vector<char> board;  // '.', 'B', 'W' per point
    char turn = 'B';
    int passes_in_a_row = 0;
    std::vector<std::pair<char, bool>> moves;  // (player, was a pass), in order
    int prisoners_b = 0, prisoners_w = 0;
    std::vector<std::vector<char>> ends_b, ends_w;  // end-of-turn boards of each player
  };

  int size() const { return static_cast<int>(pts_.size()); }
  std::string name(int p) const {
    return std::string(1, static_cast<char>('a' + pts_[p].first + n_ - 1)) +
           std::to_string(pts_[p].second + n_);
  }
  std::optional<int> point(const std::string& nm) const {
    for (int p = 0; p < size(); ++p)
      if (name(p) == nm) return p;
    return std::nullopt;
  }

  Pos start() const {
    Pos p;
    p.board.assign(pts_.size(), '.');
    return p;
  }
  /// The 2-stone pie setup: one black and one white stone, Black to move.
  Pos start_with(int black, int white) const {
    Pos p = start();
    p.board[black] = 'B';
    p.board[white] = 'W';
    return p;
  }

  bool over(const Pos& p) const { return p.passes_in_a_row >= 2; }

  /// Is the thread of point p along line `line` (0, 1, 2) cut?
  bool thread_cut(const std::vector<char>& bd, int p, int line) const {
    static const int da[3] = {1, 1, 0}, db[3] = {0, 1, 1};
    char me = bd[p];
    char enemy = me == 'B' ? 'W' : 'B';
    for (int sign : {1, -1}) {
      int a = pts_[p].first, b = pts_[p].second;
      // Walk along the thread to its end...
      while (at(bd, a + sign * da[line], b + sign * db[line]) == me) {
        a += sign * da[line];
        b += sign * db[line];
      }
      // ... then one step beyond (and on over empty points under cut=gap).
      a += sign * da[line];
      b += sign * db[line];
      if (rules_.gap)
        while (at(bd, a, b) == '.') {
          a += sign * da[line];
          b += sign * db[line];
        }
      if (at(bd, a, b) != enemy) return false;  // edge, empty or friendly: no cutter
    }
    return true;
  }

  bool on_cut_thread(const std::vector<char>& bd, int p) const {
    for (int line = 0; line < 3; ++line)
      if (thread_cut(bd, p, line)) return true;
    return false;
  }

  std::vector<std::vector<int>> weaves(const std::vector<char>& bd, char colour) const {
    std::vector<std::vector<int>> out;
    std::vector<bool> seen(pts_.size(), false);
    for (int p = 0; p < size(); ++p) {
      if (bd[p] != colour || seen[p]) continue;
      std::vector<int> w;
      std::queue<int> todo;
      todo.push(p);
      seen[p] = true;
      while (!todo.empty()) {
        int x = todo.front();
        todo.pop();
        w.push_back(x);
        for (int y : neighbours(x))
          if (bd[y] == colour && !seen[y]) {
            seen[y] = true;
            todo.push(y);
          }
      }
      out.push_back(w);
    }
    return out;
  }

  bool weave_cut(const std::vector<char>& bd, const std::vector<int>& w) const {
    for (int x : w)
      if (!on_cut_thread(bd, x)) return false;
    return true;
  }

  /// The position after the side to move places on p, or nullopt if illegal.
  std::optional<Pos> place(const Pos& pos, int p) const {
    if (over(pos) || pos.board[p] != '.') return std::nullopt;
    char me = pos.turn, enemy = me == 'B' ? 'W' : 'B';
    std::vector<char> bd = pos.board;
    bd[p] = me;
    // Judge every enemy weave first, then remove all cut ones together.
    std::vector<int> doomed;
    for (const auto& w : weaves(bd, enemy))
      if (weave_cut(bd, w)) doomed.insert(doomed.end(), w.begin(), w.end());
    for (int x : doomed) bd[x] = '.';
    bool friendly_cut = false;
    for (const auto& w : weaves(bd, me))
      if (weave_cut(bd, w)) friendly_cut = true;
    if (friendly_cut && !(rules_.capture_first && !doomed.empty())) return std::nullopt;
    const auto& mine = me == 'B' ? pos.ends_b : pos.ends_w;
    for (const auto& earlier : mine)
      if (earlier == bd) return std::nullopt;  // superko
    Pos q = pos;
    q.board = bd;
    (me == 'B' ? q.prisoners_b : q.prisoners_w) += static_cast<int>(doomed.size());
    (me == 'B' ? q.ends_b : q.ends_w).push_back(bd);
    q.moves.push_back({me, false});
    q.passes_in_a_row = 0;
    q.turn = enemy;
    return q;
  }

  Pos pass(const Pos& pos) const {
    Pos q = pos;
    (pos.turn == 'B' ? q.ends_b : q.ends_w).push_back(pos.board);
    q.moves.push_back({pos.turn, true});
    q.passes_in_a_row++;
    q.turn = pos.turn == 'B' ? 'W' : 'B';
    return q;
  }

  /// Legal placements (points in increasing index order); pass is always
  /// legal while the game is not over and is not listed here.
  std::vector<int> placements(const Pos& pos) const {
    std::vector<int> out;
    for (int p = 0; p < size(); ++p)
      if (place(pos, p)) out.push_back(p);
    return out;
  }

  struct Score {
    int territory = 0, prisoners = 0;
    bool half = false;
  };

  /// Scores; the half point only once the game is over.
  std::pair<Score, Score> score(const Pos& pos) const {
    Score b, w;
    std::vector<bool> seen(pts_.size(), false);
    for (int p = 0; p < size(); ++p) {
      if (pos.board[p] != '.' || seen[p]) continue;
      std::vector<int> region;
      std::set<char> touched;
      std::queue<int> todo;
      todo.push(p);
      seen[p] = true;
      while (!todo.empty()) {
        int x = todo.front();
        todo.pop();
        region.push_back(x);
        for (int y : neighbours(x)) {
          if (pos.board[y] != '.')
            touched.insert(pos.board[y]);
          else if (!seen[y]) {
            seen[y] = true;
            todo.push(y);
          }
        }
      }
      if (touched == std::set<char>{'B'}) b.territory += static_cast<int>(region.size());
      if (touched == std::set<char>{'W'}) w.territory += static_cast<int>(region.size());
    }
    b.prisoners = pos.prisoners_b;
    w.prisoners = pos.prisoners_w;
    if (over(pos)) {
      char who = 0;
      if (rules_.first_pass_of_game) {
        for (auto [player, was_pass] : pos.moves)
          if (was_pass) {
            who = player;
            break;
          }
      } else {
        who = pos.moves[pos.moves.size() - 2].first;  // the first of the two final passes
      }
      (who == 'B' ? b : w).half = true;
    }
    return {b, w};
  }

  /// Black's score minus White's, in half points (the game must be over).
  int margin2(const Pos& pos) const {
    auto [b, w] = score(pos);
    return 2 * (b.territory + b.prisoners) + b.half - 2 * (w.territory + w.prisoners) - w.half;
  }

  uint64_t perft(const Pos& pos, int depth) const {
    if (depth == 0) return 1;
    if (over(pos)) return 0;
    auto ms = placements(pos);
    if (depth == 1) return ms.size() + 1;
    uint64_t total = perft(pass(pos), depth - 1);
    for (int p : ms) total += perft(*place(pos, p), depth - 1);
    return total;
  }

 private:
  bool on_board(int a, int b) const {
    return std::abs(a) <= n_ - 1 && std::abs(b) <= n_ - 1 && std::abs(a - b) <= n_ - 1;
  }
  char at(const std::vector<char>& bd, int a, int b) const {
    auto it = id_.find({a, b});
    return it == id_.end() ? '#' : bd[it->second];
  }
  std::vector<int> neighbours(int p) const {
    static const int da[6] = {1, 1, 0, -1, -1, 0}, db[6] = {0, 1, 1, 0, -1, -1};
    std::vector<int> out;
    for (int d = 0; d < 6; ++d) {
      auto it = id_.find({pts_[p].first + da[d], pts_[p].second + db[d]});
      if (it != id_.end()) out.push_back(it->second);
    }
    return out;
  }

  int n_;
  Rules rules_;
  std::vector<std::pair<int, int>> pts_;
  std::map<std::pair<int, int>, int> id_;
};

}  // namespace naive
