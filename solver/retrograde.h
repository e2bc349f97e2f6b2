// Retrograde analysis over the reachable positions: exact win/loss/draw
// values for games whose position graph may have cycles (Gadur as written,
// RULES.md section 4), where depth-first search with a table is unsound.
//
// Phase 1 (enumerate): breadth-first from the root over positions reduced by
// the board symmetries (Canonicalizer). Every stored position keeps its
// successor list (a compressed adjacency array) and, if terminal, the
// rules' result. Batches of positions are expanded by worker threads and
// inserted in order, so indices and results do not depend on the thread count.
//
// Phase 2 (solve): Jacobi sweeps. Sweep k decides a position from successors
// decided in sweeps < k only: the mover wins if some successor is a win for
// the mover; loses if every successor is a win for the opponent; gets the
// neutral value (stall / drawn end) if every successor is decided and none of
// the above holds. dist = k is then the exact number of plies to the end
// under the usual "win fast, lose slow" play. When a sweep decides nothing,
// every remaining position is a draw: neither side can force a finite win,
// so play can go on for ever. (This is the standard least fixed point of
// the two attractors, computed from the terminal positions outwards.)
//
// Values are stored per position in one byte (result code | mover bit).
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "model/common/errors.h"
#include "model/common/game.h"
#include "solver/checkpoint.h"
#include "solver/control.h"
#include "solver/core.h"
#include "solver/value.h"

namespace loom::solver {

/// Adjacency offsets: a 64-bit base per block of 2^16 positions and a 32-bit
/// offset within the block (4 bytes per position instead of 8).
class OffsetIndex {
 public:
  static constexpr int kShift = 16;
  uint64_t size() const { return rel_.size(); }
  /// Appends the offset of position size() (non-decreasing).
  void push_back(uint64_t off) {
    uint64_t i = rel_.size();
    if ((i >> kShift) >= base_.size()) base_.push_back(off);
    uint64_t r = off - base_[i >> kShift];
    if (r > 0xffffffffu) throw std::length_error("too many moves in one block of positions");
    rel_.push_back(static_cast<uint32_t>(r));
  }
  uint64_t operator[](uint64_t i) const { return base_[i >> kShift] + rel_[i]; }
  uint64_t bytes() const { return rel_.bytes() + base_.capacity() * 8; }
  void clear() {
    rel_.clear();
    base_.clear();
  }
  const ChunkedVector<uint32_t>& rel() const { return rel_; }
  const std::vector<uint64_t>& base() const { return base_; }
  /// Restores from saved parts (checked by the caller).
  void assign(std::vector<uint64_t> base, ChunkedVector<uint32_t>&& rel) {
    base_ = std::move(base);
    rel_ = std::move(rel);
  }

 private:
  std::vector<uint64_t> base_;
  ChunkedVector<uint32_t> rel_;
};

template <Game S>
class Retrograde {
 public:
  using Traits = KeyTraits<S>;
  using Key = typename Traits::Key;
  using Move = typename S::Move;

  struct Config {
    bool symmetry = true;
    /// Stop enumerating beyond this many positions (0: the table's maximum).
    uint64_t max_positions = 0;
    int threads = 1;
  };

  /// Per-position result codes (low 3 bits) and the mover bit.
  enum Code : uint8_t {
    kOpen = 0,      ///< undecided (after solve(): a draw by endless play)
    kBlackWin = 1,  ///< Black wins
    kWhiteWin = 2,  ///< White wins
    kStall = 3,     ///< an end without a winner (Outcome kUnresolved) is forced
    kDrawEnd = 4,   ///< a drawn end the rules define (Outcome kDraw) is forced
  };
  static constexpr uint8_t kCodeMask = 7;
  static constexpr uint8_t kWhiteToMove = 0x80;
  static constexpr uint16_t kUndecided = 0xffff;

  Retrograde(const S& root, Config cfg) : root_(root), cfg_(cfg), canon_(cfg.symmetry) {
    if (cfg_.threads < 1) cfg_.threads = 1;
    uint64_t cap = PositionTable<Key>::kMaxPositions;
    limit_ = cfg_.max_positions ? std::min(cfg_.max_positions, cap) : cap;
    S c = canon_.canonical(root_);
    table_.insert(Traits::key(c), c.hash());
    offsets_.push_back(0);
  }

  // --- phases -------------------------------------------------------------

  /// Phase 1. Returns false if stopped by the position limit (the graph is
  /// then incomplete and cannot be solved). Polls `ctl`; on a stop request
  /// calls save() first (through `on_checkpoint`) and throws Interrupted.
  template <class OnCheckpoint>
  bool enumerate(RunControl& ctl, OnCheckpoint&& on_checkpoint) {
    std::vector<Batch> parts(cfg_.threads);
    while (processed_ < table_.size()) {
      if (table_.size() > limit_) {
        limited_ = true;
        return false;
      }
      uint64_t begin = processed_;
      uint64_t end = batch_end(begin, table_.size(), cfg_.threads);
      run_parts(begin, end, parts, [this](Batch& b) { expand_range(b); });
      for (auto& p : parts) absorb(p);
      ctl.work(end - begin);
      ctl.status("enumerating: " + with_commas(processed_) + " of " + with_commas(table_.size()) +
                 " positions expanded, " + with_commas(edges_.size()) + " moves");
      if (ctl.checkpoint_due()) on_checkpoint();
      if (ctl.stop_requested()) throw Interrupted("interrupted while enumerating positions");
    }
    enumerated_ = true;
    return true;
  }

  /// Phase 2: sweeps until nothing changes. Requires a complete enumeration.
  template <class OnCheckpoint>
  void solve(RunControl& ctl, OnCheckpoint&& on_checkpoint) {
    if (!enumerated_) throw std::logic_error("solve() before a complete enumeration");
    if (dist_.size() != table_.size()) start_solving();
    while (!solved_) {
      sweep();
      ctl.work(1);
      ctl.status("solving: sweep " + std::to_string(sweep_) + ", " + with_commas(open_.size()) +
                 " positions undecided");
      // The solved state is saved by the caller's last save, whose failure
      // does not lose the result (solver/driver.h: save_final).
      if (!solved_ && ctl.checkpoint_due()) on_checkpoint();
      if (!solved_ && ctl.stop_requested())
        throw Interrupted("interrupted while solving (sweep " + std::to_string(sweep_) + ")");
    }
  }

  // --- results ------------------------------------------------------------

  bool enumerated() const { return enumerated_; }
  bool solved() const { return solved_; }
  bool limited() const { return limited_; }
  uint64_t positions() const { return table_.size(); }
  uint64_t expanded() const { return processed_; }
  uint64_t moves() const { return edges_.size(); }
  uint32_t sweeps() const { return sweep_; }
  uint64_t terminals() const { return terminals_; }
  /// Every position within this many plies of the root is stored.
  int depth_complete() const { return static_cast<int>(layers_); }
  /// Bytes of the stored graph (keys, index, adjacency, values).
  uint64_t bytes() const {
    return table_.bytes() + offsets_.bytes() + edges_.bytes() + code_.bytes() + dist_.bytes();
  }
  const Canonicalizer<S>& canonicalizer() const { return canon_; }

  /// Index of a position (any symmetric image), if stored.
  std::optional<uint32_t> index_of(const S& s) const {
    S c = canon_.canonical(s);
    uint32_t i = table_.find(Traits::key(c), c.hash());
    if (i == PositionTable<Key>::kNone) return std::nullopt;
    return i;
  }
  /// The stored representative of position i.
  S state(uint64_t i) const { return Traits::state(root_, table_.key(i)); }
  /// Value of position i (after solve()).
  Value value(uint64_t i) const { return value_of_code(code_[i] & kCodeMask); }
  /// Plies to the end under optimal play (kUndecided for draws).
  uint16_t dist(uint64_t i) const { return dist_[i]; }
  /// Value of any position reachable from the root (kUnknown if not stored).
  Value value_of(const S& s) const {
    auto i = index_of(s);
    return i && solved_ ? value(*i) : Value{};
  }
  uint64_t degree(uint64_t i) const { return offsets_[i + 1] - offsets_[i]; }
  uint32_t successor(uint64_t i, uint64_t j) const { return edges_[offsets_[i] + j]; }

  /// Every undecided position after solve() is a draw by endless play.
  Value value_of_code(uint8_t c) const {
    switch (c) {
      case kBlackWin:
        return Value::of(Value::Kind::kBlack);
      case kWhiteWin:
        return Value::of(Value::Kind::kWhite);
      case kStall:
        return Value::of(Value::Kind::kStall);
      case kDrawEnd:
        return Value::of(Value::Kind::kDraw);
      default:
        return solved_ ? Value::of(Value::Kind::kDraw) : Value{};
    }
  }

  // --- checkpoints --------------------------------------------------------

  static constexpr bool kCheckpointable = Traits::kPacked;

  void save(CheckpointWriter& w) const {
    if constexpr (kCheckpointable) {
      w.u64(enumerated_);
      w.u64(solved_);
      w.u64(processed_);
      w.u64(sweep_);
      w.u64(terminals_);
      w.u64(layer_end_);
      w.u64(layers_);
      w.array(table_.keys());
      w.array(offsets_.base());
      w.array(offsets_.rel());
      w.array(edges_);
      w.array(code_);
      w.array(dist_);
    } else {
      (void)w;
      throw InputError("this game cannot be checkpointed (no packed positions)");
    }
  }

  void load(CheckpointReader& r) {
    if constexpr (kCheckpointable) {
      enumerated_ = r.u64(1, "phase");
      solved_ = r.u64(1, "phase");
      processed_ = r.u64();
      sweep_ = static_cast<uint32_t>(r.u64(kUndecided, "sweep"));
      terminals_ = r.u64();
      layer_end_ = r.u64();
      layers_ = r.u64(kUndecided, "layer count");
      ChunkedVector<Key> keys;
      r.array(keys, PositionTable<Key>::kMaxPositions);
      std::vector<uint64_t> base;
      ChunkedVector<uint32_t> rel;
      r.array(base, uint64_t{1} << 40);
      r.array(rel, PositionTable<Key>::kMaxPositions + 1);
      r.array(edges_, uint64_t{1} << 42);
      r.array(code_, PositionTable<Key>::kMaxPositions);
      r.array(dist_, PositionTable<Key>::kMaxPositions);
      r.finish();
      uint64_t n = keys.size();
      if (n == 0 || processed_ > n || rel.size() != processed_ + 1 ||
          base.size() !=
              (rel.size() + (uint64_t{1} << OffsetIndex::kShift) - 1) >> OffsetIndex::kShift ||
          code_.size() != processed_ || (dist_.size() != 0 && dist_.size() != n) ||
          (enumerated_ && processed_ != n) || (solved_ && !enumerated_) || layer_end_ > n ||
          layer_end_ < processed_)
        r.corrupt("inconsistent retrograde tables");
      offsets_.assign(std::move(base), std::move(rel));
      if (offsets_[processed_] != edges_.size()) r.corrupt("inconsistent adjacency");
      for (uint64_t i = 0; i + 1 < offsets_.size(); ++i)
        if (offsets_[i] > offsets_[i + 1]) r.corrupt("inconsistent adjacency");
      for (uint64_t e = 0; e < edges_.size(); ++e)
        if (edges_[e] >= n) r.corrupt("a move leads outside the table");
      for (uint64_t i = 0; i < code_.size(); ++i)
        if ((code_[i] & kCodeMask) > kDrawEnd) r.corrupt("bad result code");
      // Rebuild the index from the keys (the root must come first).
      table_.clear();
      for (uint64_t i = 0; i < n; ++i) {
        S s = Traits::state(root_, keys[i]);
        if (s.check_invariants() != "" || !(Traits::key(s) == keys[i]))
          r.corrupt("a stored position is not a valid position");
        auto [idx, fresh] = table_.insert(keys[i], s.hash());
        if (!fresh || idx != i) r.corrupt("a position is stored twice");
      }
      S c = canon_.canonical(root_);
      if (!(table_.key(0) == Traits::key(c))) r.corrupt("the first position is not the root");
      if (!dist_.empty()) {
        open_.clear();
        for (uint64_t i = 0; i < n; ++i)
          if (dist_[i] == kUndecided) open_.push_back(static_cast<uint32_t>(i));
      }
    } else {
      (void)r;
      throw InputError("this game cannot be checkpointed (no packed positions)");
    }
  }

 private:
  struct alignas(64) Batch {  // one a thread, on lines of its own
    uint64_t begin = 0, end = 0;
    std::vector<uint8_t> code;     // per position of the batch
    std::vector<uint32_t> degree;  // per position
    std::vector<Key> keys;         // successors, in order
    std::vector<uint64_t> hashes;
    std::exception_ptr error;  // an exception in a worker (re-thrown, type kept, by the caller)
  };

  void expand_range(Batch& b) const {
    b.code.clear();
    b.degree.clear();
    b.keys.clear();
    b.hashes.clear();
    std::vector<Move> ms;
    typename S::Undo u;
    try {
      for (uint64_t i = b.begin; i < b.end; ++i) {
        S s = Traits::state(root_, table_.key(i));
        uint8_t mover = s.to_move() == Color::kWhite ? kWhiteToMove : 0;
        s.legal_moves(ms);
        if (ms.empty()) {
          b.code.push_back(mover | terminal_code(s.outcome()));
          b.degree.push_back(0);
          continue;
        }
        b.code.push_back(mover | kOpen);
        b.degree.push_back(static_cast<uint32_t>(ms.size()));
        for (const Move& m : ms) {
          s.apply(m, u);
          S c = canon_.canonical(s);
          b.keys.push_back(Traits::key(c));
          b.hashes.push_back(c.hash());
          s.undo(m, u);
        }
      }
    } catch (...) {
      b.error = std::current_exception();
    }
  }

  /// Inserts a batch's successors in order and appends its adjacency.
  void absorb(const Batch& b) {
    size_t k = 0;
    std::vector<uint32_t> succ;
    for (uint64_t i = b.begin; i < b.end; ++i) {
      uint64_t local = i - b.begin;
      code_.push_back(b.code[local]);
      if (b.degree[local] == 0) ++terminals_;
      succ.clear();
      for (uint32_t d = 0; d < b.degree[local]; ++d, ++k) {
        if (const size_t ahead = k + PositionTable<Key>::kPrefetchAhead; ahead < b.hashes.size())
          table_.prefetch(b.hashes[ahead]);
        succ.push_back(table_.insert(b.keys[k], b.hashes[k]).first);
      }
      // Several moves may reach one position (up to symmetry): keep one edge.
      std::sort(succ.begin(), succ.end());
      succ.erase(std::unique(succ.begin(), succ.end()), succ.end());
      for (uint32_t j : succ) edges_.push_back(j);
      offsets_.push_back(edges_.size());
      ++processed_;
      if (processed_ == layer_end_) {  // a whole breadth-first layer expanded
        ++layers_;
        layer_end_ = table_.size();
      }
    }
  }

  static uint8_t terminal_code(const Outcome& o) {
    if (o.margin2 != 0)
      throw InputError(
          "retrograde analysis solves win/loss/draw games; this game scores margins "
          "(use --method dfs)");
    switch (o.kind) {
      case Outcome::Kind::kBlackWins:
        return kBlackWin;
      case Outcome::Kind::kWhiteWins:
        return kWhiteWin;
      case Outcome::Kind::kUnresolved:
        return kStall;
      case Outcome::Kind::kDraw:
        return kDrawEnd;
      case Outcome::Kind::kOngoing:
        break;
    }
    throw std::logic_error("a position without legal moves reports no result");
  }

  void start_solving() {
    uint64_t n = table_.size();
    dist_.clear();
    dist_.resize(n);
    open_.clear();
    for (uint64_t i = 0; i < n; ++i) {
      if (degree(i) == 0) {
        dist_[i] = 0;
      } else {
        dist_[i] = kUndecided;
        open_.push_back(static_cast<uint32_t>(i));
      }
    }
    sweep_ = 0;
  }

  void sweep() {
    if (sweep_ + 1 >= kUndecided) throw std::length_error("more than 65534 sweeps");
    const uint16_t k = static_cast<uint16_t>(++sweep_);
    size_t keep = 0;
    uint64_t decided = 0;
    for (size_t idx = 0; idx < open_.size(); ++idx) {
      uint32_t i = open_[idx];
      uint8_t mine = (code_[i] & kWhiteToMove) ? kWhiteWin : kBlackWin;
      uint8_t theirs = mine == kBlackWin ? kWhiteWin : kBlackWin;
      bool all_decided = true, all_lost = true, win = false;
      uint8_t neutral = 0;
      for (uint64_t e = offsets_[i], end = offsets_[i + 1]; e < end; ++e) {
        uint32_t j = edges_[e];
        if (dist_[j] >= k) {  // undecided before this sweep
          all_decided = all_lost = false;
          continue;
        }
        uint8_t c = code_[j] & kCodeMask;
        if (c == mine) {
          win = true;
          break;
        }
        if (c != theirs) {
          all_lost = false;
          neutral = std::max(neutral, c);
        }
      }
      uint8_t result = kOpen;
      if (win)
        result = mine;
      else if (all_decided)
        result = all_lost ? theirs : neutral;
      if (result != kOpen) {
        code_[i] = static_cast<uint8_t>((code_[i] & kWhiteToMove) | result);
        dist_[i] = k;
        ++decided;
      } else {
        open_[keep++] = i;
      }
    }
    open_.resize(keep);
    if (decided == 0) {
      solved_ = true;
      --sweep_;  // the last sweep changed nothing
    }
  }

  S root_;
  Config cfg_;
  Canonicalizer<S> canon_;
  uint64_t limit_;
  PositionTable<Key> table_;
  OffsetIndex offsets_;
  ChunkedVector<uint32_t> edges_;
  ChunkedVector<uint8_t> code_;
  ChunkedVector<uint16_t> dist_;
  std::vector<uint32_t> open_;
  uint64_t processed_ = 0, terminals_ = 0;
  uint64_t layer_end_ = 1, layers_ = 0;  // breadth-first layers fully expanded
  uint32_t sweep_ = 0;
  bool enumerated_ = false, solved_ = false, limited_ = false;
};

}  // namespace loom::solver
