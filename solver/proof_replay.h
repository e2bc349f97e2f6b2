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
      : oracle_(&oracle), max_bytes_(max_bytes), min_work_(min_work) {}

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

  /// Exact key: both colours' stones, side to move, play state (claims
  /// are stored on the margin still to come, so prisoners taken before the
  /// node do not matter: the final margin is theirs plus what follows).
  struct Key {
    uint64_t black = 0, white = 0;
    uint32_t state = 0;
    bool operator==(const Key&) const = default;
  };
  static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  struct KeyHash {
    size_t operator()(const Key& k) const {
      return static_cast<size_t>(mix(k.black ^ mix(k.white ^ mix(uint64_t{k.state}))));
    }
  };
  static Key key_of(const S& s) {
    return {s.stones(Color::kBlack).w[0], s.stones(Color::kWhite).w[0],
            s.play_state() * 2 + (s.to_move() == Color::kWhite ? 1u : 0u)};
  }
  /// A memo entry's exact key: the position's key, the keep K and R_K.
  struct MemoKey {
    Key key;
    Board keep{};
    std::vector<std::pair<int, Board>> rel;
    bool operator==(const MemoKey&) const = default;
  };
  struct MemoHash {
    size_t operator()(const MemoKey& m) const {
      uint64_t h = KeyHash{}(m.key) ^ mix(m.keep[0].w[0] * 3 + m.keep[1].w[0]);
      for (const auto& [c, x] : m.rel)
        h = mix(h ^ (x[0].w[0] * 6 + x[1].w[0] * 2 + static_cast<uint64_t>(c)));
      return static_cast<size_t>(h);
    }
  };
  /// What is proved under a memo key: Black's margin still to come (final
  /// margin less 2 x the prisoner difference now) >= lo and <= hi.
  struct Bounds {
    int lo = std::numeric_limits<int>::min();
    int hi = std::numeric_limits<int>::max();
  };
  /// Memory of one entry, roughly (node, key, its R_K; the keep list).
  /// Measured on Fiodar side 3 (resident memory over entries): the hash
  /// node with its key and bounds, its bucket, the heap block of R_K, and
  /// the keep list's share, with the allocator's headers.
  static uint64_t entry_bytes(const MemoKey& m) {
    const uint64_t rel = m.rel.empty() ? 0 : 16 + m.rel.size() * sizeof(m.rel[0]);
    return 2 * (sizeof(MemoKey) + sizeof(Bounds) + 32) + rel + 2 * sizeof(Board) + 64;
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
    const Key key = key_of(s);
    const int fb = b - past(s);  // the claim on the margin still to come
    if (auto it = keeps_.find(key); it != keeps_.end())
      for (const Board& k : it->second) {
        const auto m = memo_.find(MemoKey{key, k, relevant(s, k)});
        if (m != memo_.end() && (at_least ? m->second.lo >= fb : m->second.hi <= fb)) {
          ++st_.hits;
          keep = k;
          return true;
        }
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
    if (ok && st_.nodes - first >= min_work_) {
      MemoKey mk{key, keep, relevant(s, keep)};
      auto it = memo_.find(mk);
      if (it == memo_.end() && bytes_ + entry_bytes(mk) <= max_bytes_) {
        bytes_ += entry_bytes(mk);
        auto& ks = keeps_[key];
        if (std::find(ks.begin(), ks.end(), keep) == ks.end()) ks.push_back(keep);
        it = memo_.emplace(std::move(mk), Bounds{}).first;
        ++st_.stored;
      }
      if (it != memo_.end()) {
        if (at_least)
          it->second.lo = std::max(it->second.lo, fb);
        else
          it->second.hi = std::min(it->second.hi, fb);
      }
    }
    return ok;
  }

  SuperkoDfs<S>* oracle_;
  uint64_t max_bytes_;
  uint64_t min_work_;
  uint64_t bytes_ = 0;
  std::unordered_map<Key, std::vector<Board>, KeyHash> keeps_;  ///< the keeps stored per key
  std::unordered_map<MemoKey, Bounds, MemoHash> memo_;
  std::deque<std::vector<Move>> moves_;  ///< move lists per ply (a deque: growing keeps references)
  Stats st_;
};

}  // namespace loom::solver
