#include "solver/nardy/table_file.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "model/common/errors.h"
#include "model/common/files.h"

namespace loom::nardy::exact {

uint64_t checksum(const void* data, size_t bytes, uint64_t h) {
  const auto* p = static_cast<const unsigned char*>(data);
  size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  for (; i < bytes; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

void write_file(const std::string& file, const void* head, size_t head_bytes,
                const std::vector<std::pair<const void*, size_t>>& parts) {
  std::string tmp = file + ".tmp";
  // Opening a FIFO there would block for ever; a directory cannot be opened.
  check_writable(tmp, "table file");
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError("cannot write " + tmp + ": " + std::strerror(errno));
    out.write(static_cast<const char*>(head), static_cast<std::streamsize>(head_bytes));
    for (auto [p, n] : parts)
      out.write(static_cast<const char*>(p), static_cast<std::streamsize>(n));
    out.flush();
    if (!out) {
      out.close();
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      throw InputError("cannot write " + tmp + " (disk full?)");
    }
  }
  // A rename that fails (a directory in the way) leaves no FILE.tmp behind.
  std::error_code ec;
  std::filesystem::rename(tmp, file, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw InputError("cannot replace " + file + ": " + ec.message());
  }
}

void make_directory(const std::string& dir, const char* what) {
  try {
    std::filesystem::create_directories(dir);
  } catch (const std::filesystem::filesystem_error& e) {
    throw InputError(std::string("cannot create the ") + what + " " + dir + ": " + e.what());
  }
}

ChunkRead read_chunk(const std::string& path, const char* what, void* header, size_t header_bytes,
                     const std::vector<std::pair<void*, size_t>>& parts) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 && errno == ENOENT) return ChunkRead::kMissing;
  RegularFile in(path, what);
  size_t bytes = header_bytes;
  for (const auto& [p, n] : parts) bytes += n;
  if (in.size() != bytes) return ChunkRead::kBad;
  if (std::fread(header, header_bytes, 1, in.get()) != 1) return ChunkRead::kBad;
  for (const auto& [p, n] : parts)
    if (n && std::fread(p, n, 1, in.get()) != 1) return ChunkRead::kBad;
  return std::fgetc(in.get()) == EOF ? ChunkRead::kRead : ChunkRead::kBad;
}

}  // namespace loom::nardy::exact
