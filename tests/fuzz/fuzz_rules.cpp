// libFuzzer harness: rule options (`--rule NAME=VALUE`, model/common/rules.h)
// of every game.
//
// Input: byte 0 picks the game; the rest is assignments, one a line (the
// first 16 lines are read: a rejection is a C++ exception, the cost of
// this harness).
// Properties: an accepted assignment sets exactly that key to that value and
// nothing else; a rejected one is an InputError with a one-line message and
// leaves every option as it was; the options in force, printed as
// assignments and applied to a fresh set, give the same set.
#include <functional>
#include <vector>

#include "model/common/errors.h"
#include "model/common/rules.h"
#include "model/enfargar/enfargar.h"
#include "model/fiodar/fiodar.h"
#include "model/gadur/gadur.h"
#include "model/migong/migong.h"
#include "model/nardy/nardy.h"
#include "tests/fuzz/fuzz_check.h"

using namespace loom;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<std::vector<RuleSpec>> games = {
      gadur::Options::specs(), fiodar::Options::specs(), enfargar::Options::specs(),
      migong::Options::specs(), nardy::Options::specs()};
  loom::fuzz::Input in{data, size};
  const auto& specs = games[in.byte() % games.size()];
  std::string_view text = in.rest();
  RuleSet rs(specs);
  size_t i = 0;
  // At most kMaxLines assignments an input (the work per input bounded).
  constexpr int kMaxLines = 16;
  for (int line = 0; i <= text.size() && line < kMaxLines; ++line) {
    size_t j = text.find('\n', i);
    if (j == std::string_view::npos) j = text.size();
    std::string_view a = text.substr(i, j - i);
    i = j + 1;
    auto before = rs.in_force();
    try {
      rs.set(a);
    } catch (const InputError& e) {
      std::string msg = e.what();
      FUZZ_REQUIRE(msg.find('\n') == std::string::npos && msg.size() < 400, "message: " + msg);
      FUZZ_REQUIRE(rs.in_force() == before, "a rejected assignment changed the rules");
      continue;
    }
    auto after = rs.in_force();
    size_t eq = a.find('=');
    FUZZ_REQUIRE(eq != std::string_view::npos, "accepted without '='");
    std::string key(a.substr(0, eq)), value(a.substr(eq + 1));
    FUZZ_REQUIRE(rs.get(key) == value, "value not in force");
    FUZZ_REQUIRE(after.size() == before.size(), "option count changed");
    for (size_t k = 0; k < after.size(); ++k)
      if (after[k].first != key) FUZZ_REQUIRE(after[k] == before[k], "another option changed");
  }
  RuleSet again(specs);
  for (const auto& [k, v] : rs.in_force()) again.set(k + "=" + v);
  FUZZ_REQUIRE(again.in_force() == rs.in_force(), "printed rules do not parse back");
  return 0;
}
