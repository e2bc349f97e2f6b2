// The shared conformance properties (properties/conformance) run on Fiodar,
// plus Fiodar's own, judged by the naive reference (tests/fiodar/naive_fiodar.h)
// rather than by the engine's own cut computation:
//   - every removed weave was entirely covered by cut threads, and every cut
//     enemy weave was removed;
//   - no friendly cut weave survives a legal placement (default suicide rule);
//   - no player's end-of-turn board repeats after a placement;
//   - a finished game's scores never tie.
#include <catch2/catch.hpp>

#include "properties/conformance/conformance.h"
#include "tests/fiodar/fiodar_fixture.h"
#include "tests/fiodar/naive_fiodar.h"

using namespace loom;

namespace {

naive::Fiodar::Rules naive_rules(const fiodar::Options& o) {
  return {o.cut_gap, o.capture_first, o.half_first_of_game};
}

/// The engine's board as the naive reference's point vector.
template <int W>
std::vector<char> to_naive(const naive::Fiodar& ref, const fiodar::State<W>& s) {
  std::vector<char> bd(ref.size(), '.');
  for (int x = 0; x < ref.size(); ++x) {
    int site = *s.geo().parse(ref.name(x));
    if (s.stones(Color::kBlack).test(site)) bd[x] = 'B';
    if (s.stones(Color::kWhite).test(site)) bd[x] = 'W';
  }
  return bd;
}

template <int W>
conformance::StepCheck<fiodar::State<W>> fiodar_step(std::shared_ptr<naive::Fiodar> ref) {
  using S = fiodar::State<W>;
  return [ref](const S& before, const typename S::Move& m, const S& after) -> std::string {
    const Color me = before.to_move(), op = other(me);
    if (after.to_move() != op) return "side to move did not change";
    if (m.is_pass()) {
      if (after.board() != before.board()) return "a pass changed the board";
      if (after.consecutive_passes() != before.consecutive_passes() + 1)
        return "a pass did not count";
      return "";
    }
    if (after.consecutive_passes() != 0) return "a placement did not reset the passes";
    if (after.stones(me) != (before.stones(me) | Bitboard<W>::single(m.site)))
      return "the mover's stones are not the old ones plus the placed stone";
    Bitboard<W> removed = before.stones(op).andnot(after.stones(op));
    if (after.stones(op).andnot(before.stones(op)).any()) return "enemy stones appeared";
    if (after.prisoners(me) != before.prisoners(me) + removed.count())
      return "prisoners do not count the removed stones";
    // Judge the enemy weaves on the board right after the placement.
    S placed = before;
    placed.put(m.site, me);
    auto bd = to_naive(*ref, placed);
    char enemy = op == Color::kBlack ? 'B' : 'W';
    char mine = me == Color::kBlack ? 'B' : 'W';
    for (const auto& w : ref->weaves(bd, enemy)) {
      bool cut = ref->weave_cut(bd, w);
      for (int x : w) {
        bool gone = removed.test(*before.geo().parse(ref->name(x)));
        if (gone && !cut) return "a removed weave was not entirely on cut threads";
        if (!gone && cut) return "a cut enemy weave was not removed";
      }
    }
    // No friendly cut weave survives (default); under capture-first only
    // after a capture.
    auto ad = to_naive(*ref, after);
    for (const auto& w : ref->weaves(ad, mine))
      if (ref->weave_cut(ad, w) && !(before.options().capture_first && removed.any()))
        return "a friendly cut weave survived a legal placement";
    return "";
  };
}

template <int W>
void run_conformance(int side, fiodar::Options opt, conformance::Options copt) {
  auto board = std::make_shared<testing::FiodarBoard<W>>(side, opt);
  auto ref = std::make_shared<naive::Fiodar>(side, naive_rules(opt));
  std::function<fiodar::State<W>()> start = [board] { return board->start(); };
  conformance::run_all<fiodar::State<W>>(start, copt, fiodar_step<W>(ref));
}

std::string describe(int side, const fiodar::Options& o) {
  return " (side " + std::to_string(side) + (o.cut_gap ? ", cut=gap" : "") +
         (o.capture_first ? ", suicide=capture-first" : "") +
         (o.half_first_of_game ? ", half=first-pass-of-game" : "") + ")";
}

/// Fiodar's own game-level properties on random games. (Each rc::prop is a
/// Catch section, identified by its name: the names carry side and rules so
/// that calls in a loop are distinct sections and all run.)
template <int W>
void run_game_properties(int side, fiodar::Options opt, int cap) {
  const std::string tag = describe(side, opt);
  rc::prop("no player's end-of-turn board repeats after a placement" + tag, [=] {
    testing::FiodarBoard<W> b(side, opt);
    auto s = b.start();
    std::array<std::vector<fiodar::Board<W>>, 2> ends;  // kept here, not read from the engine
    std::vector<typename fiodar::State<W>::Move> ms;
    typename fiodar::State<W>::Undo u;
    for (int ply = 0; ply < cap; ++ply) {
      s.legal_moves(ms);
      if (ms.empty()) break;
      auto m = ms[*rc::gen::inRange<size_t>(0, ms.size())];
      Color me = s.to_move();
      s.apply(m, u);
      auto& mine = ends[idx(me)];
      if (!m.is_pass()) RC_ASSERT(std::find(mine.begin(), mine.end(), s.board()) == mine.end());
      mine.push_back(s.board());
    }
  });
  rc::prop("transformed_hash(k) is the hash of transformed(k)" + tag, [=] {
    // The solver compares symmetric images by this hash (solver/core.h).
    testing::FiodarBoard<W> b(side, opt);
    auto s = b.start();
    std::vector<typename fiodar::State<W>::Move> ms;
    typename fiodar::State<W>::Undo u;
    int plies = *rc::gen::inRange(0, cap);
    for (int i = 0; i < plies; ++i) {
      s.legal_moves(ms);
      if (ms.empty()) break;
      s.apply(ms[*rc::gen::inRange<size_t>(0, ms.size())], u);
    }
    for (int k = 0; k < 12; ++k) RC_ASSERT(s.transformed_hash(k) == s.transformed(k).hash());
  });
  rc::prop("a finished game's scores never tie" + tag, [=] {
    testing::FiodarBoard<W> b(side, opt);
    auto s = b.start();
    std::vector<typename fiodar::State<W>::Move> ms;
    typename fiodar::State<W>::Undo u;
    int ply = 0;
    for (; ply < cap; ++ply) {
      s.legal_moves(ms);
      if (ms.empty()) break;
      // Pass more often than uniformly so that games end within the cap.
      bool pass = *rc::gen::inRange(0, 4) == 0;
      s.apply(pass ? ms.front() : ms[*rc::gen::inRange<size_t>(0, ms.size())], u);
    }
    RC_CLASSIFY(s.is_terminal(), "ended");
    if (!s.is_terminal()) return;
    auto sc = s.scores();
    RC_ASSERT(sc[0].total2() != sc[1].total2());
    RC_ASSERT(sc[0].half != sc[1].half);
    Outcome o = s.outcome();
    RC_ASSERT(o.margin2 == sc[0].total2() - sc[1].total2());
    RC_ASSERT(o.margin2 % 2 != 0);
    RC_ASSERT((o.kind == Outcome::Kind::kBlackWins) == (o.margin2 > 0));
    RC_ASSERT((o.kind == Outcome::Kind::kWhiteWins) == (o.margin2 < 0));
  });
  rc::prop("the fast move generator agrees with a full evaluation of every point" + tag, [=] {
    testing::FiodarBoard<W> b(side, opt);
    // Play on while placements are legal (pass rarely) to reach crowded
    // boards with captures and superko conflicts.
    auto s = b.start();
    std::vector<typename fiodar::State<W>::Move> ms;
    typename fiodar::State<W>::Undo u;
    int plies = *rc::gen::inRange(0, cap);
    for (int i = 0; i < plies; ++i) {
      s.legal_moves(ms);
      if (ms.empty()) break;
      bool pass = ms.size() == 1 || *rc::gen::inRange(0, 10) == 0;
      s.apply(pass ? ms.front() : ms[*rc::gen::inRange<size_t>(1, ms.size())], u);
    }
    Bitboard<W> full;
    if (!s.is_terminal())
      s.empty().for_each([&](int x) {
        if (s.analyse(x).legal) full.set(x);
      });
    RC_ASSERT(s.legal_sites() == full);
  });
}

}  // namespace

TEST_CASE("fiodar conformance, side 3", "[fiodar][conformance]") {
  run_conformance<1>(3, {}, {});
}

// One test case per rule set: conformance::run_all names its properties
// alike, and Catch runs a section of a given name only once per test case.
TEST_CASE("fiodar conformance, side 4, cut=gap", "[fiodar][conformance]") {
  conformance::Options c;
  c.max_prefix = 40;
  run_conformance<1>(4, fiodar::Options{.cut_gap = true}, c);
}

TEST_CASE("fiodar conformance, side 4, suicide=capture-first", "[fiodar][conformance]") {
  conformance::Options c;
  c.max_prefix = 40;
  run_conformance<1>(4, fiodar::Options{.capture_first = true}, c);
}

TEST_CASE("fiodar conformance, side 4, all three variants", "[fiodar][conformance]") {
  conformance::Options c;
  c.max_prefix = 40;
  run_conformance<1>(
      4, fiodar::Options{.cut_gap = true, .capture_first = true, .half_first_of_game = true}, c);
}

TEST_CASE("fiodar conformance, side 7 (three-word bitboards)", "[fiodar][conformance]") {
  conformance::Options c;
  c.max_prefix = 40;
  c.practical_length = 400;
  run_conformance<3>(7, {}, c);
}

TEST_CASE("fiodar game properties, sides 3 and 4, every rule set", "[fiodar][conformance]") {
  for (bool gap : {false, true})
    for (bool cf : {false, true}) {
      fiodar::Options o{.cut_gap = gap, .capture_first = cf, .half_first_of_game = gap != cf};
      run_game_properties<1>(3, o, 200);
      run_game_properties<1>(4, o, 120);
    }
}

TEST_CASE("fiodar game properties, side 9 (five-word bitboards)", "[fiodar][conformance]") {
  run_game_properties<5>(9, {}, 150);
}
