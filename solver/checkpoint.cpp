#include "solver/checkpoint.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string_view>

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

namespace {

/// The start of what a lock file holds: the mark, then the holder's pid.
constexpr std::string_view kLockMark = "loom lock file, pid ";

/// Why a name that still is a link after following 40 cannot be written.
constexpr const char* kLinkLoop = "too many levels of symbolic links (a loop?)";

/// The holder's pid in a lock file ("" when it is empty or being written),
/// or nullopt when the file is not a loom lock file.
std::optional<std::string> lock_holder(int fd) {
  char buf[64] = {};
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  std::string_view text(buf, n > 0 ? static_cast<size_t>(n) : 0);
  // A bare pid: the lock files of the first builds with locks.
  if (!text.empty() && text.size() <= 21 && text.back() == '\n' &&
      std::all_of(text.begin(), text.end() - 1, [](char c) { return c >= '0' && c <= '9'; }))
    return std::string(text.substr(0, text.size() - 1));
  if (text.size() <= kLockMark.size()) {
    if (kLockMark.substr(0, text.size()) != text) return std::nullopt;
    return "";
  }
  if (text.substr(0, kLockMark.size()) != kLockMark) return std::nullopt;
  text.remove_prefix(kLockMark.size());
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  return clip_token(text, 20);
}

/// Is the file open as `fd` still the one named `path`?
bool still_named(int fd, const std::string& path) {
  struct stat held {
  }, named{};
  return ::fstat(fd, &held) == 0 && ::stat(path.c_str(), &named) == 0 &&
         held.st_dev == named.st_dev && held.st_ino == named.st_ino;
}

/// Is the path a symbolic link? False where it cannot be examined (a name
/// too long, a loop of links in its directories): opening it then fails
/// with the system's reason, which the callers report.
bool is_link(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_symlink(path, ec);
}

}  // namespace

std::string checkpoint_target(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path p = path;
  std::error_code ec;
  // At most 40 links, as the kernel follows.
  for (int hops = 0; hops < 40 && fs::is_symlink(p, ec); ++hops) {
    const fs::path t = fs::read_symlink(p, ec);
    if (ec) break;
    p = t.is_absolute() ? t : p.parent_path() / t;
  }
  return p.string();
}

void check_checkpoint_writable(const std::string& path, std::string_view what) {
  const std::string target = checkpoint_target(path);
  if (is_link(target))
    throw InputError(std::string(what) + " '" + clip_token(path, 200) + "': " + kLinkLoop);
  check_writable(target, what);
  check_writable(target + ".tmp", what);
  // Another run's lock file (FILE.lock) named as a checkpoint: its saves
  // would replace the lock of a run in progress.
  const int fd = ::open(target.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd >= 0) {
    const auto holder = lock_holder(fd);
    struct stat st {};
    const bool lock = ::fstat(fd, &st) == 0 && st.st_size > 0 && holder;
    ::close(fd);
    if (lock)
      throw InputError(std::string(what) + " '" + clip_token(path, 200) +
                       "': it is the lock file of a loom run, not a checkpoint; name another file");
  }
}

CheckpointLock::CheckpointLock(const std::string& path, std::string_view what, Busy busy,
                               std::ostream* note, std::string_view noun)
    : lock_(checkpoint_target(path) + ".lock") {
  auto fail = [&](const std::string& why) {
    return InputError(std::string(what) + " '" + clip_token(path, 200) + "': " + why);
  };
  if (is_link(lock_.substr(0, lock_.size() - 5))) throw fail(kLinkLoop);
  const std::string shown = clip_token(lock_, 200);
  // A holder that ends removes the file it locked: a lock taken on a file
  // no longer at the path is let go and taken again on the new one.
  bool noted = false;
  for (int tries = 0; tries < 100; ++tries) {
    const int fd =
        ::open(lock_.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
    if (fd < 0 && errno == ELOOP)
      throw fail("its lock file " + shown + " is a symbolic link; remove it");
    if (fd < 0) throw fail("cannot create its lock file " + shown + ": " + sys_error());
    // A file of the user's at the lock's name (a checkpoint named X.lock
    // beside X, a FIFO) is never taken over, written or removed.
    struct stat kind {};
    if (::fstat(fd, &kind) != 0 || !S_ISREG(kind.st_mode)) {
      ::close(fd);
      throw fail("its lock file " + shown + " is " + RegularFile::kind_of(kind.st_mode) +
                 ", not a regular file; remove it");
    }
    auto holder = lock_holder(fd);
    if (!holder) {
      ::close(fd);
      throw fail("the file " + shown +
                 " is in the place of its lock file and is not a loom lock file; rename it");
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      int e = errno;
      const std::string who =
          "another loom process" + (holder->empty() ? "" : " (pid " + *holder + ")");
      if (e == EWOULDBLOCK && busy == Busy::kWait) {
        if (note && !noted)
          *note << "loom: waiting for " << who << ", which holds " << shown << "\n";
        noted = true;
        // Blocks; a signal handler installed without SA_RESTART ends it.
        e = ::flock(fd, LOCK_EX) == 0 ? 0 : errno;
      }
      if (e != 0) {
        ::close(fd);
        if (e == EINTR) throw Interrupted("interrupted while waiting for " + who);
        if (e != EWOULDBLOCK) throw fail("cannot lock " + shown + ": " + std::strerror(e));
        throw fail(who + " is using this " + std::string(noun) +
                   "; wait for it to end or name another " +
                   (std::string_view(noun).ends_with("directory") ? "directory" : "file"));
      }
    }
    if (still_named(fd, lock_)) {
      const std::string text = std::string(kLockMark) + std::to_string(::getpid()) + "\n";
      if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, text.data(), text.size(), 0) < 0) {
        // The pid only improves the message of a run refused.
      }
      fd_ = fd;
      return;
    }
    ::close(fd);
  }
  throw fail("cannot lock " + shown + ": it keeps being replaced");
}

CheckpointLock::~CheckpointLock() {
  if (fd_ < 0) return;
  // Removed only while it is still the file at the name (not if someone
  // deleted it and another run made a new one), and before the lock is let
  // go (see the constructor).
  if (still_named(fd_, lock_)) ::unlink(lock_.c_str());
  ::close(fd_);
}

CheckpointWriter::CheckpointWriter(std::string path, std::string_view kind,
                                   std::string_view signature, std::string_view noun)
    : path_(checkpoint_target(path)), tmp_(path_ + ".tmp"), noun_(noun) {
  if (is_link(path_))
    throw InputError("cannot write " + noun_ + " " + clip_token(path, 200) + ": " + kLinkLoop);
  // A fresh file ("x": never through whatever might sit at tmp_, such as a
  // FIFO left there, which would block).
  std::remove(tmp_.c_str());
  f_ = std::fopen(tmp_.c_str(), "wbx");
  if (!f_)
    throw InputError("cannot write " + noun_ + " " + clip_token(tmp_, 200) + ": " + sys_error());
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
    throw InputError("cannot write " + noun_ + " " + clip_token(tmp_, 200) + ": " + sys_error());
  sum_.add(p, n);
}

void CheckpointWriter::commit() {
  uint64_t sum = sum_.value();
  if (std::fwrite(&sum, 1, sizeof sum, f_) != sizeof sum || std::fflush(f_) != 0)
    throw InputError("cannot write " + noun_ + " " + clip_token(tmp_, 200) + ": " + sys_error());
  if (::fsync(fileno(f_)) != 0 && errno != EINVAL)
    throw InputError("cannot write " + noun_ + " " + clip_token(tmp_, 200) + ": " + sys_error());
  int closed = std::fclose(f_);
  f_ = nullptr;
  if (closed != 0) {
    std::remove(tmp_.c_str());
    throw InputError("cannot write " + noun_ + " " + clip_token(tmp_, 200) + ": " + sys_error());
  }
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0)
    throw InputError("cannot replace " + noun_ + " " + clip_token(path_, 200) + ": " + sys_error());
}

// ---------------------------------------------------------------------------

bool CheckpointReader::exists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec);
}

namespace {

/// The first "; "-separated field where two job signatures differ, as
/// "this job has X, the file Y" (both clipped), or the one field only one
/// side has.
std::string first_difference(std::string_view mine, std::string_view theirs) {
  auto fields = [](std::string_view s) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i <= s.size()) {
      size_t j = s.find("; ", i);
      if (j == std::string_view::npos) j = s.size();
      out.push_back(s.substr(i, j - i));
      i = j + 2;
    }
    return out;
  };
  auto a = fields(mine), b = fields(theirs);
  // Shown without trailing blanks (the rules field ends in one; the
  // signature keeps it, so files already written still match).
  auto shown = [](std::string_view v) {
    while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
    return "'" + clip_token(v, 60) + "'";
  };
  // A field's name: before its '=', or the whole field (a flag).
  const auto name = [](std::string_view f) { return f.substr(0, f.find('=')); };
  const auto has_name = [&](const std::vector<std::string_view>& v, std::string_view n) {
    return std::any_of(v.begin(), v.end(), [&](std::string_view f) { return name(f) == n; });
  };
  for (size_t k = 0; k < std::max(a.size(), b.size()); ++k) {
    if (k < a.size() && k < b.size() && a[k] == b[k]) continue;
    // A field only one side has (an optional one such as no-symmetry) is
    // named alone when the other side's field there is one it has later.
    if (k < a.size() && !has_name(b, name(a[k])) && (k >= b.size() || has_name(a, name(b[k]))))
      return "this job has " + shown(a[k]) + ", the file does not";
    if (k < b.size() && !has_name(a, name(b[k])) && (k >= a.size() || has_name(b, name(a[k]))))
      return "the file has " + shown(b[k]) + ", this job does not";
    return "this job has " + shown(k < a.size() ? a[k] : "(none)") + ", the file " +
           shown(k < b.size() ? b[k] : "(none)");
  }
  return "the signatures differ";
}

}  // namespace

void CheckpointReader::check_job(const std::string& path, std::string_view kind,
                                 std::string_view signature, std::string_view noun) {
  if (!exists(path)) return;
  // Throws for damage or for another job, saying which.
  const CheckpointReader checked(path, kind, signature, noun);
}

CheckpointReader::CheckpointReader(std::string path, std::string_view kind,
                                   std::string_view signature, std::string_view noun)
    : path_(std::move(path)), noun_(noun) {
  file_ = std::make_unique<RegularFile>(path_, noun_);
  f_ = file_->get();
  uint64_t size = file_->size();
  if (size < sizeof kMagic + 8 + 8) corrupt("the file is too short");
  // Pass 1: checksum over everything but the trailing 8 bytes.
  check_sum(size);
  // Pass 2: header, then the payload is read by the solver.
  std::rewind(f_);
  remaining_ = size - 8;
  header(kind, signature);
}

void CheckpointReader::check_sum(uint64_t size) {
  Checksum sum;
  std::vector<unsigned char> buf(static_cast<size_t>(std::min<uint64_t>(size, 1 << 20)));
  uint64_t left = size - 8;
  while (left > 0) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(buf.size(), left));
    if (std::fread(buf.data(), 1, n, f_) != n) corrupt("the file could not be read to its end");
    sum.add(buf.data(), n);
    left -= n;
  }
  uint64_t stored;
  if (std::fread(&stored, 1, 8, f_) != 8) corrupt("the file could not be read to its end");
  if (std::fgetc(f_) != EOF) corrupt("the file changed while it was read");
  if (stored != sum.value()) corrupt("checksum mismatch (a damaged or partly written file)");
}

void CheckpointReader::header(std::string_view kind, std::string_view signature) {
  char magic[8];
  bytes(magic, sizeof magic);
  if (std::memcmp(magic, kMagic, sizeof magic) != 0) corrupt("not a loom " + noun_);
  uint64_t version = u64();
  if (version != kVersion)
    mismatch("it was written by another version of loom (" + noun_ + " format " +
             std::to_string(version) + "; this loom reads format " + std::to_string(kVersion) +
             ")");
  std::string k = str();
  if (k != kind)
    mismatch("it was written by another kind of run (" + clip_token(k) + ", this run is " +
             std::string(kind) + ")");
  std::string sig = str();
  if (sig != signature) mismatch("it belongs to another job: " + first_difference(signature, sig));
}

void CheckpointReader::mismatch(const std::string& why) const {
  throw InputError(noun_ + " " + clip_token(path_, 200) + " does not match this job: " + why +
                   (noun_ == "checkpoint" ? "; delete it or choose another file" : ""));
}

CheckpointReader::~CheckpointReader() = default;

void CheckpointReader::corrupt(const std::string& why) const {
  throw InputError(noun_ + " " + clip_token(path_, 200) + " is corrupt: " + why);
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

void CheckpointReader::skip(uint64_t n) {
  if (n > remaining_) corrupt("the payload ends early");
  char buf[1 << 16];
  while (n > 0) {
    const size_t k = static_cast<size_t>(std::min<uint64_t>(n, sizeof buf));
    bytes(buf, k);
    n -= k;
  }
}

void CheckpointReader::finish() {
  if (remaining_ != 0) corrupt("unexpected data after the payload");
}

}  // namespace loom::solver
