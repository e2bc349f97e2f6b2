// `loom` for Long Nardy: moves, perft, show, score, rules and play, per
// CONVENTIONS.md, driven in process; expected lines come from the naive
// reference where they are lists of turns.
#include <catch2/catch.hpp>

#include <sstream>

#include "tests/common/cli_run.h"
#include "tests/nardy/naive_nardy.h"

using namespace loom;
using loom::testing::lines;
using loom::testing::run;
using loom::testing::Run;

namespace {

const char* kStart = "W:0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15";

}  // namespace

TEST_CASE("loom moves nardy prints one sorted line per resulting position", "[nardy][cli]") {
  auto r = run({"moves", "nardy", "--dice", "65"});
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());
  CHECK(lines(r.out) == std::vector<std::string>{
                            "B:0,0,0,0,0,0,0,0,0,0,0,-15,1,0,0,0,0,0,0,0,0,0,0,14 24/18 18/13"});
  // The dice in either order; the same start given explicitly.
  CHECK(run({"moves", "nardy", "--dice", "56", "--position", kStart}).out == r.out);
  // A middle-game position, all 21 rolls, against the naive reference.
  const std::string pos = "B:0,0,0,1,0,0,0,-2,0,0,0,-13,0,0,0,0,0,0,0,0,0,0,0,14";
  naive_nardy::Generator n({});
  for (int a = 1; a <= 6; ++a)
    for (int b = 1; b <= a; ++b) {
      std::string dice = std::to_string(a) + std::to_string(b);
      INFO(dice);
      auto m = run({"moves", "nardy", "--position", pos, "--dice", dice});
      REQUIRE(m.code == 0);
      auto got = lines(m.out);
      CHECK(got == n.lines(naive_nardy::parse(pos), a, b));
      CHECK(std::is_sorted(got.begin(), got.end()));
    }
}

TEST_CASE("a forfeited turn prints the position with the other side to move and an empty turn",
          "[nardy][cli]") {
  const std::string pos = "W:0,0,0,0,-3,0,0,0,0,1,0,0,0,0,0,0,0,-2,-2,-2,-2,-2,-2,14";
  auto r = run({"moves", "nardy", "--position", pos, "--dice", "55"});
  REQUIRE(r.code == 0);
  CHECK(r.out == "B" + pos.substr(1) + " \n");
}

TEST_CASE("a finished nardy game has no moves and perft 0 beyond depth 0", "[nardy][cli]") {
  const std::string won = "B:0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,0";
  auto r = run({"moves", "nardy", "--position", won, "--dice", "65"});
  CHECK(r.code == 0);
  CHECK(r.out.empty());
  CHECK(run({"perft", "nardy", "--position", won, "--depth", "0"}).out == "1\n");
  CHECK(run({"perft", "nardy", "--position", won, "--depth", "2"}).out == "0\n");
  CHECK(run({"score", "nardy", "--position", won}).out.find("white wins 2 points (mars)") !=
        std::string::npos);
  CHECK(run({"show", "nardy", "--position", won}).out.find("game over") != std::string::npos);
  // end=last-roll: Black still plays one turn.
  auto l = run({"moves", "nardy", "--position", won, "--dice", "65", "--rule", "end=last-roll"});
  CHECK(l.code == 0);
  CHECK(lines(l.out).size() >= 1);
}

TEST_CASE("loom perft nardy", "[nardy][cli]") {
  // tests/data/nardy_perft.txt (naive reference).
  CHECK(lines(run({"perft", "nardy", "--depth", "1"}).out).back() == "22");
  CHECK(lines(run({"perft", "nardy", "--depth", "2"}).out).back() == "484");
  CHECK(run({"perft", "nardy", "--depth", "0"}).out == "1\n");
  auto d = run({"perft", "nardy", "--depth", "2", "--divide"});
  REQUIRE(d.code == 0);
  auto ls = lines(d.out);
  REQUIRE(ls.size() == 22);      // 21 rolls + total
  CHECK(ls.front() == "11 22");  // 1-1: one position, then 22 at depth 1
  CHECK(ls.back() == "484");
  auto p =
      run({"perft", "nardy", "--position", kStart, "--depth", "2", "--rule", "block=end-of-turn"});
  CHECK(p.code == 0);
}

TEST_CASE("loom show nardy draws the board", "[nardy][cli]") {
  auto r = run({"show", "nardy"});
  REQUIRE(r.code == 0);
  auto ls = lines(r.out);
  REQUIRE(ls.size() == 7);
  CHECK(ls[0] == "  13  14  15  16  17  18 |  19  20  21  22  23  24");
  CHECK(ls[1] == "   .   .   .   .   .   . |   .   .   .   .   . 15W");
  CHECK(ls[2] == " 15B   .   .   .   .   . |   .   .   .   .   .   .");
  CHECK(ls[3] == "  12  11  10   9   8   7 |   6   5   4   3   2   1");
  CHECK(ls[6] == "white to move (first turn)");
  CHECK(run({"rules", "nardy"}).out.find("--rule block=every-step (default)|end-of-turn") !=
        std::string::npos);
}

TEST_CASE("loom play nardy plays a whole game that the naive reference accepts", "[nardy][cli]") {
  auto a = run({"play", "nardy", "--seed", "5"});
  REQUIRE(a.code == 0);
  CHECK(run({"play", "nardy", "--seed", "5"}).out == a.out);  // deterministic
  CHECK(run({"play", "nardy", "--seed", "6"}).out != a.out);
  auto ls = lines(a.out);
  REQUIRE(ls.size() > 10);
  CHECK(ls[1] == std::string("start: ") + kStart);
  CHECK(ls[ls.size() - 2].rfind("result: ", 0) == 0);
  // Replay: every turn is one of the naive reference's turns for its roll.
  naive_nardy::Generator n({});
  naive_nardy::Pos p = naive_nardy::start();
  int turns = 0;
  for (size_t i = 2; i + 2 < ls.size(); ++i) {
    // "12. black 42: 2/22 4/2"
    const std::string& l = ls[i];
    auto colon = l.find(':');
    REQUIRE(colon != std::string::npos);
    std::string dice = l.substr(colon - 2, 2);
    std::string turn = l.substr(colon + 2);
    if (turn == "(no legal step)") turn = "";
    INFO(l);
    auto options = n.turns(p, dice[0] - '0', dice[1] - '0');
    // The printed turn reaches one of the naive positions.
    naive_nardy::Pos q = p;
    int sign = p.turn == 'W' ? 1 : -1;
    std::istringstream steps(turn);
    std::string st;
    while (steps >> st) {
      auto slash = st.find('/');
      q.pt[std::stoi(st.substr(0, slash))] -= sign;
      if (st.substr(slash + 1) != "off") q.pt[std::stoi(st.substr(slash + 1))] += sign;
    }
    q.turn = naive_nardy::opponent(p.turn);
    bool found = false;
    for (auto& [pos, t] : options) found |= pos == q && t == turn;
    CHECK(found);
    p = q;
    ++turns;
  }
  CHECK(naive_nardy::value(p, {}).kind != "ongoing");
  CHECK(ls.back() == "final: " + naive_nardy::to_string(p));
  CHECK(a.out.find("after " + std::to_string(turns) + " turns") != std::string::npos);
  auto capped = run({"play", "nardy", "--seed", "5", "--max-turns", "3"});
  CHECK(capped.code == 0);
  CHECK(capped.out.find("stopped after 3 turns") != std::string::npos);
}

TEST_CASE("bad nardy input exits 2 with one line naming the problem", "[nardy][cli]") {
  testing::check_bad_inputs({
      {{"moves", "nardy"}, "--dice"},
      {{"moves", "nardy", "--dice", "70"}, "dice '70'"},
      {{"moves", "nardy", "--dice", "6"}, "dice '6'"},
      {{"moves", "nardy", "--dice", "655"}, "dice"},
      {{"moves", "nardy", "--dice", "65", "--position", "W:0,0"}, "position"},
      {{"moves", "nardy", "--dice", "65", "--position", "X"}, "position"},
      {{"moves", "nardy", "--dice", "65", "--position",
        "W:0,0,0,0,0,0,0,0,0,0,0,-16,0,0,0,0,0,0,0,0,0,0,0,15"},
       "position"},
      {{"moves", "nardy", "--dice", "65", "--position",
        "W:0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0"},
       "both sides"},
      {{"moves", "nardy", "--dice", "65", "--record", "24/18 18/13"}, "--record"},
      {{"moves", "nardy", "--dice", "65", "--size", "4"}, "--size"},
      {{"moves", "nardy", "--dice", "65", "--rule", "block=never"}, "block"},
      {{"moves", "nardy", "--dice", "65", "--rule", "cut=gap"}, "unknown rule"},
      {{"perft", "nardy", "--dice", "65", "--depth", "1"}, "--dice"},
      {{"perft", "nardy", "--depth", "-1"}, "depth"},
      {{"play", "nardy", "--max-turns", "-1"}, "max-turns"},
      {{"play", "nardy", "--seed", "x"}, "seed"},
  });
}
