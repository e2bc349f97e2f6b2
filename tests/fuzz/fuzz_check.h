// Shared by the libFuzzer harnesses (tests/fuzz/fuzz_*.cpp): a property check
// that stays on in every build and aborts with a message (libFuzzer then saves
// the input as a crash), and a reader that splits the fuzzer's bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#define FUZZ_REQUIRE(cond, what)                                                              \
  do {                                                                                        \
    if (!(cond)) {                                                                            \
      std::fprintf(stderr, "property failed at %s:%d: %s\n  %s\n", __FILE__, __LINE__, #cond, \
                   std::string(what).c_str());                                                \
      std::abort();                                                                           \
    }                                                                                         \
  } while (0)

namespace loom::fuzz {

/// The fuzzer's bytes: a few leading control bytes, then text.
struct Input {
  const uint8_t* data;
  size_t size;
  size_t pos = 0;
  /// The next byte (0 once used up).
  uint8_t byte() { return pos < size ? data[pos++] : 0; }
  /// The rest as text.
  std::string_view rest() {
    std::string_view s(reinterpret_cast<const char*>(data) + pos, size - pos);
    pos = size;
    return s;
  }
};

}  // namespace loom::fuzz
