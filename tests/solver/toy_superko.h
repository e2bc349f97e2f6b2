// A toy game with a positional superko rule, for graph-history interaction
// (GHI) tests. A token sits on a node of a small directed graph; the players
// move it in turn along an edge; a player may not move it to a node where it
// stood at the end of one of that player's own earlier turns (the start
// node belongs to no history); a player with no legal move loses.
//
// A graph may name a `stall` node: reaching it ends the game without a
// winner (Outcome kUnresolved), like Enfargar's unresolved end.
//
// Like Fiodar's superko, the legal moves depend on the history, so the
// state carries it (and operator== and the hash include it, as the Game
// concept requires).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/common/game.h"

namespace toy {

using loom::Color;

struct Graph {
  std::vector<std::vector<int>> out;  ///< successors of each node, ascending
  int stall = -1;                     ///< a node where the game ends without a winner
};

class Superko {
 public:
  struct Move {
    int to = -1;
    auto operator<=>(const Move&) const = default;
  };
  struct Undo {
    int from = -1;
  };

  Superko(const Graph* g, int start) : g_(g), node_(start) { hash_ = recompute_hash(); }

  bool operator==(const Superko& o) const {
    return node_ == o.node_ && to_move_ == o.to_move_ && seen_ == o.seen_;
  }
  void legal_moves(std::vector<Move>& out) const {
    out.clear();
    if (node_ == g_->stall) return;
    for (int v : g_->out[node_])
      if (!(seen_[loom::idx(to_move_)] >> v & 1)) out.push_back(Move{v});
  }
  void apply(const Move& m, Undo& u) {
    u.from = node_;
    node_ = m.to;
    seen_[loom::idx(to_move_)] |= uint64_t{1} << m.to;
    to_move_ = loom::other(to_move_);
    hash_ = recompute_hash();
  }
  void undo(const Move& m, const Undo& u) {
    to_move_ = loom::other(to_move_);
    seen_[loom::idx(to_move_)] &= ~(uint64_t{1} << m.to);
    node_ = u.from;
    hash_ = recompute_hash();
  }
  uint64_t hash() const { return hash_; }
  uint64_t recompute_hash() const {
    uint64_t h = static_cast<uint64_t>(node_) * 0x9e3779b97f4a7c15ull;
    h ^= (seen_[0] + 0x1234567) * 0xbf58476d1ce4e5b9ull;
    h ^= (seen_[1] + 0x7654321) * 0x94d049bb133111ebull;
    return h ^ (to_move_ == Color::kWhite ? 0x5555 : 0);
  }
  bool is_terminal() const {
    std::vector<Move> ms;
    legal_moves(ms);
    return ms.empty();
  }
  loom::Outcome outcome() const {
    if (!is_terminal()) return loom::Outcome{};
    if (node_ == g_->stall) return loom::Outcome{loom::Outcome::Kind::kUnresolved};
    return loom::Outcome::win(loom::other(to_move_));
  }
  Color to_move() const { return to_move_; }
  int node() const { return node_; }
  std::string move_name(const Move& m) const { return "n" + std::to_string(m.to); }
  std::optional<Move> parse_move(std::string_view t) const {
    if (t.size() < 2 || t[0] != 'n') return std::nullopt;
    return Move{std::stoi(std::string(t.substr(1)))};
  }
  std::string check_invariants() const { return hash_ == recompute_hash() ? "" : "hash"; }

 private:
  const Graph* g_;
  int node_;
  Color to_move_ = Color::kBlack;
  std::array<uint64_t, 2> seen_{};  ///< nodes at the end of each player's turns
  uint64_t hash_ = 0;
};

static_assert(loom::Game<Superko>);

}  // namespace toy
