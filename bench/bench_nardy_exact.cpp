// Long Nardy exact values (issue 14): successor lists, one-sided build,
// two-sided build rate (pairs per second per core) and lookups per second,
// and the error of the two-sided tables against the recurrence computed here
// in doubles: the double table of N <= 8 and, for N >= 9, the fixed-point
// table's prefix of homes with at most 8 checkers.
//   bench_nardy_exact [N] [THREADS] [DB_DIR]   (defaults 10, 2)
// With DB_DIR the N table is opened from that cache directory (built there,
// resumably, if missing) and its open time is printed instead of a build
// rate: how the 15 v 15 table's lookups are measured.
// Rates are per second of process CPU time (CLOCK_PROCESS_CPUTIME_ID: all
// threads; the machine is shared), with the wall time beside them.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <vector>

#include "solver/nardy/bearoff.h"

using namespace loom;
using namespace loom::nardy;
using namespace loom::nardy::exact;

namespace {
double cpu_now() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}
double wall_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 10;
  const int threads = argc > 2 ? std::atoi(argv[2]) : 2;
  double c0 = cpu_now(), w0 = wall_now();
  const Successors& s = Successors::get();
  std::printf("successor lists: %zu entries for %u homes x 21 rolls, %.3f s cpu, %.3f s wall\n",
              s.total(), kHomePositions, cpu_now() - c0, wall_now() - w0);
  c0 = cpu_now();
  w0 = wall_now();
  const OneSided& one = OneSided::get();
  int longest = 0;
  for (uint32_t h = 0; h < kHomePositions; ++h) {
    auto d = one.off_all(h);
    for (int t = 0; t < kMaxTurns; ++t)
      if (d[static_cast<size_t>(t)] > 0) longest = std::max(longest, t);
  }
  std::printf(
      "one-sided: %.3f s cpu, %.3f s wall; longest bear-off %d turns; 15 on the 6 point: "
      "%.4f expected turns\n",
      cpu_now() - c0, wall_now() - w0, longest,
      one.expected_off_all(home_index(Home{0, 0, 0, 0, 0, 15})));
  c0 = cpu_now();
  w0 = wall_now();
  const char* db_dir = argc > 3 ? argv[3] : nullptr;
  std::optional<TwoSided> built;
  if (!db_dir) built = TwoSided::build(n, threads);
  const TwoSided& t = db_dir ? TwoSided::cached(n, db_dir, nullptr) : *built;
  double cpu = cpu_now() - c0, wall = wall_now() - w0;
  if (db_dir)
    std::printf("two-sided N=%d: %llu pairs, %.1f MB, opened from %s in %.3f s cpu, %.3f s wall\n",
                n, static_cast<unsigned long long>(t.pairs()),
                t.pairs() * 2.0 * TwoSided::value_bytes(n) / 1e6, db_dir, cpu, wall);
  else
    std::printf(
        "two-sided N=%d: %llu pairs, %.1f MB, %.3f s cpu, %.3f s wall, %d threads: "
        "%.0f pairs/s per core (cpu), %.0f pairs/s (wall)\n",
        n, static_cast<unsigned long long>(t.pairs()),
        t.pairs() * 2.0 * TwoSided::value_bytes(n) / 1e6, cpu, wall, threads, t.pairs() / cpu,
        t.pairs() / wall);
  // Lookups: random pairs (a cache miss each for large N).
  uint64_t x = 88172645463325252ull, sum = 0;
  const uint64_t kLookups = 20'000'000;
  c0 = cpu_now();
  for (uint64_t i = 0; i < kLookups; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    sum += static_cast<uint64_t>(65535 * t.p_win(static_cast<uint32_t>(x % t.size()),
                                                 static_cast<uint32_t>((x >> 32) % t.size())));
  }
  cpu = cpu_now() - c0;
  std::printf("lookups: %llu random p_win reads in %.3f s cpu = %.0f lookups/s (checksum %llu)\n",
              static_cast<unsigned long long>(kLookups), cpu, kLookups / cpu,
              static_cast<unsigned long long>(sum % 1000));
  // Error: the same recurrence in doubles (pips order, written out here) for
  // N <= 8, against the double table of that N and, when N >= 9, against the
  // fixed-point table's values on the same pairs (a pair's winning chance
  // does not depend on N).
  const int m = std::min(n, TwoSided::kExactMax);
  TwoSided fx = TwoSided::build(m, threads);
  const uint32_t sz = fx.size();
  std::vector<uint32_t> order(sz);
  for (uint32_t i = 0; i < sz; ++i) order[i] = i;
  std::vector<int> pips(sz);
  for (uint32_t i = 0; i < sz; ++i) pips[i] = home_pips(home_at(i));
  std::vector<double> P(size_t{sz} * sz, 0.0);
  std::vector<std::pair<int, uint64_t>> pairs;
  for (uint32_t a = 0; a < sz; ++a)
    for (uint32_t b = 0; b < sz; ++b) pairs.push_back({pips[a] + pips[b], uint64_t{a} * sz + b});
  std::sort(pairs.begin(), pairs.end());
  double worst = 0, worst_fixed = 0;
  for (auto [ps, k] : pairs) {
    uint32_t a = static_cast<uint32_t>(k / sz), b = static_cast<uint32_t>(k % sz);
    double v;
    if (a == 0)
      v = b == 0 ? 0 : 1;
    else if (b == 0)
      v = 0;
    else {
      v = 0;
      for (int r = 0; r < kRolls; ++r) {
        double best = 0;
        for (uint16_t y : s.of(a, r)) best = std::max(best, 1 - P[size_t{b} * sz + y]);
        v += roll_weight(r) / 36.0 * best;
      }
    }
    P[k] = v;
    worst = std::max(worst, std::abs(v - fx.p_win(a, b)));
    if (!t.exact()) worst_fixed = std::max(worst_fixed, std::abs(v - t.p_win(a, b)));
  }
  std::printf("double table: N=%d worst |table - double recurrence| = %.3g (bound %.0e)\n", m,
              worst, TwoSided::kExactBound);
  if (!t.exact())
    std::printf(
        "fixed point: N=%d table on the N=%d pairs, worst |uint16 table - double recurrence| = "
        "%.3g (%.2f units of 1/65535; bound %.1e)\n",
        n, m, worst_fixed, worst_fixed * 65535, TwoSided::kFixedPBound);

  // Findings: decisions where the move minimising the expected turns (the
  // one-sided race policy) is not a move maximising the winning chance (by
  // more than 4 units of the table, so rounding ties are not counted).
  uint64_t decisions = 0, choice = 0, differ = 0;
  double biggest = 0;
  int shown = 0;
  for (uint32_t a = 1; a < sz; ++a)
    for (uint32_t b = 1; b < sz; ++b)
      for (int r = 0; r < kRolls; ++r) {
        auto succ = s.of(a, r);
        ++decisions;
        if (succ.size() < 2) continue;
        ++choice;
        uint32_t race = one.best_race_move(a, r);
        double best = 0;
        uint32_t arg = 0;
        for (uint16_t y : succ)
          if (1 - fx.p_win(b, y) > best) best = 1 - fx.p_win(b, y), arg = y;
        double loss = best - (1 - fx.p_win(b, race));
        if (loss > 4 / 65535.0) {
          ++differ;
          if (loss > biggest) biggest = loss;
          if (shown < 6 && (loss > 0.02 || shown < 2)) {
            ++shown;
            std::printf("  %s --dice %s: race move -> %s (p_win %.4f), best -> %s (p_win %.4f)\n",
                        home_position(home_at(a), home_at(b), Color::kWhite).to_string().c_str(),
                        all_rolls()[static_cast<size_t>(r)].name().c_str(),
                        home_position(home_at(race), home_at(b), Color::kBlack).to_string().c_str(),
                        1 - fx.p_win(b, race),
                        home_position(home_at(arg), home_at(b), Color::kBlack).to_string().c_str(),
                        best);
          }
        }
      }
  std::printf(
      "race vs win, N=%d: %llu (pair, roll) decisions, %llu with a choice, %llu where the "
      "race move loses winning chance (largest loss %.4f)\n",
      m, static_cast<unsigned long long>(decisions), static_cast<unsigned long long>(choice),
      static_cast<unsigned long long>(differ), biggest);
  return 0;
}
