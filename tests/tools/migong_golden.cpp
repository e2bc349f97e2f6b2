// Regenerates tests/data/migong_perft.txt from the naive reference only
// (tests/migong/naive_migong.h); the engine is not linked. Usage:
//   migong_golden perft SIDE off|on MAXDEPTH      perft lines, depths 0..MAXDEPTH
//   migong_golden games SIDE extent|wedges off|on every finished game of the tree
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/migong/naive_migong.h"

int main(int argc, char** argv) {
  std::string what = argc > 1 ? argv[1] : "";
  if (what == "perft" && argc == 5) {
    int n = std::atoi(argv[2]);
    std::string pie = argv[3];
    int maxd = std::atoi(argv[4]);
    naive::Migong g(n, false, pie == "on");
    for (int d = 0; d <= maxd; ++d)
      std::printf("perft %d pie=%s %d %llu\n", n, pie.c_str(), d,
                  static_cast<unsigned long long>(g.perft(g.start(), d)));
    return 0;
  }
  if (what == "games" && argc == 5) {
    int n = std::atoi(argv[2]);
    std::string measure = argv[3], pie = argv[4];
    naive::Migong g(n, measure == "wedges", pie == "on");
    naive::Migong::Games games;
    g.all_games(g.start(), games);
    std::printf("games %d measure=%s pie=%s %llu %llu\n", n, measure.c_str(), pie.c_str(),
                static_cast<unsigned long long>(games.games),
                static_cast<unsigned long long>(games.first_seat_wins));
    return 0;
  }
  std::fprintf(stderr,
               "usage: migong_golden perft SIDE off|on MAXDEPTH\n"
               "       migong_golden games SIDE extent|wedges off|on\n");
  return 2;
}
