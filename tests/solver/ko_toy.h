// A toy scored game with positional superko in which superko decides values
// often (Fiodar's rarely does: docs/solver.md), for testing the superko
// method's table (solver/superko_dfs.h) against plain search over whole
// histories. Not a game of the project; written for the tests only.
//
// Board: a few chosen cells of the side-2 hex board. A turn is a pass or a
// placement on an empty cell; the placement removes every adjacent enemy
// stone left without an empty neighbour (stone by stone, no groups), and is
// illegal if the placed stone then has no empty neighbour, or if the board
// after it equals one of the mover's earlier end-of-turn boards (passes
// included; the start board belongs to no history). Two passes in a row
// end the game. Score: stones on the board plus prisoners, plus a half
// point to the player who made the first of the two final passes.
// Single-stone captures on a small graph give ko fights at once.
#pragma once

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/common/bitboard.h"
#include "model/common/game.h"
#include "model/common/hex.h"

namespace loom::testing {

class KoToy {
 public:
  using BB = Bitboard<1>;
  using Board = std::array<BB, 2>;
  struct Move {
    int16_t site = -1;  ///< -1: pass
    static constexpr Move pass() { return Move{-1}; }
    bool is_pass() const { return site < 0; }
    auto operator<=>(const Move&) const = default;
  };
  struct Undo {
    BB removed;
    int passes = 0;
    int first_passer = -1;
  };

  /// The toy on the listed cells of the side-2 board.
  explicit KoToy(std::initializer_list<const char*> cells) : geo_(&HexGeometry::get(2)) {
    for (const char* c : cells) cells_.set(*geo_->parse(c));
  }

  /// The same cells with board b and c to move, no history (a set-up).
  KoToy set_up(const Board& b, Color c) const {
    KoToy t = *this;
    t.board_ = b;
    t.to_move_ = c;
    t.passes_ = 0;
    t.first_passer_ = -1;
    t.prisoners_ = {};
    t.history_ = {};
    return t;
  }
  const Board& board() const { return board_; }
  const HexGeometry& geo() const { return *geo_; }
  Color to_move() const { return to_move_; }
  BB stones(Color c) const { return board_[idx(c)]; }
  int prisoners(Color c) const { return prisoners_[idx(c)]; }
  int consecutive_passes() const { return passes_; }
  uint32_t play_state() const { return static_cast<uint32_t>(passes_); }
  bool is_terminal() const { return passes_ >= 2; }
  BB empty() const { return cells_.andnot(board_[0] | board_[1]); }

  Outcome outcome() const {
    if (!is_terminal()) return {};
    const int b = board_[0].count() + prisoners_[0], w = board_[1].count() + prisoners_[1];
    return {Outcome::Kind::kOngoing, 2 * (b - w) + (first_passer_ == 0 ? 1 : -1)};
  }

  /// The board after the mover places at `site`, and what it removes;
  /// nullopt if the stone would have no empty neighbour.
  std::optional<std::pair<Board, BB>> place(int site) const {
    const int me = idx(to_move_), op = 1 - me;
    Board r = board_;
    r[me].set(site);
    BB removed;
    for (int d = 0; d < 6; ++d) {
      const int n = geo_->neighbour(site, d);
      if (n < 0 || !r[op].test(n)) continue;
      if (!has_liberty(r, n)) removed.set(n);
    }
    r[op] = r[op].andnot(removed);
    if (!has_liberty(r, site)) return std::nullopt;
    return std::make_pair(r, removed);
  }

  void legal_moves(std::vector<Move>& out) const {
    out.clear();
    if (is_terminal()) return;
    out.push_back(Move::pass());
    empty().for_each([&](int site) {
      auto p = place(site);
      if (p && !in_history(to_move_, p->first)) out.push_back(Move{static_cast<int16_t>(site)});
    });
  }

  void apply(const Move& m, Undo& u) {
    const int me = idx(to_move_);
    u.removed = BB{};
    u.passes = passes_;
    u.first_passer = first_passer_;
    if (m.is_pass()) {
      if (passes_ == 0) first_passer_ = me;
      ++passes_;
    } else {
      auto p = *place(m.site);
      board_ = p.first;
      u.removed = p.second;
      prisoners_[me] += p.second.count();
      passes_ = 0;
    }
    history_[me].push_back(board_);
    to_move_ = other(to_move_);
  }
  void undo(const Move& m, const Undo& u) {
    to_move_ = other(to_move_);
    const int me = idx(to_move_);
    history_[me].pop_back();
    passes_ = u.passes;
    first_passer_ = u.first_passer;
    if (!m.is_pass()) {
      board_[me].reset(m.site);
      board_[1 - me] |= u.removed;
      prisoners_[me] -= u.removed.count();
    }
  }

  bool superko_refuses() const {
    bool any = false;
    if (is_terminal()) return false;
    empty().for_each([&](int site) {
      auto p = place(site);
      any = any || (p && in_history(to_move_, p->first));
    });
    return any;
  }
  /// A player's superko history (end-of-turn boards; solver/proof_replay.h).
  std::span<const Board> history(Color c) const { return history_[idx(c)]; }
  template <class F>
  void for_each_above(const Board& keep, F&& f) const {
    for (Color c : {Color::kBlack, Color::kWhite}) {
      const BB& k = keep[idx(c)];
      for (const Board& x : history_[idx(c)])
        if (x[idx(c)] != k && k.andnot(x[idx(c)]).none()) f(c, x);
    }
  }

  /// Everything that decides the future: board, side, passes, first
  /// passer, prisoners and both histories (as lists: the plain search
  /// below keys nothing by it).
  bool operator==(const KoToy& o) const {
    return board_ == o.board_ && to_move_ == o.to_move_ && passes_ == o.passes_ &&
           first_passer_ == o.first_passer_ && prisoners_ == o.prisoners_ && history_ == o.history_;
  }
  uint64_t hash() const { return recompute_hash(); }
  uint64_t recompute_hash() const {
    return board_[0].w[0] * 0x9e3779b97f4a7c15ull ^ board_[1].w[0] * 0xbf58476d1ce4e5b9ull ^
           static_cast<uint64_t>(idx(to_move_));
  }
  std::string move_name(const Move& m) const { return m.is_pass() ? "pass" : geo_->name(m.site); }
  std::optional<Move> parse_move(std::string_view t) const {
    if (t == "pass") return Move::pass();
    auto s = geo_->parse(t);
    if (!s || !cells_.test(*s)) return std::nullopt;
    return Move{static_cast<int16_t>(*s)};
  }
  std::string check_invariants() const { return ""; }
  /// The whole state but the prisoners, histories as sorted sets (the
  /// reference search's memo key).
  std::string key() const {
    std::string k;
    auto put = [&](uint64_t x) { k.append(reinterpret_cast<const char*>(&x), sizeof x); };
    put(board_[0].w[0]);
    put(board_[1].w[0]);
    put(static_cast<uint64_t>(idx(to_move_)) | uint64_t(passes_) << 8 |
        uint64_t(first_passer_ + 1) << 16);
    for (const auto& h : history_) {
      std::vector<std::pair<uint64_t, uint64_t>> v;
      for (const Board& b : h) v.emplace_back(b[0].w[0], b[1].w[0]);
      std::sort(v.begin(), v.end());
      v.erase(std::unique(v.begin(), v.end()), v.end());
      put(v.size());
      for (auto [a, b] : v) {
        put(a);
        put(b);
      }
    }
    return k;
  }

 private:
  bool has_liberty(const Board& b, int site) const {
    for (int d = 0; d < 6; ++d) {
      const int n = geo_->neighbour(site, d);
      if (n >= 0 && cells_.test(n) && !b[0].test(n) && !b[1].test(n)) return true;
    }
    return false;
  }
  bool in_history(Color c, const Board& b) const {
    const auto& h = history_[idx(c)];
    return std::find(h.begin(), h.end(), b) != h.end();
  }

  const HexGeometry* geo_;
  BB cells_;
  Board board_{};
  Color to_move_ = Color::kBlack;
  int passes_ = 0;
  int first_passer_ = -1;
  std::array<int, 2> prisoners_{};
  std::array<std::vector<Board>, 2> history_;
};

/// Black minus White still to come (prisoners so far excluded) under best
/// play, by negamax over whole histories, memoised by the whole state with
/// the histories as sets: the reference the superko method must match.
class KoToyReference {
 public:
  int future_margin(KoToy& s) {
    ++nodes;
    const int past = 2 * (s.prisoners(Color::kBlack) - s.prisoners(Color::kWhite));
    if (s.is_terminal()) return s.outcome().margin2 - past;
    const std::string key = s.key();
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    std::vector<KoToy::Move> ms;
    s.legal_moves(ms);
    const bool black = s.to_move() == Color::kBlack;
    int best = black ? -1000 : 1000;
    KoToy::Undo u;
    for (const auto& m : ms) {
      s.apply(m, u);
      const int taken = 2 * u.removed.count();
      const int v = future_margin(s) + (black ? taken : -taken);
      s.undo(m, u);
      best = black ? std::max(best, v) : std::min(best, v);
    }
    memo_.emplace(key, best);
    return best;
  }
  uint64_t nodes = 0;

 private:
  std::map<std::string, int> memo_;
};

}  // namespace loom::testing
