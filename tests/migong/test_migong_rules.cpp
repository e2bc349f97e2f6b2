// Migong rules, one test per rule (RULES.md section 5 and section 7).
// Side 3 geometry used below (centre c3; wedges E NE NW W SW SE):
//        c5 d5 e5
//      b4 c4 d4 e4
//    a3 b3 [c3] d3 e3
//      a2 b2 c2 d2
//        a1 b1 c1
// Default edges for side 3 (RULES.md section 7): a1 W=B SW=Y SE=B,
// b1 SW=Y SE=B, c1 SW=Y SE=B E=Y, ...; centre: d3 W=B, d4 SW=Y, c4 SE=B,
// b3 E=Y, b2 NE=B, c2 NW=Y.
#include <catch2/catch.hpp>

#include "model/common/errors.h"
#include "tests/migong/migong_fixture.h"

using namespace loom;
using Board = testing::MigongBoard<1>;
using migong::decide;
using migong::score_of;

namespace {

Board::State after(const Board& b, Board::State s, std::string_view token) {
  Board::State::Undo u;
  s.apply(b.move(token), u);
  return s;
}

std::vector<std::string> tokens(const Board::State& s) {
  std::vector<Board::Move> ms;
  s.legal_moves(ms);
  std::vector<std::string> out;
  for (auto m : ms) out.push_back(s.move_name(m));
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("migong: each player owns 63 patterns, the 62 mixed ones in both sets",
          "[migong][rules]") {
  uint64_t blue = migong::owned_patterns(Color::kBlack),
           yellow = migong::owned_patterns(Color::kWhite);
  CHECK(std::popcount(blue) == 63);
  CHECK(std::popcount(yellow) == 63);
  CHECK(std::popcount(blue & yellow) == 62);
  CHECK_FALSE((blue >> migong::kAllYellow) & 1);
  CHECK_FALSE((yellow >> migong::kAllBlue) & 1);
  CHECK(migong::pattern_name(0b001011) == "BBYBYY");
  CHECK(migong::parse_pattern("BBYBYY") == 0b001011);
  CHECK_FALSE(migong::parse_pattern("BBYBY").has_value());
  CHECK_FALSE(migong::parse_pattern("bbybyy").has_value());
  CHECK_FALSE(migong::parse_pattern("BBYBYX").has_value());
}

TEST_CASE("migong: a mixed pattern can stand once per player, never twice for one",
          "[migong][rules]") {
  Board b(3);
  // YBYBYY: W=B fits d3 (centre side B), NE=B fits b2, E=Y fits b3.
  auto s = b.play("YBYBYY@d3");
  CHECK(b.legal(s, "YBYBYY@b2"));  // Yellow has its own copy
  s = after(b, s, "YBYBYY@b2");
  // b3 would fit (its SE faces b2's NW = Y) but both copies are used.
  CHECK_FALSE(b.legal(s, "YBYBYY@b3"));
  CHECK(b.legal(s, "YBYBBY@b3"));
  s = after(b, s, "YBYBBY@b3");
  CHECK_FALSE(b.legal(s, "YBYBYY@b4"));
  CHECK(s.check_invariants() == "");
}

TEST_CASE("migong: one wedge against the rim rejects a placement", "[migong][rules]") {
  Board b(3);
  auto s = b.start();
  // a1: W=B, SW=Y, SE=B from the rim; E, NE, NW free.
  auto diagram = b.from_diagram(R"(
        .  .  .
       .  .  .  .
      .  .  *  .  .
       .  .  .  .
        .  .  .
  )");
  CHECK(diagram == s);
  CHECK(b.legal(s, "BBBBYB@a1"));
  CHECK(b.legal(s, "YYYBYB@a1"));
  CHECK_FALSE(b.legal(s, "BBBBBB@a1"));  // SW against a Yellow rim segment
  CHECK_FALSE(b.legal(s, "BBBYYB@a1"));  // W against a Blue rim segment
  CHECK_FALSE(b.legal(s, "BBBBYY@a1"));  // SE against a Blue rim segment
  // Free wedges take either colour: 2^3 patterns fit, Blue owns all of them.
  CHECK(std::popcount(s.legal_patterns(b.site("a1"))) == 8);
}

TEST_CASE("migong: one wedge against the centre border rejects a placement", "[migong][rules]") {
  Board b(3);
  auto s = b.start();
  // d3's W wedge touches the centre side facing E: B.
  CHECK(b.legal(s, "BBBBBB@d3"));
  CHECK_FALSE(b.legal(s, "BBBYBB@d3"));
  // b3's E wedge touches the centre side facing W: Y.
  CHECK(b.legal(s, "YBBBBB@b3"));
  CHECK_FALSE(b.legal(s, "BBBBBB@b3"));
  // Naming the centre is illegal.
  auto centre = s.parse_move("BBBBBB@c3");
  REQUIRE(centre.has_value());
  CHECK_FALSE(Board::is_legal(s, *centre));
  for (const auto& t : tokens(s)) CHECK(t.find("@c3") == std::string::npos);
}

TEST_CASE("migong: one wedge against a neighbour rejects a placement", "[migong][rules]") {
  Board b(3);
  // On the empty board b1 needs only SW=Y, SE=B (rim): YYYYYB fits.
  CHECK(b.legal(b.start(), "YYYYYB@b1"));
  auto s = b.play("BBBBYB@a1");
  auto d = b.from_diagram(R"(
        .  .  .
       .  .  .  .
      .  .  *  .  .
       .  .  .  .
        BBBBYB  .  .
  )",
                          Color::kWhite);
  d.set_status(0, Color::kBlack, false);
  CHECK(d == s);
  // Now b1's W wedge faces a1's E wedge (B), whoever placed it.
  CHECK(b.legal(s, "YYYBYB@b1"));
  CHECK_FALSE(b.legal(s, "YYYYYB@b1"));
  // An empty neighbour imposes nothing: c1 still only has its rim.
  CHECK(std::popcount(s.legal_patterns(b.site("c1"))) == 8);
}

TEST_CASE("migong: tokens", "[migong][rules]") {
  Board b(3);
  auto s = b.start();
  CHECK(s.parse_move("BYYBBY@c2").has_value());
  CHECK(s.move_name(*s.parse_move("BYYBBY@c2")) == "BYYBBY@c2");
  for (const char* bad : {"byybby@c2", "BYYBBY@C2", "BYYBBY@c02", "BYYBBY c2", "BYYBB@c2",
                          "BYYBBYY@c2", "BYYBBY@", "BYYBBY@z9", "@c2", "", "Pass", "BYYBBY@e1"})
    CHECK_FALSE(s.parse_move(bad).has_value());
  // pass only without a placement, swap only with the pie rule.
  CHECK_FALSE(Board::is_legal(s, Board::Move::pass()));
  CHECK_FALSE(Board::is_legal(b.play("BBBBYB@a1"), Board::Move::swap()));
  auto ts = tokens(s);
  std::sort(ts.begin(), ts.end());
  CHECK(std::adjacent_find(ts.begin(), ts.end()) == ts.end());
}

// Side 2 (centre b2): the ring a1 b1 c2 c3 b3 a2; every ring cell has three
// rim sides, one centre side and two ring neighbours. Default edges:
// c2 SE=B E=Y NE=B, W=B (centre); b3 NE=B NW=Y W=B, SE=B (centre).
TEST_CASE("migong: a player without a placement must pass and two passes end the game",
          "[migong][rules]") {
  Board b(2);
  const char* record = "YBYBYB@a1 YYYYYB@b1 YYYBYY@a2 YBYYYY@c3";
  auto s = b.play(record);
  auto d = b.from_diagram(R"(
         .      y:YBYYYY
     YYYBYY    *       .
         YBYBYB   y:YYYYYB
  )");
  d.set_status(0, Color::kWhite, false);
  CHECK(d == s);
  // c2: NW faces c3's SE (Y), SW faces b1's NE (Y); b3: E faces c3's W (Y),
  // SW faces a2's NE (Y). Both cells are fully fixed to YBYBYB, which Blue
  // has placed on a1: Blue must pass.
  CHECK(std::popcount(migong::kMatch[s.constraint(b.site("c2"))]) == 1);
  CHECK(migong::kMatch[s.constraint(b.site("b3"))] == uint64_t{1}
                                                          << *migong::parse_pattern("YBYBYB"));
  CHECK_FALSE(s.can_place());
  CHECK(tokens(s) == std::vector<std::string>{"pass"});
  CHECK_FALSE(s.is_terminal());
  s = after(b, s, "pass");
  // Yellow still owns YBYBYB: one pass does not end the game.
  CHECK(tokens(s) == std::vector<std::string>{"YBYBYB@b3", "YBYBYB@c2"});
  CHECK_FALSE(Board::is_legal(s, Board::Move::pass()));
  s = after(b, s, "YBYBYB@c2");
  CHECK(s.passes() == 0);
  CHECK(tokens(s) == std::vector<std::string>{"pass"});  // Blue: b3 needs YBYBYB again
  s = after(b, s, "pass");
  CHECK(tokens(s) == std::vector<std::string>{"pass"});  // Yellow has used it now
  s = after(b, s, "pass");
  CHECK(s.is_terminal());
  CHECK(tokens(s).empty());
  CHECK_FALSE(s.outcome().ongoing());
}

TEST_CASE("migong: groups join wedges inside a piece and across pieces", "[migong][rules]") {
  Board b(3);
  // Pieces put directly (scoring does not depend on how they got there).
  // b1 = BYBYYY has two separate Blue runs: E and NW.
  SECTION("two separate runs of one piece in two groups; the piece counts in both") {
    // c1 W=B meets b1's E; b2 SE=B meets b1's NW; nothing joins them.
    auto s = b.from_diagram(R"(
           .       .       .
       .       .       .       .
   .       .       *       .       .
       .     YYYYYB    .       .
           .     BYBYYY  YYYBYY
    )");
    auto sheet = s.score();
    std::vector<migong::Group> blue;
    for (const auto& g : sheet.groups)
      if (g.colour == Color::kBlack) blue.push_back(g);
    REQUIRE(blue.size() == 2u);
    for (const auto& g : blue) {
      CHECK(g.extent == 2);
      CHECK(g.wedges == 2);
    }
    // Yellow: b1's NE alone, b1's W-SW-SE run, c1's five, b2's five.
    CHECK(sheet.counts[1] == std::map<int, int>{{1, 4}});
    CHECK(sheet.counts[0] == std::map<int, int>{{2, 2}});
    CHECK(sheet.score[0] == 2);
    CHECK(sheet.score[1] == 1);
  }
  SECTION("joined around through other pieces, the two runs make one group; b1 counts once") {
    // b1.E - c1.W - c1.NW - c2.SE - c2.E - c2.NE - c2.NW - c2.W - b2.E - b2.SE - b1.NW
    auto s = b.from_diagram(R"(
           .       .       .
       .       .       .       .
   .       .       *       .       .
       .     BYYYYB  BBBBYB    .
           .     BYBYYY  YYBBYY
    )");
    auto sheet = s.score();
    std::vector<migong::Group> blue;
    for (const auto& g : sheet.groups)
      if (g.colour == Color::kBlack) blue.push_back(g);
    REQUIRE(blue.size() == 1u);
    CHECK(blue[0].extent == 4);   // b1, c1, c2, b2: b1 once although two runs
    CHECK(blue[0].wedges == 11);  // 2 + 2 + 5 + 2
    CHECK(blue[0].site == b.site("b1"));
  }
  SECTION("board edges join nothing; groups count for their colour, not their placer") {
    // A Yellow-set piece with five Blue wedges next to the rim.
    auto s = b.from_diagram(R"(
           .       .       .
       .       .       .       .
   .       .       *       .       .
       .       .       .       .
           y:BBBBBY   .       .
    )");
    auto sheet = s.score();
    REQUIRE(sheet.groups.size() == 2u);
    CHECK(sheet.counts[0] == std::map<int, int>{{1, 1}});
    CHECK(sheet.counts[1] == std::map<int, int>{{1, 1}});
    CHECK(sheet.score[0] == 0);  // {1} v {1}: 0-0 by extent
    Board bw(3, migong::Options{.wedges = true, .pie = false});
    auto w = bw.from_diagram(R"(
           .       .       .
       .       .       .       .
   .       .       *       .       .
       .       .       .       .
           y:BBBBBY   .       .
    )");
    auto ws = w.score();
    CHECK(ws.score[0] == 5);  // {5} v {1} wedges: Blue scores with Yellow's piece
    CHECK(ws.score[1] == 1);
  }
}

TEST_CASE("migong: scores (RULES.md section 5 examples)", "[migong][rules]") {
  // Blue {10,5} v Yellow {10,7}: Blue scores 5, Yellow 7: Yellow wins.
  CHECK(score_of({10, 5}, {10, 7}) == 5);
  CHECK(score_of({10, 7}, {10, 5}) == 7);
  CHECK(decide(5, 7, Color::kWhite) == Color::kWhite);
  CHECK(decide(5, 7, Color::kBlack) == Color::kWhite);
  // Blue {6,6,3} v Yellow {6,4,4,4}: Blue 6 (two groups of 6 against one), Yellow 4.
  CHECK(score_of({6, 6, 3}, {6, 4, 4, 4}) == 6);
  CHECK(score_of({6, 4, 4, 4}, {6, 6, 3}) == 4);
  CHECK(decide(6, 4, Color::kBlack) == Color::kBlack);
  // {8} v {8}: 0-0, the last placer loses.
  CHECK(score_of({8}, {8}) == 0);
  CHECK(decide(0, 0, Color::kBlack) == Color::kWhite);
  CHECK(decide(0, 0, Color::kWhite) == Color::kBlack);
  // No groups at all: 0-0 too.
  CHECK(score_of({}, {}) == 0);
  CHECK(score_of({1}, {}) == 1);
  CHECK_THROWS_AS(decide(3, 3, Color::kBlack), std::logic_error);
}

TEST_CASE("migong: at 0-0 the player who placed last loses (a finished board)", "[migong][rules]") {
  Board b(3);
  // One all-Blue and one all-Yellow piece: {1} v {1} by extent.
  const char* diagram = R"(
         .       .       .
     .       .       .       .
 .       .       *       .       .
     .     BBBBBB    .       .
         .       .     YYYYYY
  )";
  for (Color last : {Color::kBlack, Color::kWhite}) {
    auto s = b.from_diagram(diagram);
    s.set_status(2, last, false);
    REQUIRE(s.is_terminal());
    auto sheet = s.score();
    CHECK(sheet.score[0] == 0);
    CHECK(sheet.score[1] == 0);
    CHECK(s.outcome() == Outcome::win(other(last)));
  }
}

TEST_CASE("migong: the pie swap (pie=on) on Yellow's first turn", "[migong][rules]") {
  Board b(3, migong::Options{.wedges = false, .pie = true});
  auto s = b.play("BBBBYB@a1");
  CHECK(s.swap_available());
  CHECK(Board::is_legal(s, Board::Move::swap()));
  auto t = after(b, s, "swap");
  // Same board, Yellow to move, now played by the first seat.
  CHECK(t.occupied() == s.occupied());
  CHECK(t.to_move() == Color::kBlack);
  CHECK(t.colour_to_move() == Color::kWhite);
  CHECK(t.swapped());
  CHECK_FALSE(Board::is_legal(t, Board::Move::swap()));
  CHECK(t.legal_patterns(b.site("b1")) == s.legal_patterns(b.site("b1")));
  // Declining: after a placement the swap is gone for good.
  auto u = after(b, s, "YYYBYB@b1");
  CHECK_FALSE(u.swap_available());
  CHECK_FALSE(Board::is_legal(after(b, u, "BBBBBB@d3"), Board::Move::swap()));
  // Without the rule there is no swap.
  Board plain(3);
  CHECK_FALSE(Board::is_legal(plain.play("BBBBYB@a1"), Board::Move::swap()));
  // Seats and colours: a finished game after a swap is won by the seat that
  // holds the winning colour.
  auto e = t;
  e.set_status(2, Color::kBlack, true);
  // Blue's one piece BBBBYB: Blue {1}, Yellow {1} by extent: 0-0; the first
  // seat placed last and loses.
  CHECK(e.outcome() == Outcome::win(Color::kWhite));
}
