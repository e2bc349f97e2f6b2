// Deliberately plain game-value references for cross-checking the solver.
// They share no code with solver/: explicit positions in std::map, no
// symmetry, no tables beyond the position list, no ordering tricks.
//
// NaiveGame interface (duck-typed): Pos start(); std::vector<Move>
// legal(const Pos&); Pos play(const Pos&, Move); char turn(const Pos&)
// ('B'/'W'); char winner_at_end(const Pos&) ('B', 'W', or '-' for an end
// without a winner). Pos must be ordered (operator<).
#pragma once

#include <map>
#include <optional>
#include <vector>

namespace naive {

enum class Val { kUnknown, kBlack, kWhite, kNeutral, kDraw };

/// Fixed-point iteration over every position reachable from `start`: a
/// position is a win for the mover if some move reaches a win for the mover,
/// a loss if every move reaches a win for the opponent, neutral if every
/// move is decided and neither holds; repeat until nothing changes. What is
/// left undecided is a draw (play can go on for ever). Correct with cycles.
/// nullopt if more than max_positions positions are reachable.
template <class G>
std::optional<std::map<typename G::Pos, Val>> fixed_point_values(const G& g,
                                                                 size_t max_positions = 1000000) {
  using Pos = typename G::Pos;
  std::map<Pos, Val> val;
  std::vector<Pos> order{g.start()};
  val[g.start()] = Val::kUnknown;
  for (size_t i = 0; i < order.size(); ++i) {
    for (auto m : g.legal(order[i])) {
      Pos q = g.play(order[i], m);
      if (val.emplace(q, Val::kUnknown).second) order.push_back(q);
    }
    if (order.size() > max_positions) return std::nullopt;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (const Pos& p : order) {
      if (val[p] != Val::kUnknown) continue;
      auto ms = g.legal(p);
      Val mine = g.turn(p) == 'B' ? Val::kBlack : Val::kWhite;
      Val theirs = mine == Val::kBlack ? Val::kWhite : Val::kBlack;
      Val next = Val::kUnknown;
      if (ms.empty()) {
        char w = g.winner_at_end(p);
        next = w == 'B' ? Val::kBlack : w == 'W' ? Val::kWhite : Val::kNeutral;
      } else {
        bool all_theirs = true, all_known = true, win = false;
        for (auto m : ms) {
          Val v = val[g.play(p, m)];
          if (v == mine) win = true;
          if (v != theirs) all_theirs = false;
          if (v == Val::kUnknown) all_known = false;
        }
        if (win)
          next = mine;
        else if (all_theirs)
          next = theirs;
        else if (all_known)
          next = Val::kNeutral;
      }
      if (next != Val::kUnknown) {
        val[p] = next;
        changed = true;
      }
    }
  }
  for (auto& [p, v] : val)
    if (v == Val::kUnknown) v = Val::kDraw;
  return val;
}

/// Plain minimax for acyclic games: +1 Black wins, -1 White wins, 0 neutral.
/// No table, no symmetry, no pruning.
template <class G>
int minimax(const G& g, const typename G::Pos& p) {
  auto ms = g.legal(p);
  if (ms.empty()) {
    char w = g.winner_at_end(p);
    return w == 'B' ? 1 : w == 'W' ? -1 : 0;
  }
  bool black = g.turn(p) == 'B';
  int best = black ? -2 : 2;
  for (auto m : ms) {
    int v = minimax(g, g.play(p, m));
    best = black ? std::max(best, v) : std::min(best, v);
  }
  return best;
}

}  // namespace naive
