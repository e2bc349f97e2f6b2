// `loom moves|perft|show|score|rules fiodar` (CONVENTIONS.md, docs/cli.md),
// driven in process; expected lists come from the naive reference.
#include <catch2/catch.hpp>

#include <sstream>

#include "tests/common/cli_run.h"
#include "tests/fiodar/naive_fiodar.h"

using namespace loom;
using loom::testing::lines;
using loom::testing::run;
using loom::testing::Run;

namespace {

std::vector<std::string> naive_tokens(const naive::Fiodar& ref, const naive::Fiodar::Pos& p) {
  std::vector<std::string> out;
  if (ref.over(p)) return out;
  out.push_back("pass");
  for (int x : ref.placements(p)) out.push_back(ref.name(x));
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("loom moves fiodar prints pass and the legal placements in byte order", "[fiodar][cli]") {
  naive::Fiodar ref(3, {});
  auto r = run({"moves", "fiodar", "--size", "3"});
  REQUIRE(r.code == 0);
  auto ls = lines(r.out);
  CHECK(ls.size() == 20);
  CHECK(ls == naive_tokens(ref, ref.start()));
  CHECK(std::is_sorted(ls.begin(), ls.end()));
  // After a few moves, including a capture (d3 takes c3 between b3 and d3).
  const std::string rec = "b3 c3 d3 pass c2 b2";
  auto p = ref.start();
  for (const char* t : {"b3", "c3", "d3", "pass", "c2", "b2"}) {
    if (std::string(t) == "pass") {
      p = ref.pass(p);
      continue;
    }
    auto q = ref.place(p, *ref.point(t));
    REQUIRE(q.has_value());
    p = *q;
  }
  CHECK(p.prisoners_b == 1);
  auto r2 = run({"moves", "fiodar", "--size", "3", "--record", rec});
  REQUIRE(r2.code == 0);
  CHECK(lines(r2.out) == naive_tokens(ref, p));
  // A finished game lists nothing, and any further token is an error.
  auto r3 = run({"moves", "fiodar", "--size", "3", "--record", "c3 pass pass"});
  CHECK(r3.code == 0);
  CHECK(r3.out.empty());
  auto r4 = run({"moves", "fiodar", "--size", "3", "--record", "c3 pass pass pass"});
  CHECK(r4.code == 2);
  CHECK(r4.err.find("move 4 'pass'") != std::string::npos);
  CHECK(r4.err.find("over") != std::string::npos);
}

TEST_CASE("loom moves fiodar with the pie setup continues with Black to move", "[fiodar][cli]") {
  naive::Fiodar ref(3, {});
  auto p = ref.start_with(*ref.point("b2"), *ref.point("c3"));
  auto r = run({"moves", "fiodar", "--size", "3", "--setup", "b2 c3"});
  REQUIRE(r.code == 0);
  auto ls = lines(r.out);
  CHECK(ls == naive_tokens(ref, p));
  CHECK(std::find(ls.begin(), ls.end(), "b2") == ls.end());
  CHECK(std::find(ls.begin(), ls.end(), "c3") == ls.end());
  auto s = run({"show", "fiodar", "--size", "3", "--setup", "b2 c3", "--record", "a1"});
  REQUIRE(s.code == 0);
  CHECK(s.out.find("X = black (2 stones), O = white (1 stones)") != std::string::npos);
  CHECK(s.out.find("white to move") != std::string::npos);
}

TEST_CASE("loom perft fiodar prints the leaf count", "[fiodar][cli]") {
  // tests/data/fiodar_perft.txt (naive reference): side 2, default rules.
  auto r = run({"perft", "fiodar", "--size", "2", "--depth", "5"});
  REQUIRE(r.code == 0);
  CHECK(lines(r.out).back() == "8310");
  auto d = run({"perft", "fiodar", "--size", "2", "--depth", "3", "--divide"});
  REQUIRE(d.code == 0);
  auto ls = lines(d.out);
  CHECK(ls.back() == "350");
  CHECK(ls.size() == 9);  // pass + 7 points, then the total
  CHECK(run({"perft", "fiodar", "--depth", "0"}).out == "1\n");
  CHECK(lines(run({"perft", "fiodar", "--depth", "1"}).out).back() == "128");  // side 7
  // A finished game: 1 at depth 0, 0 deeper.
  CHECK(run({"perft", "fiodar", "--record", "pass pass", "--depth", "0"}).out == "1\n");
  CHECK(run({"perft", "fiodar", "--record", "pass pass", "--depth", "2"}).out == "0\n");
}

TEST_CASE("loom score fiodar prints territory, prisoners and the half point", "[fiodar][cli]") {
  auto r = run({"score", "fiodar", "--size", "4", "--record", "pass d4 c3 pass pass"});
  REQUIRE(r.code == 0);
  CHECK(lines(r.out) ==
        std::vector<std::string>{"black: territory 0, prisoners 0, half point 0, total 0",
                                 "white: territory 0, prisoners 0, half point 0.5, total 0.5",
                                 "game over: white wins by 0.5"});
  auto v = run({"score", "fiodar", "--size", "4", "--rule", "half=first-pass-of-game", "--record",
                "pass d4 c3 pass pass"});
  REQUIRE(v.code == 0);
  CHECK(lines(v.out).back() == "game over: black wins by 0.5");
  // A capture (Black e4 takes c4-d4 between b4 and e4) and territory.
  auto c = run({"score", "fiodar", "--size", "4", "--record", "b4 c4 a1 d4 e4"});
  REQUIRE(c.code == 0);
  auto ls = lines(c.out);
  REQUIRE(ls.size() == 3);
  // White has no stone left: the one empty region touches black stones only.
  CHECK(ls[0] == "black: territory 34, prisoners 2, half point undecided, total 36");
  CHECK(ls[1] == "white: territory 0, prisoners 0, half point undecided, total 0");
  CHECK(ls[2].find("game not over: white to move") == 0);
  auto s = run({"show", "fiodar", "--size", "4", "--record", "b4 c4 a1 d4 e4"});
  CHECK(s.out.find("black: territory 34, prisoners 2") != std::string::npos);
  CHECK(s.out.find("white: territory 0, prisoners 0") != std::string::npos);
}

TEST_CASE("loom fiodar rejects bad input with one line and status 2", "[fiodar][cli]") {
  testing::check_bad_inputs({
      {{"moves", "fiodar", "--setup", "d4"}, "--setup"},
      {{"moves", "fiodar", "--setup", "d4 d4"}, "--setup"},
      {{"moves", "fiodar", "--setup", "d4 z9"}, "--setup"},
      {{"moves", "fiodar", "--setup", "d4 c3 e5"}, "--setup"},
      {{"moves", "fiodar", "--size", "2", "--setup", "d4 c3"}, "--setup"},
      {{"moves", "fiodar", "--setup", "d4 c3", "--record", "d4"}, "move 1 'd4'"},
      {{"moves", "fiodar", "--rule", "cut=maybe"}, "cut"},
      {{"moves", "fiodar", "--rule", "ko=simple"}, "unknown rule"},
      {{"moves", "fiodar", "--record", "d4 PASS"}, "move 2 'PASS'"},
      {{"moves", "fiodar", "--record", "d04"}, "move 1 'd04'"},
      {{"moves", "fiodar", "--size", "4", "--record", "c4 d4 e4 d4"}, "move 4 'd4'"},
      {{"moves", "fiodar", "--dice", "65"}, "dice"},
      {{"moves", "fiodar", "--position", "x"}, "--position"},
      {{"moves", "fiodar", "--edges", "/nonexistent"}, "--edges"},
  });
}

TEST_CASE("loom rules fiodar lists the variants with their defaults", "[fiodar][cli]") {
  auto r = run({"rules", "fiodar"});
  REQUIRE(r.code == 0);
  for (const char* s :
       {"--rule cut=adjacent (default)|gap", "--rule suicide=forbidden (default)|capture-first",
        "--rule half=final-pass (default)|first-pass-of-game", "size: 2..13 (default 7)"})
    CHECK(r.out.find(s) != std::string::npos);
}
