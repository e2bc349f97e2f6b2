// Checkpoints against real signals: the `loom` binary (LOOM_BIN) is started
// as a child process, killed with SIGKILL (no handler runs: only the last
// periodic checkpoint survives) and later stopped with SIGTERM (the handler
// saves and exits 130); a third run must resume and give exactly the answer
// of an uninterrupted run.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "solver/whole16.h"
#include "tests/common/child_process.h"
#include "tests/common/cli_run.h"

namespace {

using nlohmann::json;

using loom::testing::ChildProcess;

/// Inode of a file (a checkpoint is replaced by rename: each save is a new
/// inode), or 0 when it does not exist.
ino_t inode_of(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? st.st_ino : 0;
}

/// Polls until the checkpoint is a file other than `old` (a save happened).
/// Returns false if the child ended or 120 s passed first.
bool wait_for_new_checkpoint(ChildProcess& c, const std::string& file, ino_t old) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < deadline) {
    ino_t now = inode_of(file);
    if (now != 0 && now != old) return true;
    if (!c.running()) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

/// Runs loom with args and SIGKILLs it right after its first save of
/// `file` (no handler runs: the file is what that save left).
void kill_after_first_save(const std::vector<std::string>& args, const std::string& file,
                           const std::string& stem) {
  ChildProcess c(LOOM_BIN, args, stem);
  REQUIRE(wait_for_new_checkpoint(c, file, 0));
  ::kill(c.pid, SIGKILL);
  c.wait();
}

}  // namespace

TEST_CASE("checkpoints survive a real SIGKILL and SIGTERM of the loom binary",
          "[solver][cli][checkpoint]") {
  // Enfargar side 3 after five stones: about 400,000 positions by retrograde
  // analysis (1.5 s in Release), checkpointed every 0.25 s.
  const std::vector<std::string> job = {"solve",    "enfargar",       "--size",   "3",
                                        "--record", "a1 b2 c3 d4 e5", "--json",   "--threads",
                                        "1",        "--no-pv",        "--method", "retrograde"};
  auto plain = loom::testing::run(job);
  REQUIRE(plain.code == 0);
  json want = loom::testing::last_json(plain.out);

  auto dir = std::filesystem::temp_directory_path() / "loom_solver_tests";
  std::filesystem::create_directories(dir);
  const std::string stem = (dir / ("kill_" + std::to_string(::getpid()))).string();
  const std::string file = stem + ".ckpt";
  std::filesystem::remove(file);
  auto args = job;
  args.insert(args.end(), {"--checkpoint", file, "--checkpoint-interval", "0.25"});

  // 1. SIGKILL right after the first periodic save.
  {
    ChildProcess c(LOOM_BIN, args, stem + "_1");
    REQUIRE(wait_for_new_checkpoint(c, file, 0));
    ::kill(c.pid, SIGKILL);
    int st = c.wait();
    REQUIRE(WIFSIGNALED(st));
    CHECK(WTERMSIG(st) == SIGKILL);
  }
  REQUIRE(std::filesystem::exists(file));
  // 2. Resume, then SIGTERM after the next save: the handler saves and the
  //    run ends with status 130 and a one-line message.
  {
    ino_t before = inode_of(file);
    ChildProcess c(LOOM_BIN, args, stem + "_2");
    REQUIRE(wait_for_new_checkpoint(c, file, before));
    ::kill(c.pid, SIGTERM);
    int st = c.wait();
    REQUIRE(WIFEXITED(st));
    CHECK(WEXITSTATUS(st) == 130);
    CHECK(c.err().find("interrupted") != std::string::npos);
  }
  // 3. Resume to the end: the same answer as the uninterrupted run.
  {
    ChildProcess c(LOOM_BIN, args, stem + "_3");
    int st = c.wait();
    REQUIRE(WIFEXITED(st));
    REQUIRE(WEXITSTATUS(st) == 0);
    json got = loom::testing::last_json(c.out());
    CHECK(got["resumed"] == true);
    CHECK(got["value"] == want["value"]);
    CHECK(got["positions"] == want["positions"]);
    CHECK(got["moves"] == want["moves"]);
    CHECK(got["sweeps"] == want["sweeps"]);
    CHECK(got["openings"] == want["openings"]);
  }
  std::filesystem::remove(file);
  std::filesystem::remove(file + ".tmp");
}

TEST_CASE("a SIGKILL inside an opening of compact or dfpn keeps the periodic save of its table",
          "[solver][cli][checkpoint]") {
  // Merge-only Gadur side 4 from the start: no opening class finishes in
  // billions of nodes (docs/findings.md), so every save the run makes is
  // one from inside an opening (at a progress tick, every 2^20 nodes, once
  // --checkpoint-interval is due). Before, only finished openings were
  // saved, and a killed run lost all of an opening's work.
  // On two threads sharing one table (16-byte entries read and written
  // whole: whole16_atomic()), the saver parks both searches at their ticks
  // first; before 2026-12-07 a table was saved there only at a stop.
  auto dir = std::filesystem::temp_directory_path() / "loom_solver_tests";
  std::filesystem::create_directories(dir);
  std::vector<std::pair<std::string, std::string>> runs = {{"compact", "1"}, {"dfpn", "1"}};
  if (loom::solver::whole16_atomic()) {
    runs.push_back({"compact", "2"});
    runs.push_back({"dfpn", "2"});
  }
  for (const auto& [method, threads] : runs) {
    INFO(method << " on " << threads << " thread(s)");
    const std::string stem = (dir / ("kill_table_" + std::to_string(::getpid()))).string();
    const std::string file = stem + ".ckpt";
    std::filesystem::remove(file);
    const std::vector<std::string> job = {
        "solve",        "gadur", "--size",    "4",       "--rule",     "capture=merge-only",
        "--method",     method,  "--json",    "--no-pv", "--table-mb", "16",
        "--checkpoint", file,    "--threads", threads};
    {
      auto args = job;
      args.insert(args.end(), {"--checkpoint-interval", "0.25"});
      kill_after_first_save(args, file, stem + "_1");
    }
    REQUIRE(std::filesystem::exists(file));
    CHECK(std::filesystem::file_size(file) > (uint64_t{16} << 20));  // the table is in it
    auto args = job;
    args.insert(args.end(), {"--max-nodes", "1"});
    auto r = loom::testing::run(args);
    REQUIRE(r.code == 0);
    const json j = loom::testing::last_json(r.out);
    CHECK(j["resumed"] == true);
    CHECK(j["nodes_total"].get<uint64_t>() >= (uint64_t{1} << 20));  // a tick's work at least
    CHECK(j.value("note", "").find("not used") == std::string::npos);
    std::filesystem::remove(file);
    std::filesystem::remove(file + ".tmp");
  }
}

TEST_CASE("two threads sharing a table save it with each finished opening",
          "[solver][cli][checkpoint]") {
  // Sixteen openings, 9.5 M nodes (compact; 1.1 s on two threads in Release): the
  // first save is the one after the first finished opening, made while the
  // other thread searches (it parks at its tick). Before 2026-12-07 that
  // save held the codes only, so a SIGKILL lost the shared table.
  if (!loom::solver::whole16_atomic()) return;  // a table each: not kept
  auto dir = std::filesystem::temp_directory_path() / "loom_solver_tests";
  std::filesystem::create_directories(dir);
  for (const std::string method : {"compact", "dfpn"}) {
    INFO(method);
    const std::string stem = (dir / ("opening_table_" + std::to_string(::getpid()))).string();
    const std::string file = stem + ".ckpt";
    std::filesystem::remove(file);
    const std::vector<std::string> job = {"solve",      "gadur",
                                          "--size",     "3",
                                          "--rule",     "capture=merge-only",
                                          "--record",   "a3 b3 b1 c2 b2",
                                          "--method",   method,
                                          "--json",     "--no-pv",
                                          "--table-mb", "16",
                                          "--threads",  "2"};
    auto fresh = loom::testing::run(job);
    REQUIRE(fresh.code == 0);
    const json want = loom::testing::last_json(fresh.out);
    auto args = job;
    args.insert(args.end(), {"--checkpoint", file});
    kill_after_first_save(args, file, stem + "_1");
    REQUIRE(std::filesystem::exists(file));
    CHECK(std::filesystem::file_size(file) > (uint64_t{16} << 20));  // the table is in it
    auto r = loom::testing::run(args);
    REQUIRE(r.code == 0);
    const json j = loom::testing::last_json(r.out);
    CHECK(j["resumed"] == true);
    CHECK(j["value"] == want["value"]);
    CHECK(j["openings"] == want["openings"]);
    CHECK(j.value("note", "").find("not used") == std::string::npos);
    std::filesystem::remove(file);
    std::filesystem::remove(file + ".tmp");
  }
}
