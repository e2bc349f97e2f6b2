// libFuzzer harness: checkpoint files (solver/checkpoint.h).
//
// Byte 0 picks the mode:
// - raw (even): the other bytes are the file. Whatever the reader accepts
//   has a sound checksum (recomputed here) and this job's header, and its
//   payload is read within its bounds (a count, an array, a string, the end).
// - written (odd): the bytes are a script of values that a CheckpointWriter
//   writes; reading them back gives the same values. Then the file is
//   damaged as the script's first bytes say (one bit flipped anywhere, or
//   cut short) and must be refused as corrupt, and read under another job's
//   signature it must be refused as another job's (not as corrupt).
// Files live in /dev/shm (no disk sync per input) when it exists.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "model/common/errors.h"
#include "solver/checkpoint.h"
#include "tests/fuzz/fuzz_check.h"

using namespace loom;
using solver::CheckpointReader;
using solver::CheckpointWriter;

namespace {

const std::string& path() {
  static const std::string p =
      (std::filesystem::exists("/dev/shm") ? std::string("/dev/shm") : std::string("/tmp")) +
      "/loom_fuzz_ckpt_" + std::to_string(::getpid());
  return p;
}

// Plain stdio (no iostreams): this harness is bound by its file operations.
void write_file(const std::string& bytes) {
  std::FILE* f = std::fopen(path().c_str(), "wb");
  FUZZ_REQUIRE(f != nullptr, "cannot write the fuzz file");
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
}

std::string read_file() {
  std::string out;
  std::FILE* f = std::fopen(path().c_str(), "rb");
  FUZZ_REQUIRE(f != nullptr, "cannot read the fuzz file");
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  std::fclose(f);
  return out;
}

bool contains(const std::string& s, const char* what) {
  return s.find(what) != std::string::npos;
}

struct Item {
  int kind = 0;  // 0 u64, 1 string, 2 array of u32
  uint64_t v = 0;
  std::string s;
  std::vector<uint32_t> a;
};

std::vector<Item> script(fuzz::Input& in) {
  std::vector<Item> items;
  while (in.pos < in.size && items.size() < 64) {
    Item it;
    it.kind = in.byte() % 3;
    if (it.kind == 0) {
      for (int i = 0; i < 8; ++i) it.v = (it.v << 8) | in.byte();
    } else {
      int n = in.byte() % 40;
      for (int i = 0; i < n; ++i) {
        if (it.kind == 1)
          it.s += static_cast<char>(in.byte());
        else
          it.a.push_back(in.byte() * 0x01000193u);
      }
    }
    items.push_back(std::move(it));
  }
  return items;
}

void read_items(CheckpointReader& rd, const std::vector<Item>& items) {
  for (const auto& it : items) {
    if (it.kind == 0) {
      FUZZ_REQUIRE(rd.u64() == it.v, "u64 differs after a round trip");
    } else if (it.kind == 1) {
      FUZZ_REQUIRE(rd.str() == it.s, "string differs after a round trip");
    } else {
      std::vector<uint32_t> a;
      rd.array(a, 1 << 20);
      FUZZ_REQUIRE(a == it.a, "array differs after a round trip");
    }
  }
  rd.finish();
}

void raw_mode(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  write_file(bytes);
  try {
    CheckpointReader rd(path(), "fuzz", "job");
    // Accepted: the checksum must really hold.
    FUZZ_REQUIRE(bytes.size() >= 8, "accepted a file shorter than its checksum");
    solver::Checksum sum;
    sum.add(bytes.data(), bytes.size() - 8);
    uint64_t stored;
    std::memcpy(&stored, bytes.data() + bytes.size() - 8, 8);
    FUZZ_REQUIRE(stored == sum.value(), "accepted a file whose checksum fails");
    FUZZ_REQUIRE(bytes.compare(0, 8, "LOOMCKPT") == 0, "accepted a file without the magic");
    uint64_t n = rd.u64(1 << 20, "count");
    std::vector<uint32_t> a;
    rd.array(a, n);
    rd.str();
    rd.finish();
  } catch (const InputError& e) {
    std::string msg = e.what();
    FUZZ_REQUIRE(msg.find('\n') == std::string::npos && msg.size() < 400, "message: " + msg);
  }
}

void written_mode(fuzz::Input& in) {
  uint8_t damage = in.byte();
  uint32_t where = in.byte() | (in.byte() << 8);
  auto items = script(in);
  {
    CheckpointWriter w(path(), "fuzz", "job");
    for (const auto& it : items) {
      if (it.kind == 0)
        w.u64(it.v);
      else if (it.kind == 1)
        w.str(it.s);
      else
        w.array(it.a);
    }
    w.commit();
  }
  {
    CheckpointReader rd(path(), "fuzz", "job");
    read_items(rd, items);
  }
  // Another job's file: refused as such, not as corrupt.
  try {
    CheckpointReader rd(path(), "fuzz", "another job");
    FUZZ_REQUIRE(false, "accepted another job's checkpoint");
  } catch (const InputError& e) {
    FUZZ_REQUIRE(contains(e.what(), "another job") && !contains(e.what(), "corrupt"),
                 std::string("mismatch reported as: ") + e.what());
  }
  std::string bytes = read_file();
  if (damage & 1) {
    size_t bit = where % (bytes.size() * 8);
    bytes[bit / 8] = static_cast<char>(bytes[bit / 8] ^ (1 << (bit % 8)));
  } else {
    bytes.resize(where % bytes.size());
  }
  write_file(bytes);
  try {
    CheckpointReader rd(path(), "fuzz", "job");
    FUZZ_REQUIRE(false, "accepted a damaged checkpoint");
  } catch (const InputError& e) {
    FUZZ_REQUIRE(contains(e.what(), "corrupt"), std::string("damage reported as: ") + e.what());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  if (data[0] % 2 == 0) {
    raw_mode(data + 1, size - 1);
  } else {
    fuzz::Input in{data + 1, size - 1};
    written_mode(in);
  }
  ::unlink(path().c_str());
  return 0;
}
