// The superko method (solver/superko_dfs.h): a table keyed by the board
// alone, sound under positional superko, checked against the alpha-beta
// whose table keys hold the whole history (DfsSolver, itself checked against
// plain minimax on the naive Fiodar in test_solver_games.cpp), and the
// model's superko queries it relies on checked against brute force.
#include <catch2/catch.hpp>

#include <functional>
#include <random>
#include <vector>

#include "model/fiodar/fiodar.h"
#include "solver/dfs.h"
#include "solver/superko_dfs.h"
#include "tests/fiodar/fiodar_fixture.h"
#include "tests/solver/ko_toy.h"

using namespace loom;

namespace {

using S = fiodar::State<1>;
using Move = S::Move;

/// Black minus White at the end (half points), by the full-history solver.
int full_history_margin(const S& s, uint64_t max_nodes, bool* finished,
                        uint64_t table_bytes = uint64_t{64} << 20) {
  solver::RunControl ctl;
  solver::DfsSolver<S> d(s, {true, table_bytes, max_nodes, {}, {}}, ctl);
  try {
    const int32_t black = d.solve_black(s);
    *finished = true;
    const int sign = black > 0 ? 1 : -1;
    return black - sign * solver::kWinScore;
  } catch (const solver::NodeLimit&) {
    *finished = false;
    return 0;
  }
}

/// Black minus White at the end, by the superko method (shared table).
int superko_margin(solver::SuperkoDfs<S>& d, const S& s) {
  const int v = d.value(s);
  const int past = 2 * (s.prisoners(Color::kBlack) - s.prisoners(Color::kWhite));
  return past + (s.to_move() == Color::kBlack ? v : -v);
}

/// Superko refusals by brute force: a placement otherwise legal whose
/// result is a board of the mover's history.
bool refuses_brute(const S& s) {
  if (s.is_terminal()) return false;
  bool any = false;
  s.empty().for_each([&](int site) {
    auto p = s.analyse(site);
    any = any || (p.superko && !p.suicide);
  });
  return any;
}

std::vector<fiodar::Board<1>> above_brute(const S& s) {
  std::vector<fiodar::Board<1>> out;
  for (Color c : {Color::kBlack, Color::kWhite})
    for (const auto& e : s.history(c)) {
      const auto& x = e.board[idx(c)];
      const auto& mine = s.stones(c);
      if (x != mine && mine.andnot(x).none()) out.push_back(e.board);
    }
  return out;
}

/// The positions of a seeded random game before its end (passing with
/// probability 1/20; side-3 games last about 23 plies, two in three have a
/// capture): each with whether a capture came before it.
std::vector<std::pair<S, bool>> random_game(const testing::FiodarBoard<1>& b,
                                            std::mt19937_64& rng) {
  std::vector<std::pair<S, bool>> out;
  S s = b.start();
  std::vector<Move> ms;
  S::Undo u;
  bool captured = false;
  for (int ply = 0; ply < 200 && !s.is_terminal(); ++ply) {
    out.emplace_back(s, captured);
    s.legal_moves(ms);
    Move m = ms.size() > 1 ? ms[1 + rng() % (ms.size() - 1)] : ms[0];
    if (ms.size() > 1 && rng() % 20 == 0) m = ms[0];
    s.apply(m, u);
    captured = captured || u.removed.any();
  }
  return out;
}

}  // namespace

TEST_CASE("fiodar superko queries agree with brute force", "[solver][fiodar][superko]") {
  testing::FiodarBoard<1> b(3);
  std::mt19937_64 rng(20261202);
  int refusing = 0, with_above = 0;
  for (int g = 0; g < 1000; ++g)
    for (const auto& [s, captured] : random_game(b, rng)) {
      (void)captured;
      const bool brute = refuses_brute(s);
      INFO(g);
      REQUIRE(s.superko_refuses() == brute);
      // A refusal needs a stone of the mover to have been captured (the
      // fast path of superko_refuses and for_each_above).
      if (brute) REQUIRE(s.prisoners(other(s.to_move())) > 0);
      refusing += brute;
      auto above = above_brute(s);
      size_t seen = 0;
      s.for_each_above(s.board(), [&](Color, const fiodar::Board<1>&) { ++seen; });
      REQUIRE(seen == above.size());
      with_above += !above.empty();
    }
  // The random games reach both cases (captures, then ko-like repeats).
  CHECK(refusing >= 10);
  CHECK(with_above >= 500);
}

TEST_CASE("fiodar side 2: the superko method = the full-history alpha-beta, every rule set",
          "[solver][fiodar][superko]") {
  for (const char* variant : {"", "cut=gap", "suicide=capture-first", "half=first-pass-of-game"}) {
    fiodar::Options o;
    if (std::string(variant) == "cut=gap") o.cut_gap = true;
    if (std::string(variant) == "suicide=capture-first") o.capture_first = true;
    if (std::string(variant) == "half=first-pass-of-game") o.half_first_of_game = true;
    testing::FiodarBoard<1> b(2, o);
    solver::SuperkoDfs<S> d(b.start(), {uint64_t{8} << 20, 0, true, {}, {}});
    // No more buckets than keys (2 x 3^7 = 4,374 -> 8,192 of 4 entries):
    // the 8 MB asked for are not all taken on 7 cells.
    CHECK(d.table_bytes() < (uint64_t{1} << 20));
    // The empty board and every position of up to 3 plies.
    std::vector<S> frontier{b.start()}, all;
    for (int ply = 0; ply <= 3; ++ply) {
      std::vector<S> next;
      for (const S& s : frontier) {
        all.push_back(s);
        std::vector<Move> ms;
        s.legal_moves(ms);
        for (const Move& m : ms) {
          S c = s;
          S::Undo u;
          c.apply(m, u);
          next.push_back(c);
        }
      }
      frontier = std::move(next);
    }
    int checked = 0;
    for (const S& s : all) {
      if (s.is_terminal()) continue;
      bool finished = false;
      const int want = full_history_margin(s, 0, &finished);
      REQUIRE(finished);
      INFO(variant << " mover " << idx(s.to_move()) << " passes " << s.consecutive_passes());
      REQUIRE(superko_margin(d, s) == want);
      ++checked;
    }
    CHECK(checked > 100);
  }
}

TEST_CASE("fiodar side 3: the superko method = the full-history alpha-beta after captures",
          "[solver][fiodar][superko]") {
  // Positions late in seeded random games: many have captures behind them
  // and history boards above the board (the case the table key's digest
  // and the keep condition are for), some a superko refusal at the root.
  testing::FiodarBoard<1> b(3);
  std::mt19937_64 rng(7);
  solver::SuperkoDfs<S> d(b.start(), {uint64_t{64} << 20, 0, true, {}, {}});
  int checked = 0, after_capture = 0, with_above = 0, refused = 0, tried = 0, tried_refusing = 0;
  // Late positions after a capture (the first 80 the full-history search
  // finishes within its budget), then positions where superko refuses a
  // move at the root (ko-like recaptures: about 3 in 100 games).
  for (int g = 0; g < 4000 && (checked < 80 || refused < 4); ++g)
    for (const auto& [s, captured] : random_game(b, rng)) {
      const bool refusing = s.superko_refuses();
      if (refusing ? refused >= 4 || s.empty().count() > 11
                   : checked >= 80 || !captured || s.empty().count() > 8)
        continue;
      bool finished = false;
      const int want = full_history_margin(s, 60000, &finished);
      ++tried;
      tried_refusing += refusing;
      if (!finished) continue;
      INFO("game " << g);
      REQUIRE(superko_margin(d, s) == want);
      ++checked;
      after_capture += captured;
      with_above += !above_brute(s).empty();
      refused += refusing;
    }
  INFO("tried " << tried << " (" << tried_refusing << " refusing), checked " << checked
                << ", after capture " << after_capture << ", above " << with_above << ", refusing "
                << refused);
  CHECK(checked >= 80);
  CHECK(after_capture >= 60);
  CHECK(with_above >= 10);
  CHECK(refused >= 4);
}

TEST_CASE(
    "fiodar side 2: one superko table over thousands of histories = the full-history alpha-beta",
    "[solver][fiodar][superko]") {
  // Every position with at most 4 empty points or after a capture in 2,000
  // seeded random side-2 games, all through one table: the 2,187 boards
  // recur under many histories, and entries with a partial keep (a line
  // below removed stones of the board) are stored and met again. In Fiodar
  // superko seldom decides a value, so this cannot tell a history-blind
  // table from a sound one: the ko-toy test below can.
  // 2,000 games a rule set; 600 under the sanitizers (the full count took
  // 200 s of the default suite there, 18 s in Release).
#if defined(__SANITIZE_ADDRESS__)
  constexpr int kGames = 600;
#else
  constexpr int kGames = 2000;
#endif
  for (const char* variant : {"", "suicide=capture-first"}) {
    fiodar::Options o;
    o.capture_first = std::string(variant) == "suicide=capture-first";
    testing::FiodarBoard<1> b(2, o);
    solver::SuperkoDfs<S> d(b.start(), {uint64_t{1} << 20, 0, true, {}, {}});
    std::mt19937_64 rng(31);
    int checked = 0;
    for (int g = 0; g < kGames; ++g)
      for (const auto& [s, captured] : random_game(b, rng)) {
        if (!captured && s.empty().count() > 4) continue;
        bool finished = false;
        const int want = full_history_margin(s, 0, &finished, uint64_t{1} << 20);
        REQUIRE(finished);
        INFO(variant << " game " << g);
        REQUIRE(superko_margin(d, s) == want);
        ++checked;
      }
    INFO("checked " << checked << ", partial keeps " << d.stats().partial);
    CHECK(checked >= 1000);          // 600 games: 3,701
    CHECK(d.stats().partial >= 50);  // 600 games: 59
  }
}

TEST_CASE("fiodar side 2: superko never decides a value in 11 plies", "[solver][fiodar][.slow]") {
  // Why the side-2 comparisons above cannot catch a history-blind table:
  // every position reached in at most 11 plies (no game-ending pass) after
  // a capture has the full-history value of the same board set up without
  // any history. (If this ever fails, the failing position is the test the
  // superko method lacks: keep it.) About 35 s in a release build.
  testing::FiodarBoard<1> b(2);
  int tried = 0;
  std::function<void(const S&, int, bool)> walk = [&](const S& s, int depth, bool captured) {
    if (s.is_terminal()) return;
    if (captured && s.consecutive_passes() == 0) {
      S fresh = b.start();
      for (Color c : {Color::kBlack, Color::kWhite})
        s.stones(c).for_each([&](int site) { fresh.put(site, c); });
      fresh.set_to_move(s.to_move());
      bool f1 = false, f2 = false;
      const int with_history = full_history_margin(s, 0, &f1, uint64_t{1} << 20);
      const int without = full_history_margin(fresh, 0, &f2, uint64_t{1} << 20);
      REQUIRE((f1 && f2));
      const int past = 2 * (s.prisoners(Color::kBlack) - s.prisoners(Color::kWhite));
      REQUIRE(with_history - past == without);
      ++tried;
    }
    if (depth == 0) return;
    std::vector<Move> ms;
    s.legal_moves(ms);
    for (const Move& m : ms) {
      if (m.is_pass() && s.consecutive_passes() == 1) continue;
      S c = s;
      S::Undo u;
      c.apply(m, u);
      walk(c, depth - 1, captured || u.removed.any());
    }
  };
  walk(b.start(), 11, false);
  CHECK(tried == 194976);
}

TEST_CASE("superko method on a ko toy where superko decides values = whole-history search",
          "[solver][superko][ghi]") {
  // tests/solver/ko_toy.h: single-stone captures on three cells, so ko
  // fights start at once and superko decides many values. Every position
  // within 12 plies of the start (1,502 on the triangle, 86 on the line,
  // with their histories) goes through one superko table and must have the
  // value of the memoised search over whole histories; the test also checks
  // that the history does decide values here (366 triangle positions have
  // another value than their board set up without history), else it could
  // not catch a history-blind table, as the Fiodar comparisons cannot.
  // Measured: each of these breaks it (a wrong value): a table blind to the
  // history; partial-keep results stored as if nothing was removed (what
  // the method refused before 6a5e5c7); a table hit that does not pass its
  // entry's keep up.
  using testing::KoToy;
  for (int shape = 0; shape < 2; ++shape) {
    const KoToy start = shape == 0 ? KoToy{"a1", "b1", "b2"} : KoToy{"a2", "b2", "c2"};
    solver::SuperkoDfs<KoToy> d(start, {uint64_t{1} << 20, 0, false, {}, {}});
    testing::KoToyReference ref;
    int checked = 0, history_decides = 0, refusing = 0;
    std::function<void(KoToy&, int)> walk = [&](KoToy& s, int depth) {
      if (s.is_terminal()) return;
      KoToy a = s, b = s;
      const int want = ref.future_margin(a);
      const int v = d.value(b);
      INFO("shape " << shape << " depth " << depth << " checked " << checked);
      REQUIRE((s.to_move() == Color::kBlack ? v : -v) == want);
      ++checked;
      refusing += s.superko_refuses();
      if (s.consecutive_passes() == 0) {
        KoToy fresh = s.set_up(s.board(), s.to_move());
        history_decides += ref.future_margin(fresh) != want;
      }
      if (depth == 0) return;
      std::vector<KoToy::Move> ms;
      s.legal_moves(ms);
      KoToy::Undo u;
      for (const auto& m : ms) {
        s.apply(m, u);
        walk(s, depth - 1);
        s.undo(m, u);
      }
    };
    KoToy root = start;
    walk(root, 12);
    INFO("shape " << shape << ": checked " << checked << ", history decides " << history_decides
                  << ", refusing " << refusing << ", partial keeps " << d.stats().partial);
    CHECK(checked > (shape == 0 ? 1000 : 80));
    CHECK(history_decides > (shape == 0 ? 100 : 5));
    CHECK(refusing > (shape == 0 ? 100 : 10));
    CHECK(d.stats().partial > 0);
  }
}
