// A deliberately naive Long Nardy written straight from RULES.md section 6
// and the section 7 clarifications, sharing no code with model/nardy: its
// own board (points 1..24, signed counts), its own position strings, and a
// turn generator that enumerates every ordered step sequence, then filters
// the sequences by the rules (most dice, larger die, block at the end of the
// turn) and groups them by resulting position. It is the independent oracle
// for the perft goldens (tests/data/nardy_perft.txt) and for the engine's
// turn lists on random positions.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace naive_nardy {

struct Rules {
  bool block_end_of_turn = false;  // block=end-of-turn
  bool last_roll = false;          // end=last-roll
  int checkers = 15;               // checkers=K: every "15" of the rules reads K
};

struct Pos {
  int pt[25] = {};  // pt[1..24]: > 0 White, < 0 Black
  char turn = 'W';
  bool operator<(const Pos& o) const {
    for (int p = 1; p <= 24; ++p)
      if (pt[p] != o.pt[p]) return pt[p] < o.pt[p];
    return turn < o.turn;
  }
  bool operator==(const Pos& o) const {
    for (int p = 1; p <= 24; ++p)
      if (pt[p] != o.pt[p]) return false;
    return turn == o.turn;
  }
};

inline char opponent(char c) {
  return c == 'W' ? 'B' : 'W';
}

// "Route index: White 24-p; Black (12-p) mod 24; 0 = head, 18-23 = home."
inline int route(char c, int p) {
  if (c == 'W') return 24 - p;
  int r = 12 - p;
  while (r < 0) r += 24;
  return r % 24;
}

// The point with route index r, found once by looking at every point.
inline int point_at(char c, int r) {
  static const std::vector<std::vector<int>> table = [] {
    std::vector<std::vector<int>> t(2, std::vector<int>(24, 0));
    for (int side = 0; side < 2; ++side)
      for (int q = 0; q < 24; ++q)
        for (int p = 1; p <= 24; ++p)
          if (route(side ? 'B' : 'W', p) == q) t[side][q] = p;
    return t;
  }();
  if (r < 0 || r > 23) throw std::logic_error("no point with that route index");
  return table[c == 'B'][r];
}

inline int mine(const Pos& s, char c, int p) {
  int v = s.pt[p];
  if (c == 'W') return v > 0 ? v : 0;
  return v < 0 ? -v : 0;
}

inline int on_board(const Pos& s, char c) {
  int n = 0;
  for (int p = 1; p <= 24; ++p) n += mine(s, c, p);
  return n;
}

inline Pos start() {
  Pos s;
  s.pt[24] = 15;
  s.pt[12] = -15;
  s.turn = 'W';
  return s;
}

inline std::string to_string(const Pos& s) {
  std::string out(1, s.turn);
  out += ':';
  for (int p = 1; p <= 24; ++p) {
    if (p > 1) out += ',';
    out += std::to_string(s.pt[p]);
  }
  return out;
}

inline Pos parse(const std::string& text) {
  Pos s;
  s.turn = text.at(0);
  std::istringstream in(text.substr(2));
  std::string f;
  int p = 1;
  while (std::getline(in, f, ',')) s.pt[p++] = std::stoi(f);
  if (p != 25) throw std::invalid_argument("bad position " + text);
  return s;
}

// Game end: "the first to bear off all 15 wins 1 point (oin), 2 (mars) if the
// loser has borne off none"; under last-roll Black plays one more turn after
// White's last checker, and a draw if Black then has borne off all 15 too.
struct Value {
  std::string kind = "ongoing";  // "ongoing", "white", "black", "draw"
  int points = 0;
};

inline Value value(const Pos& s, const Rules& rules) {
  int w = on_board(s, 'W'), b = on_board(s, 'B');
  if (w == 0 && b == 0) return {"draw", 0};
  if (b == 0) return {"black", w == rules.checkers ? 2 : 1};
  if (w == 0) {
    if (rules.last_roll && s.turn == 'B') return {};  // Black's last roll
    return {"white", b == rules.checkers ? 2 : 1};
  }
  return {};
}

// The block rule on `s` for the player `me`: every run of 6 or more
// consecutive points (along the opponent's route, no wrap) held by `me` needs
// an opposing checker strictly further along that route than the run's end,
// unless the opponent has borne off a checker.
inline bool block_ok(const Pos& s, char me, int checkers = 15) {
  char them = opponent(me);
  if (on_board(s, them) < checkers) return true;
  int run = 0;
  for (int q = 0; q < 24; ++q) {
    bool held = mine(s, me, point_at(them, q)) > 0;
    run = held ? run + 1 : 0;
    bool run_ends = run > 0 && (q == 23 || mine(s, me, point_at(them, q + 1)) == 0);
    if (run_ends && run >= 6) {
      bool ahead = false;
      for (int q2 = q + 1; q2 < 24; ++q2)
        if (mine(s, them, point_at(them, q2)) > 0) ahead = true;
      if (!ahead) return false;
    }
  }
  return true;
}

struct Sequence {
  std::vector<std::string> steps;
  std::vector<int> dice;  // die of each step
  Pos end;                // mover still to move
  bool won = false;       // the mover bore off its last checker
};

class Generator {
 public:
  explicit Generator(Rules r) : rules_(r) {}

  // Every ordered sequence of legal steps from `s` with dice a, b (four
  // times a for a double), including the empty one and every prefix.
  std::vector<Sequence> all_sequences(const Pos& s, int a, int b) const {
    std::vector<int> dice = a == b ? std::vector<int>{a, a, a, a} : std::vector<int>{a, b};
    char me = s.turn;
    bool first_turn = mine(s, me, point_at(me, 0)) == rules_.checkers;
    head_limit_ = (a == b && (a == 6 || a == 4 || a == 3) && first_turn) ? 2 : 1;
    std::vector<Sequence> out;
    Sequence cur;
    cur.end = s;
    rec(cur, dice, 0, out);
    return out;
  }

  // One step: the checker on `from` moves `die` pips for `me`. Returns false
  // if illegal. head_moves counts the checkers that left the head so far.
  bool try_step(const Pos& s, char me, int from, int die, int head_moves, Pos& next,
                std::string& text) const {
    if (mine(s, me, from) == 0) return false;
    int r = route(me, from);
    int t = r + die;
    next = s;
    int sign = me == 'W' ? 1 : -1;
    if (t >= 24) {
      // Bearing off: all 15 (those on the board) home, checked before the step.
      for (int p = 1; p <= 24; ++p)
        if (mine(s, me, p) > 0 && route(me, p) < 18) return false;
      if (t > 24) {
        // A larger die bears off only the farthest checker.
        for (int p = 1; p <= 24; ++p)
          if (mine(s, me, p) > 0 && route(me, p) < r) return false;
      }
      next.pt[from] -= sign;
      text = std::to_string(from) + "/off";
    } else {
      int to = point_at(me, t);
      if (mine(s, opponent(me), to) > 0) return false;  // no landing on opposing checkers
      if (r == 0 && head_moves >= head_limit_) return false;
      next.pt[from] -= sign;
      next.pt[to] += sign;
      text = std::to_string(from) + "/" + std::to_string(to);
    }
    if (!rules_.block_end_of_turn && !block_ok(next, me, rules_.checkers)) return false;
    return true;
  }

  // The legal turns: (resulting position with the other side to move,
  // smallest turn text), sorted by the line "POSITION TURN".
  std::vector<std::pair<Pos, std::string>> turns(const Pos& s, int a, int b) const {
    std::vector<std::pair<Pos, std::string>> result;
    if (value(s, rules_).kind != "ongoing") return result;
    int total = a == b ? 4 : 2;
    auto seqs = all_sequences(s, a, b);
    std::vector<const Sequence*> ok;
    // The empty sequence (a passed turn) is no step, so no block check applies
    // to it: it stays a candidate even on a given board that already holds
    // an illegal block.
    for (const auto& q : seqs)
      if (!rules_.block_end_of_turn || q.steps.empty() || block_ok(q.end, s.turn, rules_.checkers))
        ok.push_back(&q);
    auto count = [&](const Sequence* q) { return q->won ? total : (int)q->steps.size(); };
    int most = 0;
    for (auto* q : ok) most = std::max(most, count(q));
    std::vector<const Sequence*> keep;
    for (auto* q : ok)
      if (count(q) == most) keep.push_back(q);
    if (a != b && most == 1) {
      int larger = std::max(a, b);
      std::vector<const Sequence*> with_larger;
      for (auto* q : keep)
        if (q->dice[0] == larger) with_larger.push_back(q);
      if (!with_larger.empty()) keep = with_larger;
    }
    std::map<std::string, std::string> best;  // position string -> smallest turn text
    for (auto* q : keep) {
      Pos e = q->end;
      e.turn = opponent(s.turn);
      std::string text;
      for (size_t i = 0; i < q->steps.size(); ++i) text += (i ? " " : "") + q->steps[i];
      auto key = to_string(e);
      auto it = best.find(key);
      if (it == best.end() || text < it->second) best[key] = text;
    }
    for (auto& [k, t] : best) result.emplace_back(parse(k), t);
    std::sort(result.begin(), result.end(), [](const auto& x, const auto& y) {
      return to_string(x.first) + " " + x.second < to_string(y.first) + " " + y.second;
    });
    return result;
  }

  // The lines `loom moves nardy` prints.
  std::vector<std::string> lines(const Pos& s, int a, int b) const {
    std::vector<std::string> out;
    for (auto& [p, t] : turns(s, a, b)) out.push_back(to_string(p) + " " + t);
    std::sort(out.begin(), out.end());
    return out;
  }

  uint64_t perft(const Pos& s, int depth) const {
    if (depth == 0) return 1;
    if (value(s, rules_).kind != "ongoing") return 0;
    uint64_t n = 0;
    for (int a = 1; a <= 6; ++a)
      for (int b = 1; b <= a; ++b)
        for (auto& [p, t] : turns(s, a, b)) n += perft(p, depth - 1);
    return n;
  }

 private:
  void rec(Sequence& cur, std::vector<int>& left, int head_moves,
           std::vector<Sequence>& out) const {
    out.push_back(cur);
    if (on_board(cur.end, cur.end.turn) == 0) {
      out.back().won = true;  // the winning step ends the turn
      return;
    }
    char me = cur.end.turn;
    for (size_t i = 0; i < left.size(); ++i) {
      bool seen = false;
      for (size_t j = 0; j < i; ++j) seen |= left[j] == left[i];
      if (seen) continue;  // equal dice give the same sequences
      int die = left[i];
      for (int from = 1; from <= 24; ++from) {
        Pos next;
        std::string text;
        if (!try_step(cur.end, me, from, die, head_moves, next, text)) continue;
        Sequence saved = cur;
        cur.steps.push_back(text);
        cur.dice.push_back(die);
        cur.end = next;
        std::vector<int> rest = left;
        rest.erase(rest.begin() + static_cast<long>(i));
        rec(cur, rest, head_moves + (route(me, from) == 0 ? 1 : 0), out);
        cur = saved;
      }
    }
  }

  Rules rules_;
  mutable int head_limit_ = 1;
};

}  // namespace naive_nardy
