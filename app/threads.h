// The worker threads a command uses when not told (--threads): one a core,
// at most 8 (loom solve, loom audit).
#pragma once

#include <algorithm>
#include <thread>

namespace loom {

inline int default_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(std::min(n, 8u));
}

}  // namespace loom
