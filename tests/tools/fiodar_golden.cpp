// Regenerates tests/data/fiodar_perft.txt from the naive reference only
// (tests/fiodar/naive_fiodar.h); the engine is not linked. Usage:
//   fiodar_golden SIDE CUT SUICIDE HALF SETUP MAXDEPTH [RECORD]
// CUT adjacent|gap, SUICIDE forbidden|capture-first, HALF
// final-pass|first-pass-of-game, SETUP "none" or "BLACK,WHITE" (e.g. b2,c3),
// RECORD "none" (default) or move tokens joined by commas (e.g. b1,a1,pass),
// played from the start (after the setup) before counting.
// For each depth 0..MAXDEPTH it prints a perft line, then one line of game
// ends: how many games end (two passes in a row) within MAXDEPTH plies, how
// many of them Black wins, and the sum of Black-minus-White margins in half
// points over those ends.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/fiodar/naive_fiodar.h"

namespace {

struct Ends {
  uint64_t games = 0, black_wins = 0;
  int64_t margin2_sum = 0;
};

void ends(const naive::Fiodar& g, const naive::Fiodar::Pos& p, int depth, Ends& out) {
  if (g.over(p)) {
    int m = g.margin2(p);
    ++out.games;
    out.black_wins += m > 0;
    out.margin2_sum += m;
    return;
  }
  if (depth == 0) return;
  ends(g, g.pass(p), depth - 1, out);
  for (int x : g.placements(p)) ends(g, *g.place(p, x), depth - 1, out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 7 && argc != 8) {
    std::fprintf(stderr,
                 "usage: fiodar_golden SIDE adjacent|gap forbidden|capture-first "
                 "final-pass|first-pass-of-game none|BLACK,WHITE MAXDEPTH [none|T1,T2,...]\n");
    return 2;
  }
  int n = std::atoi(argv[1]);
  std::string cut = argv[2], suicide = argv[3], half = argv[4], setup = argv[5];
  int maxd = std::atoi(argv[6]);
  naive::Fiodar g(n, {cut == "gap", suicide == "capture-first", half == "first-pass-of-game"});
  naive::Fiodar::Pos start = g.start();
  if (setup != "none") {
    auto comma = setup.find(',');
    auto b = g.point(setup.substr(0, comma)), w = g.point(setup.substr(comma + 1));
    if (comma == std::string::npos || !b || !w || *b == *w) {
      std::fprintf(stderr, "bad setup %s\n", setup.c_str());
      return 2;
    }
    start = g.start_with(*b, *w);
  }
  std::string record = argc == 8 ? argv[7] : "none";
  if (record != "none") {
    size_t i = 0;
    while (i <= record.size()) {
      size_t j = record.find(',', i);
      if (j == std::string::npos) j = record.size();
      std::string tok = record.substr(i, j - i);
      i = j + 1;
      if (tok == "pass" && !g.over(start)) {
        start = g.pass(start);
        continue;
      }
      auto x = g.point(tok);
      auto next = x ? g.place(start, *x) : std::nullopt;
      if (!next) {
        std::fprintf(stderr, "illegal record token %s\n", tok.c_str());
        return 2;
      }
      start = *next;
    }
  }
  std::string rules = std::to_string(n) + " cut=" + cut + " suicide=" + suicide + " half=" + half +
                      " setup=" + setup + " record=" + record;
  for (int d = 0; d <= maxd; ++d) {
    std::printf("%s perft %d %llu\n", rules.c_str(), d,
                static_cast<unsigned long long>(g.perft(start, d)));
    std::fflush(stdout);
  }
  Ends e;
  ends(g, start, maxd, e);
  std::printf("%s ends %d %llu %llu %lld\n", rules.c_str(), maxd,
              static_cast<unsigned long long>(e.games),
              static_cast<unsigned long long>(e.black_wins), static_cast<long long>(e.margin2_sum));
  return 0;
}
