// libFuzzer harness: puzzle files (puzzles.jsonl, CONVENTIONS.md "Puzzles")
// as `loom puzzle check` reads them, up to the point where it solves.
//
// Input: the text of a puzzles.jsonl file. Properties:
// - parse_puzzles either returns JSON objects or throws InputError, whose
//   message is one line of bounded length (never another exception);
// - validate_file_puzzle of each object likewise; an object it accepts has every
//   field `loom puzzle check` reads, of the type it reads it as (reading
//   them throws nothing), and an id that is a short file-name token;
// - printing is stable: the accepted objects written as a file and parsed
//   again print the same, and are accepted again.
#include <string>
#include <vector>

#include "model/common/errors.h"
#include "puzzles/puzzles.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

/// Messages clip what they quote (clip_token: 40 bytes, each up to 4
/// characters as \xNN): one line, a few hundred characters at most.
void one_line(const std::string& msg, size_t max) {
  FUZZ_REQUIRE(msg.find('\n') == std::string::npos, "a multi-line error: " + msg);
  FUZZ_REQUIRE(msg.size() <= max, "an error of " + std::to_string(msg.size()) + " bytes");
}

/// The fields `loom puzzle check` reads after validate_shape (app/cmd_puzzle.cpp
/// and puzzles/checker.h), read the same way.
void read_fields(const nlohmann::json& p) {
  const std::string id = p["id"].get<std::string>();
  FUZZ_REQUIRE(!id.empty() && id.size() <= 64 && id.find('/') == std::string::npos &&
                   id.find('\n') == std::string::npos,
               "an accepted id that is not a token: " + loom::clip_token(id));
  const std::string game = p["game"].get<std::string>();
  (void)p["size"].get<int>();
  for (const auto& [k, v] : p["rules"].items()) (void)(k + "=" + v.get<std::string>());
  if (game == "nardy") {
    (void)p["position"].get<std::string>();
    (void)p["dice"].get<std::string>();
  } else {
    (void)p["record"].get<std::string>();
    if (p.contains("setup")) (void)p["setup"].get<std::string>();
  }
  (void)p["to_move"].get<std::string>();
  (void)p["question"].get<std::string>();
  (void)p["answer"].get<std::string>();
  for (const auto& e : p["moves"]) (void)e["move"].get<std::string>();
  for (const auto& e : p["line"]) (void)e.get<std::string>();
  (void)p["difficulty"].get<double>();
  (void)p["proof"]["method"].get<std::string>();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace loom;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<nlohmann::json> ps;
  try {
    ps = puzzles::parse_puzzles(text, "fuzz.jsonl");
  } catch (const InputError& e) {
    one_line(e.what(), 512);
    return 0;
  }
  std::string file;
  size_t accepted = 0;
  for (const auto& p : ps) {
    FUZZ_REQUIRE(p.is_object(), "parse_puzzles returned a non-object");
    try {
      puzzles::validate_file_puzzle(p);
    } catch (const InputError& e) {
      // The id (40 bytes) and a Long Nardy position (100), each byte escaped
      // in up to 4 characters, with their words: at most about 700.
      one_line(e.what(), 1024);
      continue;
    }
    read_fields(p);
    file += p.dump() + "\n";
    ++accepted;
  }
  const auto again = puzzles::parse_puzzles(file, "again.jsonl");
  FUZZ_REQUIRE(again.size() == accepted, "the printed file holds another number of puzzles");
  std::string file2;
  for (const auto& p : again) {
    puzzles::validate_file_puzzle(p);  // accepted once, accepted again (else InputError: a crash)
    file2 += p.dump() + "\n";
  }
  FUZZ_REQUIRE(file2 == file, "printing then parsing is not stable");
  return 0;
}
