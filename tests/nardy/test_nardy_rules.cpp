// Long Nardy rules, one named diagram case per rule (RULES.md section 6 and
// section 7, seed 004). Diagrams: points 13..24 above 12..1 (as drawn by
// `loom show nardy`), W White, B Black. Every expectation is reasoned from
// the rules in the comment beside it.
#include <catch2/catch.hpp>

#include "model/common/errors.h"
#include "tests/nardy/nardy_fixture.h"

using namespace loom;
using namespace loom::nardy;
using testing::after_steps;
using testing::children_of;
using testing::nardy_diagram;
using testing::reaches;
using testing::turn_texts;
using Strings = std::vector<std::string>;

namespace {

const Options kEveryStep{};
const Options kEndOfTurn{.block_end_of_turn = true, .last_roll = false};
const Options kLastRoll{.block_end_of_turn = false, .last_roll = true};

/// The single child of a roll (REQUIREs there is exactly one).
Child only_child(const Position& p, const char* dice, Options opt = {}) {
  auto cs = children_of(p, dice, opt);
  REQUIRE(cs.size() == 1);
  return cs[0];
}

}  // namespace

TEST_CASE("nardy: the start position and the position string", "[nardy][rules]") {
  Position s = Position::start();
  CHECK(s.to_string() == "W:0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15");
  CHECK(s == nardy_diagram(R"(
      13  14  15  16  17  18 |  19  20  21  22  23  24
       .   .   .   .   .   . |   .   .   .   .   . 15W
     15B   .   .   .   .   . |   .   .   .   .   .   .
      12  11  10   9   8   7 |   6   5   4   3   2   1
  )",
                           Color::kWhite));
  CHECK(Position::parse(s.to_string()) == s);
  CHECK(s.pips(Color::kWhite) == 360);  // 15 checkers x 24 pips
  CHECK(s.pips(Color::kBlack) == 360);
  CHECK(s.first_turn());
  for (const char* bad :
       {"", "W", "X:0", "W:0,0", "W:0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,16",
        "W:0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15,0",
        "W:0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,+15",
        "W:0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,015",
        "W:0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,-0,15",
        "W:0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,1,15",
        "W:0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,,15",
        "w:0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15"}) {
    INFO(bad);
    CHECK_THROWS_AS(Position::parse(bad), InputError);
  }
}

TEST_CASE("nardy: the 21 rolls and their probabilities", "[nardy][rules]") {
  const auto& rolls = all_rolls();
  double total = 0;
  int doubles = 0, weight = 0;
  for (size_t i = 0; i < rolls.size(); ++i) {
    total += rolls[i].probability();
    weight += rolls[i].weight();
    doubles += rolls[i].is_double();
    if (i) CHECK(rolls[i - 1].name() < rolls[i].name());
  }
  CHECK(doubles == 6);
  CHECK(weight == 36);
  CHECK(total == Approx(1.0));
  CHECK(Roll::parse("56") == Roll::parse("65"));
  CHECK(Roll::parse("65")->name() == "65");
  CHECK(Roll::parse("33")->weight() == 1);
  CHECK(Roll::parse("31")->weight() == 2);
  for (const char* bad : {"", "6", "666", "70", "06", "a1", "6 5"}) CHECK_FALSE(Roll::parse(bad));
}

TEST_CASE("nardy: turn texts parse back to their steps; anything else is no turn",
          "[nardy][rules]") {
  // Every turn the generator writes from the start and from a bear-off
  // position (CONVENTIONS.md: `from/to`, `off`) reads back as itself.
  TurnGenerator gen;
  std::vector<Child> kids;
  int seen = 0;
  // White and Black (whose steps wrap past point 24: 2/20), each from the
  // start and bearing off.
  for (const Position& p :
       {Position::start(), Position::parse("W:1,2,0,2,0,0,0,0,0,0,0,0,-4,-2,0,0,0,0,0,0,0,0,0,0"),
        Position::parse("B:0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15"),
        Position::parse("B:0,0,0,0,0,0,0,0,0,0,0,0,-3,-1,0,-2,0,0,0,0,0,0,3,0")})
    for (const Roll& r : all_rolls()) {
      gen.turns(p, r, kids);
      for (const Child& k : kids) {
        const auto t = Turn::parse(k.turn.text());
        REQUIRE(t);
        CHECK(*t == k.turn);
        ++seen;
      }
    }
  CHECK(seen > 50);                   // 70 turns: the test reads something
  CHECK(Turn::parse("")->size == 0);  // a turn without a step
  CHECK(Turn::parse("5/off 24/18")->text() == "5/off 24/18");
  // Spacing and digits as the toolkit writes them, nothing else.
  for (const char* bad : {"25/1",   "0/3",          "5/",           "/5",
                          "off/5",  "05/3",         "5/0",          "5/25",
                          "24-18",  "24/18x",       "5/off/3",      "1/2 1/2 1/2 1/2 1/2",
                          "x",      "24/ 18",       "13/OFF",       " 5/off",
                          "5/off ", "5/off  24/18", "5/off\t24/18", " "})
    CHECK_FALSE(Turn::parse(bad));
}

TEST_CASE("nardy: the seed's first example, White 5-5 then Black 4-4", "[nardy][rules][seed]") {
  // RULES.md section 7: White opens 5-5 with one checker 24/19/14/9/4 (only
  // one head checker: 5-5 is no exception); Black's 4-4 is then 12/8 12/8:
  // 8/4 is White's point, so both checkers stop on 8 (two head checkers:
  // 4-4 on the first turn).
  Position s = Position::start();
  Child w = only_child(s, "55");
  CHECK(w.turn.text() == "24/19 19/14 14/9 9/4");
  CHECK(w.position == after_steps(s, "24/19 19/14 14/9 9/4"));
  Child b = only_child(w.position, "44");
  CHECK(b.turn.text() == "12/8 12/8");
  CHECK(b.position.to_string() == "W:0,0,0,1,0,0,0,-2,0,0,0,-13,0,0,0,0,0,0,0,0,0,0,0,14");
}

TEST_CASE("nardy: the seed's second example, White 2-2 then Black 5-5", "[nardy][rules][seed]") {
  // RULES.md section 7: White opens 2-2 (24/22/20/18/16); Black's 5-5 is one
  // checker 12/7 7/2 2/21 (Black wraps from 1 to 24; 21/16 would land on
  // White's 16), the fourth five is lost; no second head checker (5-5 is no
  // exception).
  Position s = Position::start();
  Child w = only_child(s, "22");
  CHECK(w.turn.text() == "24/22 22/20 20/18 18/16");
  Child b = only_child(w.position, "55");
  CHECK(b.turn.text() == "12/7 7/2 2/21");
  CHECK(b.position.to_string() == "W:0,0,0,0,0,0,0,0,0,0,0,-14,0,0,0,1,0,0,0,0,-1,0,0,14");
}

TEST_CASE("nardy: the head rule and its first-turn exception", "[nardy][rules][head]") {
  Position s = Position::start();
  SECTION("6-6 on the first turn: two head checkers, 18/12 is Black's head") {
    CHECK(turn_texts(s, "66") == Strings{"24/18 24/18"});
  }
  SECTION("4-4: two checkers to 16 (one alone stops at 16: 12 is Black's)") {
    CHECK(turn_texts(s, "44") == Strings{"24/20 20/16 24/20 20/16"});
  }
  SECTION("3-3: the two head checkers share the four threes (not 3+1 to 12)") {
    auto cs = children_of(s, "33");
    REQUIRE(cs.size() == 2);
    CHECK(reaches(s, "33", "24/21 21/18 24/21 21/18"));
    CHECK(reaches(s, "33", "24/21 21/18 18/15 24/21"));
  }
  SECTION("non-exception doubles and every non-double: one head checker") {
    for (const char* d : {"11", "22", "55", "21", "65", "64", "43"}) {
      INFO(d);
      auto c = only_child(s, d);
      CHECK(c.position.count(Color::kWhite, 24) == 14);
    }
  }
  SECTION("not the first turn: 6-6 takes one head checker only") {
    // 14 on the head: not the first turn. 24/18 once; 18/12 is Black's head.
    Position p = nardy_diagram(R"(
       .   .   .   .   .  1W |   .   .   .   .   . 14W
     14B   .   .   .   .   . |  1B   .   .   .   .   .
    )",
                               Color::kWhite);
    CHECK_FALSE(p.first_turn());
    CHECK(turn_texts(p, "66") == Strings{"24/18"});
  }
  SECTION("the exception holds even when one checker could play all four (section 7)") {
    // Black's first turn, White's head empty: one checker 12/9/6/3/24 plays
    // the whole 3-3, and two head checkers are allowed as well; never three.
    Position p = nardy_diagram(R"(
       .   .   .   .   .   . |   .   .   .   .   .   .
     15B   .   .   .   .   . |   .   .   .   .   . 15W
    )",
                               Color::kBlack);
    CHECK(reaches(p, "33", "12/9 9/6 6/3 3/24"));
    CHECK(reaches(p, "33", "12/9 9/6 12/9 9/6"));
    CHECK(reaches(p, "33", "12/9 12/9 9/6 6/3"));
    for (const auto& c : children_of(p, "33")) CHECK(c.position.count(Color::kBlack, 12) >= 13);
  }
}

TEST_CASE("nardy: no landing on an opposing checker, middle stops included",
          "[nardy][rules][landing]") {
  // White's 13 cannot play 3-2 as one checker: both middle stops (10, 11)
  // hold Black. The head checker plays both dice instead (one head checker).
  Position p = nardy_diagram(R"(
      1W   .   .   .   .   . |   .   .   .   .   . 14W
     13B  1B  1B   .   .   . |   .   .   .   .   .   .
  )",
                             Color::kWhite);
  CHECK_FALSE(reaches(p, "32", "13/10 10/8"));
  CHECK_FALSE(reaches(p, "32", "13/11 11/8"));
  CHECK(turn_texts(p, "32") == Strings{"24/21 21/19"});
  // With 11 free the checker passes through it.
  p.set(11, 0);
  p.set(12, -14);
  CHECK(reaches(p, "32", "13/11 11/8"));
}

TEST_CASE("nardy: a forfeited turn", "[nardy][rules][forfeit]") {
  // Black holds 23..18 and 5. White's 5-5: 24/19 and 10/5 land on Black.
  // (Black's six-point run is legal: White's 10 is past it on White's route.)
  Position p = nardy_diagram(R"(
       .   .   .   .   .  2B |  2B  2B  2B  2B  2B 14W
       .   .  1W   .   .   . |   .  3B   .   .   .   .
  )",
                             Color::kWhite);
  auto c = only_child(p, "55");
  CHECK(c.turn.size == 0);
  CHECK(c.position == p.with_to_move(Color::kBlack));
  // 6-6 is not forfeited: 10/4.
  CHECK(turn_texts(p, "66") == Strings{"10/4"});
}

TEST_CASE("nardy: only one die can be played, and it must be the larger",
          "[nardy][rules][larger]") {
  // First turn, 6-5: one head checker; 24/18 18/13 and 24/19 19/13 land on
  // Black's 13, so one die only, and the 6 can be played: 24/18, not 24/19.
  Position p = nardy_diagram(R"(
      1B   .   .   .   .   . |   .   .   .   .   . 15W
     14B   .   .   .   .   . |   .   .   .   .   .   .
  )",
                             Color::kWhite);
  CHECK(turn_texts(p, "65") == Strings{"24/18"});
  CHECK(turn_texts(p, "65", kEndOfTurn) == Strings{"24/18"});
  // With 18 held by Black the 6 cannot be played: the 5 is.
  Position q = nardy_diagram(R"(
      1B   .   .   .   .  1B |   .   .   .   .   . 15W
     13B   .   .   .   .   . |   .   .   .   .   .   .
  )",
                             Color::kWhite);
  CHECK(turn_texts(q, "65") == Strings{"24/19"});
}

TEST_CASE("nardy: play as many dice as possible", "[nardy][rules][maximal]") {
  // 6-1 with 7 and four on 2: 2/off with the 6 first is not allowed (7 is
  // not home), and every legal turn plays both dice.
  Position p = nardy_diagram(R"(
       .   .   .   .   .   . |   .   .   .   .   .   .
     15B   .   .   .   .  1W |   .   .   .   .  4W   .
  )",
                             Color::kWhite);
  for (const auto& c : children_of(p, "61")) CHECK(c.turn.size == 2);
  // Section 7: bearing off is re-checked before every step: the last checker
  // enters home with one die and bears off with the other.
  CHECK(reaches(p, "61", "7/6 6/off"));
  CHECK(reaches(p, "61", "7/1 1/off"));
  CHECK_FALSE(reaches(p, "61", "2/off 7/6"));
}

TEST_CASE("nardy: a 6-block is allowed only with an opposing checker ahead of it",
          "[nardy][rules][block]") {
  // White holds 10..6; 16/11 (a 5) makes the six points 11..6. On Black's
  // route (12 -> 1, 24 -> 13) the run ends at 6; Black's checker on 20 is
  // further along, so the block stands.
  Position ahead = nardy_diagram(R"(
       .   .   .  1W   .   . |   .  1B   .   .   .  4W
     14B   .  2W  2W  2W  2W |  2W   .   .   .   .   .
  )",
                                 Color::kWhite);
  CHECK(reaches(ahead, "53", "16/11 24/21"));
  // Without it (all 15 on Black's head, behind the run) no turn ends with 11 held.
  Position none = nardy_diagram(R"(
       .   .   .  1W   .   . |   .   .   .   .   .  4W
     15B   .  2W  2W  2W  2W |  2W   .   .   .   .   .
  )",
                                Color::kWhite);
  auto cs = children_of(none, "53");
  CHECK_FALSE(cs.empty());
  for (const auto& c : cs) CHECK(c.position.at(11) == 0);
  for (const auto& c : children_of(none, "53", kEndOfTurn)) CHECK(c.position.at(11) == 0);
  // Once Black has borne off a checker the block is allowed.
  Position off = none;
  off.set(12, -14);
  CHECK(reaches(off, "53", "16/11 24/21"));
}

TEST_CASE("nardy: the block is checked after every step, or at the end of the turn",
          "[nardy][rules][block]") {
  // 5-5: 16/11 11/6 24/19 19/14 passes through 11..6 (six points, nothing of
  // Black ahead) and ends with 10..6 only. Every ordering of these four
  // steps moves 16/11 while 10..6 are held, so block=every-step forbids it;
  // block=end-of-turn checks only the final position, which is legal.
  Position p = nardy_diagram(R"(
       .   .   .  1W   .   . |   .   .   .   .   .  4W
     15B   .  2W  2W  2W  2W |  2W   .   .   .   .   .
  )",
                             Color::kWhite);
  CHECK_FALSE(reaches(p, "55", "16/11 11/6 24/19 19/14"));
  CHECK(reaches(p, "55", "16/11 11/6 24/19 19/14", kEndOfTurn));
  // A final position holding 11..6 is illegal under both.
  CHECK_FALSE(reaches(p, "55", "16/11 24/19 19/14 14/9"));
  CHECK_FALSE(reaches(p, "55", "16/11 24/19 19/14 14/9", kEndOfTurn));
  // Both variants play all four fives.
  for (auto opt : {kEveryStep, kEndOfTurn})
    for (const auto& c : children_of(p, "55", opt)) CHECK(c.turn.size == 4);
}

TEST_CASE("nardy: bearing off", "[nardy][rules][bearoff]") {
  SECTION("a higher die bears off from the farthest point") {
    // 6-5 with three on 4 and two on 2: no checker on 6 or 5, and none
    // farther than 4, so both dice bear off from 4.
    Position p = nardy_diagram(R"(
       .   .   .   .   .   . |   .   .   .   .   .   .
     15B   .   .   .   .   . |   .   .  3W   .  2W   .
    )",
                               Color::kWhite);
    CHECK(turn_texts(p, "65") == Strings{"4/off 4/off"});
  }
  SECTION("a higher die does not bear off while a checker stands farther") {
    // 4-1 with two on 5 and one on 3: the 4 cannot bear off from 3 (5 is
    // farther); it moves 5/1, or bears off exactly from 4 after 5/4.
    Position p = nardy_diagram(R"(
       .   .   .   .   .   . |   .   .   .   .   .   .
     15B   .   .   .   .   . |   .  2W   .  1W   .   .
    )",
                               Color::kWhite);
    CHECK_FALSE(reaches(p, "41", "3/off 5/4"));
    CHECK(reaches(p, "41", "5/4 4/off"));
    CHECK(reaches(p, "41", "5/1 5/4"));
  }
  SECTION("Black bears off from 13..18 (distance p-12)") {
    // 3-1 with Black on 13 (distance 1) and 15 (distance 3): both off
    // exactly, or 15/14 and the 3 bears off 14 (now the farthest), leaving 13.
    // The 3 cannot bear off 13 while 15 is farther.
    Position p = Position::parse("B:0,0,0,0,0,0,0,0,0,0,0,0,-1,0,-1,0,0,0,0,0,0,0,0,15");
    CHECK(turn_texts(p, "31") == Strings{"13/off 15/off", "15/14 14/off"});
    CHECK_FALSE(reaches(p, "31", "13/off 15/14"));
  }
}

TEST_CASE("nardy: the winning step ends the turn, oin and mars", "[nardy][rules][end]") {
  // White's last checker on 2, 1-1: 2/1 1/off wins with two of the four ones.
  Position p = nardy_diagram(R"(
       .   .   .   .   .   . |   .   .   .   .   .   .
     15B   .   .   .   .   . |   .   .   .   .  1W   .
  )",
                             Color::kWhite);
  Child c = only_child(p, "11");
  CHECK(c.turn.text() == "2/1 1/off");
  CHECK(c.position.to_string() == "B:0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,0");
  // Black has borne off none: mars, 2 points.
  Result r = result(c.position, kEveryStep);
  CHECK(r.kind == Result::Kind::kWhiteWins);
  CHECK(r.points == 2);
  CHECK(r.value(Color::kWhite) == 2);
  CHECK(r.value(Color::kBlack) == -2);
  CHECK(r.outcome() == Outcome::win(Color::kWhite));
  CHECK(children_of(c.position, "65").empty());  // a finished game has no turns
  // One Black checker borne off: oin, 1 point.
  Position q = c.position;
  q.set(12, -14);
  CHECK(result(q, kEveryStep).points == 1);
  // Black finishing first wins at once, also under end=last-roll.
  Position b = Position::parse("W:0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,3");
  CHECK(result(b, kLastRoll).kind == Result::Kind::kBlackWins);
  CHECK(result(b, kLastRoll).points == 1);
}

TEST_CASE("nardy: end=last-roll gives Black one more turn and can draw", "[nardy][rules][end]") {
  // White has borne off all 15; Black to move with one checker on 13.
  Position p = Position::parse("B:0,0,0,0,0,0,0,0,0,0,0,0,-1,0,0,0,0,0,0,0,0,0,0,0");
  CHECK(result(p, kEveryStep).kind == Result::Kind::kWhiteWins);
  CHECK(result(p, kEveryStep).points == 1);  // Black has borne off 14
  CHECK(children_of(p, "21").empty());
  CHECK(result(p, kLastRoll).kind == Result::Kind::kOngoing);
  Child c = only_child(p, "21", kLastRoll);
  CHECK(c.turn.text() == "13/off");
  Result r = result(c.position, kLastRoll);
  CHECK(r.kind == Result::Kind::kDraw);
  CHECK(r.points == 0);
  CHECK(r.value(Color::kWhite) == 0);
  CHECK(r.outcome().kind == Outcome::Kind::kDraw);
  // Black cannot finish: White wins after Black's last turn.
  Position q = Position::parse("B:0,0,0,0,0,0,0,0,0,0,0,0,-1,0,0,0,0,-1,0,0,0,0,0,0");
  for (const auto& d : children_of(q, "21", kLastRoll)) {
    CHECK(result(d.position, kLastRoll).kind == Result::Kind::kWhiteWins);
    CHECK(result(d.position, kLastRoll).points == 1);
  }
  CHECK(check_playable(c.position, kLastRoll).empty());
  CHECK_FALSE(check_playable(c.position, kEveryStep).empty());
}

TEST_CASE("nardy: the mirror maps Black's rules onto White's", "[nardy][rules][mirror]") {
  Position s = Position::start();
  CHECK(s.mirrored() == s.with_to_move(Color::kBlack));
  CHECK(s.mirrored().mirrored() == s);
  for (int p = 1; p <= 24; ++p) {
    CHECK(route_of(Color::kWhite, p) == route_of(Color::kBlack, (p + 11) % 24 + 1));
    CHECK(point_of(Color::kWhite, route_of(Color::kWhite, p)) == p);
    CHECK(point_of(Color::kBlack, route_of(Color::kBlack, p)) == p);
  }
  CHECK(route_of(Color::kBlack, 12) == 0);
  CHECK(route_of(Color::kBlack, 1) == 11);
  CHECK(route_of(Color::kBlack, 24) == 12);
  CHECK(route_of(Color::kBlack, 13) == 23);
}
