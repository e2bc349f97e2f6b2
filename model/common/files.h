// Opening the files a user names (issue 17), shared by every reader of the
// toolkit (Migong edge files, checkpoints; bear-off databases and puzzle
// files can use the same): only regular files are opened, so a directory, a
// FIFO (which would block for ever), a device or a socket is refused before
// anything is read; sizes are capped; every failure is one InputError line
// naming the file and the reason (exit status 2).
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "model/common/errors.h"

namespace loom {

/// A regular file open for reading (closed on destruction).
class RegularFile {
 public:
  /// Opens `path` for reading if it is a regular file. `what` names the file
  /// in errors ("--edges file", "checkpoint"). Opening never blocks: the
  /// file is opened non-blocking and checked (fstat) before use.
  RegularFile(const std::string& path, std::string_view what) : path_(path), what_(what) {
    if (path.empty()) throw error("no file name given");
    int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) throw error(std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
      int e = errno;
      ::close(fd);
      throw error(std::strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
      ::close(fd);
      throw error(std::string("it is ") + kind_of(st.st_mode) + ", not a regular file");
    }
    int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    f_ = ::fdopen(fd, "rb");
    if (!f_) {
      int e = errno;
      ::close(fd);
      throw error(std::strerror(e));
    }
    size_ = static_cast<uint64_t>(st.st_size);
  }
  ~RegularFile() {
    if (f_) std::fclose(f_);
  }
  RegularFile(const RegularFile&) = delete;
  RegularFile& operator=(const RegularFile&) = delete;

  std::FILE* get() const { return f_; }
  /// Size when opened.
  uint64_t size() const { return size_; }
  const std::string& path() const { return path_; }

  /// The whole file; refuses one larger than max_bytes (before reading it).
  std::string read_all(uint64_t max_bytes) {
    if (size_ > max_bytes)
      throw error("the file is too large (" + std::to_string(size_) + " bytes; at most " +
                  std::to_string(max_bytes) + ")");
    std::string text;
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f_)) > 0) {
      text.append(buf, n);
      if (text.size() > max_bytes) throw error("the file grew while it was read");
    }
    if (std::ferror(f_)) throw error(std::string("read error: ") + std::strerror(errno));
    return text;
  }

  /// "WHAT 'PATH': why" as an InputError.
  InputError error(const std::string& why) const {
    return InputError(what_ + " '" + clip_token(path_, 200) + "': " + why);
  }

  static const char* kind_of(mode_t m) {
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO (named pipe)";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
  }

 private:
  std::string path_, what_;
  std::FILE* f_ = nullptr;
  uint64_t size_ = 0;
};

/// Reads a whole regular file of at most max_bytes (RegularFile).
inline std::string read_regular_file(const std::string& path, std::string_view what,
                                     uint64_t max_bytes) {
  RegularFile f(path, what);
  return f.read_all(max_bytes);
}

/// Checks before long work starts that `path` can later be written: it is
/// not a directory or other non-regular file, and a temporary file can be
/// created (and is removed again) in its directory. Throws InputError.
inline void check_writable(const std::string& path, std::string_view what) {
  auto fail = [&](const std::string& why) {
    return InputError(std::string(what) + " '" + clip_token(path, 200) + "': " + why);
  };
  if (path.empty()) throw fail("no file name given");
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw fail(std::string("it is ") + RegularFile::kind_of(st.st_mode) + ", not a regular file");
  std::string probe = path + ".probe-" + std::to_string(::getpid());
  int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw fail(std::string("cannot create a file there: ") + std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

/// Writes `text` to `path` (created, or truncated): the render, and
/// through write_whole the puzzle collection and the audit's reports. Any
/// kind of file a user may name (a regular file, /dev/stdout, a pipe being
/// read) is written; opening never blocks (a FIFO nothing reads is an
/// error, not a hang). Throws one InputError line "cannot write 'PATH':
/// reason". With `sync`, the data reach the disk before it returns (fsync;
/// a pipe or device that cannot be synced is not an error).
inline void write_text_file(const std::string& path, std::string_view text, bool sync = false) {
  auto fail = [&](int e) {
    return InputError("cannot write '" + clip_token(path, 200) + "': " + std::strerror(e));
  };
  // Mode 0666 less the umask, as for any new file.
  int fd =
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0666);
  if (fd < 0 && errno == ENXIO)
    throw InputError("cannot write '" + clip_token(path, 200) +
                     "': nothing reads it (a FIFO, a socket or a device without a reader)");
  if (fd < 0) throw fail(errno);
  int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int e = n < 0 ? errno : EIO;
      ::close(fd);
      throw fail(e);
    }
    done += static_cast<size_t>(n);
  }
  if (sync && ::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {
    const int e = errno;
    ::close(fd);
    throw fail(e);
  }
  if (::close(fd) != 0) throw fail(errno);
}

/// check_writable() for a file write_whole() will write: the file and its
/// PATH.tmp (a directory there was found, or an empty one removed, only
/// when the finished work was written).
inline void check_whole_writable(const std::string& path, std::string_view what) {
  check_writable(path, what);
  check_writable(path + ".tmp", what);
}

/// Writes `text` to `path` whole or not at all: to PATH.tmp (anything left
/// there, a link or FIFO included, removed first), then renamed over
/// `path`, so a full disk or a kill never leaves half a file that a rerun
/// could not tell from another job's (the audit's reports, a puzzle
/// collection). The data are synced before the rename, so a power loss
/// leaves the old file or the new one, not an empty one (as checkpoints).
/// For regular files in a directory the process may write.
inline void write_whole(const std::string& path, std::string_view text) {
  const std::string tmp = path + ".tmp";
  std::remove(tmp.c_str());
  write_text_file(tmp, text, true);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    std::remove(tmp.c_str());
    throw InputError("cannot write '" + clip_token(path, 200) + "': " + std::strerror(e));
  }
}

}  // namespace loom
