// Fiodar, Enfargar and Migong solved two independent ways on small boards.
// The reference is plain minimax (no table, no symmetry, no pruning) over the
// naive games of tests/<game>/naive_<game>.h, written from RULES.md and
// sharing no code with the models or solver/. The full solver (model +
// symmetry + transposition table + alpha-beta, and retrograde analysis where
// the game is unscored) must give the same value at every position of the
// first plies below each root; the naive minimax visits the whole tree below.
#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <memory>
#include <string>
#include <vector>

#include "solver/dfs.h"
#include "solver/driver.h"
#include "solver/retrograde.h"
#include "tests/enfargar/enfargar_fixture.h"
#include "tests/enfargar/naive_enfargar.h"
#include "tests/fiodar/fiodar_fixture.h"
#include "tests/fiodar/naive_fiodar.h"
#include "tests/migong/migong_fixture.h"
#include "tests/migong/naive_migong.h"

using namespace loom;

namespace {

// ---------------------------------------------------------------------------
// The naive games behind one token interface: tokens(p) (empty when the game
// is over), play(p, token), black_to_move(p), end_value(p) = Black's result
// at an end: +1 Black wins, -1 White wins, 0 no winner; Fiodar: Black's
// score minus White's in half points.

struct NaiveFiodar {
  naive::Fiodar g;
  using Pos = naive::Fiodar::Pos;
  std::vector<std::string> tokens(const Pos& p) const {
    std::vector<std::string> out;
    if (g.over(p)) return out;
    for (int x : g.placements(p)) out.push_back(g.name(x));
    out.push_back("pass");
    return out;
  }
  Pos play(const Pos& p, const std::string& t) const {
    return t == "pass" ? g.pass(p) : *g.place(p, *g.point(t));
  }
  bool black_to_move(const Pos& p) const { return p.turn == 'B'; }
  int end_value(const Pos& p) const { return g.margin2(p); }
};

struct NaiveEnfargar {
  naive::Enfargar g;
  using Pos = naive::Enfargar::Pos;
  std::vector<std::string> tokens(const Pos& p) const {
    std::vector<std::string> out;
    for (int x : g.legal(p)) out.push_back(x < 0 ? "pass" : g.name(x));
    return out;
  }
  Pos play(const Pos& p, const std::string& t) const {
    return g.play(p, t == "pass" ? -1 : g.point(t));
  }
  bool black_to_move(const Pos& p) const { return p.turn == 'B'; }
  // Default rules (stall=unresolved): the last placer does not matter.
  int end_value(const Pos& p) const {
    std::string r = g.result(p, '?');
    return r == "B" ? 1 : r == "W" ? -1 : 0;
  }
};

struct NaiveMigong {
  naive::Migong g;  // no pie: seat 0 is Blue ("black")
  using Pos = naive::Migong::Pos;
  std::vector<std::string> tokens(const Pos& p) const { return g.legal(p); }
  Pos play(const Pos& p, const std::string& t) const { return g.play(p, t); }
  bool black_to_move(const Pos& p) const { return p.seat == 0; }
  int end_value(const Pos& p) const { return g.winner_seat(p) == 0 ? 1 : -1; }
};

/// The solver's value as an integer on the naive scale.
int as_int(const solver::Value& v) {
  switch (v.kind) {
    case solver::Value::Kind::kBlack:
      return 1;
    case solver::Value::Kind::kWhite:
      return -1;
    case solver::Value::Kind::kMargin:
      return v.margin2;
    case solver::Value::Kind::kStall:
      return 0;
    default:
      FAIL("unexpected solver value " << v.text());
      return INT_MIN;
  }
}

/// Plain minimax over the naive game from p, in lockstep with the model
/// state s. At every position of the first `check_plies` plies the solver's
/// value `solved(s)` must equal the naive one. Returns the naive value;
/// counts naive positions and checked positions.
template <class NG, class S, class Solved>
int minimax_check(const NG& ng, const typename NG::Pos& p, S& s, int check_plies,
                  const Solved& solved, uint64_t& nodes, uint64_t& checked) {
  ++nodes;
  auto toks = ng.tokens(p);
  int best;
  if (toks.empty()) {
    REQUIRE(s.is_terminal());
    best = ng.end_value(p);
  } else {
    if (check_plies > 0) {
      // The model agrees on the move list (cheap insurance for the lockstep).
      std::vector<typename S::Move> ms;
      s.legal_moves(ms);
      std::vector<std::string> names;
      for (const auto& m : ms) names.push_back(s.move_name(m));
      std::sort(names.begin(), names.end());
      auto sorted = toks;
      std::sort(sorted.begin(), sorted.end());
      REQUIRE(names == sorted);
    }
    bool black = ng.black_to_move(p);
    best = black ? INT_MIN : INT_MAX;
    typename S::Undo u;
    for (const auto& t : toks) {
      auto m = s.parse_move(t);
      REQUIRE(m);
      S c = s;
      c.apply(*m, u);
      int v = minimax_check(ng, ng.play(p, t), c, check_plies - 1, solved, nodes, checked);
      best = black ? std::max(best, v) : std::min(best, v);
    }
  }
  if (check_plies >= 0) {
    INFO("position at check depth " << check_plies);
    CHECK(as_int(solved(s)) == best);
    ++checked;
  }
  return best;
}

/// Alpha-beta with table and symmetry, one solver for every query.
template <class S>
struct Dfs {
  solver::RunControl ctl;
  solver::DfsSolver<S> d;
  explicit Dfs(const S& root, uint64_t table_bytes = uint64_t{16} << 20)
      : d(root, {true, table_bytes, 0, {}, {}}, ctl) {}
  solver::Value operator()(const S& s) {
    return solver::score_value(d.solve_black(s), solver::Value::Kind::kStall);
  }
};

/// Retrograde analysis over every position reachable from the root.
template <class S>
struct Retro {
  solver::RunControl ctl;
  std::unique_ptr<solver::Retrograde<S>> r;
  explicit Retro(const S& root) {
    typename solver::Retrograde<S>::Config cfg;
    cfg.threads = 1;
    r = std::make_unique<solver::Retrograde<S>>(root, cfg);
    REQUIRE(r->enumerate(ctl, [] {}));
    r->solve(ctl, [] {});
  }
  solver::Value operator()(const S& s) const { return r->value_of(s); }
};

template <class NG, class S, class Solver>
int cross_check(const NG& ng, const typename NG::Pos& p, S s, int check_plies, Solver& solver,
                uint64_t min_nodes) {
  uint64_t nodes = 0, checked = 0;
  auto solved = [&](const S& x) { return solver(x); };
  int v = minimax_check(ng, p, s, check_plies, solved, nodes, checked);
  INFO("naive positions " << nodes << ", checked " << checked);
  CHECK(nodes >= min_nodes);
  CHECK(checked > 0);
  return v;
}

}  // namespace

TEST_CASE("migong side 2: solver = plain minimax on the first two plies", "[solver][migong]") {
  NaiveMigong ng{naive::Migong(2)};
  testing::MigongBoard<1> b(2);
  SECTION("alpha-beta") {
    Dfs<migong::State<1>> d(b.start());
    // Blue ("black") wins side 2: the naive minimax value, checked above
    // against the solver at the root and after every first two moves.
    CHECK(cross_check(ng, ng.g.start(), b.start(), 2, d, 30000) == 1);
  }
  SECTION("retrograde") {
    Retro<migong::State<1>> r(b.start());
    CHECK(cross_check(ng, ng.g.start(), b.start(), 2, r, 30000) == 1);
  }
}

TEST_CASE("enfargar side 2: solver = plain minimax on the first three plies",
          "[solver][enfargar]") {
  NaiveEnfargar ng{naive::Enfargar(2, false, false)};
  testing::EnfargarBoard<1> b(2);
  SECTION("alpha-beta") {
    Dfs<enfargar::State<1>> d(b.start());
    // Black wins side 2 (naive minimax value).
    CHECK(cross_check(ng, ng.g.start(), b.start(), 3, d, 100) == 1);
  }
  SECTION("retrograde") {
    Retro<enfargar::State<1>> r(b.start());
    CHECK(cross_check(ng, ng.g.start(), b.start(), 3, r, 100) == 1);
  }
}

namespace {
/// Fiodar side 2 from a 2-stone pie set-up: plain minimax over the naive
/// game (its superko history is a plain list of boards) against alpha-beta
/// with table and symmetry, at the set-up and after every first move.
/// Returns the naive value (Black's margin in half points).
int fiodar_setup_check(const char* black, const char* white, uint64_t min_nodes,
                       uint64_t table_bytes = uint64_t{16} << 20, uint64_t* table_used = nullptr) {
  NaiveFiodar ng{naive::Fiodar(2, {})};
  testing::FiodarBoard<1> b(2);
  auto p = ng.g.start_with(*ng.g.point(black), *ng.g.point(white));
  auto s = b.start();
  s.put(b.site(black), Color::kBlack);
  s.put(b.site(white), Color::kWhite);
  Dfs<fiodar::State<1>> d(s, table_bytes);
  uint64_t nodes = 0, checked = 0;
  auto solved = [&](const fiodar::State<1>& x) { return d(x); };
  INFO("set-up " << black << " " << white);
  int v = minimax_check(ng, p, s, 1, solved, nodes, checked);
  CHECK(nodes >= min_nodes);
  if (table_used) *table_used = d.d.table_bytes();
  return v;
}
}  // namespace

TEST_CASE("fiodar side 2: alpha-beta = plain minimax from pie set-ups", "[solver][fiodar]") {
  // Two of the five set-up classes; each naive tree has 18,993 positions.
  fiodar_setup_check("a1", "a2", 18000);
  fiodar_setup_check("a1", "c3", 18000);
}

TEST_CASE("fiodar side 2: the table budget bounds memory, superko histories included",
          "[solver][fiodar]") {
  // Table memory counts the histories the stored states own on the heap, so
  // a small budget is a real bound; the values stay exact (plain minimax).
  const uint64_t budget = 96 << 10;
  uint64_t free_run = 0, capped = 0;
  int v_free = fiodar_setup_check("a1", "b3", 18000, uint64_t{16} << 20, &free_run);
  int v_capped = fiodar_setup_check("a1", "b3", 18000, budget, &capped);
  CHECK(v_free == v_capped);
  INFO("uncapped table " << free_run << " bytes, capped " << capped);
  CHECK(free_run > budget);  // the budget binds here
  CHECK(capped <= budget);
  CHECK(capped > budget / 2);
}

TEST_CASE("fiodar side 2: the whole pie table and the empty board, plain minimax = solver",
          "[solver][fiodar][.slow]") {
  // Every 2-stone set-up class (loom solve fiodar --size 2 --pie lists five).
  const char* setups[][2] = {{"a1", "a2"}, {"a1", "b2"}, {"a1", "b3"}, {"a1", "c3"}, {"b2", "a1"}};
  for (auto [bl, wh] : setups) fiodar_setup_check(bl, wh, 18000);
  // The empty board: about 3.9 million naive positions (a minute in Release).
  NaiveFiodar ng{naive::Fiodar(2, {})};
  testing::FiodarBoard<1> b(2);
  Dfs<fiodar::State<1>> d(b.start());
  uint64_t nodes = 0, checked = 0;
  auto solved = [&](const fiodar::State<1>& x) { return d(x); };
  auto s = b.start();
  int v = minimax_check(ng, ng.g.start(), s, 2, solved, nodes, checked);
  CHECK(nodes > 3000000);
  // The value pinned by the naive reference (not copied from the solver).
  CHECK(v == 1);  // Black wins by 0.5
}
