// Graph-history interaction: a toy game with positional superko where a
// table keyed by the position alone gives a wrong answer, and the solver
// (keyed by the whole state, history included) agrees with plain minimax.
#include <catch2/catch.hpp>

#include <map>

#include "model/common/zobrist.h"
#include "solver/dfs.h"
#include "solver/driver.h"
#include "tests/solver/toy_superko.h"

using namespace loom;

namespace {

enum { A, B, C, X, Y, Z };

// From A Black may go to B or C; White must continue to X. At X Black would
// win by moving back to B (White's only way on, X, is then White's own
// earlier position) -- unless Black's own history already holds B, when
// Black must go to Y and loses (White to Z, Black is stuck). So the value at
// X depends on the path: A-B-X loses for Black, A-C-X wins.
toy::Graph ghi_graph() {
  toy::Graph g;
  g.out = {{B, C}, {X}, {X}, {B, Y}, {Z}, {}};
  return g;
}

/// Plain minimax over the toy (no table): +1 Black wins, -1 White wins.
int minimax(toy::Superko s) {
  std::vector<toy::Superko::Move> ms;
  s.legal_moves(ms);
  if (ms.empty()) return s.to_move() == Color::kBlack ? -1 : 1;
  int best = s.to_move() == Color::kBlack ? -2 : 2;
  for (auto m : ms) {
    toy::Superko c = s;
    toy::Superko::Undo u;
    c.apply(m, u);
    int v = minimax(c);
    best = s.to_move() == Color::kBlack ? std::max(best, v) : std::min(best, v);
  }
  return best;
}

/// The tempting mistake: minimax with a table keyed by (node, side to move)
/// only, ignoring the superko history.
int naive_table(toy::Superko s, std::map<std::pair<int, int>, int>& table) {
  auto key = std::make_pair(s.node(), idx(s.to_move()));
  if (auto it = table.find(key); it != table.end()) return it->second;
  std::vector<toy::Superko::Move> ms;
  s.legal_moves(ms);
  int best;
  if (ms.empty()) {
    best = s.to_move() == Color::kBlack ? -1 : 1;
  } else {
    best = s.to_move() == Color::kBlack ? -2 : 2;
    for (auto m : ms) {
      toy::Superko c = s;
      toy::Superko::Undo u;
      c.apply(m, u);
      int v = naive_table(c, table);
      best = s.to_move() == Color::kBlack ? std::max(best, v) : std::min(best, v);
    }
  }
  table[key] = best;
  return best;
}

}  // namespace

TEST_CASE("superko toy: a position-only table is wrong, the solver is right", "[solver][ghi]") {
  toy::Graph g = ghi_graph();
  toy::Superko start(&g, A);
  REQUIRE(minimax(start) == 1);  // Black wins by A-C
  std::map<std::pair<int, int>, int> table;
  CHECK(naive_table(start, table) == -1);  // the GHI error: X's value from A-B-X reused

  solver::RunControl ctl;
  solver::DfsSolver<toy::Superko> d(start, {}, ctl);
  CHECK(d.solve_black(start) > 0);
  solver::SolveOptions o;
  o.method = solver::SolveOptions::Method::kDfs;
  auto rep = solver::solve_position(start, o);
  CHECK(rep.value.kind == solver::Value::Kind::kBlack);
  REQUIRE(rep.openings.size() == 2);
  CHECK(rep.openings[0].move == "n1");  // B
  CHECK(rep.openings[0].value.kind == solver::Value::Kind::kWhite);
  CHECK(rep.openings[1].move == "n2");  // C
  CHECK(rep.openings[1].value.kind == solver::Value::Kind::kBlack);
  CHECK(rep.pv == std::vector<std::string>{"n2", "n3", "n1"});
  // Retrograde over whole states (history included) agrees too.
  o.method = solver::SolveOptions::Method::kRetrograde;
  CHECK(solver::solve_position(start, o).value.kind == solver::Value::Kind::kBlack);
}

TEST_CASE("superko toy: random graphs, solver = plain minimax from every node", "[solver][ghi]") {
  // Random graphs on 7 nodes with superko histories: transpositions with
  // different histories are frequent, so a history-blind table would err.
  uint64_t seed = 12345;
  int wrong_naive = 0;
  for (int t = 0; t < 60; ++t) {
    toy::Graph g;
    g.out.resize(7);
    for (int v = 0; v < 7; ++v)
      for (int w = 0; w < 7; ++w)
        if (v != w && (splitmix64(seed) % 100) < 35) g.out[v].push_back(w);
    for (int s0 = 0; s0 < 7; ++s0) {
      toy::Superko start(&g, s0);
      int mm = minimax(start);
      solver::RunControl ctl;
      solver::DfsSolver<toy::Superko> d(start, {}, ctl);
      CHECK((d.solve_black(start) > 0 ? 1 : -1) == mm);
      std::map<std::pair<int, int>, int> table;
      wrong_naive += naive_table(start, table) != mm;
    }
  }
  CHECK(wrong_naive > 0);  // the random graphs do exercise GHI
}
