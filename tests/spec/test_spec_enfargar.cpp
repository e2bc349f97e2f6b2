// Cross-check: the Z3 specification of Enfargar (properties/spec/enfargar_spec.h)
// against the model (model/enfargar): every placement of random reachable
// positions, and of every board of side 2 (where stones may lack lifelines,
// which play never produces). Annihilation is compared as an observable.
#include <catch2/catch.hpp>

#include <random>

#include "model/enfargar/enfargar.h"
#include "properties/conformance/conformance.h"
#include "properties/spec/enfargar_spec.h"
#include "tests/spec/spec_check.h"

using namespace loom;
using loom::testing::CrossCheckStats;
using loom::testing::HexOracle;
using loom::testing::ModelResult;

namespace {

using State = enfargar::State<1>;

spec::Cells frame(const spec::HexBoard& b, const State& s, Color me) {
  spec::Cells c(b.size(), 0);
  for (int i = 0; i < b.size(); ++i) {
    int site = *s.geo().parse(b.name(i));
    if (s.stones(me).test(site)) c[i] = 1;
    if (s.stones(other(me)).test(site)) c[i] = 2;
  }
  return c;
}

HexOracle make_oracle(int side, const spec::EnfargarRules& rules) {
  return HexOracle(side, [rules](spec::Encoder& e, const spec::HexBoard& b) {
    spec::EnfargarMove m = spec::encode_enfargar_move(e, b, rules);
    return testing::HexRelation{m.before, m.after, m.at, m.legal, {m.annihilates}};
  });
}

std::optional<ModelResult> model_answer(const spec::HexBoard& b, const State& s, int i) {
  int site = *s.geo().parse(b.name(i));
  if (!s.legal_sites().test(site)) return std::nullopt;
  State t = s;
  typename State::Undo u;
  t.apply({static_cast<int16_t>(site)}, u);
  return ModelResult{frame(b, t, s.to_move()), {t.is_terminal()}};
}

/// The spec relation covers placements; a pass is the model's exactly when
/// it has no placement, which the per-site agreement then carries over.
std::string check(HexOracle& oracle, const State& s, CrossCheckStats& stats) {
  std::vector<typename State::Move> moves;
  s.legal_moves(moves);
  bool pass = std::any_of(moves.begin(), moves.end(), [](auto m) { return m.is_pass(); });
  if (pass && moves.size() != 1) return "the model lists pass beside placements";
  return oracle.check(
      frame(oracle.board(), s, s.to_move()),
      [&](int i) { return model_answer(oracle.board(), s, i); }, stats);
}

void random_check(int side, bool touch, int cases) {
  enfargar::Context<1> mctx(side, enfargar::Options{touch, false});
  HexOracle oracle = make_oracle(side, spec::EnfargarRules{touch});
  std::string name = "enfargar side " + std::to_string(side) + (touch ? " edge=touch" : " default");
  CrossCheckStats stats(name + " (random)");
  testing::spec_prop(name, cases, [&] {
    State s = conformance::random_position(State(&mctx), 2 * oracle.board().size());
    if (s.is_terminal()) return;
    std::string err = check(oracle, s, stats);
    if (!err.empty()) RC_FAIL(err);
  });
}

/// Every `stride`-th board of the side (of the 3^N colourings; stride 1:
/// all), either side to move.
void every_board(int side, bool touch, int stride = 1) {
  enfargar::Context<1> mctx(side, enfargar::Options{touch, false});
  HexOracle oracle = make_oracle(side, spec::EnfargarRules{touch});
  CrossCheckStats stats(
      "enfargar side " + std::to_string(side) + (touch ? " edge=touch" : " default") +
      (stride == 1 ? " (every board)" : " (every " + std::to_string(stride) + "th board)"));
  const spec::HexBoard& b = oracle.board();
  int total = 1;
  for (int i = 0; i < b.size(); ++i) total *= 3;
  for (int code = 0; code < total; code += stride)
    for (Color me : {Color::kBlack, Color::kWhite}) {
      State s(&mctx);
      int x = code;
      for (int i = 0; i < b.size(); ++i, x /= 3)
        if (x % 3) s.put(*s.geo().parse(b.name(i)), x % 3 == 1 ? Color::kBlack : Color::kWhite);
      s.set_to_move(me);
      std::string err = check(oracle, s, stats);
      INFO(err);
      REQUIRE(err == "");
    }
}

}  // namespace

TEST_CASE("enfargar spec: every 7th board of side 2", "[spec][enfargar]") {
  every_board(2, false, 7);  // all 3^7 boards: the slow sweep
  every_board(2, true, 7);
}

TEST_CASE("enfargar spec: random positions on sides 3 and 4 under both edge rules",
          "[spec][enfargar]") {
  const int scale = testing::kSanitized ? 2 : 1;
  for (bool touch : {false, true}) {
    random_check(3, touch, 16 / scale);
    random_check(4, touch, 10 / scale);
  }
}

TEST_CASE("enfargar spec: the cross-check catches a rule mismatch", "[spec][enfargar]") {
  // Black a1 with White on all three of its neighbours: by default the new
  // stone has no lifeline (illegal); under edge=touch the corner gives one.
  // Model default, spec edge=touch: they must disagree.
  enfargar::Context<1> mctx(2, enfargar::Options{});
  State s(&mctx);
  for (const char* site : {"a2", "b1", "b2"}) s.put(*s.geo().parse(site), Color::kWhite);
  HexOracle wrong = make_oracle(2, spec::EnfargarRules{true});
  HexOracle right = make_oracle(2, spec::EnfargarRules{false});
  CrossCheckStats stats("enfargar mismatch probe");
  CHECK(check(wrong, s, stats) != "");
  CHECK(check(right, s, stats) == "");
}

/// "Two valuations of the relation for one position and one site differ"
/// (legality, the position after or the annihilation): UNSAT on every
/// position of the board, every site, proves the relation a function there.
/// The Enfargar 9 puzzle check relies on it: a satisfying valuation it finds
/// is then the only one (puzzles/enfargar_puzzles.cpp).
/// `cells`: only that position (empty: every position of the board).
void relation_is_a_function(int side, bool touch, const spec::Cells& cells = {}) {
  spec::HexBoard b(side);
  for (int site = 0; site < b.size(); ++site) {
    INFO("side " << side << " site " << b.name(site) << " fixed position " << !cells.empty());
    z3::context ctx;
    z3::solver solver(ctx);
    spec::Encoder e(ctx);
    const spec::HexPosition pos = spec::fresh_position(e, b, "pos");
    const spec::EnfargarRules rules{touch};
    const spec::EnfargarMove m1 = spec::encode_enfargar_move(e, b, rules, &pos, site);
    const spec::EnfargarMove m2 = spec::encode_enfargar_move(e, b, rules, &pos, site);
    spec::Exprs differ{m1.legal != m2.legal, m1.annihilates != m2.annihilates};
    for (int i = 0; i < b.size(); ++i) {
      differ.push_back(m1.after.own[i] != m2.after.own[i]);
      differ.push_back(m1.after.opp[i] != m2.after.opp[i]);
    }
    solver.add(e.definitions());
    if (!cells.empty()) solver.add(spec::equals(e, pos, cells));
    solver.add(e.any(differ));
    CHECK(solver.check() == z3::unsat);
  }
}

TEST_CASE("enfargar spec: the relation is a function of the position and the site",
          "[spec][enfargar]") {
  for (bool touch : {false, true}) relation_is_a_function(2, touch);
  // Larger boards: every site of random boards (every cell empty, own or
  // the opponent's with equal chance; one query per site with the board free
  // does not finish on side 3).
  std::mt19937 rng(20261201);
  for (int side : {3, 4}) {
    spec::Cells cells(spec::HexBoard(side).size());
    for (int& c : cells) c = static_cast<int>(rng() % 3);
    relation_is_a_function(side, false, cells);
  }
}

TEST_CASE("enfargar spec: slow sweep", "[spec][enfargar][.slow]") {
  for (bool touch : {false, true}) {
    every_board(2, touch);
    random_check(3, touch, 500);
    random_check(4, touch, 300);
  }
}

TEST_CASE("enfargar spec queries: the end-of-turn clause is redundant on side 2",
          "[spec][enfargar][query]") {
  testing::check_query("enfargar", "end-clause-redundant", 2, false);
}

TEST_CASE("enfargar spec queries: the end-of-turn clause is redundant on side 3 (slow)",
          "[spec][enfargar][query][.slow]") {
  testing::check_query("enfargar", "end-clause-redundant", 3, false);
}

TEST_CASE("enfargar spec queries: no-placement-both on side 2 (slow)",
          "[spec][enfargar][query][.slow]") {
  auto g = testing::check_query("enfargar", "no-placement-both", 2, true);
  REQUIRE(g != nullptr);
  // The model agrees: the mover can only pass, and so can the opponent after it.
  CHECK(g->legal_tokens() == std::vector<std::string>{"pass"});
  g->play("pass", 1);
  CHECK(g->legal_tokens() == std::vector<std::string>{"pass"});
}
