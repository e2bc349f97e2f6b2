// Kill tests (issue 17): a long job SIGKILLed at seeded random moments and
// rerun from its checkpoint gives exactly the answer of an uninterrupted
// run, for retrograde analysis and for alpha-beta; and a kill never loses
// finished work beyond the checkpoint interval (alpha-beta: the openings
// solved before a kill are still solved after it).
#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/common/child_process.h"
#include "tests/common/cli_run.h"

using loom::testing::last_json;
using loom::testing::run_with_random_kills;
using nlohmann::json;

namespace {

std::string kill_stem(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / "loom_kill_tests";
  std::filesystem::create_directories(dir);
  return (dir / (name + "_" + std::to_string(::getpid()))).string();
}

/// Openings the checkpoint holds as solved, read by a rerun that may
/// search only one node (it reports the saved ones and saves them again).
size_t solved_in_checkpoint(const std::vector<std::string>& job, const std::string& file) {
  if (!std::filesystem::exists(file)) return 0;
  auto probe = job;
  probe.insert(probe.end(), {"--checkpoint", file, "--max-nodes", "1"});
  auto r = loom::testing::run(probe);
  REQUIRE(r.code == 0);
  size_t n = 0;
  const json rep = last_json(r.out);  // kept alive: the loop reads into it
  for (const auto& o : rep["openings"]) n += !o["value"].is_null();
  return n;
}

}  // namespace

TEST_CASE("alpha-beta with --checkpoint: SIGKILL at random moments, rerun, same answer",
          "[robust][kill][checkpoint]") {
  // Enfargar side 3 after five stones by alpha-beta: 4 openings, about a
  // second in Release (several under the sanitizers).
  const std::vector<std::string> job = {"solve",       "enfargar", "--size", "3",      "--record",
                                        "a1 b2 c3 d4", "--method", "dfs",    "--json", "--no-pv"};
  auto plain = loom::testing::run(job);
  REQUIRE(plain.code == 0);
  json want = last_json(plain.out);
  const double full = want["seconds"].get<double>();
  std::string stem = kill_stem("dfs");
  std::string file = stem + ".ckpt";
  for (uint64_t seed : {1, 2}) {
    std::filesystem::remove(file);
    auto args = job;
    args.insert(args.end(), {"--checkpoint", file, "--checkpoint-interval", "0.1"});
    // No finished opening is lost: kill, count what the file holds, repeat.
    loom::testing::KillClock clock{seed * 7919};
    size_t held = 0;
    for (int k = 0; k < 3; ++k) {
      loom::testing::ChildProcess c(LOOM_BIN, args, stem + "_probe");
      int status = 0;
      if (c.wait_for(clock.next() * full * 1.5, status)) break;
      c.kill_now();
      size_t now = solved_in_checkpoint(job, file);
      CHECK(now >= held);
      held = now;
    }
    std::string out = run_with_random_kills(LOOM_BIN, args, stem, seed, 3, full * 1.5);
    json got = last_json(out);
    CHECK(got["value"] == want["value"]);
    CHECK(got["openings"] == want["openings"]);
    CHECK(got["complete"] == true);
  }
  std::filesystem::remove(file);
  std::filesystem::remove(file + ".tmp");
}

TEST_CASE("retrograde with --checkpoint: SIGKILL at random moments, rerun, same answer",
          "[robust][kill][checkpoint]") {
  const std::vector<std::string> job = {"solve",    "enfargar",       "--size",   "3",
                                        "--record", "a1 b2 c3 d4 e5", "--json",   "--threads",
                                        "1",        "--no-pv",        "--method", "retrograde"};
  auto plain = loom::testing::run(job);
  REQUIRE(plain.code == 0);
  json want = last_json(plain.out);
  const double full = want["seconds"].get<double>();
  std::string stem = kill_stem("retro");
  std::string file = stem + ".ckpt";
  std::filesystem::remove(file);
  auto args = job;
  args.insert(args.end(), {"--checkpoint", file, "--checkpoint-interval", "0.1"});
  std::string out = run_with_random_kills(LOOM_BIN, args, stem, 5, 4, full * 1.2);
  json got = last_json(out);
  CHECK(got["value"] == want["value"]);
  CHECK(got["positions"] == want["positions"]);
  CHECK(got["moves"] == want["moves"]);
  CHECK(got["openings"] == want["openings"]);
  std::filesystem::remove(file);
  std::filesystem::remove(file + ".tmp");
}
