// The puzzles' random source: splitmix64, whose sequence is fixed by its
// seed on every platform (std distributions are not), so a seed names one
// collection.
#pragma once

#include <cstddef>
#include <cstdint>

#include "model/common/zobrist.h"

namespace loom::puzzles::detail {

class Rng {
 public:
  explicit Rng(uint64_t seed) : x_(seed) {}
  uint64_t next() { return splitmix64(x_); }
  /// Uniform in [0, n) (n > 0; the modulo bias is irrelevant here).
  size_t below(size_t n) { return static_cast<size_t>(next() % n); }
  /// The whole state: Rng(state()) continues this sequence (progress files).
  uint64_t state() const { return x_; }

 private:
  uint64_t x_;
};

}  // namespace loom::puzzles::detail
