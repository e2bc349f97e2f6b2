// Error types shared by the model and the tools.
#pragma once

#include <stdexcept>
#include <string>

namespace loom {

/// Bad user input (unknown option, malformed token, illegal move, corrupt
/// file). The command line reports what() on one line and exits with status 2.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& what) : std::runtime_error(what) {}
};

/// A long run stopped on request (Ctrl-C, SIGTERM) after saving its progress.
/// The command line prints what() and exits with status 130.
class Interrupted : public std::runtime_error {
 public:
  explicit Interrupted(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace loom
