// Trust tests of the Long Nardy exact values (solver/nardy/, docs/nardy-exact.md):
// the home index, the successor lists against the model's generator, hand-
// worked lone-checker cases, one-sided against two-sided where no choice
// exists, points against p_win where mars cannot happen, a seeded Monte
// Carlo run of table-optimal play, the few-checker solver's equations and
// its agreement with the bear-off table, and the database files.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "model/common/errors.h"
#include "model/common/zobrist.h"
#include "solver/nardy/bearoff.h"
#include "solver/nardy/fewcheckers.h"
#include "solver/nardy/table_file.h"

using namespace loom;
using namespace loom::nardy;
using namespace loom::nardy::exact;
namespace fs = std::filesystem;

namespace {

Home lone(int d) {
  Home h{};
  h[static_cast<size_t>(d - 1)] = 1;
  return h;
}

/// Rolls (out of 36) whose pips (a + b, a double 4a) reach d.
int reaching(int d) {
  int n = 0;
  for (const Roll& r : all_rolls())
    n += (r.is_double() ? 4 * r.hi : r.hi + r.lo) >= d ? r.weight() : 0;
  return n;
}

fs::path temp_dir(const std::string& name) {
  fs::path d =
      fs::temp_directory_path() / ("loom-nardy-exact-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

const TwoSided& table(int n) {
  static std::map<int, TwoSided> t;
  auto it = t.find(n);
  if (it == t.end()) it = t.emplace(n, TwoSided::build(n, 2)).first;
  return it->second;
}

/// Plays 20,000 seeded games from (a0 to move, b0) with both sides choosing
/// the table's best turn and checks the first mover's win rate against the
/// table's value within 4 sigma (a false alarm 1 in 15,000).
void check_monte_carlo(const TwoSided& t, uint32_t a0, uint32_t b0, uint64_t& s) {
  const Successors& S = Successors::get();
  const int games = 20000;
  int wins = 0;
  for (int g = 0; g < games; ++g) {
    uint32_t me = a0, them = b0;
    bool mover_is_first = true;
    for (;;) {
      int d1 = static_cast<int>(splitmix64(s) % 6) + 1,
          d2 = static_cast<int>(splitmix64(s) % 6) + 1;
      Roll roll{static_cast<uint8_t>(std::max(d1, d2)), static_cast<uint8_t>(std::min(d1, d2))};
      int r = static_cast<int>(std::find(all_rolls().begin(), all_rolls().end(), roll) -
                               all_rolls().begin());
      uint32_t best = 0;
      double bv = -1;
      for (uint16_t x : S.of(me, r)) {
        double v = 1 - t.p_win(them, x);  // x = 0: borne off, P(them, 0) = 0
        if (v > bv) bv = v, best = x;
      }
      if (best == 0) {
        wins += mover_is_first;
        break;
      }
      me = best;
      std::swap(me, them);
      mover_is_first = !mover_is_first;
    }
  }
  double p = t.p_win(a0, b0);
  double sigma = std::sqrt(p * (1 - p) / games);
  double freq = static_cast<double>(wins) / games;
  INFO("pair " << a0 << "," << b0 << " table " << p << " simulated " << freq << " sigma " << sigma);
  CHECK(std::abs(freq - p) <= 4 * sigma + 1e-3);
}

}  // namespace

TEST_CASE("nardy exact: the home index is a dense colex rank", "[nardy][exact]") {
  CHECK(home_count(15) == kHomePositions);
  CHECK(home_count(0) == 1);
  CHECK(home_count(1) == 7);
  for (uint32_t i = 0; i < kHomePositions; ++i) {
    Home h = home_at(i);
    REQUIRE(home_index(h) == i);
    int n = home_checkers(h);
    REQUIRE(n <= 15);
    // The homes with at most n checkers are exactly 0..home_count(n)-1.
    REQUIRE(i < home_count(n));
    if (n > 0) REQUIRE(i >= home_count(n - 1));
  }
  CHECK(home_index(Home{}) == 0);
}

TEST_CASE("nardy exact: successors are the generator's and ignore the opponent's home",
          "[nardy][exact]") {
  // Successors came from the generator with one Black checker on 13; here
  // the generator is run on other Black homes (random, up to 15 checkers,
  // Black to move too via the mirror) and must give the same homes.
  const Successors& S = Successors::get();
  uint64_t s = 42;
  TurnGenerator gen;
  std::vector<Position> out;
  int compared = 0;
  for (int i = 0; i < 3000; ++i) {
    uint32_t a = 1 + static_cast<uint32_t>(splitmix64(s) % (kHomePositions - 1));
    uint32_t b = 1 + static_cast<uint32_t>(splitmix64(s) % (kHomePositions - 1));
    int r = static_cast<int>(splitmix64(s) % kRolls);
    Position p = home_position(home_at(a), home_at(b), Color::kWhite);
    if (splitmix64(s) % 2) p = home_position(home_at(b), home_at(a), Color::kBlack);
    gen.positions(p, all_rolls()[static_cast<size_t>(r)], out);
    std::set<uint16_t> got;
    for (const Position& q : out) {
      auto h = home_of(q, p.to_move());
      REQUIRE(h);
      got.insert(static_cast<uint16_t>(home_index(*h)));
    }
    auto want = S.of(a, r);
    REQUIRE(std::vector<uint16_t>(got.begin(), got.end()) ==
            std::vector<uint16_t>(want.begin(), want.end()));
    ++compared;
  }
  CHECK(compared == 3000);
  // The empty home has no successor; every other home has one per roll.
  for (int r = 0; r < kRolls; ++r) CHECK(S.of(0, r).empty());
}

TEST_CASE("nardy exact: a lone checker bears off in one turn iff the roll's pips reach it",
          "[nardy][exact]") {
  // Worked by hand: a lone checker at distance d bears off in one turn iff
  // the roll's pips (a + b; a double: 4a) are at least d (a die >= the
  // distance bears it off; smaller dice carry it home step by step).
  // Failing rolls by d: d <= 3: none (the least is 2-1 = 3 pips);
  // d = 4: 2-1 (2/36); d = 5: 2-1, 3-1, 1-1 (5/36); d = 6: 2-1, 3-1, 1-1,
  // 4-1, 3-2 (9/36).
  const int hand[7] = {0, 36, 36, 36, 34, 31, 27};
  const OneSided& one = OneSided::get();
  for (int d = 1; d <= 6; ++d) {
    INFO("distance " << d);
    CHECK(reaching(d) == hand[d]);
    auto dist = one.off_all(home_index(lone(d)));
    CHECK(dist[1] == Approx(hand[d] / 36.0));
    // A miss leaves it at distance <= 3 (at least 3 pips moved), off next turn.
    CHECK(dist[2] == Approx(1 - hand[d] / 36.0));
    CHECK(one.expected_off_all(home_index(lone(d))) == Approx(2 - hand[d] / 36.0));
    CHECK(one.first_off(home_index(lone(d)))[1] == Approx(hand[d] / 36.0));
  }
  // Two-sided, one checker each (N = 1), by hand from the counts above:
  //   mover at 6, opponent at 1: the mover wins iff it is off now: 27/36;
  //   mover at 6, opponent at 6: 27/36 + 9/36 * 9/36 (a miss leaves the
  //   mover within 3, so it wins unless the opponent is off at once).
  // The table holds doubles for N <= 8, so these are exact (27/36 and
  // 1053/1296 = 13/16 are binary fractions); the fixed-point table read
  // 0.8124971 for 13/16.
  const TwoSided& t1 = table(1);
  REQUIRE(t1.exact());
  CHECK(t1.p_win(home_index(lone(6)), home_index(lone(1))) == 27.0 / 36);
  CHECK(t1.p_win(home_index(lone(6)), home_index(lone(6))) == 27.0 / 36 + 81.0 / 1296);
  // Under checkers=1 (mars read for N) every win is a mars: E = 2P - 2(1 - P).
  CHECK(t1.points(home_index(lone(6)), home_index(lone(6))) == 4 * (27.0 / 36 + 81.0 / 1296) - 2);
  CHECK(t1.p_win(home_index(lone(3)), home_index(lone(1))) == 1.0);
}

TEST_CASE("nardy exact: two-sided equals the one-sided race where no choice exists",
          "[nardy][exact]") {
  // A home is choice-free if every roll leaves one home and those are
  // choice-free. Between two such homes play is forced, so the mover wins
  // iff it needs t turns and the opponent needs at least t:
  //   P = sum_t P(T_a = t) P(T_b >= t).
  const int n = 5;
  const TwoSided& t = table(n);
  const Successors& S = Successors::get();
  const OneSided& one = OneSided::get();
  std::vector<uint8_t> free(t.size(), 0);
  std::vector<uint32_t> order(t.size());
  for (uint32_t i = 0; i < t.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [](uint32_t x, uint32_t y) { return home_pips(home_at(x)) < home_pips(home_at(y)); });
  for (uint32_t h : order) {
    bool f = true;
    for (int r = 0; r < kRolls && h; ++r) {
      auto succ = S.of(h, r);
      if (succ.size() != 1 || !free[succ[0]]) f = false;
    }
    free[h] = f;
  }
  int checked = 0, with_choice = 0;
  double worst = 0;
  for (uint32_t a = 1; a < t.size(); ++a)
    for (uint32_t b = 1; b < t.size(); ++b) {
      if (!free[a] || !free[b]) continue;
      auto da = one.off_all(a), db = one.off_all(b);
      double p = 0, tail = 1;  // tail = P(T_b >= t)
      for (int k = 1; k < kMaxTurns; ++k) {
        tail -= db[static_cast<size_t>(k - 1)];
        p += da[static_cast<size_t>(k)] * tail;
      }
      worst = std::max(worst, std::abs(p - t.p_win(a, b)));
      ++checked;
    }
  for (uint32_t a = 1; a < t.size(); ++a) with_choice += !free[a];
  INFO("pairs " << checked << ", worst " << worst);
  CHECK(checked > 100);
  CHECK(with_choice > 0);
  // The table holds doubles (N <= 8); the one-sided distributions are
  // floats, whose rounding is what is left (the fixed-point table of
  // earlier versions was within 1e-3 here).
  CHECK(worst < 1e-5);
}

TEST_CASE("nardy exact: points are 2 p - 1 where no side can be marsed", "[nardy][exact]") {
  // With N = 4 (mars read for checkers=4) a side with fewer than 4 on the
  // board has borne off: neither side can win a mars any more, so the
  // points-maximising play maximises the winning chance and E = 2 P - 1.
  const TwoSided& t = table(4);
  double worst = 0;
  int mars_pairs = 0;
  for (uint32_t a = 1; a < t.size(); ++a)
    for (uint32_t b = 1; b < t.size(); ++b) {
      if (home_checkers(home_at(a)) == 4 || home_checkers(home_at(b)) == 4) {
        // Where a mars is possible the points exceed the plain 2 P - 1 for
        // a mover that might mars, and are below it for one that might be.
        ++mars_pairs;
        continue;
      }
      worst = std::max(worst, std::abs(t.points(a, b) - (2 * t.p_win(a, b) - 1)));
    }
  CHECK(mars_pairs > 0);
  CHECK(worst < 2e-3);
  // Both at 4 checkers on the 1 point: the mover bears all off with any
  // double (1-1 reaches four 1s; bigger doubles too) and otherwise takes 2;
  // the opponent then does the same. Mover: double (6/36) -> mars, 2 points.
  Home four{4, 0, 0, 0, 0, 0};
  uint32_t f = home_index(four);
  // Miss (30/36): mover has 2 left (has borne off), the opponent rolls: a
  // double (6/36) ends it for the opponent with 1 point (the mover bore
  // off); else the opponent has 2 left and the mover bears off its last 2.
  double p = 6.0 / 36 + 30.0 / 36 * 30.0 / 36;
  double e = 6.0 / 36 * 2 + 30.0 / 36 * (30.0 / 36 * 1 + 6.0 / 36 * -1);
  CHECK(std::abs(t.p_win(f, f) - p) < 1e-4);
  CHECK(std::abs(t.points(f, f) - e) < 1e-3);
}

TEST_CASE("nardy exact: seeded Monte Carlo of table-optimal play agrees with the table",
          "[nardy][exact]") {
  const TwoSided& t = table(5);
  uint64_t s = 2024;
  for (int trial = 0; trial < 4; ++trial) {
    uint32_t a0 = 1 + static_cast<uint32_t>(splitmix64(s) % (t.size() - 1));
    uint32_t b0 = 1 + static_cast<uint32_t>(splitmix64(s) % (t.size() - 1));
    check_monte_carlo(t, a0, b0, s);
  }
}

namespace {

/// Bellman check of a few-checker table at up to 300 random states: the
/// stored value equals the roll-weighted best child read through the model's
/// Position-level generator (a pass hands over to the partner); and the
/// start's value is the average of the openings' best.
void check_few_bellman(const FewCheckers& f, int k) {
  const Options& opt = f.options();
  INFO("K = " << k);
  CHECK(f.states() > 0);
  // Passes happen (a lone checker's double landing on the other's).
  CHECK(f.pass_couples() > 0);
  TurnGenerator gen(opt);
  std::vector<Position> kids;
  uint64_t s = 7 + static_cast<uint64_t>(k);
  int checked = 0;
  for (int i = 0; i < 4000 && checked < 300; ++i) {
    Position p;
    for (Color c : {Color::kWhite, Color::kBlack})
      for (int j = 0; j < k; ++j) {
        int r = static_cast<int>(splitmix64(s) % 25);
        if (r == 24) continue;  // borne off
        int pt = point_of(c, r);
        if (p.count(other(c), pt)) continue;
        p.set(pt, p.at(pt) + (c == Color::kWhite ? 1 : -1));
      }
    p.set_to_move(splitmix64(s) % 2 ? Color::kWhite : Color::kBlack);
    if (!check_playable(p, opt).empty() || result(p, opt).over()) continue;
    double want_p = 0, want_e = 0;
    for (const Roll& r : all_rolls()) {
      gen.positions(p, r, kids);
      double bp = -1, be = -3;
      for (const Position& c : kids) {
        auto [cp, ce] = f.after_turn(c, p.to_move());
        bp = std::max(bp, cp);
        be = std::max(be, ce);
      }
      want_p += r.probability() * bp;
      want_e += r.probability() * be;
    }
    REQUIRE(std::abs(*f.p_win(p) - want_p) < 1e-9);
    REQUIRE(std::abs(*f.points(p) - want_e) < 1e-9);
    ++checked;
  }
  CHECK(checked >= 100);
  double p0 = 0;
  for (const auto& o : f.openings()) p0 += o.roll.probability() * o.p_win;
  CHECK(std::abs(p0 - *f.p_win(Position::start(k))) < 1e-9);
}

/// Every position with both sides home and at most k checkers each has the
/// bear-off table's value (mars at k = none off; the table's values are
/// 16-bit fixed point).
void check_few_against_bearoff(const FewCheckers& f, int k) {
  const TwoSided& t = table(k);
  int checked = 0;
  for (uint32_t a = 1; a < t.size(); ++a)
    for (uint32_t b = 1; b < t.size(); ++b) {
      if (home_checkers(home_at(a)) > k || home_checkers(home_at(b)) > k) continue;
      Position p = home_position(home_at(a), home_at(b), Color::kWhite);
      INFO(p.to_string());
      // Two computations in doubles (the table of N <= 8 holds doubles):
      // equal up to their rounding.
      REQUIRE(t.exact());
      REQUIRE(std::abs(*f.p_win(p) - t.p_win(a, b)) < 1e-12);
      REQUIRE(std::abs(*f.points(p) - t.points(a, b)) < 1e-12);
      Position q = home_position(home_at(b), home_at(a), Color::kBlack);
      REQUIRE(std::abs(*f.p_win(q) - t.p_win(a, b)) < 1e-12);
      ++checked;
    }
  CHECK(checked == static_cast<int>((t.size() - 1) * (t.size() - 1)));
}

}  // namespace

TEST_CASE("nardy exact: few-checker solve, K = 1, 2 and 3", "[nardy][exact][few]") {
  for (int k : {1, 2, 3}) {
    Options opt;
    opt.checkers = k;
    const FewCheckers f = FewCheckers::solve(opt, 2);
    check_few_bellman(f, k);
    // K = 3: every all-home pair (83 x 83) against the bear-off table of
    // doubles (K = 2 in the next test).
    if (k == 3) check_few_against_bearoff(f, k);
  }
}

TEST_CASE("nardy exact: few-checker solve, K = 4 (slow: 6.7 GB, about 20 minutes on 2 cores)",
          "[nardy][exact][few][.slow]") {
  // Solved into $LOOM_NARDY_DB (default: the cache directory) on first use
  // and loaded afterwards, as `loom solve nardy --rule checkers=4` does.
  const char* env = std::getenv("LOOM_NARDY_DB");
  const std::string dir = env && *env ? env : default_cache_dir();
  Options opt;
  opt.checkers = 4;
  const FewCheckers f = FewCheckers::cached(opt, dir, &std::cerr, &std::cerr, 2);
  check_few_bellman(f, 4);
  check_few_against_bearoff(f, 4);
}

TEST_CASE("nardy exact: the few-checker solver and the bear-off table agree",
          "[nardy][exact][few]") {
  // checkers=2: every position with both sides home (27 x 27 pairs).
  Options opt;
  opt.checkers = 2;
  check_few_against_bearoff(FewCheckers::solve(opt, 2), 2);
}

TEST_CASE("nardy exact: few-checker tables are checked and solves resume",
          "[nardy][exact][few][files]") {
  Options opt;
  opt.checkers = 2;
  const FewCheckers mem = FewCheckers::solve(opt, 2);
  fs::path dir = temp_dir("few");
  // Interrupted after 3 chunks of at least 2,000 states (as if killed),
  // then a corrupt chunk and a stray .tmp, then resumed: equal to the solve
  // in memory, figures included.
  CHECK_FALSE(FewCheckers::solve_resumable(opt, dir.string(), 2, nullptr, nullptr, 3, 2000));
  const std::string file = FewCheckers::file_name(dir.string(), 2);
  fs::path part = file + ".part";
  std::vector<fs::path> chunks;
  for (auto& e : fs::directory_iterator(part)) chunks.push_back(e.path());
  REQUIRE(chunks.size() == 3);
  std::sort(chunks.begin(), chunks.end());
  {
    std::fstream f(chunks[1], std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(100);
    f.put('\x55');
  }
  std::ofstream(part / "chunk-999.bin.tmp") << "partial";
  std::ostringstream notes;
  auto resumed = FewCheckers::solve_resumable(opt, dir.string(), 1, &notes, nullptr, 0, 2000);
  REQUIRE(resumed);
  CHECK(notes.str().find("corrupt") != std::string::npos);
  CHECK(resumed->same_table(mem));
  CHECK(resumed->states() == mem.states());
  CHECK(resumed->pass_couples() == mem.pass_couples());
  CHECK(resumed->generator_calls() == mem.generator_calls());
  CHECK_FALSE(fs::exists(part));
  // The saved file loads to the same table; damaged or foreign files do not.
  std::string why;
  auto loaded = FewCheckers::load(file, opt, &why);
  REQUIRE(loaded);
  CHECK(loaded->same_table(mem));
  CHECK(loaded->pass_couples() == mem.pass_couples());
  const std::string bytes = [&] {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  auto write = [&](const std::string& path, const std::string& data) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << data;
  };
  write(file, bytes.substr(0, bytes.size() - 5));
  CHECK_FALSE(FewCheckers::load(file, opt, &why));
  CHECK(why.find("truncated") != std::string::npos);
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x04;
  write(file, flipped);
  CHECK_FALSE(FewCheckers::load(file, opt, &why));
  CHECK(why.find("checksum") != std::string::npos);
  flipped = bytes;
  flipped[90] ^= 0x01;  // the rules text
  write(file, flipped);
  CHECK_FALSE(FewCheckers::load(file, opt, &why));
  CHECK(why.find("other rules") != std::string::npos);
  // The K = 2 table under K = 1's name.
  write(FewCheckers::file_name(dir.string(), 1), bytes);
  Options one;
  one.checkers = 1;
  CHECK_FALSE(FewCheckers::load(FewCheckers::file_name(dir.string(), 1), one, &why));
  // cached() solves again instead of using a corrupt file.
  write(file, flipped);
  std::ostringstream notes2;
  FewCheckers c = FewCheckers::cached(opt, dir.string(), &notes2, nullptr, 2);
  CHECK(notes2.str().find("solving again") != std::string::npos);
  CHECK(c.same_table(mem));
  REQUIRE(FewCheckers::load(file, opt, &why));
  // Something at a chunk path that is not a regular file is refused, never read.
  fs::create_directories(part / "chunk-000.bin");
  CHECK_THROWS_AS(FewCheckers::solve_resumable(opt, dir.string(), 1, nullptr, nullptr, 0, 2000),
                  InputError);
  fs::remove_all(dir);
}

TEST_CASE("nardy exact: rank_roll ranks a roll's results by the table", "[nardy][exact]") {
  // White on its 3 and 6 points, Black one checker on its 6 point. Roll
  // 2-1, worked by hand: 6/4 4/3 and 6/5 5/3 -> {3,3}; 6/4 3/2 -> {2,4};
  // 6/5 3/1 -> {1,5}; 3/1 1/off and 3/2 2/off -> {6}: 4 distinct results.
  const TwoSided& t = table(2);
  Home w{0, 0, 1, 0, 0, 1}, b = lone(6);
  Position p = home_position(w, b, Color::kWhite);
  auto ranked = rank_roll(p, *Roll::parse("21"), t);
  REQUIRE(ranked.size() == 4);
  for (size_t i = 0; i < ranked.size(); ++i) {
    auto h = home_of(ranked[i].position, Color::kWhite);
    REQUIRE(h);
    CHECK(ranked[i].p_win == 1 - t.p_win(home_index(b), home_index(*h)));
    if (i) CHECK(ranked[i - 1].p_win >= ranked[i].p_win);
  }
  CHECK_THROWS_AS(rank_roll(Position::start(), *Roll::parse("51"), t), InputError);
}

TEST_CASE("nardy exact: the bear-off recursion equals the table of doubles bit for bit",
          "[nardy][exact]") {
  // BearoffRecursion (values without a table, for homes of any checker
  // count) evaluates every pair by the table's own function: on N = 6 its
  // values must be the table's exactly, at the pair asked and at the
  // results of its turns.
  const int n = 6;
  const TwoSided& t = table(n);
  REQUIRE(t.exact());
  uint64_t s = 6;
  int compared = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const uint32_t a = static_cast<uint32_t>(splitmix64(s) % t.size());
    const uint32_t b = static_cast<uint32_t>(splitmix64(s) % t.size());
    BearoffRecursion rec(n, a, b, 1000);
    REQUIRE(rec.ok());
    INFO(home_position(home_at(a), home_at(b), Color::kWhite).to_string());
    REQUIRE(rec.p_win(a, b) == t.p_win(a, b));
    REQUIRE(rec.points(a, b) == t.points(a, b));
    // Every turn's result, both ways round.
    for (int r = 0; r < kRolls; ++r)
      for (uint16_t x : Successors::get().of(a, r)) {
        REQUIRE(rec.p_win(b, x) == t.p_win(b, x));
        REQUIRE(rec.points(b, x) == t.points(b, x));
        ++compared;
      }
    CHECK(rec.pairs() <= uint64_t{rec.homes()} * rec.homes());
  }
  CHECK(compared > 200);
  // A reach larger than allowed: nothing is valued (the caller uses a table).
  const uint32_t full6 = home_index(Home{0, 0, 0, 0, 0, 6});
  BearoffRecursion small(n, full6, full6, 100);
  CHECK_FALSE(small.ok());
  BearoffRecursion whole(n, full6, full6, 1000);
  REQUIRE(whole.ok());
  // 6 on the 6 point reach most homes of at most 6 checkers, not all: a turn
  // moves at least 3 pips, so 6 checkers with 34 or 35 pips are out of reach.
  CHECK(whole.homes() < t.size());
  CHECK(whole.homes() > 900);
  CHECK(whole.p_win(full6, full6) == t.p_win(full6, full6));
}

TEST_CASE("nardy exact: database files are checked and builds resume", "[nardy][exact][files]") {
  fs::path dir = temp_dir("files");
  const int n = 4;
  TwoSided built = TwoSided::build(n, 2);
  std::string file = TwoSided::file_name(dir.string(), n);
  built.save(file);
  std::string why;
  auto ok = TwoSided::load(file, n, &why);
  REQUIRE(ok);
  for (uint32_t a = 0; a < built.size(); ++a)
    for (uint32_t b = 0; b < built.size(); ++b) {
      REQUIRE(ok->p_win(a, b) == built.p_win(a, b));
      REQUIRE(ok->points(a, b) == built.points(a, b));
    }
  auto bytes = [&] {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  auto write = [&](const std::string& path, const std::string& data) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << data;
  };
  // Truncated.
  write(file, bytes.substr(0, bytes.size() - 3));
  CHECK_FALSE(TwoSided::load(file, n, &why));
  CHECK(why.find("truncated") != std::string::npos);
  // One flipped bit in the payload.
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x10;
  write(file, flipped);
  CHECK_FALSE(TwoSided::load(file, n, &why));
  CHECK(why.find("checksum") != std::string::npos);
  // A flipped bit in the header's rules.
  flipped = bytes;
  flipped[60] ^= 0x01;
  write(file, flipped);
  CHECK_FALSE(TwoSided::load(file, n, &why));
  // A fixed-point file (format version 1, as earlier versions wrote every
  // N) is not read as a table of doubles: it is rebuilt.
  REQUIRE(TwoSided::exact_for(n));
  flipped = bytes;
  flipped[8] = 1;
  write(file, flipped);
  CHECK_FALSE(TwoSided::load(file, n, &why));
  CHECK(why.find("format version 1") != std::string::npos);
  // A value out of range (checksum recomputed) is refused too.
  {
    flipped = bytes;
    const double bad = 1.5;
    std::memcpy(flipped.data() + 88 + 8 * 3, &bad, 8);
    const uint64_t half = (bytes.size() - 88) / 2;
    const uint64_t c =
        checksum(flipped.data() + 88 + half, half, checksum(flipped.data() + 88, half));
    std::memcpy(flipped.data() + 32, &c, 8);
    write(file, flipped);
    CHECK_FALSE(TwoSided::load(file, n, &why));
    CHECK(why.find("out of range") != std::string::npos);
  }
  // Another N under this N's name.
  write(file, bytes);
  CHECK_FALSE(TwoSided::load(file, n + 1, &why));
  CHECK(why.find("N=4") != std::string::npos);
  // cached() rebuilds a corrupt file instead of using it.
  write(file, flipped);
  std::ostringstream notes;
  const TwoSided& c = TwoSided::cached(n, dir.string(), &notes);
  CHECK(notes.str().find("rebuilding") != std::string::npos);
  CHECK(c.p_win(5, 7) == built.p_win(5, 7));
  REQUIRE(TwoSided::load(file, n, &why));

  // Interrupted after 2 chunks (as if killed), then a corrupt chunk and a
  // stray .tmp (what SIGKILL can leave), then resumed: equal to one build.
  fs::path dir2 = temp_dir("resume");
  const int m = 6;
  CHECK_FALSE(TwoSided::build_resumable(m, dir2.string(), 2, nullptr, nullptr, 2, 20000));
  fs::path part = TwoSided::file_name(dir2.string(), m) + ".part";
  std::vector<fs::path> chunks;
  for (auto& e : fs::directory_iterator(part)) chunks.push_back(e.path());
  REQUIRE(chunks.size() == 2);
  std::sort(chunks.begin(), chunks.end());
  {
    std::fstream f(chunks[1], std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(50);
    f.put('\x7f');
  }
  write((part / "chunk-999.bin.tmp").string(), "partial");
  std::ostringstream log;
  auto resumed = TwoSided::build_resumable(m, dir2.string(), 2, &log, nullptr, 0, 20000);
  REQUIRE(resumed);
  CHECK(log.str().find("corrupt") != std::string::npos);
  TwoSided whole = TwoSided::build(m, 1);
  for (uint32_t a = 0; a < whole.size(); ++a)
    for (uint32_t b = 0; b < whole.size(); ++b) {
      REQUIRE(resumed->p_win(a, b) == whole.p_win(a, b));
      REQUIRE(resumed->points(a, b) == whole.points(a, b));
    }
  CHECK_FALSE(fs::exists(part));
  fs::remove_all(dir);
  fs::remove_all(dir2);
}

TEST_CASE("nardy exact: the full 15 v 15 table (slow: 11.8 GB, built or loaded)",
          "[nardy][exact][.slow]") {
  // Built into $LOOM_NARDY_DB (default: the cache directory) on first use
  // and loaded afterwards; the build resumes if interrupted.
  const char* env = std::getenv("LOOM_NARDY_DB");
  const std::string dir = env && *env ? env : default_cache_dir();
  const TwoSided& big = TwoSided::cached(15, dir, &std::cerr, &std::cerr);
  REQUIRE(big.n() == 15);
  REQUIRE(big.size() == 54264u);
  // 1. On its prefix of homes with at most 8 checkers it is the N = 8 table
  //    (doubles) within its proven rounding bound: a pair's chance depends
  //    only on pairs with fewer checkers (points differ: mars is read for
  //    checkers=N).
  const TwoSided& t8 = table(8);
  REQUIRE(t8.exact());
  REQUIRE_FALSE(big.exact());
  uint64_t s = 15;
  double off = 0;
  for (int i = 0; i < 2'000'000; ++i) {
    uint32_t a = static_cast<uint32_t>(splitmix64(s) % t8.size());
    uint32_t b = static_cast<uint32_t>(splitmix64(s) % t8.size());
    off = std::max(off, std::abs(big.p_win(a, b) - t8.p_win(a, b)));
  }
  INFO("worst |fixed - double| on the N = 8 pairs " << off);
  CHECK(off <= TwoSided::kFixedPBound);
  // 2. Bellman equation at random pairs of the whole table (the value is the
  //    roll-weighted best of 1 - P(opponent, successor)), within rounding.
  const Successors& S = Successors::get();
  double worst = 0;
  for (int i = 0; i < 200'000; ++i) {
    uint32_t a = 1 + static_cast<uint32_t>(splitmix64(s) % (big.size() - 1));
    uint32_t b = 1 + static_cast<uint32_t>(splitmix64(s) % (big.size() - 1));
    double want = 0;
    for (int r = 0; r < kRolls; ++r) {
      double bv = 0;
      for (uint16_t x : S.of(a, r)) bv = std::max(bv, x == 0 ? 1.0 : 1 - big.p_win(b, x));
      want += all_rolls()[static_cast<size_t>(r)].weight() / 36.0 * bv;
    }
    worst = std::max(worst, std::abs(want - big.p_win(a, b)));
  }
  INFO("Bellman worst " << worst);
  CHECK(worst < 1e-4);  // a stored value rounds to within 1/131,070 of its equation
  // 3. Seeded Monte Carlo of table-optimal play from 15 v 15 homes.
  for (int trial = 0; trial < 3; ++trial) {
    uint32_t a0, b0;
    do {
      a0 = static_cast<uint32_t>(splitmix64(s) % big.size());
    } while (home_checkers(home_at(a0)) != 15);
    do {
      b0 = static_cast<uint32_t>(splitmix64(s) % big.size());
    } while (home_checkers(home_at(b0)) != 15);
    check_monte_carlo(big, a0, b0, s);
  }
}
