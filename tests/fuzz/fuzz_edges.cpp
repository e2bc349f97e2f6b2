// libFuzzer harness: Migong edge colouring files (model/migong/edges.h).
//
// Input: byte 0 picks the side (2..7); the rest is the file's text.
// Properties: a rejected file is an InputError with a one-line message; an
// accepted one is printed by to_text() into a text that parses back to the
// same colouring and prints identically; every rim and centre segment is an
// edge; inverting twice and the identity symmetry give the colouring back.
#include "model/common/errors.h"
#include "model/migong/edges.h"
#include "tests/fuzz/fuzz_check.h"

using namespace loom;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  loom::fuzz::Input in{data, size};
  int side = 2 + in.byte() % 6;
  std::string_view text = in.rest();
  std::optional<migong::EdgeColouring> c;
  try {
    c = migong::EdgeColouring::parse(text, side);
  } catch (const InputError& e) {
    std::string msg = e.what();
    FUZZ_REQUIRE(!msg.empty() && msg.find('\n') == std::string::npos, "message: " + msg);
    FUZZ_REQUIRE(msg.size() < 400, "overlong message: " + msg);
    return 0;
  }
  FUZZ_REQUIRE(c->side() == side, "side differs");
  std::string printed = c->to_text();
  auto back = migong::EdgeColouring::parse(printed, side);
  FUZZ_REQUIRE(back == *c, "print then parse differs");
  FUZZ_REQUIRE(back.to_text() == printed, "printing is not stable");
  FUZZ_REQUIRE(back.digest() == c->digest(), "equal colourings, different digests");
  for (const auto& s : migong::rim_walk(c->geo()))
    FUZZ_REQUIRE(c->is_edge(s.site, s.dir), "rim segment not an edge");
  for (const auto& s : migong::centre_sides(c->geo()))
    FUZZ_REQUIRE(c->is_edge(s.site, s.dir), "centre side not an edge");
  FUZZ_REQUIRE(c->inverted().inverted() == *c, "inverting twice differs");
  FUZZ_REQUIRE(c->mapped(0) == *c, "identity symmetry differs");
  return 0;
}
