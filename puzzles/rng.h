// The puzzles' random source: splitmix64, whose sequence is fixed by its
// seed on every platform (std distributions are not), so a seed names one
// collection.
#pragma once

#include <cstddef>
#include <cstdint>

namespace loom::puzzles::detail {

class Rng {
 public:
  explicit Rng(uint64_t seed) : x_(seed) {}
  uint64_t next() {
    uint64_t z = (x_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n) (n > 0; the modulo bias is irrelevant here).
  size_t below(size_t n) { return static_cast<size_t>(next() % n); }

 private:
  uint64_t x_;
};

}  // namespace loom::puzzles::detail
