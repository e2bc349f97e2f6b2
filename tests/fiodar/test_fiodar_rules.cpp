// Fiodar rules, one diagram per rule (RULES.md section 2 and the Fiodar
// clarifications of section 7). Diagrams: top row first; X black, O white,
// . empty. Side 4 rows, top to bottom: d7-g7, c6-g6, b5-g5, a4-g4, a3-f3,
// a2-e2, a1-d1. Lines: rows (E-W), c3-d4-e5 (NE-SW), d3-d4-d5 (NW-SE).
#include <catch2/catch.hpp>

#include "tests/fiodar/fiodar_fixture.h"

using namespace loom;
using Board = testing::FiodarBoard<1>;
using fiodar::Options;

namespace {

const Options kGap{.cut_gap = true};
const Options kCaptureFirst{.capture_first = true};
const Options kFirstPassOfGame{.half_first_of_game = true};

}  // namespace

TEST_CASE("fiodar: a thread is cut only by enemy stones directly beyond both ends",
          "[fiodar][rules]") {
  Board b(4);
  SECTION("both ends: the thread c4-d4 is cut and its weave removed") {
    auto s = b.from_diagram(R"(
         . . . .
        . . . . .
       . . . . . .
      . X O O . . .
       . . . . . .
        . . . . .
         . . . .
    )",
                            Color::kBlack);
    CHECK(s.cut_stones(Color::kWhite).none());  // one end only: not cut
    auto p = s.analyse(b.site("e4"));
    CHECK(p.legal);
    CHECK(p.removed == b.sites({"c4", "d4"}));
    auto t = b.after(s, "e4");
    CHECK(t.stones(Color::kWhite).none());
    CHECK(t.prisoners(Color::kBlack) == 2);
    CHECK(t.prisoners(Color::kWhite) == 0);
  }
  SECTION("an empty point between thread and stone: not cut; cut under cut=gap") {
    const char* d = R"(
         . . . .
        . . . . .
       . . . . . .
      . X O O . X .
       . . . . . .
        . . . . .
         . . . .
    )";
    auto s = b.from_diagram(d, Color::kBlack);
    CHECK(s.cut_stones(Color::kWhite).none());
    Board g(4, kGap);
    auto t = g.from_diagram(d, Color::kBlack);
    CHECK(t.cut_stones(Color::kWhite) == g.sites({"c4", "d4"}));
    CHECK(t.cut_weaves(Color::kWhite) == g.sites({"c4", "d4"}));
  }
  SECTION("cut=gap: a friendly stone met first protects the thread") {
    Board g(4, kGap);
    auto t = g.from_diagram(R"(
         . . . .
        . . . . .
       . . . . . .
      X . O . O . X
       . . . . . .
        . . . . .
         . . . .
    )",
                            Color::kBlack);
    // c4 looks east over d4 and meets its friend e4; e4 looks west and meets c4.
    CHECK(t.cut_stones(Color::kWhite).none());
    // A black d4 is met first instead: c4 (a4 ... d4) and e4 (d4 ... g4) are cut.
    auto p = t.analyse(g.site("d4"));
    CHECK(p.removed == g.sites({"c4", "e4"}));
  }
  SECTION("the thread must be maximal: a longer run is judged at its own ends") {
    auto s = b.from_diagram(R"(
         . . . .
        . . . . .
       . . . . . .
      . X O O O . .
       . . . . . .
        . . . . .
         . . . .
    )",
                            Color::kBlack);
    // The run c4-d4-e4 is one thread, cut by b4 and f4.
    CHECK(s.analyse(b.site("f4")).removed == b.sites({"c4", "d4", "e4"}));
  }
}

TEST_CASE("fiodar: the board edge never cuts", "[fiodar][rules]") {
  const char* d = R"(
       . . . .
      . . . . .
     . . . . . .
    O O . X . . .
     . . . . . .
      . . . . .
       O . . .
  )";
  for (Options o : {Options{}, kGap}) {
    Board b(4, o);
    auto s = b.from_diagram(d, Color::kBlack);
    // a4-b4 runs into the west edge: neither c4 nor any gap cutter cuts it.
    CHECK(s.analyse(b.site("c4")).removed.none());
    // The corner a1 has the edge beyond one end of each of its three threads.
    auto t = b.from_diagram(d, Color::kBlack);
    for (const char* n : {"b1", "b2", "a2"}) t.put(b.site(n), Color::kBlack);
    CHECK_FALSE(t.cut_stones(Color::kWhite).test(b.site("a1")));
  }
}

TEST_CASE("fiodar: a lone stone is cut on any of its three lines", "[fiodar][rules]") {
  Board b(4);
  struct Line {
    const char* one;
    const char* other;
  };
  // E-W (c4, e4), NE-SW (c3, e5), NW-SE (d3, d5).
  for (Line l : {Line{"c4", "e4"}, Line{"c3", "e5"}, Line{"d3", "d5"}}) {
    INFO(l.one << " " << l.other);
    auto s = b.start();
    s.put(b.site("d4"), Color::kWhite);
    s.put(b.site(l.one), Color::kBlack);
    CHECK(s.cut_stones(Color::kWhite).none());
    auto p = s.analyse(b.site(l.other));
    CHECK(p.legal);
    CHECK(p.removed == b.sites({"d4"}));
  }
  // Two black stones on different lines do not cut.
  auto s = b.start();
  s.put(b.site("d4"), Color::kWhite);
  s.put(b.site("c4"), Color::kBlack);
  CHECK(s.analyse(b.site("e5")).removed.none());
}

TEST_CASE("fiodar: an L-shaped weave survives while one stone is on no cut thread",
          "[fiodar][rules]") {
  Board b(4);
  // White weave c4-d4 (a row thread) plus d5 above d4.
  auto s = b.from_diagram(R"(
       . . . .
      . . . . .
     . X O . . .
    . X O O . . .
     . . . . . .
      . . . . .
       . . . .
  )",
                          Color::kBlack);
  REQUIRE(b.legal(s, "e4"));
  auto t = b.after(s, "e4");
  // The row thread c4-d4 is cut by b4 and e4, but d5 lies on no cut thread
  // (row: c5 black, e5 empty; c4-d5 ends at b3/e6; d4-d5 ends at d3/d6).
  CHECK(t.stones(Color::kWhite) == b.sites({"c4", "d4", "d5"}));
  CHECK(t.cut_stones(Color::kWhite) == b.sites({"c4", "d4"}));
  CHECK(t.cut_weaves(Color::kWhite).none());
  t = b.after(t, "pass");
  // e5 cuts d5's row thread (c5 and e5): every stone is now on a cut thread.
  REQUIRE(b.legal(t, "e5"));
  auto p = t.analyse(b.site("e5"));
  CHECK(p.removed == b.sites({"c4", "d4", "d5"}));
  t = b.after(t, "e5");
  CHECK(t.stones(Color::kWhite).none());
  CHECK(t.prisoners(Color::kBlack) == 3);
}

TEST_CASE("fiodar: all cut enemy weaves are removed together", "[fiodar][rules]") {
  SECTION("one placement cuts two weaves") {
    Board b(4);
    auto s = b.from_diagram(R"(
         . . . .
        . . . . .
       . . . . . .
      . X O . O X .
       . . . . . .
        . . . . .
         . . . .
    )",
                            Color::kBlack);
    auto t = b.after(s, "d4");
    CHECK(t.stones(Color::kWhite).none());
    CHECK(t.prisoners(Color::kBlack) == 2);
  }
  SECTION("cut=gap: a weave uncovered by a removal is judged before it, and stays") {
    Board g(4, kGap);
    // b4 (cut on c5-b4-a3 once c5 is placed) shields d4 from a4: d4 looks
    // west over c4 and meets its friend b4.
    auto s = g.from_diagram(R"(
         . . . .
        . . . . .
       . . . . . .
      X O . O . X .
       X . . . . .
        . . . . .
         . . . .
    )",
                            Color::kBlack);
    auto p = s.analyse(g.site("c5"));
    CHECK(p.legal);
    CHECK(p.removed == g.sites({"b4"}));
    auto t = g.after(s, "c5");
    CHECK(t.stones(Color::kWhite) == g.sites({"d4"}));
    // d4 is now cut (a4 ... f4 over empty points) but was not removed.
    CHECK(t.cut_weaves(Color::kWhite) == g.sites({"d4"}));
    // White must not leave it cut: e4 keeps the thread d4-e4 between a4 and
    // f4 over gaps, so it stays cut; b4 is itself cut on a3-c5; a pass is fine.
    CHECK_FALSE(g.legal(t, "e4"));
    CHECK_FALSE(g.legal(t, "b4"));
    CHECK(g.legal(t, "pass"));
    // c4 would make c4-d4, still between a4 and f4 over gaps: cut.
    CHECK_FALSE(g.legal(t, "c4"));
    // d3 joins d4 into a weave whose d3 stone is on no cut thread.
    CHECK(g.legal(t, "d3"));
  }
}

TEST_CASE("fiodar: suicide is rejected, and allowed under suicide=capture-first",
          "[fiodar][rules]") {
  SECTION("a lone stone between two enemy stones") {
    Board b(4);
    auto s = b.from_diagram(R"(
         . . . .
        . . . . .
       . . . . . .
      . . O . O . .
       . . . . . .
        . . . . .
         . . . .
    )",
                            Color::kBlack);
    auto p = s.analyse(b.site("d4"));
    CHECK(p.suicide);
    CHECK(p.removed.none());
    CHECK_FALSE(b.legal(s, "d4"));
    Board cf(4, kCaptureFirst);
    // Without a capture, capture-first forbids it as well.
    CHECK_FALSE(cf.legal(cf.from_diagram(R"(
         . . . .
        . . . . .
       . . . . . .
      . . O . O . .
       . . . . . .
        . . . . .
         . . . .
    )",
                                         Color::kBlack),
                         "d4"));
  }
  // Black d4 removes the white d5 (between d4 and d6 on the line d3-d6) but
  // makes the black c4-d4 a thread between the white b4 and e4.
  SECTION("default: a capture does not excuse a friendly cut weave") {
    Board b(4);
    auto s = b.from_diagram(R"(
         . . . .
        . X . . .
       . . O . . .
      . O X . O . .
       . . . . . .
        . . . . .
         . . . .
    )",
                            Color::kBlack);
    // d4: removes the white d5 (between d4 and d6 on d3-d4-d5-d6), but the
    // black c4-d4 lies between the white b4 and e4.
    auto p = s.analyse(b.site("d4"));
    CHECK(p.removed == b.sites({"d5"}));
    CHECK(p.friendly_cut == b.sites({"c4", "d4"}));
    CHECK(p.suicide);
    CHECK_FALSE(b.legal(s, "d4"));
  }
  SECTION("capture-first: legal; the cut weave stays and any white placement removes it") {
    Board b(4, kCaptureFirst);
    auto s = b.from_diagram(R"(
         . . . .
        . X . . .
       . . O . . .
      . O X . O . .
       . . . . . .
        . . . . .
         . . . .
    )",
                            Color::kBlack);
    REQUIRE(b.legal(s, "d4"));
    auto t = b.after(s, "d4");
    CHECK(t.stones(Color::kBlack) == b.sites({"c4", "d4", "d6"}));
    CHECK(t.prisoners(Color::kBlack) == 1);
    CHECK(t.cut_weaves(Color::kBlack) == b.sites({"c4", "d4"}));
    // White's next placement anywhere removes it, e.g. far away on a1.
    auto u = b.after(t, "a1");
    CHECK(u.stones(Color::kBlack) == b.sites({"d6"}));
    CHECK(u.prisoners(Color::kWhite) == 2);
    // If White passes instead, Black may only place where the cut weave is
    // no longer cut or something is removed: f4 removes e4 (between d4, f4).
    auto v = b.after(t, "pass");
    CHECK_FALSE(b.legal(v, "a1"));
    CHECK_FALSE(b.legal(v, "g7"));
    CHECK(b.legal(v, "f4"));
    auto w = b.after(v, "f4");
    CHECK(w.cut_weaves(Color::kBlack).none());
  }
}

TEST_CASE("fiodar: superko forbids repeating one's own end-of-turn board", "[fiodar][rules]") {
  Board b(4);
  // The ko: b4 O, c4 empty, d4 O, e4 X. Black c4 takes d4; White d4 takes c4.
  const char* d = R"(
       . . . .
      . . . . .
     . . . . . .
    . O . O X . .
     . . . . . .
      . . . . .
       . . . .
  )";
  SECTION("retaking at once repeats Black's board after its first c4") {
    auto s = b.from_diagram(d, Color::kBlack);
    auto t = b.play(s, "c4 d4");
    CHECK(t.board() == s.board());  // White's d4 restored the start board
    auto p = t.analyse(b.site("c4"));
    CHECK(p.removed == b.sites({"d4"}));  // it would capture and is no suicide...
    CHECK_FALSE(p.suicide);
    CHECK(p.superko);  // ...but the result is Black's board after move 1
    CHECK_FALSE(b.legal(t, "c4"));
    // The start board belongs to no history: White's d4, recreating it, was legal.
    // Elsewhere the same placement is fine once the board differs.
    auto u = b.play(t, "a1 a2");
    CHECK(b.legal(u, "c4"));
  }
  SECTION("a pass puts its board in the passer's history") {
    // White to move first: d4 is empty, c4 black.
    auto s = b.from_diagram(R"(
         . . . .
        . . . . .
       . . . . . .
      . O X . X . .
       . . . . . .
        . . . . .
         . . . .
    )",
                            Color::kWhite);
    auto t = b.play(s, "d4");  // takes c4
    CHECK(t.stones(Color::kBlack) == b.sites({"e4"}));
    CHECK(b.legal(t, "c4"));  // retake: the start board is in no history
    // Same shape, but Black passes first: then the retake repeats Black's pass board.
    auto v = b.from_diagram(R"(
         . . . .
        . . . . .
       . . . . . .
      . O X . X . .
       . . . . . .
        . . . . .
         . . . .
    )",
                            Color::kBlack);
    v = b.play(v, "pass d4");
    CHECK(v.history(Color::kBlack).size() == 1);
    CHECK_FALSE(b.legal(v, "c4"));
    CHECK(v.analyse(b.site("c4")).superko);
  }
}

TEST_CASE("fiodar: territory touching no stone belongs to nobody", "[fiodar][rules]") {
  Board b(4);
  auto s = b.play("pass pass");
  REQUIRE(s.is_terminal());
  auto sc = s.scores();
  CHECK(sc[0].territory == 0);
  CHECK(sc[1].territory == 0);
  // Black made the first of the two final passes: the half point decides.
  CHECK(sc[0].half);
  CHECK(s.outcome().margin2 == 1);
  CHECK(s.outcome().kind == Outcome::Kind::kBlackWins);
  // a1-b1-a2-b2 is walled by black stones only; the rest touches both colours.
  auto t = b.from_diagram(R"(
       . . . .
      . . . . .
     . . . . . .
    . . . . . . .
     X X X . . O
      . . X . .
       . . X .
  )",
                          Color::kBlack);
  CHECK(t.territory(Color::kBlack) == 4);  // a1 b1 a2 b2
  CHECK(t.territory(Color::kWhite) == 0);  // the rest touches both colours
  t.put(b.site("e7"), Color::kWhite);
  t.put(b.site("e6"), Color::kWhite);
  t.put(b.site("f6"), Color::kWhite);
  t.put(b.site("g6"), Color::kWhite);
  CHECK(t.territory(Color::kWhite) == 2);  // f7 g7
}

TEST_CASE("fiodar: the half point under both variants", "[fiodar][rules]") {
  // Black passes first in the game; the two final passes are White then Black.
  const char* rec = "pass d4 c3 pass pass";
  Board b(4);
  auto s = b.play(rec);
  REQUIRE(s.is_terminal());
  auto sc = s.scores();
  CHECK(sc[0].territory == 0);  // one region touching both colours
  CHECK(sc[1].territory == 0);
  CHECK_FALSE(sc[0].half);
  CHECK(sc[1].half);
  CHECK(s.outcome().margin2 == -1);
  CHECK(s.outcome().kind == Outcome::Kind::kWhiteWins);
  Board f(4, kFirstPassOfGame);
  auto t = f.play(rec);
  CHECK(t.scores()[0].half);
  CHECK_FALSE(t.scores()[1].half);
  CHECK(t.outcome().margin2 == 1);
  // Before the end only the variant knows the holder.
  CHECK_FALSE(b.play("pass d4").half_point_holder().has_value());
  CHECK(f.play("pass d4").half_point_holder() == Color::kBlack);
}

TEST_CASE("fiodar: passes, the end of the game and move lists", "[fiodar][rules]") {
  Board b(3);
  auto s = b.start();
  std::vector<Board::Move> ms;
  s.legal_moves(ms);
  CHECK(ms.size() == 20);  // pass + 19 points
  CHECK(ms.front().is_pass());
  CHECK(s.move_name(ms.front()) == "pass");
  auto t = b.play("pass");
  CHECK(t.last_move_was_pass());
  CHECK(t.first_passer() == Color::kBlack);
  CHECK_FALSE(t.is_terminal());
  auto u = b.play("pass c3 pass");
  CHECK_FALSE(u.is_terminal());  // not in a row
  u = b.play(u, "pass");
  CHECK(u.is_terminal());
  u.legal_moves(ms);
  CHECK(ms.empty());
  CHECK(u.count_legal_moves() == 0);
  CHECK(u.parse_move("pass").has_value());
  CHECK_FALSE(u.parse_move("Pass").has_value());
  CHECK_FALSE(u.parse_move("c03").has_value());
}
