// Enfargar perft leaf rate (issue 4 target: >= 1 million leaves/s
// single-threaded at side 9), from the empty board and from positions in the
// middle of random games (where lifelines need relays and cut checks), and
// random-playout statistics: how games end (docs/findings.md).
//   bench_enfargar [MAXDEPTH] [GAMES]   (defaults 4 and 2000)
#include <cstdlib>
#include <random>
#include <string>

#include "bench/bench_util.h"
#include "model/enfargar/enfargar.h"

using namespace loom;

namespace {

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
  auto [n, sec] = bench::timed([&] {
    enfargar::State<W> s(&ctx);
    std::vector<typename enfargar::State<W>::Move> ms;
    typename enfargar::State<W>::Undo u;
    for (int g = 0; g < games; ++g) {
      s = enfargar::State<W>(&ctx);
      while (!s.is_terminal()) {
        s.legal_moves(ms);
        s.apply(ms[rng() % ms.size()], u);
        flips += u.flips.count();
        ++plies;
      }
      (s.passes() >= 2 ? stalls : wins)++;
    }
    return static_cast<uint64_t>(plies);
  });
  bench::report("enfargar side " + std::to_string(side) + " " + label + " random games", n, sec,
                "plies");
  std::printf(
      "    %d games: %ld end in a stall (%.1f%%), %ld by annihilation; %.1f plies and "
      "%.2f flipped stones per game\n",
      games, stalls, 100.0 * stalls / games, wins, double(plies) / games, double(flips) / games);
}

}  // namespace

int main(int argc, char** argv) {
  const int maxd = argc > 1 ? std::atoi(argv[1]) : 4;
  const int games = argc > 2 ? std::atoi(argv[2]) : 2000;
  enfargar::Context<5> ctx(9, {});
  enfargar::State<5> start(&ctx);
  for (int d = 2; d <= maxd; ++d) {
    auto [n, s] = bench::timed([&] { return perft(start, d); });
    bench::report("enfargar side 9 perft depth " + std::to_string(d) + " (bulk)", n, s, "leaves");
  }
  {
    auto [n, s] = bench::timed([&] { return perft(start, 3, /*bulk=*/false); });
    bench::report("enfargar side 9 perft depth 3 (no bulk)", n, s, "leaves");
  }
  // Middle-game positions: 60, 120 and 170 random plies into a game.
  for (int plies : {60, 120, 170}) {
    auto p = random_position(ctx, plies, 1234 + plies);
    auto [n, s] = bench::timed([&] { return perft(p, 3); });
    bench::report("enfargar side 9 perft depth 3 after " + std::to_string(plies) + " plies", n, s,
                  "leaves");
    auto [m, t] = bench::timed([&] { return perft(p, 3, /*bulk=*/false); });
    bench::report("  same, no bulk", m, t, "leaves");
  }
  enfargar::Context<5> touch(9, {.touch = true, .more_stones = false});
  auto pt = random_position(touch, 120, 99);
  auto [nt, st] = bench::timed([&] { return perft(pt, 3); });
  bench::report("enfargar side 9 edge=touch perft depth 3 after 120 plies", nt, st, "leaves");

  playouts<1>(3, {}, games * 10, "gap");
  playouts<1>(3, {.touch = true, .more_stones = false}, games * 10, "touch");
  playouts<5>(9, {}, games / 10, "gap");
  playouts<5>(9, {.touch = true, .more_stones = false}, games / 10, "touch");
  return 0;
}
