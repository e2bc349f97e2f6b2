// `loom solve nardy` (CONVENTIONS.md "Long Nardy exact values"): the JSON
// keys, --dice ranking, refusals, and a database build killed with SIGKILL
// (the real binary, LOOM_BIN) that resumes from its finished chunks.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include "solver/nardy/bearoff.h"
#include "solver/nardy/fewcheckers.h"
#include "tests/common/cli_run.h"

extern char** environ;

using loom::testing::last_json;
using loom::testing::run;
namespace fs = std::filesystem;

namespace {

fs::path cli_dir(const std::string& name) {
  fs::path d =
      fs::temp_directory_path() / ("loom-nardy-cli-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// White: 2 on its 1 point, 1 on 5; Black: 1 on its 2 point (14), 1 on 18.
/// Finished chunk files (NAME.bin, no .tmp) in the directory `part`.
int count_chunks(const fs::path& part) {
  int n = 0;
  std::error_code ec;
  if (fs::exists(part, ec))
    for (auto& e : fs::directory_iterator(part, ec))
      n += e.path().extension() == ".bin" && e.path().string().find(".tmp") == std::string::npos;
  return n;
}

const char* kBearoff = "W:2,0,0,0,1,0,0,0,0,0,0,0,0,-1,0,0,0,-1,0,0,0,0,0,0";

}  // namespace

namespace {
/// The roll-weighted average of each roll's best result as `solve nardy
/// --dice` ranks them (each run valued by `method`): a position's value.
double best_turn_average(const std::string& pos, const fs::path& dir, const std::string& method) {
  double avg = 0;
  for (const auto& roll : loom::nardy::all_rolls()) {
    auto r = run({"solve", "nardy", "--position", pos, "--dice", roll.name(), "--json", "--db",
                  dir.string()});
    REQUIRE(r.code == 0);
    const auto j = last_json(r.out);
    REQUIRE(j["method"] == method);
    avg += roll.probability() * j["turns"][0]["p_win"].get<double>();
  }
  return avg;
}
}  // namespace

TEST_CASE("solve nardy --position: bear-off values as JSON", "[nardy][exact][cli]") {
  fs::path dir = cli_dir("json");
  auto r = run({"solve", "nardy", "--position", kBearoff, "--json", "--db", dir.string()});
  REQUIRE(r.code == 0);
  auto j = last_json(r.out);
  CHECK(j["game"] == "nardy");
  CHECK(j["position"] == kBearoff);
  CHECK(j["rules"]["checkers"] == "15");
  CHECK(j["rules"]["block"] == "every-step");
  double p = j["p_win"].get<double>();
  CHECK(p > 0.5);
  CHECK(p <= 1.0);
  // N = 3 < 15: no mars possible, points = 2 p - 1.
  CHECK(j["points"].get<double>() == Approx(2 * p - 1));
  CHECK(j["expected_turns"].contains("white"));
  CHECK(j["expected_turns"].contains("black"));
  // The database file was built in --db.
  CHECK(fs::exists(loom::nardy::exact::TwoSided::file_name(dir.string(), 3)));

  auto d = run(
      {"solve", "nardy", "--position", kBearoff, "--dice", "21", "--json", "--db", dir.string()});
  REQUIRE(d.code == 0);
  auto jd = last_json(d.out);
  REQUIRE(jd["turns"].size() >= 2);
  double prev = 2;
  double best = jd["turns"][0]["p_win"].get<double>();
  for (const auto& t : jd["turns"]) {
    CHECK(t["p_win"].get<double>() <= prev);
    prev = t["p_win"].get<double>();
    CHECK(t.contains("turn"));
    CHECK(t.contains("position"));
  }
  // The roll's best is at most the position's value averaged... and the
  // value of the position is the average over rolls of each roll's best:
  const double avg = best_turn_average(kBearoff, dir, "bear-off database");
  // To double rounding: the N = 3 table holds doubles (1e-4 was needed
  // when it held fixed point).
  CHECK(std::abs(avg - p) < 1e-12);
  CHECK(best <= 1.0);
  fs::remove_all(dir);
}

TEST_CASE("solve nardy: refusals exit 2 with one line", "[nardy][exact][cli]") {
  fs::path dir = cli_dir("bad");
  loom::testing::check_bad_inputs({
      {{"solve", "nardy", "--db", dir.string()}, "checkers=1..4"},
      {{"solve", "nardy", "--rule", "checkers=5", "--db", dir.string()}, "checkers=1..4"},
      {{"solve", "nardy", "--position", "W:0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,15",
        "--db", dir.string()},
       "cannot be valued exactly"},
      {{"solve", "nardy", "--rule", "checkers=2", "--position",
        "W:0,0,0,0,0,0,0,0,0,0,0,-3,0,0,0,0,0,0,0,0,0,0,0,2"},
       "more than checkers=2"},
      {{"solve", "nardy", "--rule", "end=last-roll", "--position", kBearoff}, "first-off"},
      {{"solve", "nardy", "--position", kBearoff, "--dice", "71"}, "dice"},
      {{"solve", "gadur", "--size", "2", "--dice", "21"}, "only used by nardy"},
  });
  fs::remove_all(dir);
}

TEST_CASE("solve nardy: a chunk path that is not a regular file is refused, never read",
          "[nardy][exact][cli][robust]") {
  // The build's chunk files DIR/nardy-bearoff-N.bin.part/chunk-NNN.bin are
  // opened only if regular: a FIFO there used to block the build for ever.
  // A missing chunk is built; a FIFO, a directory, or a .part that is a
  // file is one line and exit 2.
  for (const char* kind : {"fifo", "directory", "part-file"}) {
    INFO(kind);
    fs::path dir = cli_dir(std::string("chunk-") + kind);
    fs::path part = loom::nardy::exact::TwoSided::file_name(dir.string(), 3) + ".part";
    if (std::string(kind) == "part-file") {
      std::FILE* f = std::fopen(part.c_str(), "w");
      REQUIRE(f);
      std::fclose(f);
    } else {
      fs::create_directories(part);
      fs::path chunk = part / "chunk-000.bin";
      if (std::string(kind) == "fifo")
        REQUIRE(::mkfifo(chunk.c_str(), 0600) == 0);
      else
        fs::create_directories(chunk / "x");
    }
    auto r = run({"solve", "nardy", "--position", kBearoff, "--json", "--db", dir.string()});
    CHECK(r.code == 2);
    INFO(r.err);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.find(std::string(kind) == "part-file" ? "chunk directory" : "bear-off chunk") !=
          std::string::npos);
    CHECK_FALSE(fs::exists(loom::nardy::exact::TwoSided::file_name(dir.string(), 3)));
    fs::remove_all(dir);
  }
}

TEST_CASE("solve nardy: a database path that is a directory is refused, nothing left behind",
          "[nardy][exact][cli][robust]") {
  // A directory at DIR/nardy-bearoff-nN.bin was taken for a corrupt file:
  // the database was built, then the rename over the directory failed (an
  // internal error, exit 1) and left the .tmp file and the .part chunks.
  // Like a directory at DIR/nardy-few-kK.bin, it is now one line and exit 2
  // before any work.
  const std::string pos = "W:1,1,0,0,0,0,0,0,0,0,0,0,-1,-1,0,0,0,0,0,0,0,0,0,0";
  struct Case {
    const char* name;
    std::vector<std::string> args;
    std::string (*file)(const fs::path&);
    const char* needle;
  };
  const std::vector<Case> cases = {
      {"bear-off",
       {"solve", "nardy", "--position", pos},
       [](const fs::path& d) { return loom::nardy::exact::TwoSided::file_name(d.string(), 2); },
       "bear-off database"},
      {"few-checker",
       {"solve", "nardy", "--rule", "checkers=3"},
       [](const fs::path& d) { return loom::nardy::exact::FewCheckers::file_name(d.string(), 3); },
       "few-checker table"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    fs::path dir = cli_dir(std::string("dir-") + c.name);
    const fs::path file = c.file(dir);
    fs::create_directories(file);
    auto args = c.args;
    args.insert(args.end(), {"--db", dir.string()});
    auto r = run(args);
    INFO(r.err);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.find(c.needle) != std::string::npos);
    CHECK(r.err.find("a directory") != std::string::npos);
    // Nothing but the directory that was there.
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(dir)) left.push_back(e.path().string());
    CHECK(left == std::vector<std::string>{file.string()});
    CHECK(fs::is_empty(file));
    fs::remove_all(dir);
  }
}

TEST_CASE("solve nardy: a FIFO or directory at the table's .tmp path is refused before the build",
          "[nardy][exact][cli][robust]") {
  // The finished table is written as FILE.tmp and renamed: a FIFO there
  // blocked the write for ever after the whole build, a directory failed it
  // only then. Both are now one line and exit 2 before any work.
  const std::string pos = "W:1,1,0,0,0,0,0,0,0,0,0,0,-1,-1,0,0,0,0,0,0,0,0,0,0";
  struct Case {
    std::vector<std::string> args;
    std::string (*file)(const fs::path&);
    const char* needle;
  };
  const std::vector<Case> cases = {
      {{"solve", "nardy", "--position", pos},
       [](const fs::path& d) { return loom::nardy::exact::TwoSided::file_name(d.string(), 2); },
       "bear-off database"},
      {{"solve", "nardy", "--rule", "checkers=3"},
       [](const fs::path& d) { return loom::nardy::exact::FewCheckers::file_name(d.string(), 3); },
       "few-checker table"},
  };
  for (const auto& c : cases) {
    for (const std::string kind : {"fifo", "directory"}) {
      INFO(c.needle << ", " << kind);
      fs::path dir = cli_dir("tmp-" + kind);
      const fs::path tmp = c.file(dir) + ".tmp";
      if (kind == "fifo")
        REQUIRE(::mkfifo(tmp.c_str(), 0600) == 0);
      else
        fs::create_directories(tmp);
      auto args = c.args;
      args.insert(args.end(), {"--db", dir.string()});
      auto r = run(args);
      INFO(r.err);
      CHECK(r.code == 2);
      CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
      CHECK(r.err.find(c.needle) != std::string::npos);
      CHECK(r.err.find("not a regular file") != std::string::npos);
      std::vector<std::string> left;
      for (const auto& e : fs::directory_iterator(dir)) left.push_back(e.path().string());
      CHECK(left == std::vector<std::string>{tmp.string()});  // no chunks built
      fs::remove_all(dir);
    }
  }
}

TEST_CASE("solve nardy: a large database build says so before it starts, terminal or not",
          "[nardy][exact][cli]") {
  // --max-checkers 15 started an 11.8 GB build with nothing said when
  // standard error was not a terminal. N = 11 (12,376 homes a side, 0.6 GB)
  // is the first that says it; the .tmp path made a directory stops the run
  // right after the note, before any work. Eleven on each 6 point: their
  // homes reach thousands of homes, too many for the recursion, which
  // values 11 on the 1 points without a table.
  const std::string pos = "W:0,0,0,0,0,11,0,0,0,0,0,0,0,0,0,0,0,-11,0,0,0,0,0,0";
  fs::path dir = cli_dir("note");
  fs::create_directories(loom::nardy::exact::TwoSided::file_name(dir.string(), 11) + ".tmp");
  auto r = run({"solve", "nardy", "--position", pos, "--db", dir.string()});
  INFO(r.err);
  CHECK(r.code == 2);
  CHECK(r.err.find("loom: building the bear-off database for 11 checkers a side in ") == 0);
  CHECK(r.err.find("(0.6 GB in memory and on disk)") != std::string::npos);
  fs::remove_all(dir);
  // A small one (N = 2) says nothing.
  dir = cli_dir("quiet");
  auto q = run({"solve", "nardy", "--position",
                "W:1,1,0,0,0,0,0,0,0,0,0,0,-1,-1,0,0,0,0,0,0,0,0,0,0", "--db", dir.string()});
  CHECK(q.code == 0);
  CHECK(q.err.empty());
  fs::remove_all(dir);
}

TEST_CASE("solve nardy --rule checkers=1: the whole game from the start", "[nardy][exact][cli]") {
  auto r = run({"solve", "nardy", "--rule", "checkers=1", "--json"});
  REQUIRE(r.code == 0);
  auto j = last_json(r.out);
  CHECK(j["rules"]["checkers"] == "1");
  CHECK(j["openings"].size() == 21);
  double p = j["p_win"].get<double>();
  CHECK(p > 0);
  CHECK(p < 1);
  double avg = 0;
  for (const auto& o : j["openings"])
    avg += (o["roll"].get<std::string>()[0] == o["roll"].get<std::string>()[1] ? 1.0 : 2.0) / 36 *
           o["p_win"].get<double>();
  CHECK(std::abs(avg - p) < 1e-9);
  CHECK(j["states"].get<uint64_t>() > 0);
}

TEST_CASE("solve nardy --rule checkers=1: an all-home position is valued exactly, not rounded",
          "[nardy][exact][cli]") {
  // White, one checker on its 6-point, Black one on its own (point 18),
  // White to roll. By hand: White bears off at once unless both dice are
  // below 6 and sum below 6 (12, 13, 14, 23 in either order: 8 rolls) or
  // the roll is 1-1 (four steps of 1 leave the checker on 2): 27 of 36.
  // Else White stands on 1, 2 or 3 and Black, in the same spot, bears off with
  // 27 of 36; if not, White's next roll bears off from 3 or below. So
  // p_win = 3/4 + 1/4 * 1/4 = 0.8125, and every win is a mars (the loser has
  // borne off none of its one checker): points = 2 * 0.8125 - 2 * 0.1875 =
  // 1.25. The bear-off database, which answered before, gave 0.8124971 and
  // 1.2500153 (its 1/65535 steps).
  const std::string pos = "W:0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,-1,0,0,0,0,0,0";
  auto r = run({"solve", "nardy", "--rule", "checkers=1", "--position", pos, "--json"});
  REQUIRE(r.code == 0);
  auto j = last_json(r.out);
  CHECK(j["method"] == "few-checkers");
  CHECK(std::abs(j["p_win"].get<double>() - 0.8125) < 1e-12);
  CHECK(std::abs(j["points"].get<double>() - 1.25) < 1e-12);
}

namespace {
/// `solve nardy --position pos --json` valued by `method` for N = n, with a
/// double's error bound and no fixed-point line: its JSON.
nlohmann::json solved_exactly(const std::string& pos, const fs::path& dir,
                              const std::string& method, int n) {
  auto r = run({"solve", "nardy", "--position", pos, "--json", "--db", dir.string()});
  REQUIRE(r.code == 0);
  auto j = last_json(r.out);
  CHECK(j["method"] == method);
  CHECK(j["db_n"] == n);
  CHECK(j["error_bound"]["p_win"].get<double>() <= 1e-12);
  CHECK(r.out.find("fixed-point") == std::string::npos);
  return j;
}
}  // namespace

TEST_CASE("solve nardy: the standard game's small bear-offs are exact, with their bound",
          "[nardy][exact][cli]") {
  // The same position under the standard rules (checkers=15) goes to the
  // bear-off table for N = 1, which now holds doubles: p_win 13/16 (the
  // hand count of the test above) and, no mars being possible at K = 15,
  // points 2 p - 1 = 5/8. The fixed-point table answered 0.8124971.
  fs::path dir = cli_dir("small-exact");
  const auto j = solved_exactly("W:0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,-1,0,0,0,0,0,0", dir,
                                "bear-off database", 1);
  CHECK(j["p_win"].get<double>() == 0.8125);
  CHECK(j["points"].get<double>() == 0.625);
  fs::remove_all(dir);
}

TEST_CASE("solve nardy: 15 checkers close to home are valued exactly, with no table",
          "[nardy][exact][cli]") {
  // Five checkers a side on each of the three points nearest off: the homes
  // either side can still reach are few, so the recursion values the
  // position exactly (doubles) instead of building the 11.8 GB table of
  // N = 15 (fixed point). The value is the roll-weighted average of each
  // roll's best result, which --dice ranks by the same recursion.
  fs::path dir = cli_dir("recursion");
  const std::string pos = "W:5,5,5,0,0,0,0,0,0,0,0,0,-5,-5,-5,0,0,0,0,0,0,0,0,0";
  const auto j = solved_exactly(pos, dir, "bear-off recursion", 15);
  CHECK(j["reachable_homes"].get<int>() > 100);
  CHECK_FALSE(fs::exists(loom::nardy::exact::TwoSided::file_name(dir.string(), 15)));
  const double p = j["p_win"].get<double>();
  // Every roll bears a checker off from points 1-3, so each side's first turn
  // does and no mars is possible: points are 2p - 1, computed apart (the
  // recursion maximises points separately, with mars read for 15).
  CHECK(std::abs(j["points"].get<double>() - (2 * p - 1)) < 1e-12);
  CHECK(std::abs(best_turn_average(pos, dir, "bear-off recursion") - p) < 1e-12);
  fs::remove_all(dir);
}

namespace {

/// Runs LOOM_BIN with `args` (output discarded) and SIGKILLs it once
/// `chunks` finished chunk files are in the directory `part`; true if it was
/// killed so (false if it ended first or took over 600 s).
bool kill_after_chunks(std::vector<std::string> args, const fs::path& part, int chunks) {
  args.insert(args.begin(), LOOM_BIN);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  const bool spawned = posix_spawn(&pid, LOOM_BIN, &fa, nullptr, argv.data(), environ) == 0;
  posix_spawn_file_actions_destroy(&fa);
  if (!spawned) return false;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(600);
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) return false;
    if (count_chunks(part) >= chunks) {
      ::kill(pid, SIGKILL);
      int st = 0;
      ::waitpid(pid, &st, 0);
      return WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  return false;
}

}  // namespace

TEST_CASE("solve nardy: a database build killed by SIGKILL resumes", "[nardy][exact][cli][.slow]") {
  // N = 9 (5,005 homes, 25 M pairs, about 6 chunks of 4 Mi pairs): the
  // child is killed once two chunks are on disk; a second run resumes from
  // them and gives the answer of a build in process.
  fs::path dir = cli_dir("kill");
  // White 9 on its 1 point... Black 9 on its 6 point: N = 9.
  const std::string pos = "W:9,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-9,0,0,0,0,0,0";
  fs::path part = loom::nardy::exact::TwoSided::file_name(dir.string(), 9) + ".part";
  REQUIRE(kill_after_chunks(
      {"solve", "nardy", "--position", pos, "--json", "--db", dir.string(), "--threads", "1"}, part,
      2));
  int kept = count_chunks(part);
  CHECK(kept >= 2);
  auto r = run({"solve", "nardy", "--position", pos, "--json", "--db", dir.string()});
  REQUIRE(r.code == 0);
  auto j = last_json(r.out);
  auto db = loom::nardy::exact::TwoSided::build(9, 2);
  loom::nardy::exact::Home w{9, 0, 0, 0, 0, 0}, b{0, 0, 0, 0, 0, 9};
  CHECK(j["p_win"].get<double>() ==
        db.p_win(loom::nardy::exact::home_index(w), loom::nardy::exact::home_index(b)));
  CHECK_FALSE(fs::exists(part));
  fs::remove_all(dir);
}

TEST_CASE("solve nardy --rule checkers=3: a solve killed by SIGKILL resumes",
          "[nardy][exact][cli][few][.slow]") {
  // K = 3 (6.2 M states in two chunks of at least 4 Mi): killed once the
  // first chunk is on disk, resumed by a second run (which reports it), and
  // then equal to the solve in process, value for value; a third run loads
  // the saved table.
  fs::path dir = cli_dir("fewkill");
  fs::path part = loom::nardy::exact::FewCheckers::file_name(dir.string(), 3) + ".part";
  const std::vector<std::string> args{"solve", "nardy",      "--rule",    "checkers=3", "--json",
                                      "--db",  dir.string(), "--threads", "1"};
  REQUIRE(kill_after_chunks(args, part, 1));
  CHECK(count_chunks(part) >= 1);
  auto r = run(args);
  REQUIRE(r.code == 0);
  CHECK_FALSE(fs::exists(part));
  auto j = last_json(r.out);
  loom::nardy::Options opt;
  opt.checkers = 3;
  const auto f = loom::nardy::exact::FewCheckers::solve(opt, 2);
  CHECK(j["p_win"].get<double>() == *f.p_win(loom::nardy::Position::start(3)));
  CHECK(j["points"].get<double>() == *f.points(loom::nardy::Position::start(3)));
  CHECK(j["states"].get<uint64_t>() == f.states());
  auto again = run(args);
  REQUIRE(again.code == 0);
  CHECK(last_json(again.out) == j);
  fs::remove_all(dir);
}

TEST_CASE("solve nardy: chances stay in [0, 1], points in [-2, 2], the race turn on every path",
          "[nardy][exact][cli]") {
  // A chance summed in doubles came out as -2.2e-16 or 1.0000000000000002
  // (points -2.0000000000000004), and the few-checker path gave no race turn.
  const auto in_range = [](const nlohmann::json& j) {
    CHECK(j["p_win"].get<double>() >= 0.0);
    CHECK(j["p_win"].get<double>() <= 1.0);
    CHECK(j["points"].get<double>() >= -2.0);
    CHECK(j["points"].get<double>() <= 2.0);
    if (j.contains("turns"))
      for (const auto& t : j["turns"]) {
        CHECK(t["p_win"].get<double>() >= 0.0);
        CHECK(t["p_win"].get<double>() <= 1.0);
      }
  };
  const std::string db = cli_dir("range").string();
  for (const std::vector<std::string>& pos :
       {std::vector<std::string>{"W:0,0,0,0,0,0,0,0,0,0,0,0,-1,0,0,0,0,0,0,0,0,0,0,2"},
        std::vector<std::string>{"W:2,0,0,0,0,0,0,0,0,0,0,-2,0,0,0,0,0,0,0,0,0,0,0,0", "--dice",
                                 "65"}}) {
    std::vector<std::string> args = {"solve", "nardy", "--rule", "checkers=2", "--position"};
    args.insert(args.end(), pos.begin(), pos.end());
    args.insert(args.end(), {"--json", "--db", db});
    auto r = run(args);
    INFO(r.err);
    REQUIRE(r.code == 0);
    in_range(last_json(r.out));
  }
  auto w = run({"solve", "nardy", "--rule", "checkers=2", "--position",
                "W:0,0,0,1,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-1,-1,0,0", "--dice", "65", "--json",
                "--db", db});
  REQUIRE(w.code == 0);
  const auto j = last_json(w.out);
  CHECK(j["method"] == "few-checkers");
  in_range(j);
  // 6/off 4/off bears both off: the fewest turns, and the win.
  CHECK(j["race_turn"] == "6/off 4/off");
  CHECK(j["race_p_win"] == 1.0);
  CHECK(w.out.find("fewest expected turns: 6/off 4/off") != std::string::npos);
  fs::remove_all(db);
}
