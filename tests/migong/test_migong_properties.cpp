// The shared conformance properties (properties/conformance) run on Migong,
// plus Migong's own: every placed piece matches all its neighbours and edges;
// a move does exactly what it says; nonzero scores never tie; and the colour
// exchange that the default edge colouring needs for the odd rotations.
//
// Symmetry. A symmetry k carries the board, the pieces (wedge i goes to wedge
// map_dir(k, i)) and the edge colouring (segment (s, d) goes to
// (map_site(k, s), map_dir(k, d)) with its colour) along: State::transformed(k)
// lives in Context::image(k), whose colouring is the mapped one. For the
// default colouring that image is the default itself for the six even
// rotations (with or without the mirror) and the default with every colour
// exchanged for the six odd ones. The shared property checks the first
// statement for any colouring; "odd rotations with colours exchanged" below
// checks that for the default the odd symmetries become symmetries of the
// game itself once the colours of pieces, sets and seats are exchanged too.
#include <catch2/catch.hpp>

#include "model/common/zobrist.h"
#include "properties/conformance/conformance.h"
#include "tests/migong/migong_fixture.h"

using namespace loom;

namespace {

template <int W>
std::string migong_step(const migong::State<W>& before, const typename migong::State<W>::Move& m,
                        const migong::State<W>& after) {
  std::string bad;
  after.occupied().for_each([&](int s) {
    if (bad.empty() && !after.piece_matches(s))
      bad = "piece on " + after.geo().name(s) + " does not match its neighbours and edges";
  });
  if (!bad.empty()) return bad;
  if (after.to_move() != other(before.to_move())) return "the turn did not pass";
  if (m.is_placement()) {
    Color c = before.colour_to_move();
    if (!((before.unplaced(c) >> m.pattern) & 1)) return "placed a pattern the mover lacks";
    if (after.placed_from(c).count() != before.placed_from(c).count() + 1)
      return "the mover's set did not lose one piece";
    if (!after.placed_from(c).test(m.site) || after.pattern_at(m.site) != m.pattern)
      return "the piece is not where it was placed";
    if (after.passes() != 0) return "a placement did not reset the passes";
    if (after.last_placer() != before.to_move()) return "last placer not recorded";
  } else if (m.is_pass()) {
    if (before.can_place()) return "passed with a placement available";
    if (after.occupied() != before.occupied()) return "a pass changed the board";
    if (after.passes() != before.passes() + 1) return "pass not counted";
  } else {
    if (!before.swap_available()) return "swap outside Yellow's first turn";
    if (after.occupied() != before.occupied()) return "a swap changed the board";
    if (after.colour_to_move() != before.colour_to_move())
      return "after a swap the same colour moves (now held by the other player)";
  }
  if (after.is_terminal() != (after.passes() == 2)) return "end is not two passes in a row";
  // The solvers' table key restores the whole state.
  if (!(after.unpack(after.pack()) == after)) return "unpack(pack()) is not the state";
  // The solvers' scores (no sheet) are the sheet's.
  const auto sheet = after.score();
  if (after.scores()[0] != sheet.score[0] || after.scores()[1] != sheet.score[1])
    return "scores() differs from score()";
  return "";
}

/// Runs the conformance properties from the empty board or, with `warmup`
/// plies, from a fixed position reached by a seeded random playout (large
/// boards: fewer moves per position keeps the properties quick).
template <int W>
void run_conformance(int side, migong::Options opt, conformance::Options copt,
                     std::optional<migong::EdgeColouring> edges = std::nullopt, int warmup = 0) {
  auto board = edges ? std::make_shared<testing::MigongBoard<W>>(side, opt, *edges)
                     : std::make_shared<testing::MigongBoard<W>>(side, opt);
  // Each placement fills a cell; a pass is followed by a placement or ends
  // the game; the swap happens once: at most 2 * cells + 3 plies.
  copt.length_bound = 2 * board->ctx->num_cells() + 3;
  copt.label = "side " + std::to_string(side) + (opt.wedges ? " measure=wedges" : "") +
               (opt.pie ? " pie=on" : "") + (edges ? " own edges" : "");
  auto first = std::make_shared<migong::State<W>>(board->start());
  uint64_t seed = 12345;
  std::vector<typename migong::State<W>::Move> ms;
  typename migong::State<W>::Undo u;
  for (int i = 0; i < warmup; ++i) {
    first->legal_moves(ms);
    if (ms.empty()) break;
    first->apply(ms[splitmix64(seed) % ms.size()], u);
  }
  REQUIRE_FALSE(first->is_terminal());
  INFO("start: " << first->num_pieces() << " pieces, " << first->count_legal_moves() << " moves");
  std::function<migong::State<W>()> start = [board, first] { return *first; };
  conformance::run_all<migong::State<W>>(start, copt, &migong_step<W>);
}

/// The default colouring with one rim segment flipped: no symmetry but the
/// identity keeps it, so every image context is a different colouring.
migong::EdgeColouring lopsided(int n) {
  auto e = migong::EdgeColouring::standard(n);
  int a1 = *e.geo().parse("a1");
  e.set(a1, 3, !e.is_blue(a1, 3));
  return e;
}

}  // namespace

TEST_CASE("migong conformance, side 2 and 3", "[migong][conformance]") {
  run_conformance<1>(2, {}, {});
  run_conformance<1>(3, {}, {});
}

TEST_CASE("migong conformance, side 3, pie and measure=wedges", "[migong][conformance]") {
  run_conformance<1>(3, migong::Options{.wedges = true, .pie = true}, {});
}

TEST_CASE("migong conformance, side 4 with an asymmetric edge colouring", "[migong][conformance]") {
  run_conformance<1>(4, {}, {}, lopsided(4));
}

TEST_CASE("migong conformance, side 7 (three-word bitboards)", "[migong][conformance]") {
  conformance::Options o;
  o.max_prefix = 100;
  run_conformance<3>(7, migong::Options{.wedges = false, .pie = true}, o);
}

TEST_CASE("migong conformance, side 13 (ten-word bitboards)", "[migong][conformance]") {
  // From a fixed position 80 plies in (the empty board has 25,863 moves; the
  // 126 pieces of both sets run out long before the 468 cells).
  conformance::Options o;
  o.max_prefix = 80;
  run_conformance<10>(13, {}, o, std::nullopt, 80);
}

TEST_CASE("migong: image contexts of the default colouring", "[migong][conformance]") {
  auto ctx = migong::Context<1>::make(3);
  for (int k = 0; k < kNumSymmetries; ++k) {
    bool odd = (k % 6) % 2 == 1;
    INFO("symmetry " << k);
    CHECK((&ctx->image(k) == ctx.get()) == !odd);
    CHECK(migong::State<1>(ctx.get()).maps_to_same_game(k) == !odd);
    CHECK(ctx->image(k).edges() == (odd ? ctx->edges().inverted() : ctx->edges()));
    for (int j = 0; j < kNumSymmetries; ++j)
      CHECK(&ctx->image(k).image(j) == &ctx->image(HexGeometry::compose(k, j)));
  }
  auto lop = migong::Context<1>::make(3, {}, lopsided(3));
  for (int k = 1; k < kNumSymmetries; ++k) CHECK(&lop->image(k) != lop.get());
}

TEST_CASE("migong: nonzero scores never tie, every finished game has a winner",
          "[migong][conformance]") {
  rc::prop("scores of random positions", [] {
    int side = *rc::gen::element(2, 3, 4);
    bool wedges = *rc::gen::arbitrary<bool>();
    testing::MigongBoard<1> b(side, migong::Options{.wedges = wedges, .pie = false});
    auto s = conformance::random_position(b.start(), 200);
    auto sheet = s.score();
    RC_CLASSIFY(s.is_terminal(), "finished");
    RC_CLASSIFY(sheet.score[0] == 0 && sheet.score[1] == 0, "0-0");
    if (sheet.score[0] != 0 && sheet.score[1] != 0) RC_ASSERT(sheet.score[0] != sheet.score[1]);
    // Scores are measures some group of that colour has.
    for (int c = 0; c < 2; ++c)
      if (sheet.score[c] != 0) RC_ASSERT(sheet.counts[c].count(sheet.score[c]) == 1u);
    int wedge_total = 0;
    for (const auto& g : sheet.groups) wedge_total += g.wedges;
    RC_ASSERT(wedge_total == 6 * s.num_pieces());
    if (s.is_terminal()) {
      Outcome o = s.outcome();
      RC_ASSERT(o.kind == Outcome::Kind::kBlackWins || o.kind == Outcome::Kind::kWhiteWins);
    }
  });
}

TEST_CASE("migong: odd rotations with colours exchanged map the default game to itself",
          "[migong][conformance]") {
  rc::prop("exchange colours and rotate by an odd multiple of 60 degrees", [] {
    int side = *rc::gen::element(2, 3, 4);
    testing::MigongBoard<1> b(side);
    auto s = conformance::random_position(b.start(), 40);
    int k = *rc::gen::element(1, 3, 5, 7, 9, 11);
    const auto& g = b.geo();
    // Image: every piece rotated, its wedges' colours exchanged and moved to
    // the other colour's set; seats exchanged with the colours.
    auto t = b.start();
    for (Color c : {Color::kBlack, Color::kWhite})
      s.placed_from(c).for_each([&](int site) {
        t.put(g.map_site(k, site), other(c), 63 ^ migong::map_pattern(k, s.pattern_at(site)));
      });
    t.set_status(s.passes(),
                 s.last_placer() ? std::optional<Color>(other(*s.last_placer())) : std::nullopt,
                 false);
    t.set_to_move(other(s.to_move()));
    RC_ASSERT(t.check_invariants() == "");
    std::vector<typename migong::State<1>::Move> ms, mt, mapped;
    s.legal_moves(ms);
    t.legal_moves(mt);
    for (auto m : ms) {
      auto x = s.map_move(k, m);
      if (x.is_placement()) x.pattern = static_cast<uint8_t>(63 ^ x.pattern);
      mapped.push_back(x);
    }
    std::sort(mapped.begin(), mapped.end());
    RC_ASSERT(mapped == mt);
    auto sheet_s = s.score(), sheet_t = t.score();
    RC_ASSERT(sheet_s.score[0] == sheet_t.score[1]);
    RC_ASSERT(sheet_s.score[1] == sheet_t.score[0]);
    if (s.is_terminal()) {
      Outcome os = s.outcome(), ot = t.outcome();
      RC_ASSERT((os.kind == Outcome::Kind::kBlackWins) == (ot.kind == Outcome::Kind::kWhiteWins));
    }
  });
}
