// Regenerates tests/data/enfargar_perft.txt from the naive reference only
// (tests/enfargar/naive_enfargar.h); the engine is not linked. Usage:
//   enfargar_golden SIDE gap|touch MAXDEPTH
// The stall option changes results, not move lists, so perft does not depend
// on it.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/enfargar/naive_enfargar.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: enfargar_golden SIDE gap|touch MAXDEPTH\n");
    return 2;
  }
  int n = std::atoi(argv[1]);
  std::string edge = argv[2];
  int maxd = std::atoi(argv[3]);
  if (n < 2 || n > 13 || (edge != "gap" && edge != "touch") || maxd < 0) {
    std::fprintf(stderr, "enfargar_golden: bad arguments\n");
    return 2;
  }
  naive::Enfargar g(n, edge == "touch", false);
  for (int d = 0; d <= maxd; ++d) {
    std::printf("%d edge=%s %d %llu\n", n, edge.c_str(), d,
                static_cast<unsigned long long>(g.perft(g.start(), d)));
    std::fflush(stdout);
  }
  return 0;
}
