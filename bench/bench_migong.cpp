// Migong legal-move generation at side 7 mid-game (issue 5 target: >= 1
// million perft leaves per second). The mid-game position is reached by a
// fixed pseudo-random playout (seeded, so every run measures the same tree).
//   bench_migong [PIECES] [MAXDEPTH]   (defaults 40 pieces, depth 3)
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "bench/bench_util.h"
#include "model/migong/migong.h"

using namespace loom;
using State7 = migong::State<3>;

int main(int argc, char** argv) {
  int pieces = argc > 1 ? std::atoi(argv[1]) : 40;
  int maxd = argc > 2 ? std::atoi(argv[2]) : 3;
  auto ctx = migong::Context<3>::make(7);
  State7 s(ctx.get());
  std::mt19937_64 rng(20240605);
  std::vector<State7::Move> ms;
  State7::Undo u;
  std::string record;
  while (s.num_pieces() < pieces) {
    s.legal_moves(ms);
    if (ms.empty()) break;
    auto m = ms[rng() % ms.size()];
    record += s.move_name(m) + " ";
    s.apply(m, u);
  }
  std::printf("position: %d pieces, %llu legal moves; record:\n%s\n", s.num_pieces(),
              static_cast<unsigned long long>(s.count_legal_moves()), record.c_str());

  // Move generation alone: legal_moves on the position, repeated.
  {
    const int reps = 200000;
    auto [n, sec] = bench::timed([&] {
      uint64_t total = 0;
      for (int i = 0; i < reps; ++i) {
        s.legal_moves(ms);
        total += ms.size();
      }
      return total;
    });
    bench::report("migong side 7 legal_moves (mid-game)", n, sec, "moves");
  }
  for (int d = 1; d <= maxd; ++d) {
    auto [n, sec] = bench::timed([&] { return perft(s, d, /*bulk=*/false); });
    bench::report("migong side 7 mid-game perft depth " + std::to_string(d) + " (no bulk)", n, sec,
                  "leaves");
  }
  for (int d = 2; d <= maxd; ++d) {
    auto [n, sec] = bench::timed([&] { return perft(s, d); });
    bench::report("migong side 7 mid-game perft depth " + std::to_string(d) + " (bulk)", n, sec,
                  "leaves");
  }
  State7 start(ctx.get());
  auto [n, sec] = bench::timed([&] { return perft(start, 2); });
  bench::report("migong side 7 start perft depth 2 (bulk)", n, sec, "leaves");
  return 0;
}
