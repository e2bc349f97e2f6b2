// Building blocks shared by the solvers: compact position keys, symmetry
// canonicalisation, chunked storage and a position table. Everything here is
// generic over the `loom::Game` concept (model/common/game.h); nothing knows
// any particular game.
#pragma once

#include <algorithm>
#include <array>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "model/common/game.h"
#include "solver/huge_pages.h"
#include "solver/threads.h"

namespace loom::solver {

/// A T on cache lines of its own, for one-per-thread objects whose counters
/// and vector ends the hot loops write: two threads' objects in one line
/// send the line back and forth between the cores (false sharing; it cost
/// the dense solver a quarter of its CPU time on two threads).
template <class T>
struct alignas(64) OwnLines : T {
  using T::T;
};

/// The end of the next batch of a breadth-first expansion that has
/// positions [begin, size) waiting, on `threads` threads: a quarter of them,
/// 256 to 32,768 a thread.
inline uint64_t batch_end(uint64_t begin, uint64_t size, int threads) {
  const uint64_t each = std::clamp<uint64_t>((size - begin) / 4, 256, 1 << 15);
  return std::min(size, begin + each * static_cast<uint64_t>(std::max(1, threads)));
}

/// Splits [begin, end) into parts.size() consecutive ranges (part k gets
/// .begin and .end), runs work(part) on each, part 0 on the calling thread
/// and the others on threads of their own, and rethrows the first error a
/// part kept (.error, an exception_ptr its work sets instead of throwing).
template <class Part, class Work>
void run_parts(uint64_t begin, uint64_t end, std::vector<Part>& parts, Work&& work) {
  const uint64_t n = end - begin, t = parts.size();
  for (uint64_t k = 0; k < t; ++k) {
    parts[k].begin = begin + n * k / t;
    parts[k].end = begin + n * (k + 1) / t;
  }
  if (t == 1) {
    work(parts[0]);
  } else {
    ThreadGroup workers;
    for (uint64_t k = 1; k < t; ++k) workers.start([&, k] { work(parts[k]); });
    work(parts[0]);
    workers.join();
  }
  for (auto& p : parts)
    if (p.error) std::rethrow_exception(p.error);
}

/// A depth-first search's node budget: its own --max-nodes, or grants from
/// a budget it shares with searches on other threads, drawn in grants so
/// that the searches together stop at the shared limit.
struct NodeBudget {
  uint64_t limit = ~uint64_t{0};
  /// Set: the nodes come in grants (0: none left).
  std::function<uint64_t()> grant;
  NodeBudget() = default;
  NodeBudget(uint64_t max_nodes, std::function<uint64_t()> g) : grant(std::move(g)) {
    limit = grant ? 0 : max_nodes ? max_nodes : ~uint64_t{0};
  }
  /// At the limit: true if a grant raised it (false: stop).
  bool extend() {
    if (!grant) return false;
    const uint64_t g = grant();
    limit += g;
    return g > 0;
  }
};

// ---------------------------------------------------------------------------
// Keys

/// A game whose positions have a compact, trivially copyable image: pack()
/// gives it, unpack(p) (called on any state of the same game) rebuilds the
/// position with a consistent hash. The solvers store packed positions when
/// the game offers them, else whole states.
template <class S>
concept Packable = Game<S> && requires(const S& s, const typename S::Packed& p) {
  typename S::Packed;
  { s.pack() } -> std::same_as<typename S::Packed>;
  { s.unpack(p) } -> std::same_as<S>;
} && std::is_trivially_copyable_v<typename S::Packed> &&
    std::equality_comparable<typename S::Packed>;

/// How a solver stores a position: Key is S::Packed for Packable games, else S.
/// heap_bytes(k): memory a stored key owns outside its own object (a state
/// with heap-held history reports it through S::heap_bytes(); packed keys
/// own none). Tables count it so that a memory budget is a real bound.
template <Game S>
struct KeyTraits {
  using Key = S;
  static Key key(const S& s) { return s; }
  static S state(const S&, const Key& k) { return k; }
  static uint64_t heap_bytes(const Key& k) {
    if constexpr (requires {
                    { k.heap_bytes() } -> std::convertible_to<uint64_t>;
                  })
      return k.heap_bytes();
    else
      return 0;
  }
  static constexpr bool kPacked = false;
};
template <Packable S>
struct KeyTraits<S> {
  using Key = typename S::Packed;
  static Key key(const S& s) { return s.pack(); }
  static S state(const S& proto, const Key& k) { return proto.unpack(k); }
  static uint64_t heap_bytes(const Key&) { return 0; }
  static constexpr bool kPacked = true;
};

/// Key equality; word-wise without a library call for plain word arrays.
template <class Key>
inline bool key_equal(const Key& a, const Key& b) {
  if constexpr (std::is_trivially_copyable_v<Key> &&
                std::has_unique_object_representations_v<Key> && sizeof(Key) % 8 == 0 &&
                sizeof(Key) <= 64) {
    uint64_t x[sizeof(Key) / 8], y[sizeof(Key) / 8];
    std::memcpy(x, &a, sizeof(Key));
    std::memcpy(y, &b, sizeof(Key));
    uint64_t diff = 0;
    for (size_t i = 0; i < sizeof(Key) / 8; ++i) diff |= x[i] ^ y[i];
    return diff == 0;
  } else {
    return a == b;
  }
}

// ---------------------------------------------------------------------------
// Symmetry

/// Picks one representative of a position's symmetry class: the image under
/// the board symmetries (SymmetricGame: transformed(k), k = 0..11) with the
/// smallest hash, ties broken by the packed bytes where they have no padding.
///
/// Why this is sound: two positions in one class get the same representative
/// unless two distinct images share a 64-bit hash; then the class may be
/// stored twice, which costs space but never changes a value (each stored
/// position is still solved exactly; lookups compare whole keys).
///
/// A game whose symmetries can carry a position into another game (Migong:
/// a symmetry that does not keep the edge colouring) says which k keep it
/// (maps_to_same_game(k)); only those images are compared. Their set is
/// the same for every position of a class (the ones that keep the game
/// form a group), so the representative is still one per class, and it
/// stays in the game's own frame.
template <Game S>
class Canonicalizer {
 public:
  explicit Canonicalizer(bool use_symmetry) {
    if constexpr (SymmetricGame<S>) count_ = use_symmetry ? kNumSyms : 1;
  }
  /// Number of symmetries used (12, or 1 without symmetry reduction).
  int count() const { return count_; }

  /// The representative of s's class; *sym (if given) receives k with
  /// s.transformed(k) == result (0 = identity).
  S canonical(const S& s, int* sym = nullptr) const {
    if (sym) *sym = 0;
    if constexpr (SymmetricGame<S>) {
      if (count_ == 1) return s;
      if constexpr (requires {
                      { s.transformed_hash(1) } -> std::same_as<uint64_t>;
                    }) {
        // Compare the images by hash without building them; build one.
        // Equal hashes from distinct images are broken as below. A game
        // that sums the 12 hashes in one pass (transformed_hashes) is
        // asked once.
        std::array<uint64_t, kNumSyms> all{};
        constexpr bool kAll = requires(std::array<uint64_t, kNumSyms> & a) {
          s.transformed_hashes(a);
        };
        if constexpr (kAll) s.transformed_hashes(all);
        uint64_t best_h = s.hash();
        int best_k = 0;
        bool tie = false;
        for (int k = 1; k < count_; ++k) {
          if (!keeps_game(s, k)) continue;
          uint64_t h = kAll ? all[k] : s.transformed_hash(k);
          if (h < best_h) {
            best_h = h;
            best_k = k;
            tie = false;
          } else if (h == best_h) {
            tie = true;
          }
        }
        if (!tie) {
          if (sym) *sym = best_k;
          return best_k == 0 ? s : s.transformed(best_k);
        }
      }
      S best = s;
      uint64_t best_h = s.hash();
      for (int k = 1; k < count_; ++k) {
        if (!keeps_game(s, k)) continue;
        S t = s.transformed(k);
        uint64_t h = t.hash();
        if (h < best_h || (h == best_h && tie_less(t, best))) {
          best = std::move(t);
          best_h = h;
          if (sym) *sym = k;
        }
      }
      return best;
    } else {
      return s;
    }
  }

 private:
  static constexpr int kNumSyms = 12;
  /// Whether symmetry k maps s into its own game (always, unless the game
  /// says otherwise).
  static bool keeps_game(const S& s, int k) {
    if constexpr (requires {
                    { s.maps_to_same_game(k) } -> std::convertible_to<bool>;
                  })
      return s.maps_to_same_game(k);
    else
      return true;
  }
  static bool tie_less(const S& a, const S& b) {
    if constexpr (Packable<S>) {
      using P = typename S::Packed;
      if constexpr (std::has_unique_object_representations_v<P>) {
        P pa = a.pack(), pb = b.pack();
        return std::memcmp(&pa, &pb, sizeof(P)) < 0;
      }
    }
    (void)a;
    (void)b;
    return false;
  }
  int count_ = 1;
};

// ---------------------------------------------------------------------------
// Storage

/// A vector stored in blocks of at most 2^kShift elements: growing never
/// copies the whole array or doubles its memory. T need not be default
/// constructible (resize needs it). Index type is uint64_t.
template <class T, int kShift = 20>
class ChunkedVector {
 public:
  static constexpr uint64_t kBlock = uint64_t{1} << kShift;
  uint64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](uint64_t i) { return blocks_[i >> kShift][i & (kBlock - 1)]; }
  const T& operator[](uint64_t i) const { return blocks_[i >> kShift][i & (kBlock - 1)]; }
  void push_back(const T& v) {
    if (blocks_.empty() || blocks_.back().size() == kBlock) {
      blocks_.emplace_back();
      if (blocks_.size() > 1) blocks_.back().reserve(kBlock);  // large: no regrowth
    }
    blocks_.back().push_back(v);
    ++size_;
  }
  /// Grows to n elements (new ones value-initialised) or shrinks.
  void resize(uint64_t n) {
    while (size_ > n) {
      uint64_t drop = std::min<uint64_t>(size_ - n, blocks_.back().size());
      blocks_.back().resize(blocks_.back().size() - drop);
      size_ -= drop;
      if (blocks_.back().empty()) blocks_.pop_back();
    }
    while (size_ < n) {
      if (blocks_.empty() || blocks_.back().size() == kBlock) blocks_.emplace_back();
      uint64_t add = std::min<uint64_t>(n - size_, kBlock - blocks_.back().size());
      blocks_.back().resize(blocks_.back().size() + add);
      size_ += add;
    }
  }
  void clear() {
    blocks_.clear();
    size_ = 0;
  }
  /// Bytes reserved.
  uint64_t bytes() const {
    uint64_t b = 0;
    for (const auto& v : blocks_) b += v.capacity() * sizeof(T);
    return b;
  }
  /// Calls f(pointer, count) for consecutive runs of elements (for file I/O).
  template <class F>
  void for_runs(F&& f) const {
    for (const auto& v : blocks_) f(v.data(), static_cast<uint64_t>(v.size()));
  }

 private:
  std::vector<std::vector<T>> blocks_;
  uint64_t size_ = 0;
};

/// The set of stored positions: keys in insertion order (index 0, 1, ...)
/// and an open-addressing index over them. Each slot holds the key's index
/// and the high 32 bits of its hash, so growing never rereads keys and most
/// mismatches are rejected without touching the key array.
template <class Key>
class PositionTable {
 public:
  static constexpr uint32_t kNone = 0xffffffffu;
  /// Most positions a table holds (32-bit indices; the index stays <= 80% full).
  static constexpr uint64_t kMaxPositions = 3'400'000'000u;

  uint64_t size() const { return keys_.size(); }
  const Key& key(uint64_t i) const { return keys_[i]; }
  const ChunkedVector<Key>& keys() const { return keys_; }

  /// Index of the key with hash h, or kNone.
  uint32_t find(const Key& k, uint64_t h) const {
    if (slots_.empty()) return kNone;
    h = mix(h);
    uint32_t tag = static_cast<uint32_t>(h >> 32);
    for (uint64_t s = home(tag);; s = s + 1 == slots_.size() ? 0 : s + 1) {
      uint64_t v = slots_[s];
      if (v == 0) return kNone;
      if (static_cast<uint32_t>(v >> 32) == tag) {
        uint32_t i = static_cast<uint32_t>(v) - 1;
        if (key_equal(keys_[i], k)) return i;
      }
    }
  }
  /// How many keys ahead of their insertion a bulk insert prefetches.
  static constexpr size_t kPrefetchAhead = 8;
  /// Starts loading the slot where a key with hash h would be looked up
  /// (a hint: insert or find it a few keys later).
  void prefetch(uint64_t h) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[home(static_cast<uint32_t>(mix(h) >> 32))]);
  }
  /// Inserts the key if new. Returns (index, inserted).
  std::pair<uint32_t, bool> insert(const Key& k, uint64_t h) {
    if ((keys_.size() + 1) * 10 > slots_.size() * 8) grow();
    h = mix(h);
    uint32_t tag = static_cast<uint32_t>(h >> 32);
    uint64_t s = home(tag);
    for (;; s = s + 1 == slots_.size() ? 0 : s + 1) {
      uint64_t v = slots_[s];
      if (v == 0) break;
      if (static_cast<uint32_t>(v >> 32) == tag) {
        uint32_t i = static_cast<uint32_t>(v) - 1;
        if (key_equal(keys_[i], k)) return {i, false};
      }
    }
    if (keys_.size() >= kMaxPositions) throw std::length_error("position table is full");
    uint32_t i = static_cast<uint32_t>(keys_.size());
    keys_.push_back(k);
    slots_[s] = (uint64_t{tag} << 32) | (uint64_t{i} + 1);
    return {i, true};
  }
  /// Bytes used by keys and index.
  uint64_t bytes() const { return keys_.bytes() + slots_.capacity() * sizeof(uint64_t); }
  void clear() {
    keys_.clear();
    slots_.clear();
    slots_.shrink_to_fit();
  }

 private:
  // Canonical positions are chosen by smallest hash, so their hashes are far
  // from uniform in the high bits: remix before use.
  static uint64_t mix(uint64_t h) {
    h ^= h >> 31;
    h *= 0x7fb5d329728ea185ull;
    h ^= h >> 27;
    h *= 0x81dadef4bc2dd44dull;
    return h ^ (h >> 33);
  }
  uint64_t home(uint32_t tag) const { return (uint64_t{tag} * slots_.size()) >> 32; }
  void grow() {
    // Capacity stays below 2^32 so that home() cannot overflow.
    uint64_t cap = std::min<uint64_t>(0xffffffffu,
                                      std::max<uint64_t>(1024, slots_.size() + slots_.size() / 2));
    HugeVector<uint64_t> old;
    old.swap(slots_);
    slots_.assign(cap, 0);
    for (uint64_t v : old) {
      if (v == 0) continue;
      uint64_t s = home(static_cast<uint32_t>(v >> 32));
      while (slots_[s] != 0) s = s + 1 == slots_.size() ? 0 : s + 1;
      slots_[s] = v;
    }
  }

  ChunkedVector<Key> keys_;
  HugeVector<uint64_t> slots_;  ///< on huge pages: every probe is a cache miss
};

}  // namespace loom::solver
