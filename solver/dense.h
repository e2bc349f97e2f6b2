// Dense-index retrograde analysis (`loom solve --method dense`) for the
// two-colour placement games on boards of at most 19 cells (hex side 2 and
// 3): Gadur (cycles, draws) and Enfargar (passes, stalls).
//
// Index. A position is a base-3 number over the cells (digit 0 empty, 1
// black, 2 white; cell i weighs 3^i in the geometry's compact order) plus
// 3^n when White is to move: 2 * 3^19 < 2^32, so a key is a uint32_t. The
// side to move is part of the key because neither stone counts nor parity
// imply it (Gadur captures and Enfargar flips change the counts). A class of
// positions under the 12 board symmetries is stored once, under its smallest
// key. The images of a board's key under the 12 symmetries come from
// chunk tables (9 padded bits a lookup); a child's images are the parent's
// plus the digit changes of the move (one table entry a placed stone), so
// children are found by index arithmetic, never by hashing.
//
// Set. The reachable classes are the set bits of a bitmap over all keys
// (2 * 3^n bits in 64-byte lines of 448 keys, 317 MiB for side 3, set with
// atomic or by the enumeration threads); each line's first word holds the
// rank of its first key, so a key's dense position number 0..N-1 (which
// indexes the per-position byte arrays) is read from one cache line.
//
// Ends are not stored: a move that ends the game (and, for games with
// passes, a pass answered by the only move, a pass, that ends it) is a
// "virtual child" whose value is known when it is generated.
//
// Solving.
// - Games with retrograde moves (S::predecessors; Gadur): the standard
//   counter retrograde. Each position holds one byte: the number of its
//   distinct successors not yet known to win for their mover (5 bits), the
//   value (2 bits: unknown / mover wins / mover loses / neutral) and "some
//   successor is neutral" (1 bit). Layer d holds the positions decided with
//   d plies to the end; a position of layer d tells its predecessors: a
//   loss for its mover makes each undecided predecessor a win (layer d+1),
//   a win decrements their counters and the last decrement decides a loss
//   (or the neutral value). What is undecided when no layer is left is a
//   draw: neither side can force a finite win (the least fixed point, as in
//   solver/retrograde.h). Distances are the "win fast, lose slow" plies.
// - Games without retrograde moves whose placements add a stone and never
//   remove one (Enfargar: flips keep the count; passes keep the board): the
//   positions are solved in order of decreasing stone count, each from its
//   successors' values (a pass successor has the same stones, and is
//   solved first: it has a placement or it is a virtual child). A
//   placement that does not add exactly its stones is reported as an error.
// Both phases use worker threads over disjoint slices of a layer; counters
// and values are updated with atomic byte operations.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif

#include "model/common/bitboard.h"
#include "model/common/errors.h"
#include "model/common/game.h"
#include "model/common/hex.h"
#include "solver/control.h"
#include "solver/core.h"
#include "solver/entry_table.h"
#include "solver/huge_pages.h"
#include "solver/value.h"

namespace loom::solver {

/// A game the dense index handles: a one-word bitboard state of two
/// colours that can be rebuilt from its stones and side to move. For games
/// with passes (S::passes()), a state that has just seen one pass and has a
/// placement must behave as the same board without that pass.
template <class S>
concept DenseGame = SymmetricGame<S> && requires(const S& s, Color c, const Bitboard<1>& b) {
  { s.stones(c) } -> std::convertible_to<Bitboard<1>>;
  { s.geo() } -> std::convertible_to<const HexGeometry&>;
  { s.with_board(b, b, c) } -> std::same_as<S>;
};

/// A dense game that lists the positions one move before a position.
template <class S>
concept RetractableGame = DenseGame<S> && requires(const S& s, std::vector<S>& out) {
  { s.predecessors(out) } -> std::same_as<void>;
};

/// A retractable game that also lists its placements and retrograde moves
/// as raw (site, captured stones) pairs on states built without a hash
/// (Gadur), each placement saying whether the opponent has a placement
/// after it: the dense solver then builds no child or parent state, and
/// finds every key by adding the digit changes to the parent's images.
template <class S>
concept PlacementGame = RetractableGame<S> &&
    requires(const S& s, typename S::Placed* p, std::vector<typename S::Placed>& v,
             const Bitboard<1>& b) {
  { s.placements(p, true) } -> std::convertible_to<int>;
  { s.retractions(v) } -> std::same_as<void>;
  { p->site } -> std::convertible_to<int>;
  { p->captured } -> std::convertible_to<Bitboard<1>>;
  { s.with_board_unhashed(b, b, Color::kBlack) } -> std::same_as<S>;
  { s.has_placement() } -> std::convertible_to<bool>;
  { s.outcome_when_stuck() } -> std::convertible_to<Outcome>;
  { p->answered } -> std::convertible_to<bool>;
};

/// The position after placement p (its captures removed) by the side to
/// move in s, the other side to move: built from two bitboards, with no
/// analysis, hash or undo.
template <PlacementGame S>
S placed_child(const S& s, const typename S::Placed& p) {
  const Color me = s.to_move(), them = other(me);
  Bitboard<1> mine, theirs;
  mine.w[0] = s.stones(me).w[0] | uint64_t{1} << p.site;
  theirs.w[0] = s.stones(them).w[0] & ~p.captured.w[0];
  return me == Color::kWhite ? s.with_board_unhashed(theirs, mine, them)
                             : s.with_board_unhashed(mine, theirs, them);
}

/// Sorts a short range (a position's moves: a handful) by insertion,
/// longer ones with std::sort.
template <class It, class Less>
void small_sort(It first, It last, Less less) {
  if (last - first > 24) {
    std::sort(first, last, less);
    return;
  }
  for (It i = first; i != last; ++i) {
    auto v = *i;
    It j = i;
    for (; j != first && less(v, *(j - 1)); --j) *j = *(j - 1);
    *j = v;
  }
}

/// Largest board the dense index takes (2 * 3^19 keys fit 32 bits).
inline constexpr int kDenseMaxCells = 19;

namespace dense_detail {
template <class S>
int passes_of(const S& s) {
  if constexpr (requires {
                  { s.passes() } -> std::convertible_to<int>;
                })
    return s.passes();
  else
    return 0;
}
/// Member<S> where kHas (the game has that member type), else char: the
/// type of a scratch list only some games fill.
template <template <class> class Member, class S, bool kHas>
struct MemberOr {
  using type = char;
};
template <template <class> class Member, class S>
struct MemberOr<Member, S, true> {
  using type = Member<S>;
};
template <class S>
using PlacedT = typename S::Placed;
template <class S>
using FlipPlacementT = typename S::FlipPlacement;
/// Games that list their placements with the stones each flips (Enfargar).
template <class S>
concept FlipPlacements = requires(const S& s, typename S::FlipPlacement* p) {
  { s.placements_with_flips(p) } -> std::convertible_to<int>;
  { p->site } -> std::convertible_to<int>;
  { p->flips.w[0] } -> std::convertible_to<uint64_t>;
};
}  // namespace dense_detail

/// Base-3 keys of boards and their symmetric images, in a key type K wide
/// enough for 2 * 3^cells: digit 0 empty, 1 Black, 2 White; cell i (compact
/// index) weighs 3^i; + 3^n when White is to move. Weights of a stone set
/// come from per-chunk tables (kChunkBits slots a lookup).
template <class K>
class Base3Keys {
 public:
  using Key = K;
  static constexpr int kChunkBits = 9;

  /// Throws InputError(`too_big`) past max_cells cells or 64 slots.
  Base3Keys(const HexGeometry& g, bool symmetry, int max_cells, const char* too_big)
      : n_(g.num_sites()), syms_(symmetry ? 12 : 1) {
    if (n_ > max_cells || g.slots() > 64) throw InputError(too_big);
    p3_.resize(n_ + 1);
    p3_[0] = 1;
    for (int i = 1; i <= n_; ++i) p3_[i] = p3_[i - 1] * 3;
    slots_ = g.slots();
    chunks_ = (slots_ + kChunkBits - 1) / kChunkBits;
    // Rows of syms_ lanes (one weight per symmetry), so that a move's
    // weights under all 12 symmetries are a few vector adds.
    site_p3_.assign(static_cast<size_t>(syms_) * 64, 0);
    for (int k = 0; k < syms_; ++k)
      for (int s : g.sites()) site_p3_[s * syms_ + k] = p3_[g.compact(g.map_site(k, s))];
    enc_.assign(static_cast<size_t>(syms_) * chunks_ << kChunkBits, 0);
    for (int c = 0; c < chunks_; ++c)
      for (uint32_t bits = 0; bits < (1u << kChunkBits); ++bits)
        for (int b = 0; b < kChunkBits; ++b) {
          int s = c * kChunkBits + b;
          if (!((bits >> b) & 1) || s >= slots_ || !g.is_site(s)) continue;
          for (int k = 0; k < syms_; ++k) enc_[row(c, bits) + k] += site_p3_[s * syms_ + k];
        }
  }

  int cells() const { return n_; }
  int symmetries() const { return syms_; }
  /// 3^n: keys below it have Black to move.
  K white_offset() const { return p3_[n_]; }
  uint64_t key_count() const { return uint64_t{2} * p3_[n_]; }

  /// Sum of 3^compact(image of s under k) over the set bits s of `bits`.
  K weight(int k, uint64_t bits) const {
    K v = 0;
    for (int c = 0; c < chunks_; ++c) v += enc_[row(c, chunk_bits(bits, c)) + k];
    return v;
  }

  /// acc[k] += mult * weight(k, bits) for every symmetry k (mult wraps:
  /// K(-2) subtracts twice the weight).
  void add_weights(uint64_t bits, K mult, K* acc) const {
    if (std::has_single_bit(bits)) {
      add_site(std::countr_zero(bits), mult, acc);
      return;
    }
    if (syms_ == 12)
      add_rows<12>(bits, mult, acc);
    else
      add_rows<1>(bits, mult, acc);
  }
  /// acc[k] += mult * weight(k, {site}) for every symmetry k (one row).
  void add_site(int site, K mult, K* acc) const {
    const K* r = &site_p3_[site * syms_];
    if (syms_ == 12)
      for (int k = 0; k < 12; ++k) acc[k] += mult * r[k];
    else
      acc[0] += mult * r[0];
  }
  /// The key of a move's child (or of a retraction's parent) from the
  /// position's images `base` (with the child's side to move): the
  /// smallest over the symmetries k of base[k] + site_mult *
  /// weight(k, {site}) + bits_mult * weight(k, bits).
  K moved_key(const K* base, int site, K site_mult, uint64_t bits, K bits_mult) const {
#if defined(__SSE4_1__)
    if constexpr (std::is_same_v<K, uint32_t>)
      if (syms_ == 12) return moved_key12(base, site, site_mult, bits, bits_mult);
#endif
    K v[12];
    std::copy(base, base + syms_, v);
    add_site(site, site_mult, v);
    if (bits) add_weights(bits, bits_mult, v);
    return smallest(v);
  }
  /// The key of a board (b2, w2) from the images `base` of the board (b,
  /// w) with the same side to move: the digit changes, grouped by how much
  /// each cell's digit grows (+1: empty to Black or Black to White; +2:
  /// empty to White; -1 and -2 the reverse).
  K changed_key(const K* base, uint64_t b, uint64_t w, uint64_t b2, uint64_t w2) const {
    const uint64_t e = ~(b | w), e2 = ~(b2 | w2);
    const uint64_t up1 = (e & b2) | (b & w2), up2 = e & w2;
    const uint64_t down1 = (w & b2) | (b & e2), down2 = w & e2;
    K v[12];
    std::copy(base, base + syms_, v);
    if (up1) add_weights(up1, K{1}, v);
    if (up2) add_weights(up2, K{2}, v);
    if (down1) add_weights(down1, K(0) - K{1}, v);
    if (down2) add_weights(down2, K(0) - K{2}, v);
    return smallest(v);
  }

  /// moved_key of a codec without symmetries: one image, passed by value.
  K moved_key_one(K base, int site, K site_mult, uint64_t bits, K bits_mult) const {
    K v = base + site_mult * site_p3_[site * syms_];
    if (bits) v += bits_mult * weight(0, bits);
    return v;
  }

  /// The key (codec without symmetries) after the side to move in `key`
  /// (White if `white`) places at `site` and captures `captured`: the side
  /// flips, the placed stone adds the mover's digit (1 Black, 2 White), the
  /// captured stones remove the opponent's.
  K placed_key(K key, bool white, int site, uint64_t captured) const {
    const K mine = white ? 2 : 1;
    return moved_key_one(side_flipped(key, white), site, mine, captured, K{0} - (3 - mine));
  }
  /// The key with the other side to move (`white`: White moves in `key`).
  K side_flipped(K key, bool white) const {
    return white ? key - white_offset() : key + white_offset();
  }

  /// The smallest of the first symmetries() keys.
  K smallest(const K* keys) const {
    if (syms_ != 12) return keys[0];
#if defined(__SSE4_1__)
    if constexpr (std::is_same_v<K, uint32_t>)
      return min12(load4(keys), load4(keys + 4), load4(keys + 8));
#endif
    K m = keys[0];
    for (int k = 1; k < 12; ++k) m = std::min(m, keys[k]);  // vectorised
    return m;
  }

  /// Keys of the position under every symmetry (out[0]: the position's own).
  void images(uint64_t black, uint64_t white, Color mover, K* out) const {
    const K side = mover == Color::kWhite ? p3_[n_] : 0;
    if (syms_ == 12)
      set_rows<12>(black, white, side, out);
    else
      set_rows<1>(black, white, side, out);
  }
  K canonical(uint64_t black, uint64_t white, Color mover) const {
    K img[12];
    images(black, white, mover, img);
    return smallest(img);
  }
  /// The canonical key, and in `sym` the (first) symmetry whose image it is.
  K canonical(uint64_t black, uint64_t white, Color mover, int& sym) const {
    K img[12];
    images(black, white, mover, img);
    sym = static_cast<int>(std::min_element(img, img + syms_) - img);
    return img[sym];
  }

 protected:
#if defined(__SSE4_1__)
  // The 12 symmetries' 32-bit keys as three vectors of four lanes (every
  // x86-64-v2 processor has SSE4.1: unsigned min, 32-bit multiply).
  static __m128i load4(const uint32_t* p) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  }
  static uint32_t min12(__m128i a, __m128i b, __m128i c) {
    __m128i m = _mm_min_epu32(_mm_min_epu32(a, b), c);
    m = _mm_min_epu32(m, _mm_shuffle_epi32(m, 0x4e));
    m = _mm_min_epu32(m, _mm_shuffle_epi32(m, 0xb1));
    return static_cast<uint32_t>(_mm_cvtsi128_si32(m));
  }
  uint32_t moved_key12(const uint32_t* base, int site, uint32_t site_mult, uint64_t bits,
                       uint32_t bits_mult) const {
    const uint32_t* r = &site_p3_[site * 12];
    const __m128i sm = _mm_set1_epi32(static_cast<int>(site_mult));
    __m128i v0 = _mm_add_epi32(load4(base), _mm_mullo_epi32(load4(r), sm));
    __m128i v1 = _mm_add_epi32(load4(base + 4), _mm_mullo_epi32(load4(r + 4), sm));
    __m128i v2 = _mm_add_epi32(load4(base + 8), _mm_mullo_epi32(load4(r + 8), sm));
    if (bits) {
      __m128i s0 = _mm_setzero_si128(), s1 = s0, s2 = s0;
      for (int c = 0; c < chunks_; ++c) {
        if (!chunk_bits(bits, c)) continue;  // a row of zeros
        const uint32_t* e = &enc_[row(c, chunk_bits(bits, c))];
        s0 = _mm_add_epi32(s0, load4(e));
        s1 = _mm_add_epi32(s1, load4(e + 4));
        s2 = _mm_add_epi32(s2, load4(e + 8));
      }
      const __m128i bm = _mm_set1_epi32(static_cast<int>(bits_mult));
      v0 = _mm_add_epi32(v0, _mm_mullo_epi32(s0, bm));
      v1 = _mm_add_epi32(v1, _mm_mullo_epi32(s1, bm));
      v2 = _mm_add_epi32(v2, _mm_mullo_epi32(s2, bm));
    }
    return min12(v0, v1, v2);
  }
#endif
  static uint32_t chunk_bits(uint64_t bits, int c) {
    return (bits >> (c * kChunkBits)) & ((1u << kChunkBits) - 1);
  }
  size_t row(int c, uint32_t chunk) const {
    return ((static_cast<size_t>(c) << kChunkBits) + chunk) * syms_;
  }
  template <int L>
  void add_rows(uint64_t bits, K mult, K* acc) const {
    K sum[L] = {};
    for (int c = 0; c < chunks_; ++c) {
      if (!chunk_bits(bits, c)) continue;  // a row of zeros
      const K* r = &enc_[row(c, chunk_bits(bits, c))];
      for (int k = 0; k < L; ++k) sum[k] += r[k];
    }
    for (int k = 0; k < L; ++k) acc[k] += mult * sum[k];
  }

  template <int L>
  void set_rows(uint64_t black, uint64_t white, K side, K* out) const {
    K b[L] = {}, w[L] = {};
    for (int c = 0; c < chunks_; ++c) {
      const K* rb = &enc_[row(c, chunk_bits(black, c))];
      const K* rw = &enc_[row(c, chunk_bits(white, c))];
      for (int k = 0; k < L; ++k) {
        b[k] += rb[k];
        w[k] += rw[k];
      }
    }
    for (int k = 0; k < L; ++k) out[k] = side + b[k] + 2 * w[k];
  }

  int n_, syms_, slots_ = 0, chunks_ = 0;
  std::vector<K> p3_, site_p3_, enc_;  ///< weights in rows of syms_ lanes
};

/// The dense index's 32-bit keys (boards of at most 19 cells), which it
/// also decodes back into boards.
class DenseCodec : public Base3Keys<uint32_t> {
 public:
  static constexpr int kDigitChunk = 7;  // digits per decode table (3^7 entries)

  DenseCodec(const HexGeometry& g, bool symmetry)
      : Base3Keys(g, symmetry, kDenseMaxCells,
                  "the dense index takes boards of at most 19 cells (side 3)") {
    dchunks_ = (n_ + kDigitChunk - 1) / kDigitChunk;
    dec_.assign(static_cast<size_t>(dchunks_) * 2187, {0, 0});
    for (int c = 0; c < dchunks_; ++c)
      for (uint32_t d = 0; d < 2187; ++d) {
        uint32_t x = d;
        for (int i = 0; i < kDigitChunk; ++i, x /= 3) {
          int cell = c * kDigitChunk + i;
          if (cell >= n_ || x % 3 == 0) continue;
          uint64_t bit = uint64_t{1} << g.site_of_compact(cell);
          (x % 3 == 1 ? dec_[c * 2187 + d].first : dec_[c * 2187 + d].second) |= bit;
        }
      }
  }

  void decode(uint32_t key, uint64_t& black, uint64_t& white, Color& mover) const {
    mover = key >= p3_[n_] ? Color::kWhite : Color::kBlack;
    uint32_t b = key >= p3_[n_] ? key - p3_[n_] : key;
    black = white = 0;
    for (int c = 0; c < dchunks_; ++c, b /= 2187) {
      const auto& e = dec_[c * 2187 + b % 2187];
      black |= e.first;
      white |= e.second;
    }
  }

 private:
  int dchunks_ = 0;
  std::vector<std::pair<uint64_t, uint64_t>> dec_;
};

/// 64-bit keys of the same digits for boards of up to 39 cells (2 * 3^39 <
/// 2^63): the compact alpha-beta on side 4 (solver/compact_dfs.h).
class WideCodec : public Base3Keys<uint64_t> {
 public:
  static constexpr int kMaxCells = 39;
  WideCodec(const HexGeometry& g, bool symmetry)
      : Base3Keys(g, symmetry, kMaxCells,
                  "the compact method takes boards of at most 39 cells (side 4)") {}
};

/// Runs f(thread, begin, end) over [0, n) in slices of `grain` on
/// `threads` threads, each taking the next slice until none is left (on
/// the calling thread if one slice covers it all, or with one thread).
/// A slice's exception stops the others at their next slice and is thrown
/// here as it was thrown (an InputError stays one: exit status 2).
template <class F>
void parallel_slices(int threads, uint64_t n, uint64_t grain, F&& f) {
  if (threads <= 1 || grain >= n) {  // one slice: no thread started
    f(0, 0, n);
    return;
  }
  std::atomic<uint64_t> next{0};
  std::vector<std::exception_ptr> errors(threads);
  const auto stop = [&] { next.store(n); };  // the others stop at their next slice
  {
    ThreadGroup ws;
    ws.start_each(
        0, threads,
        [&](int i) {
          try {
            for (;;) {
              const uint64_t lo = next.fetch_add(grain);
              if (lo >= n) break;
              f(i, lo, std::min(n, lo + grain));
            }
          } catch (...) {
            errors[i] = std::current_exception();
            stop();
          }
        },
        stop);
  }
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}

/// A set of keys as a bitmap, with a rank directory once complete. Each
/// 64-byte line holds its own directory entry: word 0 the rank of its
/// first key, words 1-7 the bits of 448 keys, so that contains() and rank()
/// of a key read one cache line.
class DenseSet {
 public:
  static constexpr uint32_t kKeysPerLine = 448;

  explicit DenseSet(uint64_t keys) : words_((keys / kKeysPerLine + 2) * 8) {
    // 64-byte aligned (huge_alloc): a line is a cache line.
    bits_.reset(static_cast<uint64_t*>(huge_alloc(words_ * 8)));  // huge pages: random probes
    std::fill(bits_.get(), bits_.get() + words_, uint64_t{0});
  }
  /// Sets the key's bit; true if it was clear (thread-safe).
  bool insert(uint32_t key) {
    std::atomic_ref<uint64_t> w(bits_[word_of(key)]);
    const uint64_t bit = bit_of(key);
    if (w.load(std::memory_order_relaxed) & bit) return false;
    return (w.fetch_or(bit, std::memory_order_relaxed) & bit) == 0;
  }
  bool contains(uint32_t key) const { return (bits_[word_of(key)] & bit_of(key)) != 0; }
  /// Starts loading what contains() and rank() of the key read.
  void prefetch(uint32_t key) const { __builtin_prefetch(&bits_[key / kKeysPerLine * 8]); }
  /// Builds the rank directory (after the last insert).
  void build_rank() {
    uint64_t acc = 0;
    for (uint64_t line = 0; line < words_; line += 8) {
      bits_[line] = acc;
      for (int i = 1; i < 8; ++i) acc += static_cast<uint64_t>(std::popcount(bits_[line + i]));
    }
    size_ = acc;
  }
  uint64_t size() const { return size_; }
  /// Position number of a key in the set (keys in increasing order).
  uint32_t rank(uint32_t key) const {
    const uint32_t line = key / kKeysPerLine, b = key - line * kKeysPerLine;
    const uint64_t* l = &bits_[uint64_t{line} * 8];
    const unsigned w = b >> 6;  // 0..6
    uint32_t r = static_cast<uint32_t>(l[0]);
    for (unsigned i = 0; i < w; ++i) r += static_cast<uint32_t>(std::popcount(l[1 + i]));
    return r + static_cast<uint32_t>(std::popcount(l[1 + w] & ((uint64_t{1} << (b & 63)) - 1)));
  }
  /// Calls f(key) for every key in the set, in increasing order.
  template <class F>
  void for_each(F&& f) const {
    for (uint64_t line = 0; line + 8 <= words_; line += 8)
      for (uint32_t k = 1; k < 8; ++k)
        for (uint64_t b = bits_[line + k]; b; b &= b - 1)
          f(static_cast<uint32_t>(line / 8 * kKeysPerLine + (k - 1) * 64 +
                                  static_cast<uint32_t>(std::countr_zero(b))));
  }
  /// Calls f(key) for every key of the set in [lo, hi), in increasing order.
  template <class F>
  void for_each_in(uint64_t lo, uint64_t hi, F&& f) const {
    hi = std::min<uint64_t>(hi, words_ / 8 * uint64_t{kKeysPerLine});
    for (uint64_t line = lo / kKeysPerLine; line * kKeysPerLine < hi; ++line)
      for (uint32_t k = 1; k < 8; ++k)
        for (uint64_t b = bits_[line * 8 + k]; b; b &= b - 1) {
          const uint64_t key =
              line * kKeysPerLine + (k - 1) * 64 + static_cast<uint64_t>(std::countr_zero(b));
          if (key >= lo && key < hi) f(static_cast<uint32_t>(key));
        }
  }
  /// Rank of the key, or -1 if absent.
  int64_t find(uint32_t key) const { return contains(key) ? int64_t{rank(key)} : -1; }
  uint64_t bytes() const { return words_ * 8; }
  uint64_t words() const { return words_; }
  const uint64_t* data() const { return bits_.get(); }
  uint64_t* data() { return bits_.get(); }

 private:
  static uint64_t word_of(uint32_t key) {
    const uint32_t line = key / kKeysPerLine;
    return uint64_t{line} * 8 + 1 + ((key - line * kKeysPerLine) >> 6);
  }
  static uint64_t bit_of(uint32_t key) { return uint64_t{1} << ((key % kKeysPerLine) & 63); }

  struct Free {
    void operator()(uint64_t* p) const { std::free(p); }
  };
  uint64_t words_;
  std::unique_ptr<uint64_t[], Free> bits_;
  uint64_t size_ = 0;
};

/// What the dense solvers share: the codec and a position's successors and
/// predecessors as keys (one process here, partitioned in
/// solver/distributed_dense.h).
template <DenseGame S>
class DenseMoves {
 public:
  using Move = typename S::Move;
  using BB = Bitboard<1>;
  static constexpr bool kRetractable = RetractableGame<S>;
  static constexpr bool kFast = PlacementGame<S>;
  static constexpr bool kFlips = dense_detail::FlipPlacements<S>;
  using Placed = typename dense_detail::MemberOr<dense_detail::PlacedT, S, kFast>::type;
  using FlipPlaced = typename dense_detail::MemberOr<dense_detail::FlipPlacementT, S, kFlips>::type;

  /// Value codes, from the side to move's point of view.
  enum Code : uint8_t { kUnknown = 0, kWin = 1, kLoss = 2, kNeutral = 3 };
  static constexpr uint8_t kCountMask = 0x1f, kCodeShift = 5, kNeutralSeen = 0x80;
  static constexpr uint8_t kNoDist = 0xff;
  /// Positions handled between prefetches and the loads they serve.
  static constexpr uint64_t kChunk = 128;
  /// Positions whose successor lists are kept (or not) together.
  static constexpr uint64_t kKeptPiece = 32 * kChunk;

  /// Can the dense method solve from this position? (`finished_ok`: the
  /// caller answers a finished position itself.)
  /// (`after_pass_ok`: the caller reads a finished table, which holds a
  /// position after a pass as the same board without it.)
  static std::string unsupported(const S& root, bool finished_ok = false,
                                 bool after_pass_ok = false) {
    if (root.geo().num_sites() > kDenseMaxCells)
      return "the dense index takes boards of at most 19 cells (side 3)";
    if (root.is_terminal()) return finished_ok ? "" : "the position is already over";
    if (dense_detail::passes_of(root) != 0)
      return after_pass_ok ? "" : "the position follows a pass";
    if (!(root.with_board(root.stones(Color::kBlack), root.stones(Color::kWhite), root.to_move()) ==
          root))
      return "the position is not determined by its stones and side to move";
    return "";
  }

  DenseMoves(const S& root, bool symmetry) : root_(root), codec_(root.geo(), symmetry) {}

  /// A finished table's answer for a position whose side to move is
  /// `mover`: its value code (kUnknown: undecided at the fixed point, a
  /// draw) and plies; `neutral` is what kNeutral stands for.
  static std::pair<Value, int> table_value(uint8_t code, int plies, Color mover,
                                           Value::Kind neutral) {
    switch (code) {
      case kWin:
        return {Value::win(mover), plies};
      case kLoss:
        return {Value::win(other(mover)), plies};
      case kNeutral:
        return {Value::of(neutral), plies};
      default:
        return {Value::of(Value::Kind::kDraw), -1};
    }
  }

  const DenseCodec& codec() const { return codec_; }

  struct Child {
    uint32_t key;
    uint8_t code;  // virtual child: its value for its mover (else kUnknown)
    uint8_t dist;  // virtual child: plies to the end
    /// Games without retrograde moves: the cells that changed, when the
    /// child is the position with each of them turned to the mover's
    /// colour (a placement and its flips) and the other side to move;
    /// else 0.
    uint32_t delta = 0;
  };
  struct alignas(64) Scratch {  // one a thread, on lines of its own
    std::vector<Move> ms, ms2;
    std::vector<Child> kids;
    std::vector<S> preds;
    std::vector<uint32_t> ranks;
    std::vector<uint32_t> seen;  // unique_keys()'s set
    std::vector<Placed> placed = std::vector<Placed>(64), rets;
    std::vector<FlipPlaced> flips = std::vector<FlipPlaced>(64);
    std::vector<uint32_t> pend, pend_rank;  // chunked lookups (keys, ranks)
    std::vector<uint8_t> pend_code;
    std::vector<Child> chunk_kids;     // a chunk's children (layered solve)
    std::vector<uint32_t> chunk_keys;  // the chunk's positions they belong to
    bool pass_only = false;            // the only move is a pass to a stored position
  };

  /// The value for the other side.
  static uint8_t flip(uint8_t c) {
    return c == kWin ? uint8_t{kLoss} : c == kLoss ? uint8_t{kWin} : c;
  }

  /// Folds successors' (code, plies to the end) into the position's: a win
  /// by the fastest lost successor, else neutral or a loss by the slowest.
  struct Fold {
    bool win = false, neutral = false;
    int dmin_win = 1 << 30, dmax = 0;
    void add(uint8_t code, int d) {
      dmax = std::max(dmax, d);
      if (code == kLoss) {
        win = true;
        dmin_win = std::min(dmin_win, d);
      } else if (code == kNeutral) {
        neutral = true;
      }
    }
    uint8_t code() const { return win ? kWin : neutral ? kNeutral : kLoss; }
    uint8_t dist() const {
      int d = 1 + (win ? dmin_win : dmax);
      if (d >= kNoDist) throw std::length_error("--method dense: more than 254 plies");
      return static_cast<uint8_t>(d);
    }
  };

  /// A position's first cell byte and distance from its successors as
  /// `children` left them (counter method): decided if its virtual children
  /// decide it, else the count of stored successors (+ kNeutralSeen) and
  /// kNoDist.
  static std::pair<uint8_t, uint8_t> first_byte(const std::vector<Child>& kids) {
    Fold f;
    uint32_t cnt = 0;
    for (const Child& k : kids) {
      if (k.code == kUnknown)
        ++cnt;
      else
        f.add(k.code, k.dist);
    }
    if (kids.empty()) throw std::logic_error("a stored position has no move");
    if (cnt > kCountMask) throw std::length_error("--method dense: more than 31 successors");
    if (f.win || cnt == 0) return {static_cast<uint8_t>(f.code() << kCodeShift), f.dist()};
    if (f.dmax > 1) throw std::logic_error("--method dense: a long virtual child");
    return {static_cast<uint8_t>(cnt | (f.neutral ? kNeutralSeen : 0)), kNoDist};
  }

  /// The value code in a position's cell (kUnknown while undecided).
  static uint8_t code_in(uint8_t cell) { return (cell >> kCodeShift) & 3; }

  /// The board (cb, cw) that is (pb, pw) with the cells of d turned to the
  /// mover's colour (black or not): a placement and its flips.
  static void turned(uint64_t pb, uint64_t pw, uint64_t d, bool black, uint64_t& cb, uint64_t& cw) {
    cb = black ? pb | d : pb & ~d;
    cw = black ? pw & ~d : pw | d;
  }

  /// The cell of an undecided position after one stored successor's value
  /// (for its mover) `jcode` arrives; `decided` when that settles it.
  static uint8_t counter_step(uint8_t old, uint8_t jcode, bool& decided) {
    decided = true;
    if (jcode == kLoss) return kWin << kCodeShift;
    const uint8_t cnt = old & kCountMask;
    if (cnt == 0) throw std::logic_error("--method dense: counter underflow");
    const bool neu = (old & kNeutralSeen) || jcode == kNeutral;
    if (cnt == 1) return static_cast<uint8_t>((neu ? kNeutral : kLoss) << kCodeShift);
    decided = false;
    return static_cast<uint8_t>((cnt - 1) | (neu ? kNeutralSeen : 0));
  }

  uint32_t key_of(const S& s) const {
    return codec_.canonical(s.stones(Color::kBlack).w[0], s.stones(Color::kWhite).w[0],
                            s.to_move());
  }
  S decode(uint32_t key) const {
    uint64_t b, w;
    Color mover;
    codec_.decode(key, b, w, mover);
    BB bb, wb;
    bb.w[0] = b;
    wb.w[0] = w;
    // Every stored position was reached by legal play from the root.
    if constexpr (requires { root_.with_board_unhashed(bb, wb, mover); })
      return root_.with_board_unhashed(bb, wb, mover);
    else
      return root_.with_board(bb, wb, mover);
  }

  uint8_t outcome_code(const Outcome& o, Color mover) {
    if (o.margin2 != 0)
      throw InputError("--method dense solves win/loss games; this one scores margins");
    switch (o.kind) {
      case Outcome::Kind::kBlackWins:
        return mover == Color::kBlack ? kWin : kLoss;
      case Outcome::Kind::kWhiteWins:
        return mover == Color::kWhite ? kWin : kLoss;
      case Outcome::Kind::kUnresolved:
      case Outcome::Kind::kDraw: {
        Value::Kind k = o.kind == Outcome::Kind::kDraw ? Value::Kind::kDraw : Value::Kind::kStall;
        Value::Kind seen = neutral_seen_.load(std::memory_order_relaxed);
        if (seen == Value::Kind::kUnknown)
          neutral_seen_.compare_exchange_strong(seen, k);
        else if (seen != k)
          throw InputError("--method dense: both drawn ends and stalls occur");
        return kNeutral;
      }
      case Outcome::Kind::kOngoing:
        break;
    }
    throw std::logic_error("a finished position reports no result");
  }

  /// The distinct successors of s (children up to symmetry, virtual
  /// children for moves that end the game), sorted by key.
  void children(const S& s, Scratch& sc) {
    sc.kids.clear();
    sc.pass_only = false;
    if constexpr (kFast) {
      children_fast(s, sc);
      return;
    }
    if constexpr (kFlips) {
      if (children_flips(s, sc)) return;
    }
    s.legal_moves(sc.ms);
    typename S::Undo u;
    // Children's keys from the position's images (with the other side to
    // move) plus their digit changes.
    const uint64_t pb = s.stones(Color::kBlack).w[0], pw = s.stones(Color::kWhite).w[0];
    const Color next = other(s.to_move());
    uint32_t img[12];
    codec_.images(pb, pw, next, img);
    const auto key_of_child = [&](const S& c) {
      if (c.to_move() != next) return key_of(c);
      return codec_.changed_key(img, pb, pw, c.stones(Color::kBlack).w[0],
                                c.stones(Color::kWhite).w[0]);
    };
    const bool black = s.to_move() == Color::kBlack;
    const auto delta_of = [&](const S& c) -> uint32_t {
      if (c.to_move() != next) return 0;
      const uint64_t cb = c.stones(Color::kBlack).w[0], cw = c.stones(Color::kWhite).w[0];
      const uint64_t d = (pb ^ cb) | (pw ^ cw);
      if (d == 0 || (d >> 32) != 0) return 0;
      uint64_t tb, tw;
      turned(pb, pw, d, black, tb, tw);
      return tb == cb && tw == cw ? static_cast<uint32_t>(d) : 0;
    };
    for (const Move& m : sc.ms) {
      S c = s;
      c.apply(m, u);
      if (c.is_terminal()) {
        sc.kids.push_back({0, outcome_code(c.outcome(), c.to_move()), 0});
        continue;
      }
      if (dense_detail::passes_of(c) > 0) {
        // A pass: the same stones, the other side to move.
        c.legal_moves(sc.ms2);
        if (sc.ms2.size() == 1) {
          S c2 = c;
          c2.apply(sc.ms2[0], u);
          if (c2.is_terminal() && dense_detail::passes_of(c2) > 0) {
            // Answered by the only move, a pass that ends the game.
            uint8_t code2 = outcome_code(c2.outcome(), c2.to_move());
            sc.kids.push_back({0, flip(code2), 1});
            continue;
          }
        }
        sc.kids.push_back({key_of_child(c), kUnknown, 0});
        sc.pass_only = sc.ms.size() == 1;
        continue;
      }
      sc.kids.push_back({key_of_child(c), kUnknown, 0, delta_of(c)});
    }
    dedupe(sc.kids);
  }

  /// children() from the placements and their flips (games that list them:
  /// Enfargar), without a state built per child; false (nothing done) when
  /// the only move is a pass, which children() handles.
  bool children_flips(const S& s, Scratch& sc) {
    if constexpr (kFlips) {
      const int n = s.placements_with_flips(sc.flips.data());
      if (n == 0) return false;
      const uint64_t pb = s.stones(Color::kBlack).w[0], pw = s.stones(Color::kWhite).w[0];
      const bool black = s.to_move() == Color::kBlack;
      const uint64_t opp = black ? pw : pb;
      uint32_t img[12];
      codec_.images(pb, pw, other(s.to_move()), img);
      for (int i = 0; i < n; ++i) {
        const auto& p = sc.flips[i];
        const uint64_t flips = p.flips.w[0];
        if (opp != 0 && flips == opp) {
          // The last enemy stones flipped: an end (rare; its result from
          // the rules).
          S c = s;
          typename S::Undo u;
          c.apply(Move{static_cast<int16_t>(p.site)}, u);
          sc.kids.push_back({0, outcome_code(c.outcome(), c.to_move()), 0});
          continue;
        }
        const uint64_t d = flips | uint64_t{1} << p.site;
        uint64_t cb, cw;
        turned(pb, pw, d, black, cb, cw);
        sc.kids.push_back({codec_.changed_key(img, pb, pw, cb, cw), kUnknown, 0,
                           (d >> 32) == 0 ? static_cast<uint32_t>(d) : 0u});
      }
      dedupe(sc.kids);
      return true;
    } else {
      (void)s;
      (void)sc;
      return false;
    }
  }

  /// Sorts the children by key and keeps one entry per stored child
  /// (virtual children stay: each is an end).
  static void dedupe(std::vector<Child>& kids) {
    small_sort(kids.begin(), kids.end(), [](const Child& a, const Child& b) {
      return a.key != b.key ? a.key < b.key : a.code < b.code;
    });
    size_t out = 0;
    for (size_t i = 0; i < kids.size(); ++i) {
      const Child& k = kids[i];
      if (k.code == kUnknown && out > 0 && kids[out - 1].code == kUnknown &&
          kids[out - 1].key == k.key)
        continue;
      kids[out++] = k;
    }
    kids.resize(out);
  }

  /// children() for a PlacementGame: one placements() call; each child's
  /// key is the parent's images plus the placed stone minus the captures.
  void children_fast(const S& s, Scratch& sc) {
    if constexpr (kFast) {
      const Color me = s.to_move(), them = other(me);
      const BB own = s.stones(me), opp = s.stones(them);
      uint32_t img[12];
      codec_.images(s.stones(Color::kBlack).w[0], s.stones(Color::kWhite).w[0], them, img);
      const uint32_t dm = me == Color::kBlack ? 1 : 2, dt = 3 - dm;
      const int n = s.placements(sc.placed.data(), true);
      for (int i = 0; i < n; ++i) {
        const Placed& p = sc.placed[i];
        if (!p.answered) {  // the opponent has no placement: an end
          sc.kids.push_back({0, outcome_code(placed_child(s, p).outcome_when_stuck(), them), 0});
          continue;
        }
        sc.kids.push_back(
            {codec_.moved_key(img, p.site, dm, p.captured.w[0], 0u - dt), kUnknown, 0});
      }
      dedupe(sc.kids);
    } else {
      (void)s;
      (void)sc;
    }
  }

  /// Keys of the predecessors of s (each once; stored or not), into sc.ranks.
  void parents(const S& s, Scratch& sc) {
    sc.ranks.clear();
    if constexpr (kFast) {
      s.retractions(sc.rets);
      const Color me = s.to_move(), last = other(me);
      uint32_t img[12];
      codec_.images(s.stones(Color::kBlack).w[0], s.stones(Color::kWhite).w[0], last, img);
      const uint32_t dl = last == Color::kBlack ? 1 : 2, dt = 3 - dl;
      for (const Placed& p : sc.rets) {
        sc.ranks.push_back(codec_.moved_key(img, p.site, 0u - dl, p.captured.w[0], dt));
      }
    } else if constexpr (kRetractable) {
      s.predecessors(sc.preds);
      for (const S& p : sc.preds) {
        sc.ranks.push_back(key_of(p));
      }
    }
    unique_keys(sc.ranks, sc.seen);
  }

  /// Drops repeated keys (order not kept): insertion sort for a few, else
  /// a small open-addressing set (Gadur's un-captures give dozens).
  static void unique_keys(std::vector<uint32_t>& keys, std::vector<uint32_t>& seen) {
    const size_t n = keys.size();
    if (n <= 24) {
      small_sort(keys.begin(), keys.end(), std::less<uint32_t>());
      keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
      return;
    }
    size_t cap = 64;
    while (cap < 2 * n) cap *= 2;
    // Keys are below 2 * 3^19 < 2^32 - 1: all ones marks a free slot.
    seen.assign(cap, ~uint32_t{0});
    size_t out = 0;
    for (size_t i = 0; i < n; ++i) {
      const uint32_t k = keys[i];
      size_t h = (k * uint64_t{0x9E3779B1}) >> 16 & (cap - 1);
      while (seen[h] != k && seen[h] != ~uint32_t{0}) h = (h + 1) & (cap - 1);
      if (seen[h] == k) continue;
      seen[h] = k;
      keys[out++] = k;
    }
    keys.resize(out);
  }

  static int stones_of(const S& s) {
    return (s.stones(Color::kBlack) | s.stones(Color::kWhite)).count();
  }

  /// (code, dist) of a position that is not stored: an end, or a pass
  /// answered by the only move, a pass that ends the game.
  std::optional<std::pair<uint8_t, int>> end_code(const S& s) const {
    if (s.is_terminal()) {
      Outcome o = s.outcome();
      if (o.kind == Outcome::Kind::kUnresolved || o.kind == Outcome::Kind::kDraw)
        return std::pair<uint8_t, int>{kNeutral, 0};
      return std::pair<uint8_t, int>{Outcome::win(s.to_move()) == o ? kWin : kLoss, 0};
    }
    if (dense_detail::passes_of(s) > 0) {
      std::vector<Move> ms;
      s.legal_moves(ms);
      if (ms.size() == 1) {
        S c = s;
        typename S::Undo u;
        c.apply(ms[0], u);
        if (c.is_terminal() && dense_detail::passes_of(c) > 0) {
          auto [code, d] = *end_code(c);
          return std::pair<uint8_t, int>{flip(code), 1};
        }
      }
    }
    return std::nullopt;
  }

  /// The neutral value seen at the ends (unknown if none).
  Value::Kind neutral_seen() const { return neutral_seen_.load(); }

 protected:
  S root_;
  DenseCodec codec_;
  std::atomic<Value::Kind> neutral_seen_{Value::Kind::kUnknown};
};

template <DenseGame S>
class DenseRetrograde : public DenseMoves<S> {
 public:
  using Base = DenseMoves<S>;
  using Base::kChunk;
  using Base::kCodeShift;
  using Base::kCountMask;
  using Base::kFast;
  using Base::kKeptPiece;
  using Base::kLoss;
  using Base::kNeutral;
  using Base::kNeutralSeen;
  using Base::kNoDist;
  using Base::kRetractable;
  using Base::kUnknown;
  using Base::kWin;
  using Base::unsupported;
  using typename Base::BB;
  using typename Base::Child;
  using typename Base::Fold;
  using typename Base::Move;
  using typename Base::Placed;
  using typename Base::Scratch;

  struct Config {
    bool symmetry = true;
    int threads = 1;
    /// Games without retrograde moves (Enfargar): memory for the successor
    /// lists kept from the enumeration, so that solving a position does
    /// not generate its moves again; the positions whose lists do not fit
    /// are listed again (0: none kept).
    uint64_t kept_bytes = uint64_t{384} << 20;
  };

  DenseRetrograde(const S& root, Config cfg)
      : Base(root, cfg.symmetry), cfg_(cfg), set_(codec_.key_count()) {
    if (cfg_.threads < 1) cfg_.threads = 1;
    std::string why = unsupported(root);
    if (!why.empty()) throw InputError("--method dense: " + why);
    root_key_ = key_of(root);
  }

  /// Enumerates and solves. Polls ctl between layers; throws Interrupted on
  /// a stop request.
  void run(RunControl& ctl) {
    enumerate(ctl);
    if constexpr (kRetractable)
      solve_counters(ctl);
    else
      solve_layers(ctl);
    solved_ = true;
  }

  // --- results ------------------------------------------------------------

  uint64_t positions() const { return set_.size(); }
  uint64_t moves() const { return moves_; }
  /// Moves that end the game (into an end position, not stored).
  uint64_t terminals() const { return ends_; }
  uint32_t sweeps() const { return max_dist_; }
  int symmetries() const { return codec_.symmetries(); }
  uint64_t bytes() const {
    // The enumeration's lists are freed as the solve's layer lists grow.
    return set_.bytes() + slot_.capacity() * sizeof(Slot) + std::max(peak_lists_, peak_layers_) +
           kept_peak_;
  }
  /// Successor entries kept from the enumeration (games without retrograde
  /// moves), out of moves().
  uint64_t kept_moves() const { return kept_moves_; }
  Value::Kind neutral_kind() const { return neutral_; }

  /// After run(): f(key, value code, plies) for every stored position in
  /// increasing key order (a draw: kUnknown and kNoDist).
  template <class F>
  void for_each_solved(F&& f) const {
    uint64_t r = 0;
    set_.for_each([&](uint32_t key) {
      const Slot& sl = slot_[r++];
      const uint8_t code = code_in(sl.cell);
      f(key, code, code == kUnknown ? kNoDist : sl.dist);
    });
  }

  /// Every `every`-th stored position in key order, decoded: a uniform
  /// sample of the positions (for measurements).
  std::vector<S> sample(uint64_t every) const {
    std::vector<S> out;
    uint64_t i = 0;
    set_.for_each([&](uint32_t key) {
      if (i++ % every == 0) out.push_back(this->decode(key));
    });
    return out;
  }

  /// The solver's table traffic for these keys alone (for measurements),
  /// in its pattern: chunks of kChunk keys, each key's bitmap line
  /// prefetched, then tested (and, with `cells`, ranked, its value byte
  /// prefetched, then read). Returns the number of stored keys plus the
  /// sum of the bytes read.
  uint64_t probe(const std::vector<uint32_t>& keys, bool cells) const {
    uint64_t found = 0, sum = 0;
    uint32_t rk[kChunk];
    for (size_t base = 0; base < keys.size(); base += kChunk) {
      const size_t top = std::min(keys.size(), base + kChunk);
      for (size_t i = base; i < top; ++i) set_.prefetch(keys[i]);
      size_t m = 0;
      for (size_t i = base; i < top; ++i) {
        if (!set_.contains(keys[i])) continue;
        ++found;
        if (!cells) continue;
        rk[m] = set_.rank(keys[i]);
        __builtin_prefetch(&slot_[rk[m]].cell);
        ++m;
      }
      for (size_t j = 0; j < m; ++j) sum += slot_[rk[j]].cell;
    }
    return found + sum;
  }

  /// Value and plies to the end (-1: draw or unknown) of a position reachable
  /// from the root.
  std::pair<Value, int> lookup(const S& s) const {
    auto [code, d] = code_of(s);
    if (code == kUnknown && (!solved_ || d == -2)) return {Value{}, -1};  // not stored, or unsolved
    return this->table_value(code, d, s.to_move(), neutral_);
  }

 private:
  using Base::children;
  using Base::code_in;
  using Base::codec_;
  using Base::counter_step;
  using Base::decode;
  using Base::first_byte;
  using Base::flip;
  using Base::key_of;
  using Base::neutral_seen_;
  using Base::outcome_code;
  using Base::parents;
  using Base::root_;
  using Base::stones_of;

  /// Runs f(thread, begin, end) over [0, n): each thread takes the next
  /// slice (about 32 a thread) until none is left, so that a thread with
  /// cheap positions does not wait for one with costly ones.
  template <class F>
  void parallel(uint64_t n, F&& f) {
    slices(n, grain(n), f);
  }

  /// parallel()'s slice length for n items: all of them (one thread) below
  /// 4,096, else about 32 slices a thread of at least 1,024.
  uint64_t grain(uint64_t n) const {
    if (n < 4096) return n;
    return std::max<uint64_t>(1024, n / (uint64_t{32} * cfg_.threads));
  }

  template <class F>
  void slices(uint64_t n, uint64_t grain, F&& f) {
    parallel_slices(cfg_.threads, n, grain, f);
  }

  /// Successor lists of the positions [lo, hi) of one bucket, kept from
  /// the enumeration: each position's count (+ kPassOnly when its only
  /// move is a pass) and its children in order, a child in one byte when
  /// it differs from the position by one placed stone (its cell), or a
  /// virtual child (kVirtual + code * 4 + plies), else in five: kDelta and
  /// the cells that changed (a placement and its flips), or kKey and the
  /// child's key.
  struct Kept {
    static constexpr uint8_t kPassOnly = 0x80;
    static constexpr uint8_t kVirtual = 0x40, kDelta = 0x80, kKey = 0x81;
    uint64_t lo = 0, hi = 0, moves = 0;
    std::vector<uint8_t> kids;
    std::vector<uint8_t> counts;
    uint64_t bytes() const { return kids.capacity() + counts.capacity(); }
    /// Appends a position's list; false if it cannot be kept.
    bool add(const std::vector<Child>& ks, bool pass_only) {
      if (ks.size() >= kPassOnly) return false;
      counts.push_back(static_cast<uint8_t>(ks.size() | (pass_only ? kPassOnly : 0)));
      moves += ks.size();
      for (const Child& k : ks) {
        if (k.code != Base::kUnknown) {
          if (k.dist > 3) return false;
          kids.push_back(static_cast<uint8_t>(kVirtual + k.code * 4 + k.dist));
        } else if (std::has_single_bit(k.delta)) {
          kids.push_back(static_cast<uint8_t>(std::countr_zero(k.delta)));  // < 32
        } else {
          kids.push_back(k.delta ? kDelta : kKey);
          const uint32_t v = k.delta ? k.delta : k.key;
          for (int b = 0; b < 4; ++b) kids.push_back(static_cast<uint8_t>(v >> (8 * b)));
        }
      }
      return true;
    }
  };

  /// Position lo + i of `kept` (whose key is `key`): its successors into
  /// sc.kids and sc.pass_only, read from byte `at` of kept.kids; returns
  /// the byte after them. The children's keys are the position's images
  /// plus their digit changes (no move generated).
  size_t kept_kids(const Kept& kept, uint64_t i, size_t at, uint32_t key, Scratch& sc) const {
    sc.kids.clear();
    const uint8_t c = kept.counts[i];
    sc.pass_only = (c & Kept::kPassOnly) != 0;
    const unsigned n = c & ~Kept::kPassOnly;
    const uint8_t* p = kept.kids.data();
    uint32_t img[12];
    uint64_t pb = 0, pw = 0;
    bool black = false, have = false;
    const auto word = [&] {
      uint32_t v = 0;
      for (int b = 0; b < 4; ++b) v |= static_cast<uint32_t>(p[at++]) << (8 * b);
      return v;
    };
    for (unsigned j = 0; j < n; ++j) {
      const uint8_t x = p[at++];
      if (x >= Kept::kVirtual && x < Kept::kDelta) {
        sc.kids.push_back({0, static_cast<uint8_t>((x >> 2) & 3), static_cast<uint8_t>(x & 3)});
        continue;
      }
      if (x == Kept::kKey) {
        sc.kids.push_back({word(), Base::kUnknown, 0});
        continue;
      }
      const uint64_t d = x == Kept::kDelta ? word() : uint64_t{1} << x;
      if (!have) {
        Color mover;
        codec_.decode(key, pb, pw, mover);
        black = mover == Color::kBlack;
        codec_.images(pb, pw, other(mover), img);
        have = true;
      }
      uint64_t cb, cw;
      Base::turned(pb, pw, d, black, cb, cw);
      sc.kids.push_back({codec_.changed_key(img, pb, pw, cb, cw), Base::kUnknown, 0});
    }
    return at;
  }

  /// Breadth-first enumeration of the reachable classes. Buckets: plies from
  /// the root (counter method) or stone counts (layered method). The counter
  /// method also records each position's first byte and distance.
  void enumerate(RunControl& ctl) {
    const int nb = kRetractable ? 4096 : codec_.cells() + 1;
    buckets_.assign(nb, {});
    first_.assign(nb, {});
    set_.insert(root_key_);
    const int b0 = kRetractable ? 0 : stones_of(root_);
    buckets_[b0].push_back(root_key_);
    std::vector<Scratch> scratch(cfg_.threads);
    struct alignas(64) Out {                     // one a thread, on lines of its own
      std::vector<std::vector<uint32_t>> found;  // per bucket offset 0 (same), 1.. (more)
      uint64_t moves = 0, ends = 0;
      std::vector<Kept> kept;
    };
    std::vector<Out> outs(cfg_.threads);
    uint64_t seen = 1;
    for (int b = b0; b < nb; ++b) {
      if (buckets_[b].empty()) {
        if (kRetractable) break;
        continue;
      }
      if (b + 1 >= nb && kRetractable)
        throw std::length_error("--method dense: more than 4095 plies from the root");
      size_t begin = 0;
      while (begin < buckets_[b].size()) {
        const size_t end = buckets_[b].size();
        auto& list = buckets_[b];
        // First bytes and distances in place; the found lists keep their
        // memory from level to level (fresh pages cost a kernel clear).
        uint8_t* first = nullptr;
        uint8_t* dist = nullptr;
        if constexpr (kRetractable) {
          first_[b].resize(end);
          dist_list_[b].resize(end);
          first = first_[b].data() + begin;
          dist = dist_list_[b].data() + begin;
        }
        for (auto& o : outs) {
          o.found.resize(codec_.cells() + 2);
          for (auto& f : o.found) f.clear();
          o.kept.clear();
        }
        parallel(end - begin, [&](int t, uint64_t lo, uint64_t hi) {
          Scratch& sc = scratch[t];
          Out& o = outs[t];
          // The successor lists, in pieces of kKeptPiece positions, each
          // kept if it fits the budget.
          Kept kept;
          bool keep = false;
          const auto start = [&](uint64_t at) {
            keep = !kRetractable && kept_total_.load(std::memory_order_relaxed) < cfg_.kept_bytes;
            kept = Kept{};
            if (!keep) return;
            kept.lo = begin + at;
            kept.counts.reserve(kKeptPiece);
            kept.kids.reserve(kKeptPiece * 12);
          };
          const auto finish = [&](uint64_t at) {
            if (!keep) return;
            kept.hi = begin + at;
            kept.kids.shrink_to_fit();
            kept.counts.shrink_to_fit();
            const uint64_t sz = kept.bytes();
            if (kept_total_.fetch_add(sz) + sz <= cfg_.kept_bytes)
              o.kept.push_back(std::move(kept));
            else
              kept_total_.fetch_sub(sz);
          };
          start(lo);
          // In chunks: the children of kChunk positions first, then their
          // bitmap inserts, whose cache lines were prefetched meanwhile.
          std::vector<uint32_t>& pend = sc.pend;
          for (uint64_t base = lo; base < hi; base += kChunk) {
            if (base > lo && (base - lo) % kKeptPiece == 0) {
              finish(base);
              start(base);
            }
            const uint64_t top = std::min<uint64_t>(hi, base + kChunk);
            pend.clear();
            int count = 0;
            for (uint64_t i = base; i < top; ++i) {
              S s = decode(list[begin + i]);
              children(s, sc);
              if constexpr (!kRetractable) count = stones_of(s);
              if (keep) keep = kept.add(sc.kids, sc.pass_only);
              for (const Child& k : sc.kids) {
                ++o.moves;
                if (k.code != kUnknown) {
                  ++o.ends;
                  continue;
                }
                set_.prefetch(k.key);  // tested after the chunk's children are known
                pend.push_back(k.key);
                if constexpr (!kRetractable) pend.push_back(static_cast<uint32_t>(count));
              }
              if constexpr (kRetractable) std::tie(first[i], dist[i]) = first_byte(sc.kids);
            }
            const size_t step = kRetractable ? 1 : 2;
            for (size_t j = 0; j < pend.size(); j += step) {
              const uint32_t key = pend[j];
              if (!set_.insert(key)) continue;
              int off;
              if constexpr (kRetractable) {
                off = 1;
              } else {
                uint64_t cb, cw;
                Color cm;
                codec_.decode(key, cb, cw, cm);
                off = std::popcount(cb | cw) - static_cast<int>(pend[j + 1]);
                if (off < 0)
                  throw std::logic_error("--method dense: a move took stones off the board");
              }
              o.found[off].push_back(key);
            }
          }
          finish(hi);
        });
        for (auto& o : outs) {
          moves_ += o.moves;
          ends_ += o.ends;
          o.moves = o.ends = 0;
          if constexpr (!kRetractable) {
            if (kept_.size() <= static_cast<size_t>(b)) kept_.resize(b + 1);
            for (Kept& k : o.kept) {
              kept_moves_ += k.moves;
              kept_[b].push_back(std::move(k));
            }
          }
          for (size_t off = 0; off < o.found.size(); ++off) {
            if (o.found[off].empty()) continue;
            seen += o.found[off].size();
            auto& dst = buckets_[b + static_cast<int>(off)];
            dst.insert(dst.end(), o.found[off].begin(), o.found[off].end());
          }
        }
        begin = end;  // a pass successor joins this bucket: go on with it
        ctl.work(1);
        ctl.status("dense: enumerating", with_commas(seen) + " positions");
        if (ctl.stop_requested()) throw Interrupted("interrupted while enumerating positions");
      }
    }
    kept_peak_ = kept_total_.load();
    for (auto& v : kept_)
      std::sort(v.begin(), v.end(), [](const Kept& a, const Kept& b) { return a.lo < b.lo; });
    set_.build_rank();
    uint64_t n = set_.size();
    slot_.assign(n, Slot{0, kNoDist});
    uint64_t lists = 0;
    for (const auto& v : buckets_) lists += v.capacity() * 4;
    for (const auto& v : first_) lists += v.capacity();
    for (const auto& v : dist_list_) lists += v.capacity();
    peak_lists_ = lists;
  }

  /// A layer entry: a decided position's key, its value code above bit 32
  /// (so that the layer loop need not look it up).
  static uint64_t layer_entry(uint32_t key, uint8_t cell) {
    return key | uint64_t{code_in(cell)} << 32;
  }

  uint8_t load(uint64_t r) const {
    return std::atomic_ref<const uint8_t>(slot_[r].cell).load(std::memory_order_relaxed);
  }

  void solve_counters(RunControl& ctl) {
    // Scatter the first bytes (in chunks: the bitmap lines prefetched,
    // then the slots); the positions decided by their virtual children
    // start the layers (each thread lists its own, merged after).
    std::vector<std::vector<uint64_t>> layers(3);
    std::vector<OwnLines<std::vector<std::vector<uint64_t>>>> starts(cfg_.threads);
    for (size_t b = 0; b < buckets_.size(); ++b) {
      const auto& keys = buckets_[b];
      parallel(keys.size(), [&](int t, uint64_t lo, uint64_t hi) {
        auto& mine = starts[t];
        uint32_t rk[kChunk];
        for (uint64_t base = lo; base < hi; base += kChunk) {
          const uint64_t top = std::min<uint64_t>(hi, base + kChunk);
          for (uint64_t i = base; i < top; ++i) set_.prefetch(keys[i]);
          for (uint64_t i = base; i < top; ++i) {
            rk[i - base] = set_.rank(keys[i]);
            __builtin_prefetch(&slot_[rk[i - base]], 1);
          }
          for (uint64_t i = base; i < top; ++i) {
            const uint8_t first = first_[b][i];
            Slot& sl = slot_[rk[i - base]];
            sl.cell = first;
            if (code_in(first) == kUnknown) continue;
            const uint8_t d = dist_list_[b][i];
            sl.dist = d;
            if (d >= mine.size()) mine.resize(d + 1);
            mine[d].push_back(layer_entry(keys[i], first));
          }
        }
      });
      std::vector<uint32_t>().swap(buckets_[b]);
      std::vector<uint8_t>().swap(first_[b]);
      std::vector<uint8_t>().swap(dist_list_[b]);
    }
    for (auto& mine : starts)
      for (size_t d = 0; d < mine.size(); ++d) {
        if (d >= layers.size()) layers.resize(d + 1);
        layers[d].insert(layers[d].end(), mine[d].begin(), mine[d].end());
      }
    const auto entries = [](const auto& lists) {
      uint64_t sum = 0;
      for (const auto& v : lists) sum += v.capacity() * sizeof(uint64_t);
      return sum;
    };
    peak_layers_ = entries(layers);
    for (const auto& mine : starts) peak_layers_ += entries(mine);
    starts.clear();
    std::vector<Scratch> scratch(cfg_.threads);
    std::vector<OwnLines<std::vector<uint64_t>>> next(cfg_.threads);
    const bool alone = cfg_.threads == 1;
    for (size_t d = 1; d < layers.size(); ++d) {
      auto& cur = layers[d];
      if (cur.empty()) continue;
      if (d >= kNoDist - 1) throw std::length_error("--method dense: more than 253 plies");
      max_dist_ = static_cast<uint32_t>(d);
      for (auto& v : next) v.clear();
      parallel(cur.size(), [&](int t, uint64_t lo, uint64_t hi) {
        Scratch& sc = scratch[t];
        // In chunks, each load prefetched a stage ahead: the layer's
        // retrograde moves, the parents' ranks, their cells.
        std::vector<uint32_t>& pend = sc.pend;
        std::vector<uint32_t>& prank = sc.pend_rank;
        std::vector<uint8_t>& pcode = sc.pend_code;
        for (uint64_t base = lo; base < hi; base += kChunk) {
          const uint64_t top = std::min<uint64_t>(hi, base + kChunk);
          pend.clear();
          pcode.clear();
          for (uint64_t i = base; i < top; ++i) {
            const auto jcode = static_cast<uint8_t>(cur[i] >> 32);
            parents(decode(static_cast<uint32_t>(cur[i])), sc);
            for (uint32_t pk : sc.ranks) {
              set_.prefetch(pk);
              pend.push_back(pk);
              pcode.push_back(jcode);
            }
          }
          size_t m = 0;
          prank.resize(pend.size());
          for (size_t j = 0; j < pend.size(); ++j) {
            if (!set_.contains(pend[j])) continue;
            const uint32_t r = set_.rank(pend[j]);
            __builtin_prefetch(&slot_[r].cell);
            pend[m] = pend[j];
            pcode[m] = pcode[j];
            prank[m++] = r;
          }
          for (size_t j = 0; j < m; ++j) {
            const uint32_t r = prank[j];
            const uint8_t jcode = pcode[j];
            // One thread stores plainly (no locked instruction); several
            // compare-and-swap, retrying with the value another one wrote.
            const auto store = [&](uint8_t& old, uint8_t nv) {
              if (alone) {
                slot_[r].cell = nv;
                return true;
              }
              return std::atomic_ref<uint8_t>(slot_[r].cell)
                  .compare_exchange_weak(old, nv, std::memory_order_relaxed);
            };
            uint8_t old = alone ? slot_[r].cell : load(r);
            for (;;) {
              if (code_in(old) != kUnknown) break;  // decided already
              bool decided;
              const uint8_t nv = counter_step(old, jcode, decided);
              if (!store(old, nv)) continue;
              if (decided) {
                slot_[r].dist = static_cast<uint8_t>(d + 1);
                next[t].push_back(layer_entry(pend[j], nv));
              }
              break;
            }
          }
        }
      });
      peak_layers_ = std::max(peak_layers_, entries(layers) + entries(next));
      std::vector<uint64_t>().swap(cur);
      if (layers.size() <= d + 1) layers.resize(d + 2);
      for (auto& v : next) layers[d + 1].insert(layers[d + 1].end(), v.begin(), v.end());
      peak_layers_ = std::max(peak_layers_, entries(layers) + entries(next));
      ctl.work(1);
      ctl.status("dense: layer " + std::to_string(d));
      if (ctl.stop_requested()) throw Interrupted("interrupted while solving");
    }
    neutral_ = neutral_seen_.load();
  }

  /// Settles keys[0..n) from their successors' values (all solved), in
  /// chunks: the chunk's children first, their bitmap words prefetched;
  /// then their ranks, the value bytes prefetched; then the folds. With
  /// `deferred`, a position whose only move is a pass goes there instead.
  void settle_all(const uint32_t* keys, uint64_t n, Scratch& sc, uint32_t& maxd,
                  std::vector<uint32_t>* deferred, const Kept* kept = nullptr) {
    std::vector<Child>& all = sc.chunk_kids;
    std::vector<uint32_t>& ends = sc.pend;
    std::vector<uint32_t>& ranks = sc.pend_rank;
    std::vector<uint32_t>& who = sc.chunk_keys;
    size_t at = 0;  // the next entry of kept->kids
    for (uint64_t base = 0; base < n; base += kChunk) {
      const uint64_t top = std::min<uint64_t>(n, base + kChunk);
      all.clear();
      ends.clear();
      who.clear();
      for (uint64_t i = base; i < top; ++i) {
        if (kept)
          at = kept_kids(*kept, i, at, keys[i], sc);
        else
          children(decode(keys[i]), sc);
        if (deferred && sc.pass_only) {
          deferred->push_back(keys[i]);
          continue;
        }
        if (sc.kids.empty()) throw std::logic_error("a stored position has no move");
        for (const Child& k : sc.kids) {
          if (k.code == kUnknown) set_.prefetch(k.key);
          all.push_back(k);
        }
        set_.prefetch(keys[i]);
        who.push_back(keys[i]);
        ends.push_back(static_cast<uint32_t>(all.size()));
      }
      ranks.resize(all.size());
      for (size_t j = 0; j < all.size(); ++j) {
        if (all[j].code != kUnknown) continue;
        ranks[j] = set_.rank(all[j].key);
        __builtin_prefetch(&slot_[ranks[j]].cell);
      }
      size_t j = 0;
      for (size_t p = 0; p < who.size(); ++p) {
        Fold f;
        for (; j < ends[p]; ++j) {
          const Child& k = all[j];
          if (k.code != kUnknown) {
            f.add(k.code, k.dist);
            continue;
          }
          const uint8_t code = code_in(slot_[ranks[j]].cell);
          if (code == kUnknown)
            throw std::logic_error("--method dense: a successor is not solved yet");
          f.add(code, slot_[ranks[j]].dist);
        }
        const uint32_t r = set_.rank(who[p]);
        slot_[r].cell = static_cast<uint8_t>(f.code() << kCodeShift);
        slot_[r].dist = f.dist();
        maxd = std::max<uint32_t>(maxd, slot_[r].dist);
      }
    }
  }

  void solve_layers(RunControl& ctl) {
    std::vector<Scratch> scratch(cfg_.threads);
    struct alignas(64) Deepest {  // one a thread, on a line of its own
      uint32_t v = 0;
    };
    std::vector<Deepest> maxd(cfg_.threads);
    std::vector<OwnLines<std::vector<uint32_t>>> deferred(cfg_.threads);
    for (int b = static_cast<int>(buckets_.size()) - 1; b >= 0; --b) {
      auto& list = buckets_[b];
      // Positions with a placement first (their successors have more
      // stones), then those that must pass (their successor has the same
      // stones and a placement, or is an end).
      for (auto& v : deferred) v.clear();
      // The slices whose successor lists were kept, and the rest in pieces.
      struct Part {
        uint64_t lo, hi;
        const Kept* kept;
      };
      std::vector<Part> parts;
      const uint64_t piece = std::max<uint64_t>(1, grain(list.size()));
      uint64_t at = 0;
      const auto fresh = [&](uint64_t to) {
        for (; at < to; at = std::min(to, at + piece))
          parts.push_back({at, std::min(to, at + piece), nullptr});
      };
      if (static_cast<size_t>(b) < kept_.size())
        for (const Kept& k : kept_[b]) {
          fresh(k.lo);
          parts.push_back({k.lo, k.hi, &k});
          at = k.hi;
        }
      fresh(list.size());
      // (One thread for a small layer, as parallel() has.)
      slices(parts.size(), piece == list.size() ? parts.size() : 1,
             [&](int t, uint64_t lo, uint64_t hi) {
               for (uint64_t i = lo; i < hi; ++i)
                 settle_all(list.data() + parts[i].lo, parts[i].hi - parts[i].lo, scratch[t],
                            maxd[t].v, &deferred[t], parts[i].kept);
             });
      if (static_cast<size_t>(b) < kept_.size()) std::vector<Kept>().swap(kept_[b]);
      std::vector<uint32_t> later;
      for (const auto& v : deferred) later.insert(later.end(), v.begin(), v.end());
      parallel(later.size(), [&](int t, uint64_t lo, uint64_t hi) {
        settle_all(later.data() + lo, hi - lo, scratch[t], maxd[t].v, nullptr);
      });
      std::vector<uint32_t>().swap(list);
      ctl.work(1);
      ctl.status("dense: solved the positions of " + std::to_string(b) + " stones");
      if (ctl.stop_requested()) throw Interrupted("interrupted while solving");
    }
    for (const Deepest& m : maxd) max_dist_ = std::max(max_dist_, m.v);
    neutral_ = neutral_seen_.load();
  }

  /// (code, dist) of any reachable position; dist -2 when not stored.
  std::pair<uint8_t, int> code_of(const S& s) const {
    if (auto e = this->end_code(s)) return *e;
    int64_t r = set_.find(key_of(s));
    if (r < 0 || !solved_) return {kUnknown, -2};
    uint8_t code = code_in(slot_[r].cell);
    return {code, code == kUnknown ? -1 : slot_[r].dist};
  }

  Config cfg_;
  DenseSet set_;
  uint32_t root_key_ = 0;
  std::vector<std::vector<uint32_t>> buckets_;
  std::vector<std::vector<uint8_t>> first_;
  std::vector<std::vector<uint8_t>> dist_list_ = std::vector<std::vector<uint8_t>>(4096);
  /// A position's cell (counter or value code) and plies to the end, side
  /// by side so that deciding a position writes one cache line, not two.
  struct Slot {
    uint8_t cell, dist;
  };
  HugeVector<Slot> slot_;  ///< by position number (random access)
  uint64_t moves_ = 0, ends_ = 0, peak_lists_ = 0, peak_layers_ = 0;
  /// Successor lists kept from the enumeration, by bucket (sorted by lo).
  std::vector<std::vector<Kept>> kept_;
  std::atomic<uint64_t> kept_total_{0};
  uint64_t kept_peak_ = 0, kept_moves_ = 0;
  uint32_t max_dist_ = 0;
  bool solved_ = false;
  Value::Kind neutral_ = Value::Kind::kUnknown;
};

}  // namespace loom::solver
