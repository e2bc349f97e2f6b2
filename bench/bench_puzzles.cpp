// Puzzle generation rates (issue 13): for each game and board, puzzles per
// minute and the rejection rate of each reason. Every puzzle counted here is
// also re-proved by the independent checker inside the generator (the Z3
// step aside), so the rate includes that proof.
//
// usage: bench_puzzles [COUNT [SEED [all]]]   (default 5 1; `all` adds the
// recommended boards Gadur 4, Enfargar 9, Migong 7, Fiodar 7 and Long Nardy
// with 6 checkers; they take minutes)
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/registry.h"
#include "app/typed_game.h"
#include "puzzles/nardy_puzzles.h"
#include "puzzles/puzzles.h"
#include "solver/nardy/bearoff.h"

using namespace loom;

namespace {

void print(const std::string& board, const puzzles::MakeReport& r) {
  std::printf("%-22s %4zu puzzles %6.1f s = %8.1f puzzles/min; %llu games, %llu candidates\n",
              board.c_str(), r.puzzles.size(), r.seconds,
              r.seconds > 0 ? 60.0 * static_cast<double>(r.puzzles.size()) / r.seconds : 0.0,
              static_cast<unsigned long long>(r.games),
              static_cast<unsigned long long>(r.candidates));
  for (const auto& [why, n] : r.rejected)
    std::printf("%-22s      rejected %-44s %6llu = %5.1f%%\n", "", why.c_str(),
                static_cast<unsigned long long>(n),
                100.0 * static_cast<double>(n) / static_cast<double>(r.candidates));
  std::fflush(stdout);
}

void hex(const std::string& game, int size, int count, uint64_t seed) {
  auto g = make_game(game, size, {});
  RuleSet rs(find_game(game).rule_specs());
  puzzles::MakeOptions o;
  o.game = game;
  o.size = size;
  o.rules = rs.in_force();
  o.count = count;
  o.seed = seed;
  puzzles::MakeReport rep;
  visit_state(*g, [&](const auto& s) {
    using S = std::remove_cvref_t<decltype(s)>;
    if constexpr (puzzles::kPuzzleState<S>) rep = puzzles::make_puzzles(s, o);
  });
  print(game + " side " + std::to_string(size), rep);
}

void nardy_board(int checkers, int count, uint64_t seed) {
  RuleSet rs(find_game("nardy").rule_specs());
  puzzles::NardyMakeOptions o;
  o.rules = rs.in_force();
  o.max_checkers = checkers;
  o.count = count;
  o.seed = seed;
  // Build (or open) the database first so that its time is not counted.
  nardy::exact::TwoSided::cached(checkers, nardy::exact::default_cache_dir());
  print("nardy max-checkers " + std::to_string(checkers), puzzles::make_nardy_puzzles(o));
}

}  // namespace

int main(int argc, char** argv) {
  int count = argc > 1 ? std::atoi(argv[1]) : 5;
  uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
  bool all = argc > 3 && std::string(argv[3]) == "all";
  if (count < 1) {
    std::fprintf(stderr, "usage: bench_puzzles [COUNT [SEED [all]]]\n");
    return 2;
  }
  std::printf("bench_puzzles: %d puzzles a board, seed %llu\n", count,
              static_cast<unsigned long long>(seed));
  hex("gadur", 3, count, seed);
  hex("enfargar", 2, count, seed);
  hex("enfargar", 3, count, seed);
  hex("migong", 2, count, seed);
  hex("fiodar", 2, count, seed);
  hex("fiodar", 3, count, seed);
  nardy_board(4, count, seed);
  if (all) {
    hex("gadur", 4, count, seed);
    hex("enfargar", 9, count, seed);
    hex("migong", 7, count, seed);
    hex("fiodar", 7, count, seed);
    nardy_board(6, count, seed);
  }
  return 0;
}
