// Long Nardy turn generation rate (issue 6 target: >= 1 million roll
// expansions per second single-threaded). A roll expansion is one call that
// lists every distinct position a roll leads to from a position. Positions
// come from random games (splitmix64-seeded, uniform choices).
//   bench_nardy [GAMES] [PERFT_DEPTH]   (defaults 300, 4)
// The machine is shared, so rates are per second of this thread's CPU time
// (CLOCK_THREAD_CPUTIME_ID), which other processes do not inflate; the wall
// time is printed beside it.
#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "bench/bench_util.h"
#include "model/common/zobrist.h"
#include "model/nardy/movegen.h"

using namespace loom;
using namespace loom::nardy;

namespace {

double cpu_now() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

/// Runs f() (returning a count), prints the count per CPU second.
template <class F>
uint64_t measure(const std::string& what, const char* unit, F&& f) {
  double c0 = cpu_now();
  auto [n, wall] = bench::timed(f);
  double cpu = cpu_now() - c0;
  std::printf("%-46s %11llu %s in %7.3f s cpu (%7.3f s wall) = %11.0f %s/s\n", what.c_str(),
              static_cast<unsigned long long>(n), unit, cpu, wall, cpu > 0 ? n / cpu : 0.0, unit);
  std::fflush(stdout);
  return n;
}

uint32_t uniform(uint64_t& s, uint32_t n) {
  return static_cast<uint32_t>(((splitmix64(s) >> 32) * n) >> 32);
}

Roll dice(uint64_t& s) {
  int a = 1 + static_cast<int>(uniform(s, 6)), b = 1 + static_cast<int>(uniform(s, 6));
  return Roll{static_cast<uint8_t>(std::max(a, b)), static_cast<uint8_t>(std::min(a, b))};
}

std::vector<Position> game_positions(int games) {
  std::vector<Position> out;
  TurnGenerator g;
  std::vector<Position> kids;
  for (int i = 0; i < games; ++i) {
    uint64_t s = 0x62656e6368ull + static_cast<uint64_t>(i);
    Position p = Position::start();
    while (!result(p, {}).over()) {
      out.push_back(p);
      g.positions(p, dice(s), kids);
      std::sort(kids.begin(), kids.end());
      p = kids[uniform(s, static_cast<uint32_t>(kids.size()))];
    }
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  int games = argc > 1 ? std::atoi(argv[1]) : 300;
  int depth = argc > 2 ? std::atoi(argv[2]) : 4;
  auto positions = game_positions(games);
  std::printf("%zu positions from %d random games (%.1f turns per game)\n", positions.size(), games,
              static_cast<double>(positions.size()) / games);

  for (Options opt : {Options{}, Options{.block_end_of_turn = true, .last_roll = false}}) {
    std::string tag = opt.block_end_of_turn ? ", block=end-of-turn" : "";
    TurnGenerator g(opt);
    std::vector<Position> kids;
    uint64_t children = 0;
    measure("positions(): all 21 rolls per position" + tag, "expansions", [&] {
      uint64_t count = 0;
      for (const auto& p : positions)
        for (const Roll& r : all_rolls()) {
          g.positions(p, r, kids);
          children += kids.size();
          ++count;
        }
      return count;
    });
    std::printf("    %.2f distinct positions per expansion\n",
                static_cast<double>(children) / (positions.size() * 21.0));
    // Rolls drawn as in play (doubles 1/36, others 2/36).
    uint64_t rs = 42;
    std::vector<Roll> rolls;
    for (size_t i = 0; i < positions.size() * 8; ++i) rolls.push_back(dice(rs));
    measure("positions(): rolls as thrown" + tag, "expansions", [&] {
      uint64_t count = 0;
      for (size_t i = 0; i < rolls.size(); ++i) {
        g.positions(positions[i % positions.size()], rolls[i], kids);
        ++count;
      }
      return count;
    });
  }

  TurnGenerator g;
  std::vector<Child> turns;
  measure("turns() with canonical turn texts, 21 rolls", "expansions", [&] {
    uint64_t count = 0;
    for (const auto& p : positions)
      for (const Roll& r : all_rolls()) {
        g.turns(p, r, turns);
        ++count;
      }
    return count;
  });

  for (int d = 3; d <= depth; ++d)
    measure("perft from the start, depth " + std::to_string(d), "leaves",
            [&] { return perft(Position::start(), d, {}); });
  return 0;
}
