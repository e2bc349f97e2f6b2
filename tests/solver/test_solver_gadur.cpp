// Gadur solved two independent ways. The references (tests/solver/
// naive_values.h) play the naive Gadur of tests/gadur/naive_gadur.h
// (written from RULES.md, sharing no code with the model) and compute values
// by plain fixed-point iteration over explicitly enumerated positions, or by
// plain minimax where the graph is acyclic. The solver (model + symmetry +
// tables + retrograde sweeps or alpha-beta) must agree on every position.
#include <catch2/catch.hpp>

#include <random>

#include "solver/dfs.h"
#include "solver/driver.h"
#include "solver/retrograde.h"
#include "tests/gadur/gadur_fixture.h"
#include "tests/gadur/naive_gadur.h"
#include "tests/solver/naive_values.h"

using namespace loom;
using Board = testing::GadurBoard<1>;
using GState = gadur::State<1>;

namespace {

/// naive::Gadur seen through the interface of naive_values.h, from any position.
struct NaiveFrom {
  const naive::Gadur& g;
  naive::Gadur::Pos s;
  using Pos = naive::Gadur::Pos;
  Pos start() const { return s; }
  std::vector<int> legal(const Pos& p) const { return g.legal(p); }
  Pos play(const Pos& p, int c) const { return g.play(p, c); }
  char turn(const Pos& p) const { return p.turn; }
  // RULES.md section 4: a player with no legal placement at the start of
  // the turn wins.
  char winner_at_end(const Pos& p) const { return p.turn; }
};

GState to_model(const Board& b, const naive::Gadur& g, const naive::Gadur::Pos& p) {
  GState s = b.start();
  for (int c = 0; c < g.num_cells(); ++c) {
    if (p.board[c] == 'B') s.put(b.site(g.name(c)), Color::kBlack);
    if (p.board[c] == 'W') s.put(b.site(g.name(c)), Color::kWhite);
  }
  s.set_to_move(p.turn == 'B' ? Color::kBlack : Color::kWhite);
  return s;
}

naive::Gadur::Pos to_naive(const naive::Gadur& g, const GState& s) {
  naive::Gadur::Pos p = g.start();
  const auto& geo = s.geo();
  for (int c = 0; c < g.num_cells(); ++c) {
    int site = *geo.parse(g.name(c));
    if (s.stones(Color::kBlack).test(site)) p.board[c] = 'B';
    if (s.stones(Color::kWhite).test(site)) p.board[c] = 'W';
  }
  p.turn = s.to_move() == Color::kBlack ? 'B' : 'W';
  return p;
}

solver::Value::Kind expected(naive::Val v) {
  switch (v) {
    case naive::Val::kBlack:
      return solver::Value::Kind::kBlack;
    case naive::Val::kWhite:
      return solver::Value::Kind::kWhite;
    case naive::Val::kDraw:
      return solver::Value::Kind::kDraw;
    default:
      return solver::Value::Kind::kStall;
  }
}

struct Solved {
  std::unique_ptr<solver::Retrograde<GState>> r;
};

std::unique_ptr<solver::Retrograde<GState>> retrograde(const GState& root, bool symmetry,
                                                       int threads = 1) {
  solver::RunControl ctl;
  solver::Retrograde<GState>::Config cfg;
  cfg.symmetry = symmetry;
  cfg.threads = threads;
  auto r = std::make_unique<solver::Retrograde<GState>>(root, cfg);
  REQUIRE(r->enumerate(ctl, [] {}));
  r->solve(ctl, [] {});
  return r;
}

/// Every position reachable from `root`: the naive value equals the solver's.
/// Returns how many positions were compared (0 if the naive enumeration
/// would exceed `cap` positions).
size_t cross_check(const Board& b, const naive::Gadur& g, const GState& root, bool symmetry,
                   int threads = 1, size_t cap = 1000000) {
  auto found = naive::fixed_point_values(NaiveFrom{g, to_naive(g, root)}, cap);
  if (!found) return 0;
  const auto& naive_vals = *found;
  auto r = retrograde(root, symmetry, threads);
  for (const auto& [p, v] : naive_vals) {
    GState s = to_model(b, g, p);
    solver::Value got = r->value_of(s);
    INFO(b.ctx->masks.geo().side()
         << " " << std::string(p.board.begin(), p.board.end()) << " to move " << p.turn);
    REQUIRE(got.kind == expected(v));
  }
  return naive_vals.size();
}

struct Rules {
  const char* name;
  gadur::Options opt;
};
const Rules kRuleSets[] = {
    {"as written", {false, false}},
    {"capture=merge-only", {false, true}},
    {"exception=subset", {true, false}},
    {"subset + merge-only", {true, true}},
};

}  // namespace

TEST_CASE("gadur side 2: every reachable position, naive fixed point = retrograde",
          "[solver][gadur]") {
  for (const auto& rs : kRuleSets) {
    INFO(rs.name);
    Board b(2, rs.opt);
    naive::Gadur g(2, rs.opt.subset, rs.opt.merge_only);
    for (bool sym : {true, false}) {
      size_t n = cross_check(b, g, b.start(), sym);
      CHECK(n > 100);  // real positions, not classes: the comparison covers them all
    }
  }
}

TEST_CASE("gadur side 2 results, pinned by the naive cross-check", "[solver][gadur]") {
  // Values of the empty board from naive::fixed_point_values (independent
  // of the solver); the test above shows the solver agrees on every position.
  auto root_value = [](gadur::Options o) {
    naive::Gadur g(2, o.subset, o.merge_only);
    return naive::fixed_point_values(NaiveFrom{g, g.start()})->at(g.start());
  };
  CHECK(root_value({false, false}) == naive::Val::kDraw);  // as written: endless recapture
  CHECK(root_value({false, true}) == naive::Val::kBlack);  // merge-only: Black wins
  solver::SolveOptions o;
  o.threads = 1;
  Board b(2, {});
  auto rep = solver::solve_position(b.start(), o);
  CHECK(rep.value.kind == solver::Value::Kind::kDraw);
  CHECK(rep.pv_repeats);
  Board m(2, {false, true});
  auto rm = solver::solve_position(m.start(), o);
  CHECK(rm.value.kind == solver::Value::Kind::kBlack);
  REQUIRE(rm.openings.size() == 2);  // corner (x6) and centre (x1)
  CHECK(rm.openings[0].move == "a1");
  CHECK(rm.openings[0].count == 6);
  CHECK(rm.openings[1].move == "b2");
  CHECK(rm.openings[1].count == 1);
}

TEST_CASE("gadur side 3: positions from random games, naive fixed point = retrograde",
          "[solver][gadur]") {
  // Late positions from random games keep the naive enumeration small
  // (positions whose reachable set exceeds 3000 are skipped) while still
  // containing captures, recaptures and cycles.
  std::mt19937 rng(7);
  size_t compared = 0;
  for (const auto& rs : kRuleSets) {
    INFO(rs.name);
    Board b(3, rs.opt);
    naive::Gadur g(3, rs.opt.subset, rs.opt.merge_only);
    int done = 0;
    for (int attempt = 0; attempt < 400 && done < 8; ++attempt) {
      GState s = b.start();
      std::vector<GState::Move> ms;
      GState::Undo u;
      int plies = 10 + static_cast<int>(rng() % 6);
      for (int i = 0; i < plies; ++i) {
        s.legal_moves(ms);
        if (ms.empty()) break;
        s.apply(ms[rng() % ms.size()], u);
      }
      size_t n = cross_check(b, g, s, /*symmetry=*/done % 2 == 0, /*threads=*/1 + done % 2,
                             /*cap=*/3000);
      if (n == 0) continue;
      compared += n;
      ++done;
    }
    CHECK(done == 8);
  }
  CHECK(compared > 1000);
}

TEST_CASE("gadur, merge-only side 2: alpha-beta = plain minimax on every position",
          "[solver][gadur][dfs]") {
  Board b(2, {false, true});
  naive::Gadur g(2, false, true);
  auto vals = *naive::fixed_point_values(NaiveFrom{g, g.start()});
  solver::RunControl ctl;
  solver::DfsSolver<GState> d(b.start(), {true, 1 << 20, 0, {}, {}}, ctl);
  for (const auto& [p, v] : vals) {
    int mm = naive::minimax(NaiveFrom{g, p}, p);
    CHECK(mm == (v == naive::Val::kBlack ? 1 : -1));
    int32_t score = d.solve_black(to_model(b, g, p));
    CHECK((score > 0 ? 1 : -1) == mm);
  }
}

TEST_CASE("depth-first search refuses a cyclic graph instead of answering", "[solver][dfs]") {
  Board b(2, {});
  solver::RunControl ctl;
  solver::DfsSolver<GState> d(b.start(), {true, 1 << 20, 0, {}, {}}, ctl);
  CHECK_THROWS_AS(d.solve(b.start()), solver::CycleError);
  solver::SolveOptions o;
  o.method = solver::SolveOptions::Method::kDfs;
  o.table_mb = 1;
  CHECK_THROWS_AS(solver::solve_position(b.start(), o), solver::CycleError);
}

TEST_CASE("principal variations follow the values", "[solver][gadur][.slow]") {
  // Merge-only side 3 late positions: the PV must end in a win for the
  // side the value names, and each move keeps the value.
  std::mt19937 rng(11);
  solver::SolveOptions o;
  o.threads = 1;
  o.max_positions = 100000;
  int solved = 0;
  for (int t = 0; t < 80; ++t) {
    Board b(3, {false, t % 2 == 1});
    GState s = b.start();
    std::vector<GState::Move> ms;
    GState::Undo u;
    for (int i = 0; i < 12; ++i) {
      s.legal_moves(ms);
      if (ms.empty()) break;
      s.apply(ms[rng() % ms.size()], u);
    }
    auto rep = solver::solve_position(s, o);
    if (!rep.complete) continue;  // too many positions for a quick test
    ++solved;
    GState x = s;
    for (const auto& tok : rep.pv) {
      auto m = x.parse_move(tok);
      REQUIRE(m);
      x.apply(*m, u);
    }
    if (rep.value.kind == solver::Value::Kind::kDraw) {
      CHECK(rep.pv_repeats);
    } else {
      REQUIRE(x.is_terminal());
      CHECK(solver::Value::win(x.to_move()) == rep.value);  // the player who cannot place wins
      CHECK(static_cast<int>(rep.pv.size()) == rep.plies);
    }
  }
  CHECK(solved >= 20);
}
