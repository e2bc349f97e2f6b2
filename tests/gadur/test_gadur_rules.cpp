// Gadur rules, one diagram per rule (RULES.md section 4 and section 7).
// Diagrams: top row first; X black, O white, . empty.
#include <catch2/catch.hpp>

#include "model/common/errors.h"
#include "tests/gadur/gadur_fixture.h"

using namespace loom;
using Board = testing::GadurBoard<1>;

namespace {

bool legal(const Board::State& s, const Board& b, const char* name) {
  return s.legal_sites().test(b.site(name));
}

Board::State after(Board::State s, const Board& b, const char* name) {
  Board::State::Undo u;
  s.apply(b.move(name), u);
  return s;
}

}  // namespace

TEST_CASE("gadur: a stone may not be placed next to a friendly stone", "[gadur][rules]") {
  Board b(4);
  auto s = b.from_diagram(R"(
       . . . .
      . . . . .
     . . . . . .
    . . . X . . .
     . . . . . .
      . . . O .
       . . . .
  )",
                          Color::kBlack);
  // Every neighbour of d4 touches the black stone and joins no enemy pair.
  for (const char* n : {"e4", "e5", "d5", "c4", "c3", "d3"}) CHECK_FALSE(legal(s, b, n));
  // Away from d4 every empty cell is legal, also next to the white stone.
  CHECK(legal(s, b, "a1"));
  CHECK(legal(s, b, "e3"));  // next to the white stone d2 only
  CHECK(s.count_legal_moves() == 37 - 2 - 6);
}

TEST_CASE("gadur: a merge needs at least two enemy groups with S <= |G|", "[gadur][rules]") {
  Board b(4);
  // Black group {b2, c2} (size 2); placing c3 would make |G| = 3.
  SECTION("an enemy group out of reach does not count") {
    auto s = b.from_diagram(R"(
         . . . .
        . . . . .
       . . . . . .
      . . O . O . .
       . . . . . .
        . X X . .
         . . . .
    )",
                            Color::kBlack);
    // c3's neighbours are d3, d4, c4, b3, b2, c2: G = {c3, b2, c2} touches
    // the white c4 but not e4, so only one enemy group: illegal.
    CHECK_FALSE(legal(s, b, "c3"));
  }
  SECTION("one enemy group is never enough") {
    auto s = b.from_diagram(R"(
         . . . .
        . . . . .
       . . . . . .
      . . O . . . .
       . . . . . .
        . X X . .
         . . . .
    )",
                            Color::kBlack);
    CHECK_FALSE(legal(s, b, "c3"));
  }
  SECTION("two enemy groups of total 2 next to a group of 3: legal, nothing captured") {
    auto s = b.from_diagram(R"(
         . . . .
        . . . . .
       . . . . . .
      . . O O . . .
       . . . . . .
        . X X . .
         . . . .
    )",
                            Color::kBlack);
    // c4-d4 is ONE white group (adjacent along E): illegal.
    CHECK_FALSE(legal(s, b, "c3"));
    auto t = b.from_diagram(R"(
         . . . .
        . . . . .
       . . . . . .
      . . O . . . .
       . . . O . .
        . X X . .
         . . . .
    )",
                            Color::kBlack);
    // G = {c3, b2, c2}: enemy groups {c4} and {d3}: S = 2 <= 3.
    REQUIRE(legal(t, b, "c3"));
    auto p = t.analyse(b.site("c3"));
    CHECK(p.num_enemy_groups == 2);
    CHECK(p.enemy_size == 2);
    CHECK(p.group.count() == 3);
    CHECK_FALSE(p.captures);
    auto u = after(t, b, "c3");
    CHECK(u.stones(Color::kWhite).count() == 2);
  }
  SECTION("S > |G| is illegal") {
    auto s = b.from_diagram(R"(
         . . . .
        . . . . .
       . . . . . .
      . . O . . . .
       . . . O O .
        . X X . .
         . . . .
    )",
                            Color::kBlack);
    // G = {c3, b2, c2} (3) touches {c4} (1) and {d3, e3} (2): S = 3 == |G|: legal, captures.
    auto p = s.analyse(b.site("c3"));
    CHECK(p.legal);
    CHECK(p.captures);
    auto t = after(s, b, "c3");
    CHECK(t.stones(Color::kWhite).none());
    CHECK(t.stones(Color::kBlack).count() == 3);
    // One more white stone in the group: S = 4 > 3, illegal.
    auto s2 = b.from_diagram(R"(
         . . . .
        . . . . .
       . . . . . .
      . . O . . . .
       . . . O O O
        . X X . .
         . . . .
    )",
                             Color::kBlack);
    CHECK_FALSE(legal(s2, b, "c3"));
  }
}

TEST_CASE("gadur: capture iff S == |G|, removing every adjacent enemy group", "[gadur][rules]") {
  Board b(4);
  // G = {b2, a1, b1} (3) touches white {a2} (1) and {c2, c3} (2):
  // S = 3 == |G|, so both groups go.
  auto s = b.from_diagram(R"(
       . . . .
      . . . . .
     . . . . . .
    . . . . . . .
     . . O . . .
      O . O . .
       X X . .
  )",
                          Color::kBlack);
  auto p = s.analyse(b.site("b2"));
  REQUIRE(p.legal);
  CHECK(p.num_enemy_groups == 2);
  CHECK(p.enemy_size == 3);
  CHECK(p.captures);
  auto t = after(s, b, "b2");
  CHECK(t.stones(Color::kWhite).none());
  CHECK(t.hash() == t.recompute_hash());
  CHECK(t.to_move() == Color::kWhite);
}

TEST_CASE("gadur: a lone stone next to exactly one lone enemy stone captures it",
          "[gadur][rules]") {
  Board b(4);
  auto s = b.play("d4");  // White to move
  auto p = s.analyse(b.site("c3"));
  CHECK(p.legal);
  CHECK(p.captures);
  auto t = after(s, b, "c3");
  CHECK(t.stones(Color::kBlack).none());
  CHECK(t.stones(Color::kWhite).count() == 1);
  // A lone stone next to two lone enemy stones: S = 2 != 1, no capture.
  auto s2 = b.from_diagram(R"(
       . . . .
      . . . . .
     . . . . . .
    . . . X . X .
     . . . . . .
      . . . . .
       . . . .
  )",
                           Color::kWhite);
  auto p2 = s2.analyse(b.site("e4"));
  CHECK(p2.legal);
  CHECK(p2.num_enemy_groups == 2);
  CHECK_FALSE(p2.captures);
  // Next to an enemy pair: S = 2 != 1, no capture.
  auto s3 = b.from_diagram(R"(
       . . . .
      . . . . .
     . . . . . .
    . . . X X . .
     . . . . . .
      . . . . .
       . . . .
  )",
                           Color::kWhite);
  CHECK_FALSE(s3.analyse(b.site("f4")).captures);
}

TEST_CASE("gadur: a player without a legal placement wins", "[gadur][rules]") {
  Board b(2);
  // Side 2: seven cells. Black on the centre touches every empty cell; White
  // has one group, so no merge can reach two enemy groups.
  auto s = b.from_diagram(R"(
      . .
     . X .
      O .
  )",
                          Color::kBlack);
  CHECK(s.legal_sites().none());
  CHECK(s.is_terminal());
  CHECK(s.outcome() == Outcome::win(Color::kBlack));
  // White to move in the same position has placements (c3 takes the lone b2).
  s.set_to_move(Color::kWhite);
  CHECK_FALSE(s.is_terminal());
  CHECK(s.outcome().ongoing());
}

TEST_CASE("gadur: exception=subset allows a merge when two groups fit", "[gadur][rules]") {
  // G = {c3, b2, c2} (3) touches three white groups: {c4} (1), {d3} (1) and
  // {a1, a2} (2): S = 4 > |G|, but the two lone stones fit (1 + 1 <= 3).
  const char* d = R"(
       . . . .
      . . . . .
     . . . . . .
    . . O . . . .
     . . . O . .
      O X X . .
       O . . .
  )";
  Board whole(4);
  Board subset(4, gadur::Options{.subset = true, .merge_only = false});
  auto sw = whole.from_diagram(d, Color::kBlack);
  auto ss = subset.from_diagram(d, Color::kBlack);
  CHECK(sw.analyse(whole.site("c3")).num_enemy_groups == 3);
  CHECK(sw.analyse(whole.site("c3")).enemy_size == 4);
  CHECK_FALSE(legal(sw, whole, "c3"));
  REQUIRE(legal(ss, subset, "c3"));
  // Legal only through a subset: capture still uses the whole E, so nothing goes.
  CHECK_FALSE(ss.analyse(subset.site("c3")).captures);
  auto t = after(ss, subset, "c3");
  CHECK(t.stones(Color::kWhite).count() == 4);
}

TEST_CASE("gadur: a lone-stone recapture repeats a position, merge-only stops it",
          "[gadur][rules]") {
  Board b(4);
  auto s1 = b.play("d4");
  auto s3 = b.play("d4 c3 d4");
  // Black d4, White c3 takes it, Black d4 takes c3 back: same board, same side.
  CHECK(s3 == s1);
  CHECK(s3.hash() == s1.hash());
  auto s5 = b.play("d4 c3 d4 c3 d4");
  CHECK(s5 == s1);

  Board m(4, gadur::Options{.subset = false, .merge_only = true});
  auto t = m.play("d4 c3");
  CHECK(t.stones(Color::kBlack).count() == 1);
  CHECK(t.stones(Color::kWhite).count() == 1);
  // And d4 is occupied, so the recapture cannot even be tried.
  CHECK_FALSE(t.legal_sites().test(m.site("d4")));
}

TEST_CASE("gadur: rule options parse and reject unknown values", "[gadur][rules]") {
  RuleSet rs(gadur::Options::specs());
  CHECK_FALSE(gadur::Options::from(rs).subset);
  rs.set("exception=subset");
  rs.set("capture=merge-only");
  auto o = gadur::Options::from(rs);
  CHECK(o.subset);
  CHECK(o.merge_only);
  CHECK_THROWS_AS(rs.set("exception=some"), InputError);
  CHECK_THROWS_AS(rs.set("suicide=allowed"), InputError);
  CHECK_THROWS_AS(rs.set("capture"), InputError);
  CHECK(rs.to_string() == "exception=subset capture=merge-only");
}
