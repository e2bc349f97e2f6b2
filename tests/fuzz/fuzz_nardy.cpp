// libFuzzer harness: Long Nardy position strings and dice (CONVENTIONS.md).
//
// Input: a position string, optionally a newline and a roll. Properties:
// - Position::parse accepts only canonical text: whatever it accepts prints
//   back byte for byte, and the printed form parses to the same position;
// - a rejected position is an InputError, nothing else;
// - Roll::parse accepts exactly two digits 1-6 in either order, and
//   parse(name) is the identity;
// - for an accepted, playable position and roll, every distinct resulting
//   position is sound (invariants), prints and parses back to itself, is
//   listed once, and has the other side to move.
#include <algorithm>
#include <set>

#include "model/common/errors.h"
#include "model/nardy/movegen.h"
#include "model/nardy/nardy.h"
#include "tests/fuzz/fuzz_check.h"

using namespace loom;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view all(reinterpret_cast<const char*>(data), size);
  size_t nl = all.find('\n');
  std::string_view pos_text = all.substr(0, nl);
  std::optional<std::string_view> dice_text;
  if (nl != std::string_view::npos) dice_text = all.substr(nl + 1);

  std::optional<nardy::Position> pos;
  try {
    pos = nardy::Position::parse(pos_text);
  } catch (const InputError&) {
  }
  if (pos) {
    std::string printed = pos->to_string();
    FUZZ_REQUIRE(printed == pos_text, "accepted a non-canonical position: " + printed);
    FUZZ_REQUIRE(nardy::Position::parse(printed) == *pos, "print then parse differs");
    FUZZ_REQUIRE(pos->check_invariants().empty(), pos->check_invariants());
  }
  std::optional<nardy::Roll> roll;
  if (dice_text) {
    roll = nardy::Roll::parse(*dice_text);
    bool two_digits = dice_text->size() == 2 && (*dice_text)[0] >= '1' && (*dice_text)[0] <= '6' &&
                      (*dice_text)[1] >= '1' && (*dice_text)[1] <= '6';
    FUZZ_REQUIRE(roll.has_value() == two_digits, "roll accepted/refused wrongly");
    if (roll) {
      std::string name = roll->name();
      FUZZ_REQUIRE(nardy::Roll::parse(name) == roll, "roll print then parse differs");
      FUZZ_REQUIRE(std::is_permutation(name.begin(), name.end(), dice_text->begin()),
                   "roll name is not the digits given");
      FUZZ_REQUIRE(roll->hi >= roll->lo, "roll not ordered");
    }
  }
  if (pos && roll) {
    nardy::Options opt;
    if (!nardy::check_playable(*pos, opt).empty() || nardy::result(*pos, opt).over()) return 0;
    nardy::TurnGenerator gen(opt);
    std::vector<nardy::Child> children;
    gen.turns(*pos, *roll, children);
    FUZZ_REQUIRE(!children.empty(), "a roll has at least the forfeited turn");
    std::set<nardy::Position> seen;
    for (const auto& c : children) {
      FUZZ_REQUIRE(c.position.check_invariants().empty(), c.position.check_invariants());
      std::string s = c.position.to_string();
      FUZZ_REQUIRE(nardy::Position::parse(s) == c.position, "child does not round-trip: " + s);
      FUZZ_REQUIRE(seen.insert(c.position).second, "a resulting position listed twice: " + s);
      FUZZ_REQUIRE(c.position.to_move() == other(pos->to_move()), "side to move not passed on");
      FUZZ_REQUIRE(c.turn.size <= (roll->is_double() ? 4 : 2), "too many steps");
    }
  }
  return 0;
}
