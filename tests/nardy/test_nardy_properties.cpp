// Long Nardy properties over random positions (from random games and random
// boards): checkers are conserved, the pips moved are the dice used, the
// mirrored position gives the mirrored results, the canonical turn reaches
// its position, the two generator entry points agree, and perft is the same
// on mirrored positions.
#include <rapidcheck/catch.h>
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "model/common/zobrist.h"
#include "tests/nardy/nardy_fixture.h"

using namespace loom;
using namespace loom::nardy;
using loom::testing::uniform;

namespace {

/// A position reached by `turns` random turns from the start (or the game's end).
Position random_position(uint64_t& s, int turns, const Options& opt) {
  TurnGenerator g(opt);
  Position p = Position::start();
  std::vector<Position> kids;
  for (int t = 0; t < turns && !result(p, opt).over(); ++t) {
    const Roll& r = all_rolls()[uniform(s, 21)];
    g.positions(p, r, kids);
    std::sort(kids.begin(), kids.end());
    p = kids[uniform(s, static_cast<uint32_t>(kids.size()))];
  }
  return p;
}

struct Case {
  Position p;
  Options opt;
};

rc::Gen<Case> gen_case() {
  return rc::gen::map(rc::gen::arbitrary<uint64_t>(), [](uint64_t seed) {
    uint64_t s = seed;
    Options opt{.block_end_of_turn = uniform(s, 2) == 1, .last_roll = uniform(s, 2) == 1};
    return Case{random_position(s, static_cast<int>(uniform(s, 160)), opt), opt};
  });
}

/// The route distance of a step for colour c (off = 24).
int distance(Color c, const Step& st) {
  int to = st.to == 0 ? kOffRoute : route_of(c, st.to);
  return to - route_of(c, st.from);
}

/// "" if `turn` from `p` is consistent with `roll`: each step moves its die
/// (a bear-off at most its die), the dice used are a sub-multiset of the roll.
std::string dice_check(const Position& p, Roll roll, const Turn& turn) {
  std::multiset<int> dice = roll.is_double()
                                ? std::multiset<int>{roll.hi, roll.hi, roll.hi, roll.hi}
                                : std::multiset<int>{roll.hi, roll.lo};
  // Exact steps first, then bear-offs take the smallest die that covers them.
  std::vector<int> overs;
  for (int i = 0; i < turn.size; ++i) {
    int d = distance(p.to_move(), turn.steps[i]);
    if (d < 1 || d > 6) return "step " + turn.steps[i].text() + " moves " + std::to_string(d);
    auto it = dice.find(d);
    if (it != dice.end())
      dice.erase(it);
    else if (turn.steps[i].to == 0)
      overs.push_back(d);
    else
      return "no die for " + turn.steps[i].text();
  }
  for (int d : overs) {
    auto it = dice.lower_bound(d);
    if (it == dice.end()) return "no die bears off distance " + std::to_string(d);
    dice.erase(it);
  }
  return "";
}

}  // namespace

TEST_CASE("nardy turn properties", "[nardy][properties]") {
  rc::prop("conservation, pips, dice, canonical turns", [] {
    Case c = *gen_case();
    if (result(c.p, c.opt).over()) return;
    TurnGenerator g(c.opt);
    const Roll roll = *rc::gen::elementOf(all_rolls());
    std::vector<Child> kids;
    g.turns(c.p, roll, kids);
    RC_ASSERT(!kids.empty());
    const Color me = c.p.to_move(), them = other(me);
    std::set<Position> seen;
    int steps = -1;
    for (const auto& k : kids) {
      RC_ASSERT(seen.insert(k.position).second);  // distinct positions
      RC_ASSERT(k.position.to_move() == them);
      RC_ASSERT(k.position.check_invariants().empty());
      // The opponent's checkers do not move; the mover's are conserved
      // (on the board before = on the board after + borne off this turn).
      int offs = 0;
      for (int i = 0; i < k.turn.size; ++i) offs += k.turn.steps[i].to == 0;
      for (int pt = 1; pt <= kPoints; ++pt)
        RC_ASSERT(k.position.count(them, pt) == c.p.count(them, pt));
      RC_ASSERT(k.position.on_board(me) + offs == c.p.on_board(me));
      // Pips moved equal the dice used (a bear-off moves its distance, at most its die).
      int moved = 0;
      for (int i = 0; i < k.turn.size; ++i) moved += distance(me, k.turn.steps[i]);
      RC_ASSERT(c.p.pips(me) - k.position.pips(me) == moved);
      std::string bad = dice_check(c.p, roll, k.turn);
      if (!bad.empty()) RC_FAIL(bad + " in " + k.turn.text());
      // The canonical turn reaches the position.
      RC_ASSERT(testing::after_steps(c.p, k.turn.text()) == k.position);
      // Every turn plays the same number of dice, except one that wins.
      bool won = k.position.on_board(me) == 0;
      if (!won) {
        if (steps < 0) steps = k.turn.size;
        RC_ASSERT(k.turn.size == steps);
      }
    }
    // A forfeit is the only child.
    for (const auto& k : kids)
      if (k.turn.size == 0) RC_ASSERT(kids.size() == 1u);
    // positions() lists the same positions.
    std::vector<Position> ps;
    g.positions(c.p, roll, ps);
    RC_ASSERT(std::set<Position>(ps.begin(), ps.end()) == seen);
    RC_ASSERT(ps.size() == seen.size());
  });
}

TEST_CASE("nardy mirror symmetry", "[nardy][properties]") {
  // end=last-roll is not colour-symmetric (Black answers White's last turn,
  // not the other way round), so the mirror is checked under first-off.
  rc::prop("the mirrored position gives the mirrored results", [] {
    Case c = *gen_case();
    c.opt.last_roll = false;
    TurnGenerator g(c.opt);
    const Roll roll = *rc::gen::elementOf(all_rolls());
    std::vector<Position> a, b;
    g.positions(c.p, roll, a);
    g.positions(c.p.mirrored(), roll, b);
    std::set<Position> mapped;
    for (const auto& x : a) mapped.insert(x.mirrored());
    RC_ASSERT(mapped == std::set<Position>(b.begin(), b.end()));
    RC_ASSERT(result(c.p, c.opt).over() == result(c.p.mirrored(), c.opt).over());
    RC_ASSERT(c.p.mirrored().mirrored() == c.p);
  });
  rc::prop("perft is the same on the mirrored position", [] {
    uint64_t s = *rc::gen::arbitrary<uint64_t>();
    Options opt{.block_end_of_turn = uniform(s, 2) == 1, .last_roll = false};
    Position p = random_position(s, static_cast<int>(uniform(s, 100)), opt);
    int depth = uniform(s, 8) == 0 ? 2 : 1;
    RC_ASSERT(perft(p, depth, opt) == perft(p.mirrored(), depth, opt));
  });
}

namespace {

/// The mover's route counts in p.
Routes routes_in(const Position& p, Color me) {
  Routes r{};
  for (int i = 0; i < kPoints; ++i) r[i] = static_cast<uint8_t>(p.count(me, point_of(me, i)));
  return r;
}

/// routes() equals positions() read in the mover's frame, as multisets.
void check_routes(TurnGenerator& g, const Position& p, Roll roll) {
  const Color me = p.to_move();
  uint32_t opp = 0;
  for (int i = 0; i < kPoints; ++i)
    if (p.count(other(me), point_of(me, i))) opp |= 1u << i;
  std::vector<Position> a;
  std::vector<Routes> b;
  g.positions(p, roll, a);
  g.routes(me, routes_in(p, me), opp, p.on_board(other(me)), roll, b);
  std::vector<Routes> want;
  for (const Position& x : a) want.push_back(routes_in(x, me));
  std::sort(want.begin(), want.end());
  std::sort(b.begin(), b.end());
  RC_ASSERT(want == b);
}

}  // namespace

TEST_CASE("nardy routes() gives positions() in the mover's frame", "[nardy][properties]") {
  rc::prop("on positions of random games", [] {
    Case c = *gen_case();
    TurnGenerator g(c.opt);
    check_routes(g, c.p, *rc::gen::elementOf(all_rolls()));
  });
  rc::prop("on random boards with checkers=1..6", [] {
    uint64_t s = *rc::gen::arbitrary<uint64_t>();
    Options opt{.block_end_of_turn = uniform(s, 2) == 1};
    opt.checkers = 1 + static_cast<int>(uniform(s, 6));
    Position p;
    for (Color c : {Color::kWhite, Color::kBlack})
      for (int j = 0; j < opt.checkers; ++j) {
        int r = static_cast<int>(uniform(s, 25));
        if (r == 24) continue;  // borne off
        int pt = point_of(c, r);
        if (p.count(other(c), pt)) continue;
        p.set(pt, p.at(pt) + (c == Color::kWhite ? 1 : -1));
      }
    p.set_to_move(uniform(s, 2) ? Color::kWhite : Color::kBlack);
    TurnGenerator g(opt);
    for (const Roll& r : all_rolls()) check_routes(g, p, r);
  });
}

TEST_CASE("nardy generation is deterministic and the hash separates children",
          "[nardy][properties]") {
  rc::prop("same input, same output; children hash apart", [] {
    Case c = *gen_case();
    const Roll roll = *rc::gen::elementOf(all_rolls());
    TurnGenerator g1(c.opt), g2(c.opt);
    std::vector<Child> a, b, a2;
    g1.turns(c.p, roll, a);
    g2.turns(c.p, roll, b);
    // Reuse of g1's scratch space after another position changes nothing.
    g1.turns(Position::start(), Roll{6, 5}, a2);
    g1.turns(c.p, roll, a2);
    RC_ASSERT(a.size() == b.size());
    RC_ASSERT(a.size() == a2.size());
    for (size_t i = 0; i < a.size(); ++i) {
      RC_ASSERT(a[i].position == b[i].position);
      RC_ASSERT(a[i].turn == b[i].turn);
      RC_ASSERT(a[i].position == a2[i].position);
      RC_ASSERT(a[i].turn == a2[i].turn);
    }
    std::set<uint64_t> hashes;
    for (const auto& k : a) hashes.insert(k.position.hash());
    RC_ASSERT(hashes.size() == a.size());
    RC_ASSERT(Position::parse(c.p.to_string()) == c.p);
  });
}

TEST_CASE("nardy random games end, within a bound of turns", "[nardy][properties]") {
  // Each turn that plays a step lowers the mover's pips, so at most 2 x 360
  // turns play; a forfeit-only stretch would be a deadlock. Random games
  // from 200 seeds all end, with the winner's score 1 or 2 (or a draw).
  std::map<std::string, int> results;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    uint64_t s = seed;
    Options opt{.block_end_of_turn = seed % 2 == 0, .last_roll = seed % 3 == 0};
    Position p = random_position(s, 2000, opt);
    Result r = result(p, opt);
    REQUIRE(r.over());
    CHECK((r.kind == Result::Kind::kDraw ? r.points == 0 : (r.points == 1 || r.points == 2)));
    ++results[r.text()];
  }
  CHECK(results.size() >= 2);
}
