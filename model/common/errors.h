// Error types shared by the model and the tools.
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

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

/// A user's text as shown in an error message (issue 17): printable ASCII,
/// other bytes as \xNN; a text longer than `max` bytes is cut there and
/// marked with "..." and its full length, so a message never hides that it
/// was cut and never prints a 300-digit number in full.
inline std::string clip_token(std::string_view token, size_t max = 40) {
  std::string out;
  for (char c : token.substr(0, max)) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) {
      out += c;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    }
  }
  if (token.size() > max) out += "... (" + std::to_string(token.size()) + " characters)";
  return out;
}

}  // namespace loom
