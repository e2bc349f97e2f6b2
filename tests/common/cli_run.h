// Runs the `loom` command line in process (app/cli.h) and captures what it
// prints: the shared driver of every command-line test.
#pragma once

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "app/cli.h"

namespace loom::testing {

/// Exit status, standard output and standard error of one `loom` run.
struct Run {
  int code;
  std::string out, err;
};

inline Run run(std::vector<std::string> args) {
  std::ostringstream out, err;
  int code = run_loom(args, out, err);
  return {code, out.str(), err.str()};
}

/// A run of `job` with `extra` appended.
inline Run run(std::vector<std::string> job, const std::vector<std::string>& extra) {
  job.insert(job.end(), extra.begin(), extra.end());
  return run(std::move(job));
}

/// The lines of a text, without their line ends.
inline std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string l;
  while (std::getline(in, l)) out.push_back(l);
  return out;
}

/// The last non-empty line of an output, parsed as JSON (`--json` output).
inline nlohmann::json last_json(const std::string& out) {
  std::istringstream in(out);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return nlohmann::json::parse(last);
}

/// A bad command line and a text its error message must contain.
struct BadInput {
  std::vector<std::string> args;
  std::string needle;
};

/// Each bad command line exits 2, prints nothing on standard output and one
/// line naming the problem (containing the needle) on standard error.
inline void check_bad_inputs(const std::vector<BadInput>& cases) {
  for (const auto& c : cases) {
    std::string joined;
    for (const auto& a : c.args) joined += a + " ";
    INFO(joined);
    auto r = run(c.args);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(lines(r.err).size() == 1);
    CHECK(r.err.find(c.needle) != std::string::npos);
  }
}

}  // namespace loom::testing
