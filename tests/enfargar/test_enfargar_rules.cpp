// Enfargar rules, one diagram per rule (RULES.md section 3 and section 7).
// Diagrams: top row first; X black, O white, . empty. Where a position comes
// from play, its record is given and checked to reach the diagram.
#include <catch2/catch.hpp>

#include "tests/enfargar/enfargar_fixture.h"
#include "tests/enfargar/naive_enfargar.h"

using namespace loom;
using Board = testing::EnfargarBoard<1>;
using State = Board::State;

namespace {

const enfargar::Options kTouch{.touch = true, .more_stones = false};
const enfargar::Options kMoreStones{.touch = false, .more_stones = true};

bool legal(const State& s, const Board& b, const char* name) {
  return s.legal_sites().test(b.site(name));
}

State after(State s, const Board& b, const char* name) {
  State::Undo u;
  s.apply(b.move(name), u);
  return s;
}

std::vector<std::string> moves(const State& s) {
  std::vector<State::Move> ms;
  s.legal_moves(ms);
  std::vector<std::string> out;
  for (auto m : ms) out.push_back(s.move_name(m));
  return out;
}

/// The same position drawn as a diagram (X, O, .), for comparisons.
bool same_board(const State& s, const Board& b, std::string_view diagram) {
  State d = b.from_diagram(diagram, s.to_move());
  return d.stones(Color::kBlack) == s.stones(Color::kBlack) &&
         d.stones(Color::kWhite) == s.stones(Color::kWhite);
}

}  // namespace

TEST_CASE("enfargar: a lifeline to the edge needs an empty point (not under edge=touch)",
          "[enfargar][rules]") {
  // a1's walks: E, NE, NW meet white stones; W, SW, SE leave the board at once.
  const char* d = R"(
      . . .
     . . . .
    . . . . .
     O O . .
      X O .
  )";
  Board gap(3), touch(3, kTouch);
  CHECK(gap.from_diagram(d, Color::kBlack).lifelines(Color::kBlack).none());
  CHECK(touch.from_diagram(d, Color::kBlack).lifelines(Color::kBlack) == touch.sites("a1"));
  // The same as a placement: a1 is illegal, except under edge=touch.
  const char* empty_a1 = R"(
      . . .
     . . . .
    . . . . .
     O O . .
      . O .
  )";
  auto s = gap.from_diagram(empty_a1, Color::kBlack);
  CHECK_FALSE(legal(s, gap, "a1"));
  CHECK_FALSE(s.analyse(gap.site("a1")).lifeline);
  CHECK(legal(touch.from_diagram(empty_a1, Color::kBlack), touch, "a1"));
  // One empty point is enough: b2 walks SW over the empty a1 and leaves the board.
  auto one = gap.from_diagram(R"(
      . . .
     . . . .
    . O O . .
     O X O .
      . O .
  )",
                              Color::kBlack);
  CHECK(one.lifelines(Color::kBlack) == gap.sites("b2"));
  // With a1 white too, b2 has none.
  auto none = gap.from_diagram(R"(
      . . .
     . . . .
    . O O . .
     O X O .
      O O .
  )",
                               Color::kBlack);
  CHECK(none.lifelines(Color::kBlack).none());
}

TEST_CASE("enfargar: a lifeline is relayed by a friendly stone at a distance or touching",
          "[enfargar][rules]") {
  Board b(3);
  // a1 sees c3 across the empty b2 (NE); c3 has a lifeline of its own.
  auto far = b.from_diagram(R"(
      . . .
     . . . .
    . . X . .
     O . . .
      X O .
  )",
                            Color::kWhite);
  CHECK(far.lifelines(Color::kBlack) == b.sites("a1 c3"));
  // The relay needs a friendly stone: a white c3 blocks the walk.
  auto blocked = b.from_diagram(R"(
      . . .
     . . . .
    . . O . .
     O . . .
      X O .
  )",
                                Color::kWhite);
  CHECK(blocked.lifelines(Color::kBlack).none());
  // Touching: a1 meets b2 at once (zero empty points); b2 walks E to the edge.
  auto touching = b.from_diagram(R"(
      . . .
     . . . .
    . . O . .
     O X . .
      X O .
  )",
                                 Color::kWhite);
  CHECK(touching.lifelines(Color::kBlack) == b.sites("a1 b2"));
  // A cluster a1, b2, c2 whose every walk meets a white stone: no lifeline.
  auto closed = b.from_diagram(R"(
      . . .
     . . . .
    O O O O .
     O X X O
      X O O
  )",
                               Color::kWhite);
  CHECK(closed.lifelines(Color::kBlack).none());
  auto open = b.from_diagram(R"(
      . . .
     . . . .
    O O . O .
     O X X O
      X O O
  )",
                             Color::kWhite);
  // Empty c3: b2 walks NE over c3, d4, e5 to the edge and relays its lifeline
  // to a1 and c2, which touch it.
  CHECK(open.lifelines(Color::kBlack) == b.sites("a1 b2 c2"));
}

TEST_CASE("enfargar: a closed ring of friendly stones without a route out has no lifeline",
          "[enfargar][rules]") {
  Board b(4);
  const char* ring = R"(
       . . . .
      . O O O .
     . O X X O .
    . O X . X O .
     . O X X O .
      . O O O .
       . . . .
  )";
  auto s = b.from_diagram(ring, Color::kBlack);
  // Every walk of a ring stone meets a ring stone or a white stone: the least
  // fixed point is empty, although each ring stone sees a friendly stone.
  CHECK(s.lifelines(Color::kBlack).none());
  CHECK(s.lifelines(Color::kWhite) == s.stones(Color::kWhite));
  CHECK_FALSE(s.all_alive());
  // Open the white ring at its corner b2: c3 walks SW over b2 to a1 and the
  // edge, and the whole black ring lives.
  auto open = b.from_diagram(R"(
       . . . .
      . O O O .
     . O X X O .
    . O X . X O .
     . O X X O .
      . . O O .
       . . . .
  )",
                             Color::kBlack);
  CHECK(open.lifelines(Color::kBlack) == open.stones(Color::kBlack));
  CHECK(open.all_alive());
}

TEST_CASE("enfargar: the end-of-turn clause rejects a placement whose new stone has a lifeline",
          "[enfargar][rules]") {
  // Neither position can arise in play (every stone has a lifeline at the start
  // of every turn; docs/findings.md): with it, the clause never fires.
  Board b(4);
  SECTION("a friendly stone that has no lifeline and gets none from the flips") {
    auto s = b.from_diagram(R"(
         . . . .
        . O O O .
       . O X X O .
      . O X . X O .
       . O X X O .
        . O O O .
         . . . .
    )",
                            Color::kBlack);
    // a1 has a lifeline (it walks E over b1.. to the edge) but the ring still
    // has none afterwards: illegal by condition (2) alone.
    auto p = s.analyse(b.site("a1"));
    CHECK(p.lifeline);
    CHECK_FALSE(p.all_alive);
    CHECK_FALSE(p.legal);
    // The centre fails condition (1): its six walks meet lifeless ring stones.
    CHECK_FALSE(s.analyse(b.site("d4")).lifeline);
    // No placement is legal: Black must pass.
    CHECK(moves(s) == std::vector<std::string>{"pass"});
  }
  SECTION("flipped stones must have a lifeline as friendly stones too") {
    // Six white corners see only each other: none has a lifeline.
    auto s = b.from_diagram(R"(
         O . . O
        . . . . .
       . . . . . .
      O . . . . . O
       . . . . . .
        . . . . .
         O . . O
    )",
                            Color::kBlack);
    // c2 lies on no line through a corner: all six flip and stay lifeless.
    auto p = s.analyse(b.site("c2"));
    CHECK(p.lifeline);
    CHECK(p.flips == s.stones(Color::kWhite));
    CHECK_FALSE(p.all_alive);
    CHECK_FALSE(legal(s, b, "c2"));
    // b1 lies on the edge a1-d1: the flipped corners see b1 and live.
    CHECK(legal(s, b, "b1"));
    auto t = after(s, b, "b1");
    CHECK(t.stones(Color::kWhite).none());
    CHECK(t.lifelines(Color::kBlack) == t.stones(Color::kBlack));
    // The centre sees six lifeless enemy corners: no lifeline.
    CHECK_FALSE(legal(s, b, "d4"));
  }
}

TEST_CASE("enfargar: a stone whose walk is closed by the new stone keeps its lifeline through it",
          "[enfargar][rules]") {
  // What the end-of-turn clause might be expected to catch: b2's only walk to
  // the edge runs E over c2 and d2. Placing d2 closes it, but b2 now meets d2,
  // a friendly stone with a lifeline (d2 walks NE over e3 to the edge): legal.
  Board b(3);
  auto s = b.from_diagram(R"(
      . . .
     . . . .
    . O O . .
     O X . .
      O O O
  )",
                          Color::kBlack);
  CHECK(s.all_alive());
  CHECK(legal(s, b, "d2"));
  auto t = after(s, b, "d2");
  CHECK(t.lifelines(Color::kBlack) == b.sites("b2 d2"));
  // On the edge with nothing beyond, the new stone can cut the walk for good:
  // b2 walks E over c2, d2 and leaves the board; a stone on d2 would have no
  // walk of its own (d3 and e3 are white) and b2 would only meet it, so d2
  // fails condition (1) while c2 (which walks E over d2) is legal.
  auto cut = b.from_diagram(R"(
      . . .
     . . . .
    . O O O O
     O X . .
      O O O
  )",
                            Color::kBlack);
  CHECK(cut.lifelines(Color::kBlack) == b.sites("b2"));
  CHECK(legal(cut, b, "c2"));
  CHECK_FALSE(cut.analyse(b.site("d2")).lifeline);
  CHECK_FALSE(legal(cut, b, "d2"));
}

TEST_CASE("enfargar: a placement flips a whole cluster at once", "[enfargar][rules]") {
  // Reached in play (side 4): White's e5 closes the black cluster's last walk.
  Board b(4);
  auto s = b.play("g4 b5 e7 g5 d7 c2 a2 d5 g6 b4 e4 c5 f7 f5 g7 f4 c6");
  CHECK(same_board(s, b, R"(
       X X X X
      X . . . X
     O O O . O O
    . O . . X O X
     . . . . . .
      X . O . .
       . . . .
  )"));
  REQUIRE(s.to_move() == Color::kWhite);
  auto p = s.analyse(b.site("e5"));
  CHECK(p.legal);
  CHECK(p.flips == b.sites("d7 e7 f7 g7 c6 g6"));
  auto t = after(s, b, "e5");
  CHECK(same_board(t, b, R"(
       O O O O
      O . . . O
     O O O O O O
    . O . . X O X
     . . . . . .
      X . O . .
       . . . .
  )"));
  CHECK_FALSE(t.is_terminal());
  CHECK(t.all_alive());
}

TEST_CASE("enfargar: the turn that flips the last enemy stone wins", "[enfargar][rules]") {
  Board b(3);
  auto s = b.from_diagram(R"(
      X . X
     X . . X
    X X . X O
     X . X O
      X . .
  )",
                          Color::kBlack);
  CHECK_FALSE(s.is_terminal());
  auto t = after(s, b, "c1");
  CHECK(t.stones(Color::kWhite).none());
  CHECK(t.is_terminal());
  CHECK(t.outcome() == Outcome::win(Color::kBlack));
  CHECK(moves(t).empty());
  // Black's first stone leaves White with no stone, but White had none before:
  // the game goes on.
  auto first = after(b.start(), b, "c3");
  CHECK_FALSE(first.is_terminal());
  CHECK(first.outcome().ongoing());
}

TEST_CASE("enfargar: a player without a legal placement must pass, otherwise no pass",
          "[enfargar][rules]") {
  Board b(2);
  auto s = b.play("a1 b1 b2 a2 c3");
  CHECK(same_board(s, b, R"(
      . X
     O X .
      X O
  )"));
  REQUIRE(s.to_move() == Color::kWhite);
  CHECK(moves(s) == std::vector<std::string>{"pass"});
  CHECK(s.count_legal_moves() == 1);
  auto t = after(s, b, "pass");
  CHECK_FALSE(t.is_terminal());
  CHECK(t.passes() == 1);
  CHECK(moves(t) == std::vector<std::string>{"c2", "b3"});  // site order
  // A placement resets the pass count; passing with a legal placement is illegal.
  CHECK(after(t, b, "c2").passes() == 0);
  CHECK_THROWS(b.play("a1 pass"));
}

TEST_CASE("enfargar: both players stalled: two passes end the game", "[enfargar][rules]") {
  // The shortest stall on side 2 (tests/enfargar/test_enfargar_search.cpp).
  Board b(2), more(2, kMoreStones);
  const char* record = "a1 b1 a2 b2 c2 b3";
  auto s = b.play(record);
  CHECK(same_board(s, b, R"(
      O .
     O O X
      O O
  )"));
  // c3 is the only empty point. Black: c3 would meet only c2, whose one walk
  // ran over c3; White: c3 would cut the walks of b2 and b3, White's only ones.
  CHECK(moves(s) == std::vector<std::string>{"pass"});
  auto p1 = after(s, b, "pass");
  CHECK(moves(p1) == std::vector<std::string>{"pass"});
  auto p2 = after(p1, b, "pass");
  CHECK(p2.is_terminal());
  CHECK(moves(p2).empty());
  CHECK(p2.outcome().kind == Outcome::Kind::kUnresolved);
  // stall=more-stones: White has 5 stones to 1.
  CHECK(more.play(std::string(record) + " pass pass").outcome() == Outcome::win(Color::kWhite));
  // A 3-3 tie goes against the player who placed last (White's c2).
  auto tie = more.play("a1 b1 a2 b2 b3 c2 pass pass");
  CHECK(tie.stones(Color::kBlack).count() == 3);
  CHECK(tie.stones(Color::kWhite).count() == 3);
  CHECK(tie.outcome() == Outcome::win(Color::kBlack));
  CHECK(b.play("a1 b1 a2 b2 b3 c2 pass pass").outcome().kind == Outcome::Kind::kUnresolved);
}

TEST_CASE("enfargar: under edge=touch a full board stalls", "[enfargar][rules]") {
  Board b(2, kTouch);
  auto s = b.play("a1 b1 a2 b2 c2 b3 c3");
  CHECK(s.empty().none());
  CHECK(s.stones(Color::kBlack).any());
  CHECK(s.stones(Color::kWhite).any());
  auto end = b.play_from(s, "pass pass");
  CHECK(end.outcome().kind == Outcome::Kind::kUnresolved);
}

TEST_CASE("enfargar: tokens", "[enfargar][rules]") {
  Board b(3);
  auto s = b.start();
  CHECK(s.parse_move("pass")->is_pass());
  CHECK(s.move_name(*s.parse_move("pass")) == "pass");
  CHECK(s.parse_move("c3")->site == b.site("c3"));
  CHECK_FALSE(s.parse_move("C3"));
  CHECK_FALSE(s.parse_move("c03"));
  CHECK_FALSE(s.parse_move("a5"));
  CHECK_FALSE(s.parse_move("Pass"));
  // The empty board: every point is legal and pass is not.
  CHECK(s.count_legal_moves() == 19);
  CHECK(moves(s).size() == 19);
}

TEST_CASE("enfargar: show marks the stones without a lifeline", "[enfargar][rules]") {
  Board b(3);
  auto s = b.from_diagram(R"(
      . . .
     . . . .
    . . . . .
     O O . .
      X O .
  )",
                          Color::kBlack);
  std::string text = enfargar::render(s);
  CHECK(text.find("x O .") != std::string::npos);
  CHECK(text.find("without a lifeline (1)") != std::string::npos);
  auto played = enfargar::render(b.play("c3 b2"));
  CHECK(played.find("every stone has a lifeline") != std::string::npos);
  CHECK(played.find("black to move, ") != std::string::npos);
}
