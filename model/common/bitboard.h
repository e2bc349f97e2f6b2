// Fixed-width bitboards over the padded hexagonal layout (see hex.h).
//
// Bitboard<W> holds W 64-bit words. The width is a template parameter so that
// small boards (side <= 4 fits in one word) compile to single-register
// arithmetic; `words_for_side(n)` picks the width for a board side and
// `dispatch_width` turns a runtime side into a compile-time width.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <utility>

namespace loom {

template <int W>
struct Bitboard {
  static_assert(W >= 1);
  static constexpr int kWords = W;
  static constexpr int kBits = 64 * W;

  std::array<uint64_t, W> w{};

  constexpr Bitboard() = default;

  static constexpr Bitboard single(int bit) {
    Bitboard b;
    b.w[bit >> 6] = uint64_t{1} << (bit & 63);
    return b;
  }

  constexpr bool test(int bit) const { return (w[bit >> 6] >> (bit & 63)) & 1u; }
  constexpr void set(int bit) { w[bit >> 6] |= uint64_t{1} << (bit & 63); }
  constexpr void reset(int bit) { w[bit >> 6] &= ~(uint64_t{1} << (bit & 63)); }

  constexpr bool any() const {
    uint64_t acc = 0;
    for (int i = 0; i < W; ++i) acc |= w[i];
    return acc != 0;
  }
  constexpr bool none() const { return !any(); }
  constexpr int count() const {
    int c = 0;
    for (int i = 0; i < W; ++i) c += std::popcount(w[i]);
    return c;
  }
  /// Index of the lowest set bit; the board must not be empty.
  constexpr int lowest() const {
    for (int i = 0; i < W; ++i)
      if (w[i]) return 64 * i + std::countr_zero(w[i]);
    return -1;
  }
  /// Removes and returns the lowest set bit; the board must not be empty.
  constexpr int pop_lowest() {
    for (int i = 0; i < W; ++i)
      if (w[i]) {
        int b = std::countr_zero(w[i]);
        w[i] &= w[i] - 1;
        return 64 * i + b;
      }
    return -1;
  }
  /// The lowest set bit as a bitboard (empty if none).
  constexpr Bitboard lowest_bit() const {
    Bitboard r;
    for (int i = 0; i < W; ++i)
      if (w[i]) {
        r.w[i] = w[i] & (~w[i] + 1);
        return r;
      }
    return r;
  }
  constexpr bool intersects(const Bitboard& o) const {
    uint64_t acc = 0;
    for (int i = 0; i < W; ++i) acc |= w[i] & o.w[i];
    return acc != 0;
  }

  /// Shift towards higher bit indices by k, 0 <= k < 64.
  constexpr Bitboard shl(int k) const {
    Bitboard r;
    if (k == 0) return *this;
    r.w[0] = w[0] << k;
    for (int i = 1; i < W; ++i) r.w[i] = (w[i] << k) | (w[i - 1] >> (64 - k));
    return r;
  }
  /// Shift towards lower bit indices by k, 0 <= k < 64.
  constexpr Bitboard shr(int k) const {
    Bitboard r;
    if (k == 0) return *this;
    for (int i = 0; i + 1 < W; ++i) r.w[i] = (w[i] >> k) | (w[i + 1] << (64 - k));
    r.w[W - 1] = w[W - 1] >> k;
    return r;
  }

  constexpr Bitboard operator&(const Bitboard& o) const {
    Bitboard r;
    for (int i = 0; i < W; ++i) r.w[i] = w[i] & o.w[i];
    return r;
  }
  constexpr Bitboard operator|(const Bitboard& o) const {
    Bitboard r;
    for (int i = 0; i < W; ++i) r.w[i] = w[i] | o.w[i];
    return r;
  }
  constexpr Bitboard operator^(const Bitboard& o) const {
    Bitboard r;
    for (int i = 0; i < W; ++i) r.w[i] = w[i] ^ o.w[i];
    return r;
  }
  /// this & ~o
  constexpr Bitboard andnot(const Bitboard& o) const {
    Bitboard r;
    for (int i = 0; i < W; ++i) r.w[i] = w[i] & ~o.w[i];
    return r;
  }
  constexpr Bitboard& operator&=(const Bitboard& o) { return *this = *this & o; }
  constexpr Bitboard& operator|=(const Bitboard& o) { return *this = *this | o; }
  constexpr Bitboard& operator^=(const Bitboard& o) { return *this = *this ^ o; }
  constexpr bool operator==(const Bitboard& o) const = default;
  constexpr auto operator<=>(const Bitboard& o) const = default;

  /// Calls f(bit) for every set bit, lowest first.
  template <class F>
  constexpr void for_each(F&& f) const {
    for (int i = 0; i < W; ++i) {
      uint64_t x = w[i];
      while (x) {
        f(64 * i + std::countr_zero(x));
        x &= x - 1;
      }
    }
  }
};

/// Padded layout: (2n-1)^2 bits (see hex.h). Width in words for side n.
constexpr int words_for_side(int n) {
  int bits = (2 * n - 1) * (2 * n - 1);
  int words = (bits + 63) / 64;
  // Widths are instantiated in tiers to bound compile time:
  // n<=4 -> 1, n<=7 -> 3, n<=9 -> 5, n<=13 -> 10.
  if (words <= 1) return 1;
  if (words <= 3) return 3;
  if (words <= 5) return 5;
  return 10;
}

/// Most sites a board of width W can have (largest sides 4, 7, 9, 13).
template <int W>
constexpr int kMaxSites = W == 1   ? 37
                          : W == 3 ? 127
                          : W == 5 ? 217
                                   : 469;

inline constexpr int kMinSide = 2;
inline constexpr int kMaxSide = 13;

/// Calls f(std::integral_constant<int, W>{}) with the bitboard width for side n.
template <class F>
decltype(auto) dispatch_width(int n, F&& f) {
  switch (words_for_side(n)) {
    case 1:
      return f(std::integral_constant<int, 1>{});
    case 3:
      return f(std::integral_constant<int, 3>{});
    case 5:
      return f(std::integral_constant<int, 5>{});
    default:
      return f(std::integral_constant<int, 10>{});
  }
}

}  // namespace loom
