// libFuzzer harness: Long Nardy bear-off database files (solver/nardy/bearoff.h,
// format in docs/nardy-exact.md), for the small tables N = 1 and 2.
//
// Byte 0 picks the mode, byte 1 the table (N = 1 + byte % 2):
// - raw (even): the other bytes are the file. Whatever TwoSided::load accepts
//   must be exactly a file save() writes: saving the loaded table again gives
//   the same bytes (no header byte or payload byte goes unchecked).
// - damaged (odd): the genuine file of the table, then the script's bytes
//   flip bits (position, bit) or cut it short; load must refuse it with a
//   reason, unless the bytes came out unchanged (then it loads and equals the
//   genuine table).
// Files live in /dev/shm when it exists.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "solver/nardy/bearoff.h"
#include "tests/fuzz/fuzz_check.h"

using namespace loom::nardy::exact;

namespace {

std::string path(const char* what) {
  static const std::string dir =
      std::filesystem::exists("/dev/shm") ? std::string("/dev/shm") : std::string("/tmp");
  return dir + "/loom_fuzz_bearoff_" + what + "_" + std::to_string(::getpid());
}

std::string slurp(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void spill(const std::string& file, const std::string& bytes) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// The genuine table for n and its file's bytes (built once per process).
const std::pair<TwoSided, std::string>& genuine(int n) {
  static std::map<int, std::pair<TwoSided, std::string>> cache;
  auto it = cache.find(n);
  if (it == cache.end()) {
    TwoSided t = TwoSided::build(n, 1);
    std::string f = path("genuine");
    t.save(f);
    std::string bytes = slurp(f);
    std::filesystem::remove(f);
    it = cache.emplace(n, std::make_pair(std::move(t), std::move(bytes))).first;
  }
  return it->second;
}

bool same_values(const TwoSided& a, const TwoSided& b) {
  if (a.n() != b.n() || a.size() != b.size()) return false;
  for (uint32_t x = 0; x < a.size(); ++x)
    for (uint32_t y = 0; y < a.size(); ++y)
      if (a.p_win(x, y) != b.p_win(x, y) || a.points(x, y) != b.points(x, y)) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  loom::fuzz::Input in{data, size};
  const bool damaged = in.byte() % 2;
  const int n = 1 + in.byte() % 2;
  const auto& [table, bytes] = genuine(n);
  const std::string file = path("input");
  std::string content;
  if (!damaged) {
    content = std::string(in.rest());
  } else {
    content = bytes;
    int edits = 1 + in.byte() % 4;
    for (int e = 0; e < edits && in.pos < in.size; ++e) {
      uint8_t kind = in.byte();
      size_t at = (size_t{in.byte()} << 8 | in.byte()) % (content.size() + 1);
      if (kind % 4 == 0) {
        content.resize(at);  // cut short
      } else if (!content.empty()) {
        content[at % content.size()] ^= static_cast<char>(1u << (kind % 8));
      }
    }
  }
  spill(file, content);
  std::string why;
  auto got = TwoSided::load(file, n, &why);
  if (got) {
    // Accepted: exactly what save() writes.
    std::string again = path("again");
    got->save(again);
    std::string out = slurp(again);
    std::filesystem::remove(again);
    FUZZ_REQUIRE(out == content, "an accepted file is not what save() writes for its values");
    if (damaged) FUZZ_REQUIRE(content == bytes, "a damaged file was accepted");
    if (content == bytes)
      FUZZ_REQUIRE(same_values(*got, table), "the genuine file loads other values");
  } else {
    FUZZ_REQUIRE(!why.empty(), "a refusal without a reason");
    FUZZ_REQUIRE(content != bytes, "the genuine file was refused: " + why);
  }
  std::filesystem::remove(file);
  return 0;
}
