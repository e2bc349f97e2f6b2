#include "solver/checkpoint.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace loom::solver {

namespace {

constexpr char kMagic[8] = {'L', 'O', 'O', 'M', 'C', 'K', 'P', 'T'};
constexpr uint64_t kVersion = 1;
constexpr uint64_t kMaxString = 1 << 20;

std::string sys_error() {
  return std::strerror(errno);
}

}  // namespace

void Checksum::word(uint64_t w) {
  h_ ^= w * 0x9e3779b97f4a7c15ull;
  h_ = (h_ << 31) | (h_ >> 33);
  h_ *= 0xbf58476d1ce4e5b9ull;
}

void Checksum::add(const void* data, size_t n) {
  const auto* p = static_cast<const unsigned char*>(data);
  total_ += n;
  while (n > 0 && fill_ > 0 && fill_ < 8) {
    buf_[fill_++] = *p++;
    --n;
    if (fill_ == 8) {
      uint64_t w;
      std::memcpy(&w, buf_, 8);
      word(w);
      fill_ = 0;
    }
  }
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    word(w);
    p += 8;
    n -= 8;
  }
  while (n > 0 && fill_ < 8) {
    buf_[fill_++] = *p++;
    --n;
  }
}

uint64_t Checksum::value() const {
  Checksum c = *this;
  if (c.fill_ > 0) {
    std::memset(c.buf_ + c.fill_, 0, 8 - c.fill_);
    uint64_t w;
    std::memcpy(&w, c.buf_, 8);
    c.word(w);
  }
  c.word(c.total_);
  return c.h_;
}

// ---------------------------------------------------------------------------

CheckpointWriter::CheckpointWriter(std::string path, std::string_view kind,
                                   std::string_view signature)
    : path_(std::move(path)), tmp_(path_ + ".tmp") {
  f_ = std::fopen(tmp_.c_str(), "wb");
  if (!f_) throw InputError("cannot write checkpoint " + tmp_ + ": " + sys_error());
  bytes(kMagic, sizeof kMagic);
  u64(kVersion);
  str(kind);
  str(signature);
}

CheckpointWriter::~CheckpointWriter() {
  if (f_) {
    std::fclose(f_);
    std::remove(tmp_.c_str());
  }
}

void CheckpointWriter::str(std::string_view s) {
  u64(s.size());
  bytes(s.data(), s.size());
}

void CheckpointWriter::bytes(const void* p, size_t n) {
  if (n == 0) return;
  if (std::fwrite(p, 1, n, f_) != n)
    throw InputError("cannot write checkpoint " + tmp_ + ": " + sys_error());
  sum_.add(p, n);
}

void CheckpointWriter::commit() {
  uint64_t sum = sum_.value();
  if (std::fwrite(&sum, 1, sizeof sum, f_) != sizeof sum || std::fflush(f_) != 0)
    throw InputError("cannot write checkpoint " + tmp_ + ": " + sys_error());
  ::fsync(fileno(f_));
  std::fclose(f_);
  f_ = nullptr;
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0)
    throw InputError("cannot replace checkpoint " + path_ + ": " + sys_error());
}

// ---------------------------------------------------------------------------

bool CheckpointReader::exists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec);
}

CheckpointReader::CheckpointReader(std::string path, std::string_view kind,
                                   std::string_view signature)
    : path_(std::move(path)) {
  std::error_code ec;
  if (std::filesystem::is_directory(path_, ec)) corrupt("it is a directory");
  f_ = std::fopen(path_.c_str(), "rb");
  if (!f_) throw InputError("cannot read checkpoint " + path_ + ": " + sys_error());
  // Pass 1: checksum over everything but the trailing 8 bytes.
  uint64_t size = std::filesystem::file_size(path_, ec);
  if (ec) throw InputError("cannot read checkpoint " + path_ + ": " + ec.message());
  if (size < sizeof kMagic + 8 + 8) corrupt("the file is too short");
  Checksum sum;
  std::vector<unsigned char> buf(1 << 20);
  uint64_t left = size - 8;
  while (left > 0) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(buf.size(), left));
    if (std::fread(buf.data(), 1, n, f_) != n) corrupt("the file could not be read to its end");
    sum.add(buf.data(), n);
    left -= n;
  }
  uint64_t stored;
  if (std::fread(&stored, 1, 8, f_) != 8) corrupt("the file could not be read to its end");
  if (stored != sum.value()) corrupt("checksum mismatch (a damaged or partly written file)");
  // Pass 2: header, then the payload is read by the solver.
  std::rewind(f_);
  remaining_ = size - 8;
  char magic[8];
  bytes(magic, sizeof magic);
  if (std::memcmp(magic, kMagic, sizeof magic) != 0) corrupt("not a loom checkpoint");
  if (u64() != kVersion) corrupt("unsupported checkpoint version");
  std::string k = str();
  if (k != kind)
    throw InputError("checkpoint " + path_ + " was written by another kind of run (" + k +
                     "); delete it or choose another file");
  std::string sig = str();
  if (sig != signature)
    throw InputError("checkpoint " + path_ + " belongs to another job (" + sig +
                     "); delete it or choose another file");
}

CheckpointReader::~CheckpointReader() {
  if (f_) std::fclose(f_);
}

void CheckpointReader::corrupt(const std::string& why) const {
  throw InputError("checkpoint " + path_ + " is corrupt: " + why);
}

uint64_t CheckpointReader::u64(uint64_t max, const char* what) {
  uint64_t v = u64();
  if (v > max) corrupt(std::string("bad ") + what);
  return v;
}

std::string CheckpointReader::str() {
  uint64_t n = u64();
  if (n > kMaxString || n > remaining_) corrupt("a string length overruns the file");
  std::string s(n, '\0');
  bytes(s.data(), n);
  return s;
}

void CheckpointReader::bytes(void* p, size_t n) {
  if (n > remaining_) corrupt("the payload ends early");
  if (n > 0 && std::fread(p, 1, n, f_) != n) corrupt("the file could not be read");
  remaining_ -= n;
}

void CheckpointReader::finish() {
  if (remaining_ != 0) corrupt("unexpected data after the payload");
}

}  // namespace loom::solver
