// Fiodar perft leaf rate (issue 3 target: >= 2 million leaves/s single-threaded
// at side 7). The last ply is counted in bulk (count_legal_moves) unless the
// line says "no bulk". Besides the empty board, a middle-game position (40
// deterministic pseudo-random placements, so stones, threads and captures are
// on the board) is measured under each rule set.
// Each line is followed by the rate in process CPU time, which stays
// meaningful when the machine is shared (the wall-clock rate then drops).
//   bench_fiodar [MAXDEPTH]   (default 4)
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "bench/bench_util.h"
#include "model/fiodar/fiodar.h"

using namespace loom;

namespace {

double cpu_seconds() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

/// Runs f() once; reports the wall-clock rate, then the CPU-time rate.
template <class F>
void measure(const std::string& what, F&& f) {
  double c0 = cpu_seconds();
  auto [n, s] = bench::timed(f);
  double c = cpu_seconds() - c0;
  bench::report(what, n, s, "leaves");
  bench::report("  (CPU time)", n, c, "leaves");
}

template <int W>
fiodar::State<W> middle_game(const fiodar::Context<W>* ctx, int plies) {
  fiodar::State<W> s(ctx);
  uint64_t seed = 2024;
  std::vector<typename fiodar::State<W>::Move> ms;
  typename fiodar::State<W>::Undo u;
  for (int i = 0; i < plies; ++i) {
    s.legal_moves(ms);
    if (ms.size() <= 1) break;
    s.apply(ms[1 + splitmix64(seed) % (ms.size() - 1)], u);  // a placement, never pass
  }
  return s;
}

std::string rules_name(const fiodar::Options& o) {
  std::string r = o.cut_gap ? "gap" : "default";
  r += o.capture_first ? " capture-first" : "";
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  int maxd = argc > 1 ? std::atoi(argv[1]) : 4;
  fiodar::Context<3> ctx(7, {});
  fiodar::State<3> start(&ctx);
  for (int d = 2; d <= maxd; ++d)
    measure("fiodar side 7 perft depth " + std::to_string(d) + " (bulk)",
            [&] { return perft(start, d); });
  measure("fiodar side 7 perft depth 3 (no bulk)", [&] { return perft(start, 3, false); });
  for (fiodar::Options o : {fiodar::Options{}, fiodar::Options{.cut_gap = true},
                            fiodar::Options{.capture_first = true}}) {
    fiodar::Context<3> c(7, o);
    auto mid = middle_game(&c, 40);
    measure("fiodar side 7 middle game depth 3 " + rules_name(o), [&] { return perft(mid, 3); });
  }
  fiodar::Context<1> ctx4(4, {});
  fiodar::State<1> start4(&ctx4);
  measure("fiodar side 4 perft depth 4 (bulk)", [&] { return perft(start4, 4); });
  return 0;
}
