// Cross-check: the Z3 specification of Fiodar (properties/spec/fiodar_spec.h)
// against the model (model/fiodar). Superko enters the spec as the explicit
// list of the mover's earlier end-of-turn boards, read from the model's
// history; removals are compared through the prisoner count.
#include <catch2/catch.hpp>

#include "model/fiodar/fiodar.h"
#include "properties/conformance/conformance.h"
#include "properties/spec/fiodar_spec.h"
#include "tests/spec/spec_check.h"

using namespace loom;
using loom::testing::Candidate;
using loom::testing::CrossCheckStats;

namespace {

using State = fiodar::State<1>;

struct Setup {
  fiodar::Options model;
  spec::FiodarRules spec;
  const char* name;
};

const Setup kSetups[] = {
    {{false, false, false}, {false, false}, "default"},
    {{true, false, false}, {true, false}, "cut=gap"},
    {{false, true, false}, {false, true}, "suicide=capture-first"},
    {{true, true, false}, {true, true}, "cut=gap suicide=capture-first"},
};

spec::Cells frame(const spec::HexBoard& b, const HexGeometry& g, const fiodar::Board<1>& board,
                  Color me) {
  spec::Cells c(b.size(), 0);
  for (int i = 0; i < b.size(); ++i) {
    int site = *g.parse(b.name(i));
    if (board[idx(me)].test(site)) c[i] = 1;
    if (board[idx(other(me))].test(site)) c[i] = 2;
  }
  return c;
}

/// Checks every candidate (each site and pass) of one position.
std::string check_position(z3::context& ctx, z3::solver& solver, const spec::HexBoard& b,
                           const spec::FiodarRules& rules, const State& s, CrossCheckStats& stats) {
  const Color me = s.to_move();
  std::vector<spec::Cells> forbidden;
  for (const auto& h : s.history(me)) forbidden.push_back(frame(b, s.geo(), h.board, me));
  spec::Encoder e(ctx);
  spec::FiodarMove rel = spec::encode_fiodar_move(e, b, rules, nullptr, -1, forbidden);
  std::vector<typename State::Move> moves;
  s.legal_moves(moves);
  auto legal = [&](typename State::Move m) {
    return std::binary_search(moves.begin(), moves.end(), m);
  };
  auto result = [&](typename State::Move m) -> std::optional<z3::expr> {
    if (!legal(m)) return std::nullopt;
    State t = s;
    typename State::Undo u;
    t.apply(m, u);
    int removed = t.prisoners(me) - s.prisoners(me);
    return spec::equals(e, rel.after, frame(b, s.geo(), t.board(), me)) &&
           rel.removed_count == ctx.int_val(removed);
  };
  std::vector<Candidate> cands;
  for (int i = 0; i < b.size(); ++i) {
    typename State::Move m{static_cast<int16_t>(*s.geo().parse(b.name(i)))};
    cands.push_back({b.name(i), rel.at[i], result(m)});
  }
  cands.push_back({"pass", rel.pass, result(State::Move::pass())});
  return testing::disagreement(
      solver, e, spec::equals(e, rel.before, frame(b, s.geo(), s.board(), me)), rel.legal, cands,
      stats, "position " + testing::cells_text(b, frame(b, s.geo(), s.board(), me)));
}

void random_check(int side, const Setup& setup, int cases) {
  fiodar::Context<1> mctx(side, setup.model);
  spec::HexBoard b(side);
  z3::context ctx;
  z3::solver solver(ctx);
  CrossCheckStats stats("fiodar side " + std::to_string(side) + " " + setup.name + " (random)");
  testing::spec_prop("fiodar side " + std::to_string(side) + " " + setup.name, cases, [&] {
    State s = conformance::random_position(State(&mctx), 3 * b.size());
    if (s.is_terminal()) return;
    std::string err = check_position(ctx, solver, b, setup.spec, s, stats);
    if (!err.empty()) RC_FAIL(err);
  });
}

/// Every `stride`-th board of the side (of the 3^N colourings; stride 1:
/// all), either side to move, empty histories.
void every_board(int side, const Setup& setup, int stride = 1) {
  fiodar::Context<1> mctx(side, setup.model);
  spec::HexBoard b(side);
  z3::context ctx;
  z3::solver solver(ctx);
  CrossCheckStats stats(
      "fiodar side " + std::to_string(side) + " " + setup.name +
      (stride == 1 ? " (every board)" : " (every " + std::to_string(stride) + "th board)"));
  int total = 1;
  for (int i = 0; i < b.size(); ++i) total *= 3;
  for (int code = 0; code < total; code += stride)
    for (Color me : {Color::kBlack, Color::kWhite}) {
      State s(&mctx);
      int x = code;
      for (int i = 0; i < b.size(); ++i, x /= 3)
        if (x % 3) s.put(*s.geo().parse(b.name(i)), x % 3 == 1 ? Color::kBlack : Color::kWhite);
      s.set_to_move(me);
      std::string err = check_position(ctx, solver, b, setup.spec, s, stats);
      INFO(err);
      REQUIRE(err == "");
    }
}

}  // namespace

TEST_CASE("fiodar spec: every 13th board of side 2", "[spec][fiodar]") {
  every_board(2, kSetups[0], 13);  // all 3^7 boards: the slow sweep
}

TEST_CASE("fiodar spec: random positions on sides 3 and 4 under every variant", "[spec][fiodar]") {
  const int scale = testing::kSanitized ? 2 : 1;
  for (const auto& setup : kSetups) {
    random_check(3, setup, 12 / scale);
    random_check(4, setup, 8 / scale);
  }
}

TEST_CASE("fiodar spec: the cross-check catches a rule mismatch", "[spec][fiodar]") {
  // A model under the default rules against a spec told cut=gap: on some
  // random position they must disagree (the query has teeth).
  fiodar::Context<1> mctx(3, kSetups[0].model);
  spec::HexBoard b(3);
  z3::context ctx;
  z3::solver solver(ctx);
  CrossCheckStats stats("fiodar mismatch probe");
  State s(&mctx);
  for (const char* site : {"c3", "d3"}) s.put(*s.geo().parse(site), Color::kWhite);
  s.put(*s.geo().parse("a3"), Color::kBlack);
  // Black e3 cuts the white thread c3-d3 only under cut=gap (b3 is empty).
  CHECK(check_position(ctx, solver, b, kSetups[1].spec, s, stats) != "");
  CHECK(check_position(ctx, solver, b, kSetups[0].spec, s, stats) == "");
}

TEST_CASE("fiodar spec: slow sweep", "[spec][fiodar][.slow]") {
  for (const auto& setup : kSetups) every_board(2, setup);
  for (const auto& setup : kSetups) random_check(3, setup, 500);
  for (const auto& setup : kSetups) random_check(4, setup, 300);
}

TEST_CASE("fiodar spec queries on side 2 (none exists)", "[spec][fiodar][query]") {
  testing::check_query("fiodar", "legal-by-removal", 2, false);
  testing::check_query("fiodar", "cut-without-full-thread", 2, false);
}

TEST_CASE("fiodar spec queries on side 3 (witnesses, slow)", "[spec][fiodar][query][.slow]") {
  CHECK(testing::check_query("fiodar", "legal-by-removal", 3, true) != nullptr);
  CHECK(testing::check_query("fiodar", "cut-without-full-thread", 3, true) != nullptr);
}
