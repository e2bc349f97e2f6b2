// Gadur perft leaf rate (issue 2 target: >= 20 million leaves/s single-threaded
// at side 4). The last ply is counted in bulk (count_legal_moves).
//   bench_gadur [MAXDEPTH]   (default 6)
#include <cstdlib>
#include <string>

#include "bench/bench_util.h"
#include "model/gadur/gadur.h"

using namespace loom;

int main(int argc, char** argv) {
  int maxd = argc > 1 ? std::atoi(argv[1]) : 6;
  gadur::Context<1> ctx(4, {});
  gadur::State<1> start(&ctx);
  for (int d = 3; d <= maxd; ++d) {
    auto [n, s] = bench::timed([&] { return perft(start, d); });
    bench::report("gadur side 4 perft depth " + std::to_string(d) + " (bulk)", n, s, "leaves");
  }
  auto [n, s] = bench::timed([&] { return perft(start, 5, /*bulk=*/false); });
  bench::report("gadur side 4 perft depth 5 (no bulk)", n, s, "leaves");
  gadur::Context<3> ctx7(7, {});
  gadur::State<3> start7(&ctx7);
  auto [n7, s7] = bench::timed([&] { return perft(start7, 4); });
  bench::report("gadur side 7 perft depth 4 (bulk)", n7, s7, "leaves");
  return 0;
}
