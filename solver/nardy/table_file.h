// File helpers shared by the Long Nardy tables (bear-off databases and the
// few-checker whole-game tables, docs/nardy-exact.md): a 64-bit checksum,
// an atomic write (FILE.tmp then rename) and the read of one chunk file of a
// resumable build, and the build's progress line.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace loom::nardy::exact {

/// A multiply-xorshift hash over the bytes (chained through h).
uint64_t checksum(const void* data, size_t bytes, uint64_t h = 0x9E3779B97F4A7C15ull);

/// Writes head then parts to file.tmp and renames it to file; throws
/// InputError if it cannot be written (disk full) or renamed (a directory
/// at file), leaving no file.tmp behind.
void write_file(const std::string& file, const void* head, size_t head_bytes,
                const std::vector<std::pair<const void*, size_t>>& parts);

enum class ChunkRead {
  kMissing,  ///< nothing at the path: build it
  kBad,      ///< a regular file of the wrong size or truncated: rebuild it
  kRead,     ///< header and parts read, the file exactly that long (check them)
};
/// Reads a chunk file into header and parts. Anything at the path that is
/// not a regular file (a FIFO would block, a directory cannot be read) is
/// refused by RegularFile with one line (InputError, exit 2), never read.
ChunkRead read_chunk(const std::string& path, const char* what, void* header, size_t header_bytes,
                     const std::vector<std::pair<void*, size_t>>& parts);

/// Creates the directory `dir` (and its parents) if missing; InputError
/// "cannot create the WHAT DIR: reason" (exit 2) if it cannot.
void make_directory(const std::string& dir, const char* what);

/// Wall seconds since t0.
inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace loom::nardy::exact
