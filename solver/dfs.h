// Depth-first exact search: negamax alpha-beta with a transposition table,
// symmetry reduction and move ordering, for games whose reachable position
// graph is acyclic (Enfargar, Migong, Fiodar with its superko history,
// Gadur under a rule set the termination check proves acyclic).
//
// Scores. A terminal position scores, from Black's side,
//   sign * kWin + margin2
// (sign +1 Black wins, -1 White wins, 0 for an end without a winner;
// margin2 = Black minus White in half points, 0 for unscored games), so
// maximising the score is "win first, then the largest margin". Searches work
// from the mover's side (negamax) and return exact scores for full windows.
//
// History (graph-history interaction). The table key is the whole state as
// the game's operator== sees it (Packed or the state itself), and the Game
// concept requires that to include every part of the history a rule consults
// (Fiodar: the earlier end-of-turn boards for superko). A stored bound is
// therefore only reused for a position whose future is the same, so no
// stored result can be transplanted into a different history: the GHI
// problem cannot arise, at the price of fewer transpositions. A path that
// returns to a position with the same hash as an ancestor means the graph
// has a cycle: the search stops with an error instead of answering (use the
// retrograde method for cyclic games).
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/common/errors.h"
#include "model/common/game.h"
#include "solver/control.h"
#include "solver/core.h"
#include "solver/huge_pages.h"
#include "solver/value.h"

namespace loom::solver {

/// Thrown by DfsSolver when the position graph has a cycle.
class CycleError : public InputError {
 public:
  using InputError::InputError;
};

/// Thrown by DfsSolver when its node budget (Config::max_nodes) is spent.
class NodeLimit : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr int32_t kWinScore = 1 << 24;
inline constexpr int32_t kInfScore = 1 << 30;

/// Score of a terminal outcome from Black's side (see dfs.h).
inline int32_t black_score(const Outcome& o) {
  int32_t sign = o.kind == Outcome::Kind::kBlackWins   ? 1
                 : o.kind == Outcome::Kind::kWhiteWins ? -1
                                                       : 0;
  return sign * kWinScore + o.margin2;
}

/// Could `black` be a score from Black's side? 0 (a stall or drawn end),
/// or a win with a margin below 2^20 half points of the winner's sign.
inline bool possible_score(int32_t black) {
  const int32_t a = black < 0 ? -black : black;
  return black == 0 || (a >= kWinScore && a - kWinScore < (1 << 20));
}

/// Converts a score from Black's side back to a value. `neutral` is the kind
/// reported for a score of 0 (stall or drawn end).
inline Value score_value(int32_t black, Value::Kind neutral) {
  if (black == 0) return Value::of(neutral);
  int32_t sign = black > 0 ? 1 : -1;
  int32_t margin2 = black - sign * kWinScore;
  if (margin2 != 0) return Value::margin(margin2);
  return Value::of(sign > 0 ? Value::Kind::kBlack : Value::Kind::kWhite);
}

template <Game S>
class DfsSolver {
 public:
  using Traits = KeyTraits<S>;
  using Key = typename Traits::Key;
  using Move = typename S::Move;

  struct Config {
    bool symmetry = true;
    /// Largest transposition table in bytes, counting the memory keys own
    /// on the heap (Fiodar's superko histories) and the old array while the
    /// table grows. The table starts small and grows (at most doubling)
    /// while it is more than 3/4 full and the new array fits beside the old
    /// one; once the budget is spent, a new entry only replaces the entry
    /// with the least work below it in its bucket.
    uint64_t table_bytes = uint64_t{256} << 20;
    /// Stop with NodeLimit after this many nodes (0: no limit).
    uint64_t max_nodes = 0;
    /// Several solvers on one budget (threads): when set, max_nodes is
    /// not read and the solver draws nodes from grant() as it goes; 0
    /// means none are left (NodeLimit).
    std::function<uint64_t()> grant;
    /// Several solvers on one RunControl (threads): when set, called every
    /// 2^16 nodes instead of the solver's own progress line and stop poll
    /// (it throws to stop).
    std::function<void()> tick;
  };

  DfsSolver(const S& proto, Config cfg, RunControl& ctl)
      : proto_(proto), cfg_(std::move(cfg)), canon_(cfg_.symmetry), ctl_(ctl) {
    max_buckets_ = std::max<uint64_t>(1, cfg_.table_bytes / sizeof(Bucket));
    table_.resize(std::min<uint64_t>(max_buckets_, 1 << 12));
    budget_ = cfg_.grant ? 0 : cfg_.max_nodes != 0 ? cfg_.max_nodes : ~uint64_t{0};
  }

  /// Exact score of s from the side to move.
  int32_t solve(const S& s) {
    S t = s;
    path_.clear();
    return search(t, -kInfScore, kInfScore, 0);
  }
  /// Exact score of s from Black's side.
  int32_t solve_black(const S& s) {
    int32_t v = solve(s);
    return s.to_move() == Color::kBlack ? v : -v;
  }

  /// The longest line principal_variation() works out (a stall's line
  /// goes on for ever).
  static constexpr int kPvMaxPlies = 400;
  /// A principal variation from s: optimal moves until the end (at most
  /// `max_plies`), ties resolved by move order.
  std::vector<Move> principal_variation(const S& s, int max_plies = kPvMaxPlies) {
    std::vector<Move> pv;
    S t = s;
    std::vector<Move> ms;
    typename S::Undo u;
    for (int ply = 0; ply < max_plies; ++ply) {
      t.legal_moves(ms);
      if (ms.empty()) break;
      int32_t v = solve(t);
      bool found = false;
      for (const Move& m : ms) {
        S c = t;
        c.apply(m, u);
        int32_t cv = solve(c);
        if (c.to_move() != t.to_move()) cv = -cv;
        if (cv == v) {
          pv.push_back(m);
          t = c;
          found = true;
          break;
        }
      }
      if (!found) throw std::logic_error("principal variation: no move keeps the value");
    }
    return pv;
  }

  uint64_t nodes() const { return nodes_; }
  /// Kind of neutral end met (stall or drawn end) for score 0.
  Value::Kind neutral_kind() const { return neutral_; }
  /// Memory of the table: buckets plus what stored keys own on the heap.
  uint64_t table_bytes() const { return table_.size() * sizeof(Bucket) + heap_; }
  uint64_t stored() const { return stored_; }
  const Canonicalizer<S>& canonicalizer() const { return canon_; }

 private:
  struct Entry {
    std::optional<Key> key;
    uint64_t hash = 0;
    int32_t lower = -kInfScore, upper = kInfScore;
    std::optional<Move> best;  ///< in the stored (canonical) frame
    uint64_t work = 0;         ///< nodes searched below: the replacement priority
  };
  static constexpr int kWays = 4;
  struct Bucket {
    Entry e[kWays];
  };

  static uint64_t mix(uint64_t h) {
    h ^= h >> 31;
    h *= 0x7fb5d329728ea185ull;
    h ^= h >> 27;
    return h;
  }

  Entry* probe(const Key& k, uint64_t h) {
    Bucket& b = table_[mix(h) % table_.size()];
    for (auto& e : b.e)
      if (e.key && *e.key == k) return &e;
    return nullptr;
  }

  /// Bytes still free in the budget.
  int64_t budget_left() const {
    return static_cast<int64_t>(cfg_.table_bytes) -
           static_cast<int64_t>(table_.size() * sizeof(Bucket) + heap_);
  }

  void store(const Key& k, uint64_t h, int32_t lower, int32_t upper,
             const std::optional<Move>& best, uint64_t work) {
    if (stored_ * 4 > table_.size() * kWays * 3 && table_.size() < max_buckets_) {
      // The old array lives until the new one is filled, so the new one may
      // take only what the budget leaves beside it: peak memory stays within
      // the budget (the table ends at about 2/3 of it).
      const int64_t room = budget_left() / static_cast<int64_t>(sizeof(Bucket));
      const uint64_t n = std::min<uint64_t>(
          {max_buckets_, table_.size() * 2, static_cast<uint64_t>(std::max<int64_t>(0, room))});
      if (n > table_.size() + table_.size() / 4) grow(n);
    }
    Bucket& b = table_[mix(h) % table_.size()];
    Entry* slot = nullptr;
    for (auto& e : b.e)
      if (e.key && *e.key == k) slot = &e;
    const int64_t need = static_cast<int64_t>(Traits::heap_bytes(k));
    if (!slot && (need == 0 || budget_left() >= need)) {
      for (auto& e : b.e)
        if (!e.key) {
          slot = &e;
          break;
        }
    }
    if (!slot) {
      // Replace the occupied entry with the least work below it.
      for (auto& e : b.e)
        if (e.key && (!slot || e.work < slot->work)) slot = &e;
      if (!slot) return;  // budget spent and nothing here to replace
      if (need - static_cast<int64_t>(Traits::heap_bytes(*slot->key)) > budget_left())
        return;  // the larger key would overrun the budget
    }
    if (slot->key)
      heap_ -= Traits::heap_bytes(*slot->key);
    else
      ++stored_;
    slot->key = k;
    heap_ += Traits::heap_bytes(*slot->key);
    slot->hash = h;
    slot->lower = lower;
    slot->upper = upper;
    slot->best = best;
    slot->work = work;
  }

  void grow(uint64_t buckets) {
    HugeVector<Bucket> old(buckets);
    old.swap(table_);
    stored_ = 0;
    heap_ = 0;
    for (auto& b : old)
      for (auto& e : b.e)
        if (e.key) store_entry(std::move(e));
  }
  void store_entry(Entry&& e) {
    Bucket& b = table_[mix(e.hash) % table_.size()];
    Entry* slot = nullptr;
    for (auto& x : b.e)
      if (!x.key) {
        slot = &x;
        break;
      }
    if (!slot) {
      slot = &b.e[0];
      for (auto& x : b.e)
        if (x.work < slot->work) slot = &x;
      if (slot->work > e.work) return;
      heap_ -= Traits::heap_bytes(*slot->key);
    } else {
      ++stored_;
    }
    *slot = std::move(e);
    heap_ += Traits::heap_bytes(*slot->key);
  }

  int32_t terminal_score(const S& s) {
    Outcome o = s.outcome();
    if (o.kind == Outcome::Kind::kUnresolved) neutral_ = Value::Kind::kStall;
    int32_t b = black_score(o);
    return s.to_move() == Color::kBlack ? b : -b;
  }

  /// The budget is spent: a grant extends it, else NodeLimit.
  void more_nodes() {
    const uint64_t more = cfg_.grant ? cfg_.grant() : 0;
    if (more == 0) throw NodeLimit("node limit reached");
    budget_ = nodes_ + more;
  }

  std::vector<Move>& moves_at(int ply) {
    if (static_cast<int>(moves_.size()) <= ply) moves_.resize(ply + 1);
    return moves_[ply];
  }

  int32_t search(S& s, int32_t alpha, int32_t beta, int ply) {
    if (nodes_ >= budget_) more_nodes();
    ++nodes_;
    if ((nodes_ & 0xffff) == 0) {
      if (cfg_.tick) {
        cfg_.tick();
      } else {
        ctl_.status_detail(with_commas(nodes_) + " nodes, " + with_commas(stored_) + " stored");
        if (ctl_.stop_requested()) throw Interrupted("interrupted while searching");
      }
    }
    auto& ms = moves_at(ply);
    s.legal_moves(ms);
    if (ms.empty()) return terminal_score(s);

    uint64_t h = s.hash();
    for (uint64_t a : path_)
      if (a == h)
        throw CycleError(
            "the position graph has a cycle (a position repeats along a line of play); "
            "depth-first search is unsound here: use --method retrograde");

    int sym = 0;
    S c = canon_.canonical(s, &sym);
    Key key = Traits::key(c);
    uint64_t ch = c.hash();
    const int32_t alpha0 = alpha, beta0 = beta;
    int32_t known_lower = -kInfScore, known_upper = kInfScore;
    std::optional<Move> tt_move;
    if (Entry* e = probe(key, ch)) {
      if (e->lower >= beta) return e->lower;
      if (e->upper <= alpha) return e->upper;
      if (e->lower == e->upper) return e->lower;
      known_lower = e->lower;
      known_upper = e->upper;
      alpha = std::max(alpha, e->lower);
      beta = std::min(beta, e->upper);
      if (e->best) {
        for (const Move& m : ms)
          if (map(sym, s, m) == *e->best) {
            tt_move = m;
            break;
          }
      }
    }

    // Order: table move, then killers, then the rest in legal order.
    order(ms, tt_move, ply);
    path_.push_back(h);
    uint64_t nodes_before = nodes_;
    int32_t best = -kInfScore;
    std::optional<Move> best_move;
    typename S::Undo u;
    const Color me = s.to_move();
    for (size_t i = 0; i < ms.size(); ++i) {
      const Move m = ms[i];
      s.apply(m, u);
      int32_t v;
      if (s.to_move() == me) {
        v = search(s, std::max(alpha, best), beta, ply + 1);
      } else {
        v = -search(s, -beta, -std::max(alpha, best), ply + 1);
      }
      s.undo(m, u);
      if (v > best) {
        best = v;
        best_move = m;
      }
      if (best >= beta) {
        note_killer(m, ply);
        break;
      }
    }
    path_.pop_back();

    // Fail-soft bounds from the window actually searched, merged with what
    // the table knew (both are true bounds, so their intersection is).
    int32_t lower = known_lower, upper = known_upper;
    if (best >= beta) {
      lower = std::max(lower, best);
    } else if (best <= alpha) {
      upper = std::min(upper, best);
    } else {
      lower = upper = best;
    }
    std::optional<Move> stored_move;
    if (best_move) stored_move = map(sym, s, *best_move);
    store(key, ch, lower, upper, stored_move, nodes_ - nodes_before);
    // A result the caller can read against its own window (alpha0, beta0).
    if (lower == upper) return lower;
    if (upper <= alpha0) return upper;
    if (lower >= beta0) return lower;
    throw std::logic_error("alpha-beta: window not resolved");
  }

  /// Maps a move of s into the canonical frame (symmetry sym).
  Move map(int sym, const S& s, const Move& m) const {
    if constexpr (SymmetricGame<S>) {
      return sym == 0 ? m : s.map_move(sym, m);
    } else {
      (void)sym;
      (void)s;
      return m;
    }
  }

  void order(std::vector<Move>& ms, const std::optional<Move>& tt_move, int ply) {
    size_t front = 0;
    auto bring = [&](const Move& want) {
      for (size_t i = front; i < ms.size(); ++i)
        if (ms[i] == want) {
          std::rotate(ms.begin() + front, ms.begin() + i, ms.begin() + i + 1);
          ++front;
          return;
        }
    };
    if (tt_move) bring(*tt_move);
    if (ply < static_cast<int>(killers_.size()))
      for (const auto& k : killers_[ply])
        if (k) bring(*k);
  }

  void note_killer(const Move& m, int ply) {
    if (static_cast<int>(killers_.size()) <= ply) killers_.resize(ply + 1);
    auto& k = killers_[ply];
    if (k[0] && *k[0] == m) return;
    k[1] = k[0];
    k[0] = m;
  }

  S proto_;
  Config cfg_;
  Canonicalizer<S> canon_;
  RunControl& ctl_;
  HugeVector<Bucket> table_;  ///< large tables on huge pages (solver/huge_pages.h)
  uint64_t max_buckets_ = 1;
  std::deque<std::vector<Move>> moves_;  // a deque: growing keeps earlier lists in place
  std::vector<std::array<std::optional<Move>, 2>> killers_;
  std::vector<uint64_t> path_;
  uint64_t nodes_ = 0, stored_ = 0;
  uint64_t budget_ = 0;  ///< nodes_ may reach this before more_nodes()
  uint64_t heap_ = 0;    ///< heap bytes owned by stored keys
  Value::Kind neutral_ = Value::Kind::kDraw;
};

}  // namespace loom::solver
