// The rule option checkers=K (CONVENTIONS.md "Long Nardy exact values"):
// every rule of RULES.md section 6 that says 15 reads K. One case per rule,
// each with a small K and the same board under the default K = 15 where the
// two readings differ. Diagrams as drawn by `loom show nardy`.
#include <catch2/catch.hpp>

#include <algorithm>

#include "model/common/errors.h"
#include "model/common/rules.h"
#include "tests/nardy/nardy_fixture.h"

using namespace loom;
using namespace loom::nardy;
using testing::nardy_diagram;
using testing::reaches;
using testing::turn_texts;
using Strings = std::vector<std::string>;

namespace {
Options with_k(int k) {
  Options o;
  o.checkers = k;
  return o;
}
}  // namespace

TEST_CASE("checkers=K: the option, its default and its range", "[nardy][checkers]") {
  RuleSet rs(Options::specs());
  CHECK(Options::from(rs).checkers == 15);
  CHECK(Options::from(rs).to_string() == "block=every-step end=first-off checkers=15");
  rs.set("checkers=3");
  CHECK(Options::from(rs).checkers == 3);
  for (const char* bad : {"checkers=0", "checkers=16", "checkers=x", "checkers=03"})
    CHECK_THROWS_AS(rs.set(bad), InputError);
}

TEST_CASE("checkers=K: the start has K on each head and is a first turn", "[nardy][checkers]") {
  Position s = Position::start(3);
  CHECK(s.to_string() == "W:0,0,0,0,0,0,0,0,0,0,0,-3,0,0,0,0,0,0,0,0,0,0,0,3");
  CHECK(s.first_turn(3));
  CHECK_FALSE(s.first_turn());  // under K = 15, 3 on the head is not all of them
  CHECK(s.borne_off(Color::kWhite, 3) == 0);
  CHECK(s.pips(Color::kWhite) == 72);  // 3 x 24
}

TEST_CASE("checkers=K: position totals are validated against K", "[nardy][checkers]") {
  // 4 White checkers: playable under K = 15 and K = 4, not under K = 3.
  Position p = Position::parse("W:0,0,0,0,0,0,0,0,0,0,0,-3,0,0,0,0,0,0,0,0,0,0,0,4");
  CHECK(check_playable(p, {}) == "");
  CHECK(check_playable(p, with_k(4)) == "");
  CHECK(check_playable(p, with_k(3)) != "");
  Position q = Position::parse("B:0,0,0,0,0,0,0,0,0,0,0,-2,0,0,0,0,0,0,0,0,0,0,0,1");
  CHECK(check_playable(q, with_k(1)) != "");  // Black's 2 > K = 1
  CHECK(check_playable(q, with_k(2)) == "");
}

TEST_CASE("checkers=K: the first-turn head exception needs all K on the head",
          "[nardy][checkers]") {
  // White 3 on its head (24), Black 3 on its head (12). With 6-6 a head
  // checker goes 24/18 and cannot go on to 12 (Black's). Under K = 3 this
  // is White's first turn, so two may leave the head: 24/18 24/18. Under
  // K = 15 it is not (12 are borne off), so one: 24/18, and the other sixes
  // are lost.
  Position p = nardy_diagram(R"(
      13  14  15  16  17  18 |  19  20  21  22  23  24
       .   .   .   .   .   . |   .   .   .   .   .  3W
      3B   .   .   .   .   . |   .   .   .   .   .   .
      12  11  10   9   8   7 |   6   5   4   3   2   1
  )",
                             Color::kWhite);
  CHECK(turn_texts(p, "66", with_k(3)) == Strings{"24/18 24/18"});
  CHECK(turn_texts(p, "66") == Strings{"24/18"});
}

TEST_CASE("checkers=K: the 6-block counts K to decide whether Black bore off",
          "[nardy][checkers]") {
  // White holds 10, 9, 8, 7, 6 and has checkers on 13 and 20; Black's 7 are
  // on its head (12). 13/11 makes the run 11..6 (Black's route 1..6) with no
  // Black checker further along. Under K = 7 Black has borne off none, so
  // the run is illegal; under K = 15 Black has borne off 8 and it is legal.
  Position p = nardy_diagram(R"(
      13  14  15  16  17  18 |  19  20  21  22  23  24
      1W   .   .   .   .   . |   .  1W   .   .   .   .
      7B   .  1W  1W  1W  1W |  1W   .   .   .   .   .
      12  11  10   9   8   7 |   6   5   4   3   2   1
  )",
                             Color::kWhite);
  CHECK(reaches(p, "21", "13/11 20/19"));
  CHECK_FALSE(reaches(p, "21", "13/11 20/19", with_k(7)));
  CHECK(reaches(p, "21", "20/18 18/17", with_k(7)));  // other turns stay legal
}

TEST_CASE("checkers=K: bearing off, the end and mars read K", "[nardy][checkers]") {
  // White's 2 checkers are home on 3 and 1; Black's 2 are on 12 (none off).
  Position p = nardy_diagram(R"(
      13  14  15  16  17  18 |  19  20  21  22  23  24
       .   .   .   .   .   . |   .   .   .   .   .   .
      2B   .   .   .   .   . |   .   .   .  1W   .  1W
      12  11  10   9   8   7 |   6   5   4   3   2   1
  )",
                             Color::kWhite);
  // 3-1 can bear both off (3/off 1/off; 3/2 2/off also plays both dice and
  // leaves the one on 1): the game ends. Under K = 2 Black has borne off
  // none: mars, 2 points; under K = 15 Black has borne off 13: oin.
  auto kids = testing::children_of(p, "31", with_k(2));
  REQUIRE(kids.size() == 2);
  auto won = std::find_if(kids.begin(), kids.end(),
                          [](const Child& c) { return c.position.on_board(Color::kWhite) == 0; });
  REQUIRE(won != kids.end());
  CHECK(won->turn.text() == "1/off 3/off");
  CHECK(result(won->position, with_k(2)) == Result{Result::Kind::kWhiteWins, 2});
  CHECK(result(won->position, {}) == Result{Result::Kind::kWhiteWins, 1});
  // Black with one of its 2 borne off: oin also under K = 2.
  Position q = won->position;
  q.set(12, -1);
  CHECK(result(q, with_k(2)) == Result{Result::Kind::kWhiteWins, 1});
}
