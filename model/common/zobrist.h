// Deterministic Zobrist keys (splitmix64 from fixed seeds) so that hashes are
// identical across runs, builds and machines: checkpoints and tables stay valid.
#pragma once

#include <cstdint>
#include <vector>

namespace loom {

constexpr uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// `count` keys derived from `seed` (use a distinct seed per game and table).
inline std::vector<uint64_t> zobrist_keys(uint64_t seed, size_t count) {
  std::vector<uint64_t> keys(count);
  for (auto& k : keys) k = splitmix64(seed);
  return keys;
}

}  // namespace loom
