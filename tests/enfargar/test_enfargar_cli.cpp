// `loom moves | perft | show | rules enfargar` (CONVENTIONS.md), in process.
#include <catch2/catch.hpp>

#include <sstream>

#include "tests/common/cli_run.h"
#include "tests/enfargar/naive_enfargar.h"

using namespace loom;
using loom::testing::lines;
using loom::testing::run;
using loom::testing::Run;

TEST_CASE("loom moves enfargar prints the legal moves in byte order", "[enfargar][cli]") {
  auto r = run({"moves", "enfargar", "--size", "3", "--record", "c3 b2 d4"});
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());
  naive::Enfargar ref(3, false, false);
  auto p = ref.start();
  for (const char* t : {"c3", "b2", "d4"}) p = ref.play(p, ref.point(t));
  std::vector<std::string> expect;
  for (int c : ref.legal(p)) expect.push_back(ref.name(c));
  std::sort(expect.begin(), expect.end());
  CHECK(lines(r.out) == expect);
  // Default side 9: every point of the empty board.
  CHECK(lines(run({"moves", "enfargar"}).out).size() == 217);
}

TEST_CASE("loom moves enfargar lists pass only without a legal placement", "[enfargar][cli]") {
  CHECK(run({"moves", "enfargar", "--size", "2", "--record", "a1 b1 b2 a2 c3"}).out == "pass\n");
  auto after = run({"moves", "enfargar", "--size", "2", "--record", "a1 b1 b2 a2 c3 pass"});
  CHECK(lines(after.out) == std::vector<std::string>{"b3", "c2"});
  // After two passes in a row the game is over: nothing is printed.
  auto over = run({"moves", "enfargar", "--size", "2", "--record", "a1 b1 a2 b2 c2 b3 pass pass"});
  CHECK(over.code == 0);
  CHECK(over.out.empty());
}

TEST_CASE("loom perft enfargar", "[enfargar][cli]") {
  // tests/data/enfargar_perft.txt (naive reference).
  CHECK(lines(run({"perft", "enfargar", "--size", "3", "--depth", "4"}).out).back() == "93024");
  CHECK(lines(run({"perft", "enfargar", "--size", "2", "--depth", "9", "--rule", "edge=touch"}).out)
            .back() == "5040");
  CHECK(lines(run({"perft", "enfargar", "--size", "2", "--depth", "10"}).out).back() == "0");
  auto d = run({"perft", "enfargar", "--size", "3", "--depth", "2", "--divide"});
  REQUIRE(d.code == 0);
  CHECK(lines(d.out).size() == 20);
  CHECK(lines(d.out).back() == "342");
}

TEST_CASE("loom show enfargar: the board, lifelines, side to move or result", "[enfargar][cli]") {
  auto r = run({"show", "enfargar", "--size", "3", "--record", "c3 b2"});
  REQUIRE(r.code == 0);
  CHECK(lines(r.out).size() == 5 + 3);
  CHECK(r.out.find("every stone has a lifeline") != std::string::npos);
  CHECK(r.out.find("black to move, 17 legal placements") != std::string::npos);
  auto stall = run({"show", "enfargar", "--size", "2", "--record", "a1 b1 a2 b2 c2 b3 pass pass"});
  CHECK(stall.out.find("unresolved") != std::string::npos);
  auto more = run({"show", "enfargar", "--size", "2", "--rule", "stall=more-stones", "--record",
                   "a1 b1 a2 b2 c2 b3 pass pass"});
  CHECK(more.out.find("white wins on stones (1-5)") != std::string::npos);
  auto pass = run({"show", "enfargar", "--size", "2", "--record", "a1 b1 b2 a2 c3"});
  CHECK(pass.out.find("must pass") != std::string::npos);
  CHECK(run({"rules", "enfargar"}).out.find("edge=gap (default)|touch") != std::string::npos);
}

TEST_CASE("loom enfargar: bad input exits 2 naming the token", "[enfargar][cli]") {
  testing::check_bad_inputs({
      {{"moves", "enfargar", "--size", "3", "--record", "c3 pass"}, "move 2 'pass'"},
      {{"moves", "enfargar", "--size", "3", "--record", "c3 c3"}, "move 2 'c3'"},
      {{"moves", "enfargar", "--size", "3", "--record", "f1"}, "move 1 'f1'"},
      {{"moves", "enfargar", "--size", "2", "--record", "a1 b1 a2 b2 c2 b3 pass pass c3"},
       "move 9 'c3'"},
      {{"moves", "enfargar", "--size", "2", "--record", "a1 b1 a2 b2 c2 b3 pass pass pass"},
       "over"},
      {{"moves", "enfargar", "--rule", "edge=never"}, "edge"},
      {{"moves", "enfargar", "--rule", "stall=draw"}, "stall"},
      {{"moves", "enfargar", "--size", "1"}, "size"},
      {{"moves", "enfargar", "--size", "14"}, "size"},
      {{"moves", "enfargar", "--setup", "d4 c3"}, "--setup"},
  });
}
