// Regenerates tests/data/nardy_perft.txt from the naive reference only
// (tests/nardy/naive_nardy.h); the engine is not linked. Usage:
//   nardy_golden POSITION|start every-step|end-of-turn first-off|last-roll MAXDEPTH
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/nardy/naive_nardy.h"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr,
                 "usage: nardy_golden POSITION|start every-step|end-of-turn first-off|last-roll "
                 "MAXDEPTH\n");
    return 2;
  }
  std::string pos = argv[1], block = argv[2], end = argv[3];
  int maxd = std::atoi(argv[4]);
  naive_nardy::Rules rules{block == "end-of-turn", end == "last-roll"};
  naive_nardy::Pos p = pos == "start" ? naive_nardy::start() : naive_nardy::parse(pos);
  naive_nardy::Generator g(rules);
  for (int d = 0; d <= maxd; ++d) {
    std::printf("%s block=%s end=%s %d %llu\n", naive_nardy::to_string(p).c_str(), block.c_str(),
                end.c_str(), d, static_cast<unsigned long long>(g.perft(p, d)));
    std::fflush(stdout);
  }
  return 0;
}
