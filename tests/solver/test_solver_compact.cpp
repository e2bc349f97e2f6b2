// The compact alpha-beta (solver/compact_dfs.h, `--method compact`) against
// the methods it must reproduce: on Gadur side 2 (both merge-only rule sets,
// the acyclic ones) every position the hash retrograde reaches has the
// retrograde's winner; on side-3 merge-only positions from seeded random
// games it has the winner of the old alpha-beta (solver/dfs.h). Its fast path
// over the game's placement list (search_placed: children from bitboards,
// exact child keys, prefetched buckets) must search exactly the tree of the
// generic path (legal_moves, apply, undo): the same value and the same
// node count at every position compared. The proof-number search
// (solver/dfpn.h, `--method dfpn`) must give the same winners at the same
// positions, with 32-bit and 64-bit keys alike.
#include <sched.h>

#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <thread>

#include "model/common/zobrist.h"
#include "solver/checkpoint.h"
#include "solver/compact_dfs.h"
#include "solver/dfpn.h"
#include "solver/dfs.h"
#include "solver/driver.h"
#include "solver/retrograde.h"
#include "solver/whole16.h"
#include "tests/common/cli_run.h"
#include "tests/gadur/gadur_fixture.h"

using namespace loom;
using CState = gadur::State<1>;

namespace {

struct CompactRun {
  bool wins;
  uint64_t nodes;
};

/// A table of 2^16 buckets whatever the entry size, so that both key
/// widths replace the same entries and search the same tree.
template <class Codec>
CompactRun compact_run(const CState& s, bool placements) {
  using D = solver::CompactDfs<CState, Codec>;
  typename D::Config cfg;
  cfg.table_bytes = (uint64_t{1} << 16) * D::kWays * D::kEntryBytes;
  cfg.placements = placements;
  solver::CompactDfs<CState, Codec> d(s, cfg);
  const bool w = d.mover_wins(s);
  return {w, d.nodes()};
}

/// Both paths agree with each other, node for node; returns the winner.
/// Up to 19 cells the 32-bit and the 64-bit keys give the same tree too.
bool compact_winner_is_mover(const CState& s) {
  const bool small = s.geo().num_sites() <= solver::kDenseMaxCells;
  const CompactRun fast =
      small ? compact_run<solver::DenseCodec>(s, true) : compact_run<solver::WideCodec>(s, true);
  const CompactRun generic = compact_run<solver::WideCodec>(s, false);
  REQUIRE(fast.wins == generic.wins);
  REQUIRE(fast.nodes == generic.nodes);
  if (small) {
    const CompactRun slow = compact_run<solver::DenseCodec>(s, false);
    REQUIRE(slow.wins == fast.wins);
    REQUIRE(slow.nodes == fast.nodes);
  }
  return fast.wins;
}

/// The df-pn winner (a 1 MB table: replacement is exercised); up to 19
/// cells both key widths give it. 32-bit keys beyond 19 cells do not exist.
bool dfpn_winner_is_mover(const CState& s) {
  const auto run = [&]<class Codec>(Codec*) {
    typename solver::Dfpn<CState, Codec>::Config cfg;
    cfg.table_bytes = uint64_t{1} << 20;
    solver::Dfpn<CState, Codec> d(s, cfg);
    const bool w = d.mover_wins(s);
    CHECK(d.nodes() > 0);
    return w;
  };
  const bool wide = run(static_cast<solver::WideCodec*>(nullptr));
  if (s.geo().num_sites() <= solver::kDenseMaxCells)
    REQUIRE(run(static_cast<solver::DenseCodec*>(nullptr)) == wide);
  return wide;
}

}  // namespace

TEST_CASE("compact alpha-beta: Gadur side 2 merge-only, every position has the retrograde winner",
          "[solver][compact]") {
  for (bool subset : {false, true}) {
    const gadur::Context<1> ctx(2, gadur::Options{subset, true});
    const CState root(&ctx);
    solver::RunControl ctl;
    solver::Retrograde<CState> r(root, solver::Retrograde<CState>::Config{});
    REQUIRE(r.enumerate(ctl, [] {}));
    r.solve(ctl, [] {});
    uint64_t compared = 0, mover_wins = 0;
    for (uint64_t i = 0; i < r.positions(); ++i) {
      const CState s = r.state(i);
      INFO("subset " << subset << " position " << i);
      const bool w = compact_winner_is_mover(s);
      REQUIRE(w == (r.value(i) == solver::Value::win(s.to_move())));
      REQUIRE(dfpn_winner_is_mover(s) == w);
      ++compared;
      mover_wins += w;
    }
    CHECK(compared == r.positions());
    // Both outcomes occur (the comparison could not pass by one answer).
    CHECK(mover_wins > 0);
    CHECK(mover_wins < compared);
  }
}

namespace {

/// Seeded random games of merge-only Gadur on `side`, stopped after
/// min_plies .. min_plies + 3 placements: the compact winner (both paths)
/// equals the old alpha-beta's at every such position it solves in 300,000
/// nodes; at least want_compared positions are compared.
void compact_against_dfs(int side, int min_plies, int games, int want_compared) {
  const gadur::Context<1> ctx(side, gadur::Options{false, true});
  uint64_t seed = 20261203 + static_cast<uint64_t>(side);
  int compared = 0, mover_wins = 0;
  std::vector<CState::Move> ms;
  for (int game = 0; game < games; ++game) {
    CState s(&ctx);
    CState::Undo u;
    const int plies = min_plies + static_cast<int>(splitmix64(seed) % 4);
    bool over = false;
    for (int p = 0; p < plies && !over; ++p) {
      s.legal_moves(ms);
      if (ms.empty())
        over = true;
      else
        s.apply(ms[splitmix64(seed) % ms.size()], u);
    }
    if (over || s.is_terminal()) continue;
    INFO("game " << game << ", " << plies << " plies");
    solver::RunControl ctl;
    solver::DfsSolver<CState>::Config dc;
    dc.table_bytes = uint64_t{16} << 20;
    // Positions the old alpha-beta does not finish in 300,000 nodes are
    // left out (random side-4 positions can hold trees of billions).
    dc.max_nodes = 300'000;
    solver::DfsSolver<CState> d(s, dc, ctl);
    solver::Value want;
    try {
      want = solver::score_value(d.solve_black(s), d.neutral_kind());
    } catch (const solver::NodeLimit&) {
      continue;
    }
    const bool w = compact_winner_is_mover(s);
    REQUIRE(w == (want == solver::Value::win(s.to_move())));
    REQUIRE(dfpn_winner_is_mover(s) == w);
    ++compared;
    mover_wins += w;
  }
  CHECK(compared >= want_compared);
  CHECK(mover_wins > 0);
  CHECK(mover_wins < compared);
}

}  // namespace

TEST_CASE("compact alpha-beta: Gadur side-3 merge-only positions have the alpha-beta winner",
          "[solver][compact]") {
  compact_against_dfs(3, 9, 30, 15);
}

TEST_CASE(
    "compact alpha-beta with 64-bit keys: Gadur side-4 merge-only positions have the "
    "alpha-beta winner",
    "[solver][compact]") {
  compact_against_dfs(4, 26, 40, 8);
}

TEST_CASE("16-byte table entries are read and written whole while other threads write them",
          "[solver][compact]") {
  // Threads share a table of 16-byte entries (the compact method on side
  // 4, df-pn) only where load16/store16 are whole. Two writers keep
  // storing entries whose halves agree (b == ~a) into one slot while this
  // thread reads it: a read of one half of one entry and one of another
  // breaks the rule. The reader goes on until it has seen the slot change
  // 200,000 times (or 60 s pass: a loaded machine; 2 s on one CPU). Two
  // 8-byte reads in place of load16 saw 3 to 1,287 mixtures in 75,000
  // changes here (six runs of the same loop, 2026-12-06); load16 none in
  // 900,000.
  if (!loom::solver::whole16_atomic()) {
    WARN("not an Intel or AMD processor with AVX: 16-byte tables are not shared here");
    return;
  }
  struct alignas(16) E {
    uint64_t a = 0, b = ~uint64_t{0};
  };
  alignas(64) static E slot;
  std::atomic<bool> stop{false};
  const auto writer = [&](uint64_t base) {
    for (uint64_t i = 0; !stop.load(std::memory_order_relaxed); ++i)
      loom::solver::store16(slot, E{base + i, ~(base + i)});
  };
  std::thread w1(writer, 1), w2(writer, uint64_t{1} << 62);
  uint64_t torn = 0, changes = 0;
  E last = loom::solver::load16(slot);
  cpu_set_t cpus;
  const bool several = sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_COUNT(&cpus) >= 2;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(several ? 60 : 2);
  for (uint64_t i = 0; changes < 200'000; ++i) {
    const E e = loom::solver::load16(slot);
    torn += e.b != ~e.a;
    changes += e.a != last.a;
    last = e;
    if ((i & 0xffff) == 0 && std::chrono::steady_clock::now() > until) break;
  }
  stop = true;
  w1.join();
  w2.join();
  CHECK(torn == 0);
  // The writers were writing meanwhile (on one CPU the reader sees a
  // change only when the scheduler switches threads: too few to count).
  if (several)
    CHECK(changes >= 200'000);
  else
    WARN("one CPU: the reader saw " << changes << " changes");
}

TEST_CASE("solve --method compact: the values and openings of --method dfs",
          "[solver][compact][cli]") {
  for (const std::string& record : std::vector<std::string>{"", "c3 a1 a3 e3 c5 c1 e5 d5 d2 b4"}) {
    std::vector<std::string> base{
        "solve",  "gadur",  "--size", record.empty() ? "2" : "3", "--rule", "capture=merge-only",
        "--json", "--no-pv"};
    if (!record.empty()) base.insert(base.end(), {"--record", record});
    auto args = base;
    args.insert(args.end(), {"--method", "dfs"});
    auto d = loom::testing::run(args);
    REQUIRE(d.code == 0);
    auto jd = loom::testing::last_json(d.out);
    for (const std::string method : {"compact", "dfpn"}) {
      args = base;
      args.insert(args.end(), {"--method", method});
      auto c = loom::testing::run(args);
      INFO(record << " " << method);
      REQUIRE(c.code == 0);
      auto jc = loom::testing::last_json(c.out);
      CHECK(jc["method"] == method);
      CHECK(jc["value"] == jd["value"]);
      if (record.empty()) {
        // Side 2: the table is sized to the index (2 * 3^7 = 4,374 keys: 8,192
        // buckets of 4 entries of 8 or 16 bytes), not to --table-mb's 64 MB.
        CHECK(jc["bytes"] == 8192 * 4 * (method == "compact" ? 8 : 16));
      }
      REQUIRE(jc["openings"].size() == jd["openings"].size());
      for (size_t i = 0; i < jc["openings"].size(); ++i) {
        CHECK(jc["openings"][i]["move"] == jd["openings"][i]["move"]);
        CHECK(jc["openings"][i]["value"] == jd["openings"][i]["value"]);
      }
    }
  }
}

namespace {

/// The search stopped at half its nodes, its table saved to a checkpoint
/// file and read into a new search of the same table size: that search
/// gives the same answer and goes on from the saved work (fewer nodes than
/// a fresh one); into a table of another size, the file is read past (not
/// loaded) and the answer is the same; so it is into a search of another
/// kind (Other) with a table of the same shape (its layout tag differs).
template <class Engine, class Other>
void table_round_trip(const CState& root, uint64_t table_bytes, double most) {
  typename Engine::Config cfg;
  cfg.table_bytes = table_bytes;
  Engine fresh(root, cfg);
  const bool want = fresh.mover_wins(root);
  const uint64_t full = fresh.nodes();
  REQUIRE(full > 1000);
  const auto dir = std::filesystem::temp_directory_path() / "loom_solver_tests";
  std::filesystem::create_directories(dir);
  const std::string file = (dir / ("table_keep_" + std::to_string(::getpid()))).string();
  {
    auto c = cfg;
    c.max_nodes = full / 2;
    Engine stopped(root, c);
    CHECK_THROWS_AS(stopped.mover_wins(root), typename Engine::NodeLimit);
    solver::CheckpointWriter w(file, "table test", "job");
    stopped.write_table(w);
    w.commit();
  }
  CHECK(std::filesystem::file_size(file) > table_bytes / 2);
  {
    Engine resumed(root, cfg);
    solver::CheckpointReader rd(file, "table test", "job");
    REQUIRE(resumed.read_table(rd));
    rd.finish();
    CHECK(resumed.mover_wins(root) == want);
    INFO("fresh " << full << " nodes, resumed " << resumed.nodes());
    CHECK(resumed.nodes() < most * full);
  }
  {
    auto c = cfg;
    c.table_bytes = table_bytes / 2;
    Engine other(root, c);
    solver::CheckpointReader rd(file, "table test", "job");
    CHECK_FALSE(other.read_table(rd));
    rd.finish();  // read past, to its end
    CHECK(other.mover_wins(root) == want);
  }
  {
    typename Other::Config c;
    c.table_bytes = table_bytes;
    Other other(root, c);
    REQUIRE(other.table_bytes() == table_bytes);  // the same shape
    solver::CheckpointReader rd(file, "table test", "job");
    CHECK_FALSE(other.read_table(rd));
    rd.finish();
  }
  std::filesystem::remove(file);
}

}  // namespace

TEST_CASE("compact and dfpn: a table saved at the node limit lets the search go on from it",
          "[solver][compact][checkpoint]") {
  const testing::GadurBoard<1> board(3, gadur::Options{false, true});
  // Merge-only side 3, 16 MB tables. Measured (Release, 2026-12-07): the
  // compact search 1,432,466 nodes fresh, 509,818 resumed from the table
  // saved at 716,233 (0.36 of a fresh search: it re-enters proved
  // subtrees); df-pn 80,679 expansions fresh, 40,350 resumed (0.50: its
  // numbers are kept). A search that lost the table needs 1.0 of them.
  // The second pair's tables have one shape (16-byte entries in 4-way
  // buckets): only their layout tags tell them apart.
  using Compact = solver::CompactDfs<CState, solver::DenseCodec>;
  using WideCompact = solver::CompactDfs<CState, solver::WideCodec>;
  using Proof = solver::Dfpn<CState, solver::DenseCodec>;
  table_round_trip<Compact, Proof>(board.play("a3 b3 b1 c2 b2 b3"), uint64_t{16} << 20, 0.5);
  table_round_trip<Proof, WideCompact>(board.play("a3 b3 b1 c2 b2"), uint64_t{16} << 20, 0.6);
}

namespace {
/// Twelve branches for the stand-in searches below (each the side-2
/// start: they ignore it) and a checkpoint path of this process's own.
std::vector<solver::Branch<CState>> twelve_branches(const testing::GadurBoard<1>& board) {
  std::vector<solver::Branch<CState>> branches;
  for (int i = 0; i < 12; ++i) branches.push_back({"b" + std::to_string(i), 1, board.play("")});
  return branches;
}
std::string own_checkpoint(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("loom_" + name + "_" + std::to_string(::getpid()) + ".ckpt"))
      .string();
}
/// What a stand-in run's checkpoint holds: the codes, and whether its
/// table (one word, 7) was there and loaded.
solver::detail::OpeningRun read_back(const solver::SolveOptions& o, const std::string& kind,
                                     size_t n) {
  solver::detail::OpeningRun back;
  solver::detail::TableKeep reread;
  reread.read = [](solver::CheckpointReader& rd) { return rd.u64() == 7; };
  solver::detail::read_branches(back, n, o, kind, solver::detail::boolean_code_valid,
                                solver::detail::boolean_code_stands, &reread);
  return back;
}
}  // namespace

TEST_CASE("a finished opening's save with the search table waits while saves cost much",
          "[solver][checkpoint]") {
  // Twelve openings of 10 ms each, a table whose save takes 100 ms: the
  // save after the first opening holds the table; the next ones would cost
  // more than a twentieth of the run, so they are put off (before
  // 2026-12-07 each wrote the table: eleven saves, 1.1 s for 0.12 s of
  // search), and the codes still reach the checkpoint: at the last
  // opening, and at a stop.
  const testing::GadurBoard<1> board(2, gadur::Options{false, true});
  const auto branches = twelve_branches(board);
  const std::string ck = own_checkpoint("put_off");
  struct NoLimit {};
  for (const bool stop : {false, true}) {
    INFO((stop ? "stopped after the fourth opening" : "to the end"));
    std::filesystem::remove(ck);
    solver::SolveOptions o;
    o.checkpoint = ck;
    o.signature = "put off";
    solver::RunControl::Config cc;
    cc.stop_after = stop ? 4000 : 0;  // a work unit is a thousandth of an opening here
    solver::RunControl ctl(cc);
    int table_saves = 0;
    uint64_t solved = 0, counted = 0;
    solver::detail::TableKeep keep;
    keep.write = [&](solver::CheckpointWriter& w) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      w.u64(7);
      ++table_saves;
    };
    keep.read = [](solver::CheckpointReader& rd) { return rd.u64() == 7; };
    const auto solve = [&](const CState&, const std::vector<uint64_t>&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      ++solved;
      return uint64_t{1 + solved % 2};
    };
    const auto run = [&] {
      return solver::detail::run_branches<NoLimit>(
          branches, o, ctl, "test", "put-off", solver::detail::boolean_code_valid,
          solver::detail::boolean_code_stands, solve, [&] { return solved * 1000; }, counted,
          "openings", &keep);
    };
    if (!stop) {
      const solver::detail::OpeningRun r = run();
      CHECK(solver::detail::all_done(r));
      CHECK(table_saves == 1);
    } else {
      CHECK_THROWS_AS(run(), Interrupted);
      CHECK(solved == 4);
      CHECK(table_saves == 2);  // the first opening's, and the stop's with the pending codes
    }
    // What the checkpoint holds: every finished opening's code.
    const solver::detail::OpeningRun back = read_back(o, "put-off", branches.size());
    REQUIRE(back.resumed);
    for (size_t i = 0; i < branches.size(); ++i) {
      INFO("opening " << i);
      CHECK(back.done[i] == (i < solved ? 1 + (i + 1) % 2 : 0));
    }
    // The last save of a finished job holds the codes only; a stop's the
    // table too.
    CHECK(back.table_read == (stop ? 1 : 0));
  }
  std::filesystem::remove(ck);
}

namespace {
/// A stand-in for a search engine sharing one table, for
/// run_branches_parallel: a "search" is steps of 1 ms, each a write to
/// the shared table, with a tick after each; write_table records whether
/// any search was inside a write while the table was saved.
struct FakeSharedEngine {
  struct Config {
    uint64_t table_bytes = 0, max_nodes = 0;
    std::function<uint64_t()> grant;
    std::function<void()> tick;
  };
  struct NodeLimit {};
  struct Shared {
    std::atomic<int> writing{0};
    std::atomic<int> torn{0}, saves{0};
  };
  static bool shareable() { return true; }
  FakeSharedEngine(const CState&, Config c)
      : cfg(std::move(c)), table(std::make_shared<Shared>()) {}
  FakeSharedEngine(const CState&, Config c, FakeSharedEngine& owner)
      : cfg(std::move(c)), table(owner.table) {}
  uint64_t search(int steps) {
    for (int i = 0; i < steps; ++i) {
      ++table->writing;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      --table->writing;
      nodes_ += 1000;
      cfg.tick();
    }
    return 1;
  }
  uint64_t nodes() const { return nodes_; }
  uint64_t stored() const { return 0; }
  uint64_t occupied() const { return 0; }
  uint64_t table_bytes() const { return 0; }
  void write_table(solver::CheckpointWriter& w) const {
    if (table->writing.load() != 0) ++table->torn;
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    if (table->writing.load() != 0) ++table->torn;
    ++table->saves;
    w.u64(7);
  }
  bool read_table(solver::CheckpointReader& rd) { return rd.u64() == 7; }

  Config cfg;
  std::shared_ptr<Shared> table;
  uint64_t nodes_ = 0;
};
}  // namespace

TEST_CASE("two threads sharing a table: the table is saved with the searches parked",
          "[solver][checkpoint]") {
  // Twelve openings of 20 and 35 steps (1 ms each) on two threads, a table save of
  // 150 ms: the first finished opening's save waits for the other search
  // to park at its tick, holds the table, and no search writes meanwhile;
  // the next openings' saves would cost more than a twentieth of the run,
  // so they are put off; the last save holds every code. With a stop, the
  // codes put off are saved with the table. (Without the wait for the
  // parked search, `torn` counts the save made during its write: checked.)
  const testing::GadurBoard<1> board(2, gadur::Options{false, true});
  const auto branches = twelve_branches(board);
  const std::string ck = own_checkpoint("parked");
  for (const bool stop : {false, true}) {
    INFO((stop ? "stopped" : "to the end"));
    std::filesystem::remove(ck);
    solver::SolveOptions o;
    o.checkpoint = ck;
    o.signature = "parked";
    o.search_threads = 2;
    solver::RunControl::Config cc;
    cc.stop_after = stop ? 150'000 : 0;  // 150 steps: after about five openings
    solver::RunControl ctl(cc);
    solver::detail::ParallelFigures fig;
    std::shared_ptr<FakeSharedEngine::Shared> shared;
    std::mutex shared_mu;
    std::atomic<int> solved{0};
    const auto run = [&] {
      return solver::detail::run_branches_parallel<CState, FakeSharedEngine>(
          branches, board.play(""), FakeSharedEngine::Config{}, o, ctl, "test", "parked",
          solver::detail::boolean_code_valid, solver::detail::boolean_code_stands,
          [&](int t, FakeSharedEngine& e, const CState&, const std::vector<uint64_t>&) {
            {
              std::lock_guard<std::mutex> g(shared_mu);
              shared = e.table;
            }
            // Searches of two lengths, so that one thread finishes while
            // the other is inside its search.
            const uint64_t code = e.search(t == 0 ? 20 : 35);
            ++solved;  // (a count: which thread is not asserted)
            return code;
          },
          [](const solver::detail::OpeningRun&, FakeSharedEngine&) {}, fig, "openings");
    };
    if (!stop) {
      CHECK(solver::detail::all_done(run()));
      CHECK(shared->saves == 1);  // the first opening's; the rest put off
    } else {
      CHECK_THROWS_AS(run(), Interrupted);
      CHECK(shared->saves == 2);  // the first opening's, and the stop's
    }
    CHECK(shared->torn == 0);
    const solver::detail::OpeningRun back = read_back(o, "parked", branches.size());
    REQUIRE(back.resumed);
    size_t saved = 0;
    for (uint64_t x : back.done) saved += x != 0;
    CHECK(saved == static_cast<size_t>(solved.load()));  // every finished opening's code
    CHECK(back.table_read == (stop ? 1 : 0));
  }
  std::filesystem::remove(ck);
}
