// Kill tests for long jobs (issue 17): start the real `loom` binary as a
// child process, SIGKILL it at seeded random moments (no handler runs: only
// what the last checkpoint holds survives), rerun it, and compare the final
// answer with an uninterrupted run. Shared by every long job's kill test
// (solving; puzzle generation and database builds can use the same).
#pragma once

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "model/common/zobrist.h"

extern char** environ;

namespace loom::testing {

inline std::string slurp_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// A child process (`binary` with `args`), stdout and stderr sent to
/// stem.out / stem.err. Killed with SIGKILL if still running on destruction.
struct ChildProcess {
  pid_t pid = -1;
  std::string out_file, err_file;

  ChildProcess(const std::string& binary, const std::vector<std::string>& args,
               const std::string& stem)
      : out_file(stem + ".out"), err_file(stem + ".err") {
    std::vector<std::string> all{binary};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int rc = posix_spawn(&pid, binary.c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    REQUIRE(rc == 0);
  }
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  /// Waits for the child; returns its wait status.
  int wait() {
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    pid = -1;
    return status;
  }
  /// True while the child has not ended (it is not reaped here).
  bool running() {
    int status = 0;
    return ::waitpid(pid, &status, WNOHANG) == 0;
  }
  /// Waits at most `seconds`; true (and status set) if it ended.
  bool wait_for(double seconds, int& status) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
      pid_t r = ::waitpid(pid, &status, WNOHANG);
      if (r == pid) {
        pid = -1;
        return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return false;
  }
  void kill_now() {
    ::kill(pid, SIGKILL);
    wait();
  }
  std::string out() const { return slurp_file(out_file); }
  std::string err() const { return slurp_file(err_file); }
  ~ChildProcess() {
    if (pid > 0) {
      ::kill(pid, SIGKILL);
      int status = 0;
      ::waitpid(pid, &status, 0);
    }
    std::remove(out_file.c_str());
    std::remove(err_file.c_str());
  }
};

/// Seeded uniform doubles in [0, 1) (splitmix64), the same on every platform.
struct KillClock {
  uint64_t state;
  double next() { return static_cast<double>(splitmix64(state) >> 11) / 9007199254740992.0; }
};

/// Runs `binary args` repeatedly, each run SIGKILLed after a seeded random
/// delay in [0, max_delay) seconds, `kills` times (a run that ends by itself
/// first must end with status 0, and the loop stops there); then once more
/// to the end. Returns the final run's standard output (status 0 required).
/// The job must resume from its checkpoint to make progress.
inline std::string run_with_random_kills(const std::string& binary,
                                         const std::vector<std::string>& args,
                                         const std::string& stem, uint64_t seed, int kills,
                                         double max_delay) {
  KillClock clock{seed};
  for (int k = 0; k < kills; ++k) {
    double delay = clock.next() * max_delay;
    INFO("kill " << k << " after " << delay << " s");
    ChildProcess c(binary, args, stem + "_k" + std::to_string(k));
    int status = 0;
    if (c.wait_for(delay, status)) {
      // Finished before the kill: it must have succeeded.
      REQUIRE(WIFEXITED(status));
      REQUIRE(WEXITSTATUS(status) == 0);
      return c.out();
    }
    c.kill_now();
  }
  ChildProcess c(binary, args, stem + "_final");
  int status = c.wait();
  INFO(c.err());
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  return c.out();
}

}  // namespace loom::testing
