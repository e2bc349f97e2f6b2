// Puzzle generation survives interruption (issue 17; docs/robustness.md,
// "Puzzle generation"): `loom puzzle make` saves its progress in
// DIR/puzzles.progress at game boundaries, and a rerun of the same command
// resumes from it. What is compared with an uninterrupted run of the same
// seed:
// - puzzles.jsonl byte for byte once every puzzle's proof.seconds (the one
//   timing field) is set to 0;
// - every SVG and index.html byte for byte;
// - the summary line without its trailing seconds.
// A progress file of another job (any option that decides the collection)
// or a damaged one is refused: exit 2, one line, "does not match this job"
// and "is corrupt" told apart.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <thread>
#include <utility>

#include "puzzles/progress.h"
#include "tests/common/child_process.h"
#include "tests/common/cli_run.h"

using loom::testing::lines;
using loom::testing::run;
using nlohmann::json;
namespace fs = std::filesystem;
namespace puzzles = loom::puzzles;

namespace {

std::string temp_dir(const std::string& name) {
  auto d =
      fs::temp_directory_path() / ("loom-puzzle-resume-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d.string();
}

std::vector<std::string> with(std::vector<std::string> args, std::vector<std::string> more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

/// args with option `opt` set to `v` (replaced, or added).
std::vector<std::string> replace(std::vector<std::string> a, const std::string& opt,
                                 const std::string& v) {
  auto it = std::find(a.begin(), a.end(), opt);
  if (it == a.end()) {
    a.insert(a.end(), {opt, v});
  } else {
    *(it + 1) = v;
  }
  return a;
}

/// A collection directory as compared: puzzles.jsonl without proof.seconds,
/// then every other file (SVGs, index.html) by name and content.
std::string collection(const std::string& dir) {
  std::string out;
  std::ifstream f(fs::path(dir) / "puzzles.jsonl");
  std::string line;
  while (std::getline(f, line)) {
    json j = json::parse(line);
    REQUIRE(j["proof"].contains("seconds"));
    j["proof"]["seconds"] = 0;
    out += j.dump() + "\n";
  }
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  for (const auto& n : names)
    if (n != "puzzles.jsonl")
      out += "== " + n + "\n" + loom::testing::slurp_file((fs::path(dir) / n).string());
  return out;
}

/// The summary line of `make` without its seconds (", 12.3 s" at the end).
/// (No <regex>: GCC 12 at -O1 with the sanitizers warns inside it.)
std::string summary(const std::string& out) {
  auto ls = lines(out);
  REQUIRE(!ls.empty());
  std::string l = ls[0];
  const size_t comma = l.rfind(", ");
  if (comma != std::string::npos && l.size() >= comma + 4 &&
      l.compare(l.size() - 2, 2, " s") == 0 &&
      l.find_first_not_of("0123456789.", comma + 2) == l.size() - 2)
    l.erase(comma);
  return l;
}

/// The "N games played" of a resume note on standard error (-1: none).
int resumed_games(const std::string& err) {
  const size_t at = err.find("resuming from ");
  if (at == std::string::npos) return -1;
  const size_t end = err.find(" games played", at);
  if (end == std::string::npos) return -1;
  size_t begin = end;
  while (begin > at && std::isdigit(static_cast<unsigned char>(err[begin - 1]))) --begin;
  if (begin == end) return -1;
  return std::stoi(err.substr(begin, end - begin));
}

// Gadur side 3, a small search budget: 27 games, 3 puzzles, about 0.4 s in
// Release.
const std::vector<std::string> kGadur = {"puzzle",  "make", "gadur",  "--size", "3",
                                         "--count", "3",    "--seed", "3",      "--max-positions",
                                         "5000"};
// Long Nardy, at most 4 checkers a side: 99 games, 2 puzzles.
std::vector<std::string> nardy_job(const std::string& db) {
  return {"puzzle", "make",        "nardy", "--max-checkers", "4", "--count", "2", "--seed",
          "2",      "--max-games", "200",   "--db",           db};
}

}  // namespace

TEST_CASE("puzzle make: a stopped run resumes to the uninterrupted collection",
          "[puzzles][resume]") {
  const std::string dir = temp_dir("stop");
  const std::string db = dir + "/db";
  struct Job {
    std::string name;
    std::vector<std::string> args;
    std::vector<int> stops;  // games played by each stopped run
  };
  const std::vector<Job> jobs = {{"gadur", kGadur, {5, 4, 1}},
                                 {"nardy", nardy_job(db), {30, 1, 40}}};
  for (const auto& job : jobs) {
    INFO(job.name);
    auto plain = run(with(job.args, {"--out", dir + "/" + job.name + "-plain"}));
    INFO(plain.err);
    REQUIRE(plain.code == 0);
    CHECK_FALSE(fs::exists(dir + "/" + job.name + "-plain/puzzles.progress"));
    const std::string out = dir + "/" + job.name;
    const auto args = with(job.args, {"--out", out, "--checkpoint-interval", "1000"});
    int played = 0;
    for (int stop : job.stops) {
      auto r = run(with(args, {"--stop-after", std::to_string(stop)}));
      INFO(r.err);
      REQUIRE(r.code == 130);
      CHECK(resumed_games(r.err) == (played == 0 ? -1 : played));
      played += stop;
      // The stop saved its progress even though the interval had not passed.
      CHECK(fs::exists(out + "/puzzles.progress"));
      CHECK_FALSE(fs::exists(out + "/puzzles.jsonl"));
    }
    auto last = run(args);
    INFO(last.err);
    REQUIRE(last.code == 0);
    CHECK(resumed_games(last.err) == played);
    CHECK(summary(last.out) == summary(plain.out));
    CHECK(collection(out) == collection(dir + "/" + job.name + "-plain"));
    // Once the collection is written the progress file is gone: a rerun
    // starts afresh and makes the same collection again.
    CHECK_FALSE(fs::exists(out + "/puzzles.progress"));
    CHECK_FALSE(fs::exists(out + "/puzzles.progress.tmp"));
    // The rerun writes each file whole (renamed over): index.html made a
    // link to a file outside is replaced, not written through.
    const std::string outside = dir + "/outside-" + job.name + ".txt";
    { std::ofstream(outside) << "not the collection's\n"; }
    fs::remove(out + "/index.html");
    fs::create_symlink(fs::absolute(outside), out + "/index.html");
    // A picture's temporary file left by a run killed before its rename
    // (an id this run does not make) is removed.
    { std::ofstream(out + "/stale-id.svg.tmp") << "<svg"; }
    auto again = run(args);
    REQUIRE(again.code == 0);
    CHECK(resumed_games(again.err) == -1);
    CHECK(collection(out) == collection(dir + "/" + job.name + "-plain"));
    CHECK_FALSE(fs::is_symlink(out + "/index.html"));
    CHECK(loom::testing::slurp_file(outside) == "not the collection's\n");
    CHECK_FALSE(fs::exists(out + "/index.html.tmp"));
    CHECK_FALSE(fs::exists(out + "/stale-id.svg.tmp"));
    // Another job into the finished collection's directory is refused and
    // changes nothing: it replaced puzzles.jsonl and index.html and left
    // the old SVGs beside the new ones.
    const std::string before = collection(out);
    const size_t files = std::distance(fs::directory_iterator(out), fs::directory_iterator());
    auto other = run(replace(args, "--seed", "99"));
    INFO(other.err);
    CHECK(other.code == 2);
    CHECK(lines(other.err).size() == 1);
    CHECK(other.err.find("already holds another job's puzzle collection") != std::string::npos);
    CHECK(other.err.find("its job: game=" + job.name) != std::string::npos);
    CHECK(collection(out) == before);
    CHECK(std::distance(fs::directory_iterator(out), fs::directory_iterator()) ==
          static_cast<std::ptrdiff_t>(files));
  }
  fs::remove_all(dir);
}

TEST_CASE("puzzle make: another job's or a damaged progress file is refused", "[puzzles][resume]") {
  const std::string dir = temp_dir("refuse");
  const std::string out = dir + "/out";
  auto stopped = [&](const std::vector<std::string>& job) {
    fs::remove_all(out);
    auto r = run(with(job, {"--out", out, "--stop-after", "1"}));
    REQUIRE(r.code == 130);
    REQUIRE(fs::exists(out + "/puzzles.progress"));
  };
  auto refused = [&](const std::vector<std::string>& job, const std::string& needle) {
    auto r = run(with(job, {"--out", out}));
    INFO(r.err);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(lines(r.err).size() == 1);
    CHECK(r.err.find(needle) != std::string::npos);
    return r.err;
  };
  // Another job: every option that decides the collection is in the
  // signature, and the message names the first that differs.
  struct Other {
    std::vector<std::string> args;
    std::string field;
  };
  const std::vector<Other> others = {
      {replace(kGadur, "--seed", "4"), "seed=4"},
      {replace(kGadur, "--count", "2"), "count=2"},
      {replace(kGadur, "--max-positions", "6000"), "max-positions=6000"},
      {replace(kGadur, "--max-games", "100"), "max-games=100"},
      {replace(kGadur, "--size", "2"), "size=2"},
      {replace(kGadur, "--rule", "capture=merge-only"), "rule capture=merge-only"},
  };
  stopped(kGadur);
  for (size_t i = 0; i < others.size(); ++i) {
    std::string err = refused(others[i].args, "does not match this job");
    CHECK(err.find(others[i].field) != std::string::npos);
    CHECK(err.find("corrupt") == std::string::npos);
  }
  // Another game into the same directory.
  refused({"puzzle", "make", "migong", "--size", "2", "--count", "1", "--seed", "3"},
          "does not match this job");
  // The same job still resumes after the refusals (they changed nothing).
  auto same = run(with(kGadur, {"--out", out, "--stop-after", "1"}));
  CHECK(same.code == 130);
  CHECK(resumed_games(same.err) == 1);

  // Damaged: one flipped bit anywhere, or cut short: "corrupt", not
  // "another job".
  const std::string file = out + "/puzzles.progress";
  const std::string good = loom::testing::slurp_file(file);
  REQUIRE(good.size() > 64);
  auto put = [&](const std::string& bytes) {
    std::ofstream f(file, std::ios::binary | std::ios::trunc);
    f << bytes;
  };
  for (size_t at : {size_t{3}, size_t{40}, good.size() / 2, good.size() - 1}) {
    std::string bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x10);
    put(bad);
    std::string err = refused(kGadur, "is corrupt");
    CHECK(err.find("another job") == std::string::npos);
  }
  put(good.substr(0, good.size() - 5));
  refused(kGadur, "is corrupt");
  put("");
  refused(kGadur, "is corrupt");
  // Not a regular file.
  fs::remove(file);
  fs::create_directories(file);
  refused(kGadur, "not a regular file");
  fs::remove_all(file);
  put(good);
  auto resumed = run(with(kGadur, {"--out", out}));
  CHECK(resumed.code == 0);
  CHECK(resumed_games(resumed.err) == 2);

  // Long Nardy: its own options are in the signature too.
  const std::string db = dir + "/db";
  stopped(nardy_job(db));
  auto n = nardy_job(db);
  CHECK(refused(replace(n, "--max-checkers", "5"), "does not match this job")
            .find("max-checkers=5") != std::string::npos);
  CHECK(refused(replace(n, "--min-gap", "0.03"), "does not match this job").find("min-gap") !=
        std::string::npos);
  CHECK(
      refused(replace(n, "--rule", "block=end-of-turn"), "does not match this job").find("rule ") !=
      std::string::npos);
  // A board game's progress file is another kind of run for Long Nardy.
  refused(kGadur, "does not match this job");
  fs::remove_all(dir);
}

namespace {

/// A progress file's kind and job signature, read from its header
/// (solver/checkpoint.h: magic, format version, kind, signature with the
/// layout appended).
std::pair<std::string, std::string> kind_and_job(const std::string& file) {
  const std::string bytes = loom::testing::slurp_file(file);
  auto field = [&](size_t& at) {
    uint64_t n = 0;
    REQUIRE(at + 8 <= bytes.size());
    std::memcpy(&n, bytes.data() + at, 8);
    std::string f = bytes.substr(at + 8, n);
    at += 8 + n;
    return f;
  };
  size_t at = 16;
  const std::string kind = field(at);
  std::string sig = field(at);
  const std::string layout = "; layout=1";
  REQUIRE(sig.size() > layout.size());
  REQUIRE(sig.substr(sig.size() - layout.size()) == layout);
  sig.resize(sig.size() - layout.size());
  return {kind, sig};
}

/// Makes another listed move the puzzle's answer (and line), listed with
/// `value`: a false claim in a well-formed puzzle.
void claim_other_answer(json& j, const json& value) {
  for (auto& m : j["moves"])
    if (m["move"] != j["answer"]) {
      j["answer"] = m["move"];
      j["line"] = json::array({m["move"]});
      m["value"] = value;
      return;
    }
}

}  // namespace

TEST_CASE("puzzle make: a sound progress file with an inconsistent payload is corrupt",
          "[puzzles][resume]") {
  // A real progress file (12 games, one puzzle found), read back, altered
  // and saved again under its own kind and signature, so that only the
  // payload's own checks can catch it.
  const std::string dir = temp_dir("payload");
  const std::string out = dir + "/out";
  auto r = run(with(kGadur, {"--out", out, "--stop-after", "12"}));
  REQUIRE(r.code == 130);
  const std::string file = out + "/puzzles.progress";
  const std::string bytes = loom::testing::slurp_file(file);
  const auto [kind, sig] = kind_and_job(file);
  REQUIRE(kind == puzzles::kProgressKind);
  // The loom version is part of the job: another version's file is a
  // mismatch, never misread.
  auto version = run({"--version"});
  REQUIRE(version.code == 0);
  REQUIRE(version.out.rfind("loom ", 0) == 0);
  CHECK(sig.find("; loom=" + lines(version.out)[0].substr(5)) != std::string::npos);
  for (const char* f : {"game=gadur", "; size=3", "; rule capture=any", "; rule exception=whole",
                        "; count=3", "; seed=3", "; max-positions=5000", "; max-games=120",
                        "; per-game=2", "; check-positions="})
    CHECK(sig.find(f) != std::string::npos);
  auto accept = [](const json&) { return std::string(); };
  const auto good = puzzles::load_progress(file, kind.c_str(), sig, accept);
  REQUIRE(good);
  REQUIRE(good->next_game == 12);
  REQUIRE(good->found.size() == 1);
  struct Damage {
    std::string what;
    std::function<void(puzzles::Progress&)> f;
  };
  const std::vector<Damage> damages = {
      {"the game counters disagree", [](puzzles::Progress& p) { ++p.games; }},
      {"the counters disagree", [](puzzles::Progress& p) { ++p.candidates; }},
      {"the counters disagree", [](puzzles::Progress& p) { p.rejected.begin()->second += 1; }},
      {"not a sorted set", [](puzzles::Progress& p) { p.seen_hashes.push_back(p.seen_hashes[0]); }},
      {"is not a legal move", [](puzzles::Progress& p) { p.found[0]["record"] = "a1 a1"; }},
      {"no record or difficulty", [](puzzles::Progress& p) { p.found[0].erase("difficulty"); }},
      // A saved puzzle whose claim is false (an older build's, or edited)
      // was written to the collection unproved.
      {"not confirmed: move", [](puzzles::Progress& p) { claim_other_answer(p.found[0], "win"); }},
      {"not a JSON object",
       [](puzzles::Progress& p) {
         p.found[0] = json::array({1, 2});
       }},
  };
  for (const auto& d : damages) {
    INFO(d.what);
    auto p = *good;
    d.f(p);
    puzzles::save_progress(file, kind.c_str(), sig, p);
    auto bad = run(with(kGadur, {"--out", out}));
    CHECK(bad.code == 2);
    CHECK(lines(bad.err).size() == 1);
    CHECK(bad.err.find("is corrupt") != std::string::npos);
    CHECK(bad.err.find(d.what) != std::string::npos);
  }
  // Saved back unaltered, it resumes (and saving is deterministic).
  puzzles::save_progress(file, kind.c_str(), sig, *good);
  CHECK(loom::testing::slurp_file(file) == bytes);
  auto ok = run(with(kGadur, {"--out", out}));
  CHECK(ok.code == 0);
  CHECK(resumed_games(ok.err) == 12);

  // Long Nardy: a saved puzzle with another turn as its answer (its chance
  // raised above the old answer's) is proved again and refused.
  const auto nardy = with(nardy_job(dir + "/db"), {"--out", dir + "/nardy"});
  REQUIRE(run(with(nardy, {"--stop-after", "40"})).code == 130);
  const std::string nfile = dir + "/nardy/puzzles.progress";
  const auto [nkind, nsig] = kind_and_job(nfile);
  REQUIRE(nkind == puzzles::kNardyProgressKind);
  auto np = puzzles::load_progress(nfile, nkind.c_str(), nsig, accept);
  REQUIRE(np);
  REQUIRE(np->found.size() == 1);
  claim_other_answer(np->found[0], 1.0);
  puzzles::save_progress(nfile, nkind.c_str(), nsig, *np);
  auto bad = run(nardy);
  CHECK(bad.code == 2);
  CHECK(lines(bad.err).size() == 1);
  CHECK(bad.err.find("is corrupt") != std::string::npos);
  CHECK(bad.err.find("saved puzzle 1: not confirmed: turn") != std::string::npos);
  fs::remove_all(dir);
}

namespace {

/// Runs `args` (collection directory `out`) up to four times, each killed
/// after delay() seconds unless it finished first, then to the end. No
/// finished game is lost: each run that got as far as reading the progress
/// file resumes at least where the previous one did (every game is saved at
/// the interval the tests use), and the file is gone only once the
/// collection `want` is whole. Returns the finishing run's standard output.
std::string run_with_kills(const std::vector<std::string>& args, const std::string& out,
                           const std::string& want, const std::function<double()>& delay) {
  int held = 0;  // games the progress file held at the last resume
  for (int k = 0; k < 4; ++k) {
    loom::testing::ChildProcess c(LOOM_BIN, args, out + "-run" + std::to_string(k));
    int status = 0;
    const double after = delay();
    INFO("kill " << k << " after " << after << " s");
    const bool finished = c.wait_for(after, status);
    if (finished) {
      REQUIRE(WIFEXITED(status));
      REQUIRE(WEXITSTATUS(status) == 0);
      return c.out();
    }
    c.kill_now();
    if (int g = resumed_games(c.err()); g >= 0) {
      CHECK(g >= held);
      held = g;
    }
    if (held > 0 && !fs::exists(out + "/puzzles.progress")) {
      // Gone only once the collection is written (the kill came between its
      // removal and the exit): then it is whole, and a rerun starts afresh.
      CHECK(collection(out) == want);
      held = 0;
    }
  }
  loom::testing::ChildProcess c(LOOM_BIN, args, out + "-final");
  int status = c.wait();
  INFO(c.err());
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  CHECK(resumed_games(c.err()) >= held);
  return c.out();
}

/// Wall seconds and standard output of one uninterrupted run, which must
/// exit with `code`.
std::pair<double, std::string> timed_run(const std::vector<std::string>& args,
                                         const std::string& stem, int code = 0) {
  loom::testing::ChildProcess c(LOOM_BIN, args, stem);
  const auto t0 = std::chrono::steady_clock::now();
  const int status = c.wait();
  INFO(c.err());
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == code);
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), c.out()};
}

}  // namespace

// Slow label for now: one failure in seven Release runs on 2026-12-01 (not
// reproduced, message not captured); the deterministic stop/resume cases
// above stay in the default suite.
TEST_CASE("puzzle make: SIGKILL at random moments, rerun, the uninterrupted collection",
          "[puzzles][resume][kill][.slow]") {
  const std::string dir = temp_dir("kill");
  const auto [full, plain_out] =
      timed_run(with(kGadur, {"--out", dir + "/plain"}), dir + "/plain-run");
  const std::string want = collection(dir + "/plain");
  for (uint64_t seed : {1, 2}) {
    const std::string out = dir + "/k" + std::to_string(seed);
    loom::testing::KillClock clock{seed * 104729};
    const std::string final_out =
        run_with_kills(with(kGadur, {"--out", out, "--checkpoint-interval", "0.001"}), out, want,
                       [&, full = full] { return clock.next() * full * 1.2; });
    CHECK(summary(final_out) == summary(plain_out));
    CHECK(collection(out) == want);
    CHECK_FALSE(fs::exists(out + "/puzzles.progress"));
  }
  fs::remove_all(dir);
}

TEST_CASE("puzzle make nardy: SIGKILL at random moments, rerun, the uninterrupted collection",
          "[puzzles][resume][kill][nardy][.slow]") {
  // Slow: every loom process builds the one-sided bear-off table first
  // (about 1.7 s in Release, several times that under the sanitizers).
  const std::string dir = temp_dir("kill-nardy");
  const auto job = nardy_job(dir + "/db");
  const auto [full, plain_out] =
      timed_run(with(job, {"--out", dir + "/plain"}), dir + "/plain-run");
  // The start-up alone (the tables): one game, in another directory; it
  // finds no puzzle (exit 1, "no puzzle found").
  const double startup =
      timed_run(with(replace(job, "--max-games", "1"), {"--out", dir + "/startup"}),
                dir + "/startup-run", 1)
          .first;
  const std::string want = collection(dir + "/plain");
  const std::string out = dir + "/k";
  loom::testing::KillClock clock{31337};
  // Killed while it plays games, after the start-up.
  const std::string final_out = run_with_kills(
      with(job, {"--out", out, "--checkpoint-interval", "0.001"}), out, want,
      [&, full = full] { return startup + clock.next() * std::max(0.05, full - startup) * 1.2; });
  CHECK(summary(final_out) == summary(plain_out));
  CHECK(collection(out) == want);
  CHECK_FALSE(fs::exists(out + "/puzzles.progress"));
  fs::remove_all(dir);
}

TEST_CASE("puzzle make: SIGTERM saves the progress and exits 130, as Ctrl-C does",
          "[puzzles][resume][kill]") {
  // It was killed by SIGTERM (status 143; Ctrl-C: 130 from the shell),
  // losing the games since the last periodic save.
  const std::string dir = temp_dir("term");
  const std::string out = dir + "/out";
  // Far more puzzles than the run lives for.
  const auto args = with(replace(replace(kGadur, "--count", "1000"), "--max-games", "100000"),
                         {"--out", out, "--checkpoint-interval", "1000"});
  int stopped_after = -1;
  {
    loom::testing::ChildProcess c(LOOM_BIN, args, dir + "/run");
    // Started: the output directory is made just before the run control
    // (which installs the handlers) and the first game; 300 ms is ample.
    for (int i = 0; i < 60000 && !fs::exists(out); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    REQUIRE(fs::exists(out));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::kill(c.pid, SIGTERM);
    int st = 0;
    if (!c.wait_for(120, st)) {
      c.kill_now();
      FAIL("SIGTERM did not stop the run within 120 s");
    }
    INFO(c.err());
    REQUIRE(WIFEXITED(st));
    CHECK(WEXITSTATUS(st) == 130);
    const std::string& err = c.err();
    const size_t at = err.find("stopped after ");
    REQUIRE(at != std::string::npos);
    stopped_after = std::stoi(err.substr(at + 14));
    CHECK(err.find("rerun the same command to resume") != std::string::npos);
  }
  // Saved on the way out although no periodic save was due (interval
  // 1000 s): a rerun resumes from exactly the games played.
  REQUIRE(fs::exists(out + "/puzzles.progress"));
  auto again = run(with(args, {"--stop-after", "1"}));
  CHECK(again.code == 130);
  CHECK(resumed_games(again.err) == stopped_after);
  fs::remove_all(dir);
}
