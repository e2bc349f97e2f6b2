// Enfargar perft leaf rate (issue 4 target: >= 1 million leaves/s
// single-threaded at side 9), from the empty board and from positions in the
// middle of random games (where lifelines need relays and cut checks), and
// random-playout statistics: how games end and the shortest stall met
// (docs/findings.md).
//   bench_enfargar [MAXDEPTH] [GAMES]   (defaults 4 and 2000)
// Rates use the process CPU time (single-threaded), so that a machine shared
// with other builds does not understate them; the wall time is printed too.
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "bench/bench_util.h"
#include "model/enfargar/enfargar.h"

using namespace loom;

namespace {

/// Runs f() once; reports its count per CPU second (and the wall time).
template <class F>
uint64_t measure(const std::string& what, const char* unit, F&& f) {
  std::clock_t c0 = std::clock();
  auto [n, wall] = bench::timed(f);
  double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
  bench::report(what, n, cpu, unit);
  std::printf("    (wall %.3f s)\n", wall);
  return n;
}

/// A position after `plies` uniformly random moves (fixed seed).
template <int W>
enfargar::State<W> random_position(const enfargar::Context<W>& ctx, int plies, uint64_t seed) {
  std::mt19937_64 rng(seed);
  enfargar::State<W> s(&ctx);
  std::vector<typename enfargar::State<W>::Move> ms;
  typename enfargar::State<W>::Undo u;
  for (int i = 0; i < plies && !s.is_terminal(); ++i) {
    s.legal_moves(ms);
    s.apply(ms[rng() % ms.size()], u);
  }
  return s;
}

template <int W>
void playouts(int side, enfargar::Options opt, int games, const std::string& label) {
  enfargar::Context<W> ctx(side, opt);
  std::mt19937_64 rng(7);
  long stalls = 0, wins = 0, plies = 0, flips = 0;
  // The shortest stall met: its plies (the two final passes included) and stones.
  long short_plies = -1, short_stones = 0;
  measure("enfargar side " + std::to_string(side) + " " + label + " random games", "plies", [&] {
    enfargar::State<W> s(&ctx);
    std::vector<typename enfargar::State<W>::Move> ms;
    typename enfargar::State<W>::Undo u;
    for (int g = 0; g < games; ++g) {
      s = enfargar::State<W>(&ctx);
      long game_plies = 0;
      while (!s.is_terminal()) {
        s.legal_moves(ms);
        s.apply(ms[rng() % ms.size()], u);
        flips += u.flips.count();
        ++game_plies;
      }
      plies += game_plies;
      const bool stall = s.passes() >= 2;
      (stall ? stalls : wins)++;
      if (stall && (short_plies < 0 || game_plies < short_plies)) {
        short_plies = game_plies;
        short_stones = s.stones(Color::kBlack).count() + s.stones(Color::kWhite).count();
      }
    }
    return static_cast<uint64_t>(plies);
  });
  std::printf(
      "    %d games: %ld end in a stall (%.1f%%), %ld by annihilation; %.1f plies and "
      "%.2f flipped stones per game\n",
      games, stalls, 100.0 * stalls / games, wins, double(plies) / games, double(flips) / games);
  if (short_plies >= 0)
    std::printf("    shortest stall: %ld plies (%ld stones)\n", short_plies, short_stones);
}

}  // namespace

int main(int argc, char** argv) {
  const int maxd = argc > 1 ? std::atoi(argv[1]) : 4;
  const int games = argc > 2 ? std::atoi(argv[2]) : 2000;
  enfargar::Context<5> ctx(9, {});
  enfargar::State<5> start(&ctx);
  for (int d = 2; d <= maxd; ++d) {
    measure("enfargar side 9 perft depth " + std::to_string(d) + " (bulk)", "leaves",
            [&] { return perft(start, d); });
  }
  measure("enfargar side 9 perft depth 3 (no bulk)", "leaves",
          [&] { return perft(start, 3, /*bulk=*/false); });
  // Middle-game positions: 60, 120 and 170 random plies into a game (eight
  // games each, fixed seeds).
  for (int plies : {60, 120, 170}) {
    std::vector<enfargar::State<5>> ps;
    for (int i = 0; i < 8; ++i) ps.push_back(random_position(ctx, plies, 1000 * i + plies));
    auto sum = [&](bool bulk) {
      uint64_t n = 0;
      for (const auto& p : ps) n += perft(p, 3, bulk);
      return n;
    };
    measure("enfargar side 9 perft depth 3, 8 games at ply " + std::to_string(plies), "leaves",
            [&] { return sum(true); });
    measure("  same, no bulk", "leaves", [&] { return sum(false); });
  }
  enfargar::Context<5> touch(9, {.touch = true, .more_stones = false});
  auto pt = random_position(touch, 120, 99);
  measure("enfargar side 9 edge=touch perft depth 3 after 120 plies", "leaves",
          [&] { return perft(pt, 3); });

  playouts<1>(3, {}, games * 10, "gap");
  playouts<1>(3, {.touch = true, .more_stones = false}, games * 10, "touch");
  // Side 4: how short a stall random play finds (docs/findings.md, Enfargar 2).
  playouts<1>(4, {}, games * 100, "gap");
  playouts<5>(9, {}, games / 10, "gap");
  playouts<5>(9, {.touch = true, .more_stones = false}, games / 10, "touch");
  return 0;
}
