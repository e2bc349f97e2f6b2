// Cross-check: the Z3 specification of Migong placements
// (properties/spec/migong_spec.h) against the model (model/migong), on sides
// 2 and 3 with the default edges: for random reachable positions, every
// (cell, pattern) pair, 64 patterns per cell. The spec computes its own edge
// colouring from RULES.md; the model's colouring enters nowhere.
#include <catch2/catch.hpp>

#include "model/migong/migong.h"
#include "properties/conformance/conformance.h"
#include "properties/spec/migong_spec.h"
#include "tests/spec/spec_check.h"

using namespace loom;
using loom::testing::Candidate;
using loom::testing::CrossCheckStats;

namespace {

using State = migong::State<1>;

/// The model's position as a formula over the spec's position variables.
z3::expr same_position(const spec::Encoder& e, const spec::MigongBoard& b,
                       const spec::MigongPosition& p, const State& s) {
  spec::Exprs eq;
  for (int c = 0; c < b.cells(); ++c) {
    int site = *s.geo().parse(b.name(c));
    bool occ = s.occupied().test(site);
    bool blue = s.placed_from(Color::kBlack).test(site);
    eq.push_back(occ ? p.occupied[c] : !p.occupied[c]);
    eq.push_back(blue ? p.blue[c] : !p.blue[c]);
    for (int d = 0; d < 6; ++d) {
      bool wedge = occ && (s.pattern_at(site) >> d & 1);
      eq.push_back(wedge ? p.wedge[c * 6 + d] : !p.wedge[c * 6 + d]);
    }
  }
  return e.all(eq);
}

struct Oracle {
  spec::MigongBoard board;
  z3::context ctx;
  z3::solver solver{ctx};
  spec::Encoder enc{ctx};
  z3::expr blue_moves = ctx.bool_const("blue_moves");
  spec::MigongMove rel;
  explicit Oracle(int side)
      : board(side),
        rel(spec::encode_migong_move(enc, board, spec::migong_default_edges(board), blue_moves)) {}

  std::string check(const State& s, CrossCheckStats& stats) {
    std::vector<typename State::Move> moves;
    s.legal_moves(moves);
    bool pass = std::any_of(moves.begin(), moves.end(), [](auto m) { return m.is_pass(); });
    if (pass && moves.size() != 1) return "the model lists pass beside placements";
    std::vector<Candidate> cands;
    for (int c = 0; c < board.cells(); ++c) {
      int site = *s.geo().parse(board.name(c));
      for (int pat = 0; pat < 64; ++pat) {
        typename State::Move m{static_cast<int16_t>(site), static_cast<uint8_t>(pat)};
        z3::expr move = rel.at[c];
        for (int d = 0; d < 6; ++d)
          move = move && (pat >> d & 1 ? rel.pattern[d] : !rel.pattern[d]);
        std::optional<z3::expr> result;
        if (std::binary_search(moves.begin(), moves.end(), m)) {
          State t = s;
          typename State::Undo u;
          t.apply(m, u);
          result = same_position(enc, board, rel.after, t);
        }
        cands.push_back({migong::pattern_name(pat) + "@" + board.name(c), move, result});
      }
    }
    bool blue = s.colour_to_move() == Color::kBlack;
    z3::expr fixed = same_position(enc, board, rel.before, s) && (blue ? blue_moves : !blue_moves);
    return testing::disagreement(solver, enc, fixed, rel.legal, cands, stats,
                                 std::string(blue ? "Blue" : "Yellow") + " to move, " +
                                     std::to_string(s.num_pieces()) + " pieces");
  }
};

void random_check(int side, int cases) {
  auto mctx = migong::Context<1>::make(side);
  Oracle oracle(side);
  CrossCheckStats stats("migong side " + std::to_string(side) + " (random)");
  testing::spec_prop("migong side " + std::to_string(side), cases, [&] {
    State s = conformance::random_position(State(mctx.get()), oracle.board.cells() + 2);
    if (s.is_terminal()) return;
    std::string err = oracle.check(s, stats);
    if (!err.empty()) RC_FAIL(err);
  });
}

}  // namespace

TEST_CASE("migong spec: random positions on sides 2 and 3", "[spec][migong]") {
  const int scale = testing::kSanitized ? 2 : 1;
  random_check(2, 24 / scale);
  random_check(3, 6 / scale);
}

TEST_CASE("migong spec: the cross-check catches a wrong edge colour", "[spec][migong]") {
  // The model with one rim segment recoloured disagrees with the spec's
  // default colouring on the empty board (a1's W edge is B by default).
  auto edges = migong::EdgeColouring::standard(2);
  int a1 = *HexGeometry::get(2).parse("a1");
  edges.set(a1, 3, false);
  auto mctx = migong::Context<1>::make(2, {}, edges);
  Oracle oracle(2);
  CrossCheckStats stats("migong mismatch probe");
  CHECK(oracle.check(State(mctx.get()), stats) != "");
  auto right = migong::Context<1>::make(2);
  CHECK(oracle.check(State(right.get()), stats) == "");
}

TEST_CASE("migong spec: slow sweep", "[spec][migong][.slow]") {
  random_check(2, 1000);
  random_check(3, 500);
}

TEST_CASE("migong spec queries on sides 2 and 3 (none exists)", "[spec][migong][query]") {
  testing::check_query("migong", "scores-never-tie", 2, false);
  testing::check_query("migong", "scores-never-tie", 3, false);
  testing::check_query("migong", "unfillable-cell", 2, false);
}

TEST_CASE("migong spec queries: unfillable-cell on side 3 (slow)", "[spec][migong][query][.slow]") {
  testing::check_query("migong", "unfillable-cell", 3, false);
}
