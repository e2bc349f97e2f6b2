// Regenerates tests/data/gadur_perft.txt from the naive reference only
// (tests/gadur/naive_gadur.h); the engine is not linked. Usage:
//   gadur_golden SIDE EXCEPTION CAPTURE MAXDEPTH
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/gadur/naive_gadur.h"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: gadur_golden SIDE whole|subset any|merge-only MAXDEPTH\n");
    return 2;
  }
  int n = std::atoi(argv[1]);
  std::string exc = argv[2], cap = argv[3];
  int maxd = std::atoi(argv[4]);
  naive::Gadur g(n, exc == "subset", cap == "merge-only");
  for (int d = 0; d <= maxd; ++d)
    std::printf("%d exception=%s capture=%s %d %llu\n", n, exc.c_str(), cap.c_str(), d,
                static_cast<unsigned long long>(g.perft(g.start(), d)));
  return 0;
}
