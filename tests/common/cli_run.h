// Runs the `loom` command line in process (app/cli.h) and captures what it
// prints: the shared driver of every command-line test.
#pragma once

#include <sstream>
#include <string>
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

/// The lines of a text, without their line ends.
inline std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string l;
  while (std::getline(in, l)) out.push_back(l);
  return out;
}

}  // namespace loom::testing
