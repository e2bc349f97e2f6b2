// Shared helpers for the benchmarks: timing and a fixed report format.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace loom::bench {

/// Runs f() once and returns (result, seconds).
template <class F>
auto timed(F&& f) {
  auto t0 = std::chrono::steady_clock::now();
  auto r = f();
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return std::pair{r, s};
}

inline void report(const std::string& what, uint64_t count, double seconds, const char* unit) {
  std::printf("%-44s %14llu %s in %8.3f s  = %12.0f %s/s\n", what.c_str(),
              static_cast<unsigned long long>(count), unit, seconds,
              seconds > 0 ? count / seconds : 0.0, unit);
  std::fflush(stdout);
}

}  // namespace loom::bench
