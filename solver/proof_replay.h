// A second proof of a superko result (`loom solve --method superko
// --replay`): the proof tree of each bound on the value is played out move
// by move on the model's own state, whose legal moves come from the whole
// superko history, and every leaf is scored by the model's outcome. The
// superko search (solver/superko_dfs.h) is asked only which move to try
// at the prover's nodes (SuperkoDfs::test and its stored best move); a
// wrong answer can make the replay fail, never succeed wrongly.
//
// Claims are about Black's final margin in half points (prisoners already
// taken included): "at least b" is proved by Black (one move at Black's
// nodes, every legal move at White's), "at most b" by White.
//
// Transpositions. A proved claim is reused at another node only under a
// condition checked with exact sets (no digests, no symmetry): same board,
// side to move and play state, and the same set
// R_K(H) = {(c, X): X a board of c's history, X[c] a strict superset of
// K[c]}, where K is the stones present at every node the proof relied on
// (the nodes of the proof tree below: the prover's chosen child only, the
// opponent's every child; an entry reused inside folds its own K in). A
// placement of c at such a node D gives R with R[c] a strict superset of
// D[c], which holds K[c]; superko refuses it iff R is a board of c's
// history (the boards played since the node, the same under both
// histories, or a board of R_K). So every node of the proof has the same
// legal moves under both histories and the proof carries over. This is the
// argument of superko_dfs.h, checked here by separate code over exact sets
// instead of 45-bit digests and on the proof tree only.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <concepts>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "model/common/bitboard.h"
#include "model/common/errors.h"
#include "model/common/game.h"
#include "solver/superko_dfs.h"

namespace loom::solver {

/// A history entry's board: the entry itself, or its `board` member.
template <class E>
const std::array<Bitboard<1>, 2>& history_board(const E& e) {
  if constexpr (requires { e.board; })
    return e.board;
  else
    return e;
}

/// A superko game whose state lists each player's history boards.
template <class S>
concept HistoryGame = SuperkoGame<S> && requires(const S& s, Color c) {
  { history_board(*s.history(c).begin()) } -> std::convertible_to<std::array<Bitboard<1>, 2>>;
};

template <HistoryGame S>
class ProofReplay {
 public:
  using Move = typename S::Move;
  using Board = std::array<Bitboard<1>, 2>;

  struct Stats {
    uint64_t nodes = 0;         ///< nodes of the proof trees played out (memo hits included)
    uint64_t leaves = 0;        ///< finished games scored by the model
    uint64_t hits = 0;          ///< claims reused from the memo
    uint64_t stored = 0;        ///< memo entries (each: proved bounds under one key)
    uint64_t oracle_nodes = 0;  ///< nodes the superko search spent answering
  };

  /// `oracle` is a superko search over the same game (its table is reused
  /// when warm); the memo stops growing at about `max_bytes`, and keeps
  /// only claims whose proof took at least `min_work` nodes (most nodes sit
  /// next to the leaves, where proving again is cheaper than storing).
  explicit ProofReplay(SuperkoDfs<S>& oracle, uint64_t max_bytes = uint64_t{1} << 30,
                       uint64_t min_work = 1)
      : oracle_(&oracle), geo_(&oracle.geo()), max_bytes_(max_bytes), min_work_(min_work) {
    if (geo_->num_sites() > 19) throw InputError("--replay: boards of at most 19 cells");
    const uint64_t buckets =
        std::bit_floor(std::max<uint64_t>(max_bytes / 4 * 3 / (sizeof(Slot) * kWays), 1));
    bucket_mask_ = buckets - 1;
    slots_.assign(buckets * kWays, Slot{});
  }

  /// Whether Black's final margin (half points) from `root` is at least
  /// (at_least) or at most `b` under best play, proved by playing out the
  /// proof tree. False: no proof found (the oracle was wrong, or the claim).
  bool prove(const S& root, bool at_least, int b) {
    S s = root;
    Board keep;
    const uint64_t before = oracle_->nodes();
    const bool ok = claim(s, at_least, b, keep, 0);
    st_.oracle_nodes += oracle_->nodes() - before;
    return ok;
  }

  const Stats& stats() const { return st_; }

  /// Called every 2^20 proof nodes (progress, interruption: it may throw).
  std::function<void()> tick;

 private:
  static Board board_of(const S& s) { return {s.stones(Color::kBlack), s.stones(Color::kWhite)}; }
  static int black_margin(const S& s) { return s.outcome().margin2; }
  static int past(const S& s) {
    return 2 * (s.prisoners(Color::kBlack) - s.prisoners(Color::kWhite));
  }

  /// R_K: the history boards of each colour c whose c-stones strictly
  /// contain keep[c], sorted (colour first).
  static std::vector<std::pair<int, Board>> relevant(const S& s, const Board& keep) {
    std::vector<std::pair<int, Board>> r;
    for (Color c : {Color::kBlack, Color::kWhite}) {
      const int i = c == Color::kBlack ? 0 : 1;
      for (const auto& e : s.history(c)) {
        const Board& h = history_board(e);
        const Bitboard<1>& x = h[static_cast<size_t>(i)];
        const Bitboard<1>& k = keep[static_cast<size_t>(i)];
        if (x != k && k.andnot(x).none()) r.emplace_back(i, h);
      }
    }
    auto less = [](const std::pair<int, Board>& a, const std::pair<int, Board>& b) {
      return std::tie(a.first, a.second[0].w[0], a.second[1].w[0]) <
             std::tie(b.first, b.second[0].w[0], b.second[1].w[0]);
    };
    std::sort(r.begin(), r.end(), less);
    r.erase(std::unique(r.begin(), r.end()), r.end());
    return r;
  }

  using RelSet = std::vector<std::pair<int, Board>>;
  static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  struct RelHash {
    size_t operator()(const RelSet& r) const {
      uint64_t h = 0x9e3779b97f4a7c15ull;
      for (const auto& [c, x] : r)
        h = mix(h ^ (x[0].w[0] * 6 + x[1].w[0] * 2 + static_cast<uint64_t>(c)));
      return static_cast<size_t>(h);
    }
  };

  /// The memo: buckets of kWays 16-byte slots. A slot's exact key packs
  /// both colours' stones and the play state with side to move (the
  /// position; claims are on the margin still to come, so prisoners taken
  /// before the node do not matter) and the cells of the board missing
  /// from the keep K, all over the compact cell indices; R_K is the index
  /// of its exact set in a pool of distinct sets (0: the empty set). The
  /// bucket depends on the position only, so every keep stored for it is
  /// in one bucket. Bounds: the margin still to come >= lo, <= hi.
  static constexpr int kWays = 8;
  static constexpr uint64_t kCells = (uint64_t{1} << 19) - 1;
  struct Slot {
    uint64_t key = 0;  ///< packed key + 1 (0: empty)
    uint32_t rel = 0;
    int8_t lo = -128, hi = 127;  ///< -128 / 127: none
    uint8_t work = 0;            ///< log2 of the proof's nodes (replacement)
    uint8_t pad = 0;
  };
  static_assert(sizeof(Slot) == 16);

  uint64_t cells(Bitboard<1> b) const {
    uint64_t m = 0;
    b.for_each([&](int site) { m |= uint64_t{1} << geo_->compact(site); });
    return m;
  }
  /// The position part of a slot key (bits 0-41).
  uint64_t position_key(const S& s) const {
    const uint64_t state = s.play_state() * 2 + (s.to_move() == Color::kWhite ? 1u : 0u);
    return cells(s.stones(Color::kBlack)) | cells(s.stones(Color::kWhite)) << 19 | state << 38;
  }
  Slot* bucket_of(uint64_t pos) { return &slots_[(mix(pos) & bucket_mask_) * kWays]; }
  /// The keep a slot's missing-cells mask stands for at board `b`.
  Board keep_of(const Board& b, uint64_t missing) const {
    Board k = b;
    for (; missing; missing &= missing - 1) {
      const int site = geo_->site_of_compact(std::countr_zero(missing));
      k[0].reset(site);
      k[1].reset(site);
    }
    return k;
  }
  /// The pool index of a set, or -1 if it is not in the pool.
  int64_t find_rel(const RelSet& r) const {
    if (r.empty()) return 0;
    const auto it = pool_.find(r);
    return it == pool_.end() ? -1 : it->second;
  }
  /// The pool index of a set, added if missing (-1: the pool is full).
  int64_t intern_rel(RelSet&& r) {
    if (r.empty()) return 0;
    if (const auto it = pool_.find(r); it != pool_.end()) return it->second;
    const uint64_t cost = 96 + r.size() * sizeof(r[0]);
    if (pool_bytes_ + cost > max_bytes_ / 4 || pool_.size() >= 0xfffffffeu) return -1;
    pool_bytes_ += cost;
    const auto id = static_cast<uint32_t>(pool_.size() + 1);
    pool_.emplace(std::move(r), id);
    return id;
  }

  /// Proves the claim at s (the node's board is folded into keep).
  bool claim(S& s, bool at_least, int b, Board& keep, int ply) {
    const uint64_t first = st_.nodes++;
    if ((first & ((1u << 20) - 1)) == 0 && tick) tick();
    keep = board_of(s);
    if (s.is_terminal()) {
      ++st_.leaves;
      const int m = black_margin(s);
      return at_least ? m >= b : m <= b;
    }
    const uint64_t pos = position_key(s);
    const int fb = b - past(s);  // the claim on the margin still to come
    const Board board = keep;
    Slot* const bk = bucket_of(pos);
    for (int i = 0; i < kWays; ++i) {
      const Slot& e = bk[i];
      if (e.key == 0 || ((e.key - 1) & ((uint64_t{1} << 42) - 1)) != pos) continue;
      if (at_least ? (e.lo == -128 || e.lo < fb) : (e.hi == 127 || e.hi > fb)) continue;
      const Board k = keep_of(board, (e.key - 1) >> 42);
      if (find_rel(relevant(s, k)) != int64_t{e.rel}) continue;
      ++st_.hits;
      keep = k;
      return true;
    }
    if (moves_.size() <= static_cast<size_t>(ply)) moves_.resize(static_cast<size_t>(ply) + 1);
    auto& ms = moves_[static_cast<size_t>(ply)];
    s.legal_moves(ms);
    typename S::Undo u;
    Board ck;
    const bool prover = (s.to_move() == Color::kBlack) == at_least;
    bool ok = true;
    if (prover) {
      // The oracle's move first, then any other the oracle says holds.
      const int t = s.to_move() == Color::kBlack ? 1 : -1;
      const int beta = t * (b - past(s));  // the mover's future value needed
      ok = false;
      if (oracle_->test(s, beta) >= beta) {
        if (const auto m = oracle_->stored_move(s)) {
          const auto i = std::find(ms.begin(), ms.end(), *m);
          if (i != ms.end()) std::rotate(ms.begin(), i, i + 1);
        }
        for (const Move& m : ms) {
          s.apply(m, u);
          // The child's value (its mover's side) must be at most
          // taken - beta: below the null window at taken - beta + 1.
          const int cut = 2 * static_cast<int>(u.removed.count()) - beta + 1;
          const bool holds = s.is_terminal() || oracle_->test(s, cut) < cut;
          const bool proved = holds && claim(s, at_least, b, ck, ply + 1);
          s.undo(m, u);
          if (proved) {
            keep[0] &= ck[0];
            keep[1] &= ck[1];
            ok = true;
            break;
          }
        }
      }
    } else {
      for (const Move& m : ms) {
        s.apply(m, u);
        ok = claim(s, at_least, b, ck, ply + 1);
        s.undo(m, u);
        if (!ok) break;
        keep[0] &= ck[0];
        keep[1] &= ck[1];
      }
    }
    if (ok && st_.nodes - first >= min_work_ && fb >= -127 && fb <= 126)
      store(s, pos, board, keep, at_least, fb, st_.nodes - first);
    return ok;
  }

  /// Adds a proved claim (the margin still to come >= fb, or <= fb) for
  /// the position `pos` with board `board`, keep `keep`.
  void store(const S& s, uint64_t pos, const Board& board, const Board& keep, bool at_least, int fb,
             uint64_t work) {
    const int64_t rel = intern_rel(relevant(s, keep));
    if (rel < 0) return;
    const uint64_t missing = cells((board[0] | board[1]).andnot(keep[0] | keep[1]));
    const uint64_t key = (pos | missing << 42) + 1;
    const auto lg = static_cast<uint8_t>(std::bit_width(work));
    Slot* const bk = bucket_of(pos);
    Slot* victim = nullptr;
    for (int i = 0; i < kWays; ++i) {
      Slot& e = bk[i];
      if (e.key == key && e.rel == static_cast<uint32_t>(rel)) {
        victim = &e;
        break;
      }
      if (!victim || (victim->key != 0 && (e.key == 0 || e.work < victim->work))) victim = &e;
    }
    if (victim->key != key || victim->rel != static_cast<uint32_t>(rel)) {
      if (victim->key != 0 && victim->work > lg) return;
      if (victim->key == 0) ++st_.stored;
      *victim = Slot{key, static_cast<uint32_t>(rel), -128, 127, lg, 0};
    }
    if (at_least)
      victim->lo = static_cast<int8_t>(std::max<int>(victim->lo == -128 ? -127 : victim->lo, fb));
    else
      victim->hi = static_cast<int8_t>(std::min<int>(victim->hi == 127 ? 126 : victim->hi, fb));
    victim->work = std::max(victim->work, lg);
  }

  SuperkoDfs<S>* oracle_;
  const HexGeometry* geo_;
  uint64_t max_bytes_;
  uint64_t min_work_;
  std::vector<Slot> slots_;
  uint64_t bucket_mask_ = 0;
  std::unordered_map<RelSet, uint32_t, RelHash> pool_;  ///< distinct R_K sets (ids from 1)
  uint64_t pool_bytes_ = 0;
  std::deque<std::vector<Move>> moves_;  ///< move lists per ply (a deque: growing keeps references)
  Stats st_;
};

}  // namespace loom::solver
