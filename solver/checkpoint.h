// Checkpoint files: a solver's finished work, written atomically (a
// temporary file, flushed, then renamed over the old one) so that a run
// killed at any moment leaves either the previous or the new checkpoint.
//
// Layout: "LOOMCKPT", format version, kind (which solver), job signature
// (game, size, rules, record, method: a checkpoint resumes only the job that
// wrote it), payload, then a 64-bit checksum of everything before it. Every
// defect (short file, bad magic, checksum, lengths that overrun the file,
// another job's signature) is an InputError naming the file: exit status 2,
// never a crash. Damage is reported as "corrupt", a sound file of another
// job, kind or format version as "does not match this job".
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "model/common/errors.h"
#include "model/common/files.h"
#include "solver/core.h"

namespace loom::solver {

/// 64-bit checksum of a byte stream (8-byte words, the tail zero-padded,
/// the length folded in last). Not cryptographic: it catches torn writes
/// and accidental damage.
class Checksum {
 public:
  void add(const void* p, size_t n);
  uint64_t value() const;

 private:
  void word(uint64_t w);
  uint64_t h_ = 0x243f6a8885a308d3ull;
  unsigned char buf_[8] = {};
  size_t fill_ = 0;
  uint64_t total_ = 0;
};

/// Held by a run for as long as it uses a checkpoint: an exclusive lock
/// (flock) on the file beside the checkpoint's target named + ".lock", so
/// that two processes never save into one checkpoint (two terminals, or
/// `mpirun` starting a loom built without MPI: every process then runs the
/// whole job alone). A second run is refused (InputError, exit 2) while the
/// first holds it. The lock file holds the holder's pid and is removed at
/// the end; one a killed run left behind is not locked and is taken over.
class CheckpointLock {
 public:
  /// What a lock another process holds does to this one.
  enum class Busy {
    kRefuse,  ///< InputError at once (a checkpoint: two runs of one job)
    kWait,    ///< wait until it is let go (a table another run is building)
  };
  /// `what` names the option or file in messages ("--checkpoint"). With
  /// Busy::kWait one line goes to `note` (if any) before waiting; a signal
  /// while waiting throws Interrupted.
  /// `noun` names the file in the message of a run refused ("checkpoint").
  CheckpointLock(const std::string& path, std::string_view what, Busy busy = Busy::kRefuse,
                 std::ostream* note = nullptr, std::string_view noun = "checkpoint");
  ~CheckpointLock();
  CheckpointLock(const CheckpointLock&) = delete;
  CheckpointLock& operator=(const CheckpointLock&) = delete;
  const std::string& file() const { return lock_; }

 private:
  std::string lock_;
  int fd_ = -1;
};

class CheckpointWriter {
 public:
  /// Writes to checkpoint_target(path): through a symbolic link. `noun`
  /// names the file in messages ("checkpoint", "table").
  CheckpointWriter(std::string path, std::string_view kind, std::string_view signature,
                   std::string_view noun = "checkpoint");
  ~CheckpointWriter();
  CheckpointWriter(const CheckpointWriter&) = delete;
  CheckpointWriter& operator=(const CheckpointWriter&) = delete;

  void u64(uint64_t v) { bytes(&v, sizeof v); }
  void str(std::string_view s);
  void bytes(const void* p, size_t n);
  template <class T>
  void array(const ChunkedVector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    u64(v.size());
    v.for_runs([&](const T* p, uint64_t n) { bytes(p, n * sizeof(T)); });
  }
  template <class T>
  void array(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    u64(v.size());
    bytes(v.data(), v.size() * sizeof(T));
  }
  /// Writes the checksum, flushes to disk and renames over the target.
  void commit();

 private:
  std::string path_, tmp_, noun_;
  std::FILE* f_ = nullptr;
  Checksum sum_;
};

/// Where a checkpoint named `path` is written: `path`, or, when it is a
/// symbolic link, the file it leads to (the save's rename replaces that
/// file; the link stays). Still a link after 40 links: a loop, which the
/// writer, the lock and check_checkpoint_writable refuse.
std::string checkpoint_target(const std::string& path);

/// Checks before work starts that a checkpoint can be saved at `path`:
/// the file and the temporary file each save writes first (its target +
/// ".tmp") are not directories or other non-regular files, and the
/// directory takes new files (check_writable). Throws InputError naming
/// `what` and the path.
void check_checkpoint_writable(const std::string& path, std::string_view what);

class CheckpointReader {
 public:
  /// Opens and validates the whole file; throws InputError if it is not a
  /// sound checkpoint of this kind and job. `noun` names the file in
  /// messages ("checkpoint"; "table" for a file that is read, never
  /// rewritten, so its messages do not advise deleting it).
  CheckpointReader(std::string path, std::string_view kind, std::string_view signature,
                   std::string_view noun = "checkpoint");
  ~CheckpointReader();
  CheckpointReader(const CheckpointReader&) = delete;
  CheckpointReader& operator=(const CheckpointReader&) = delete;

  static bool exists(const std::string& path);
  /// Refuses (the constructor's InputError) a file at `path` that is not
  /// a sound checkpoint of this kind and job: run before the tables a
  /// resumed run fills are made, so that another job's or a damaged file
  /// is refused at once, not after gigabytes were allocated and cleared.
  /// The file is read whole (its checksum), so a resumed run reads it
  /// twice. No file there: nothing to check.
  static void check_job(const std::string& path, std::string_view kind, std::string_view signature,
                        std::string_view noun = "checkpoint");

  uint64_t u64() {
    uint64_t v;
    bytes(&v, sizeof v);
    return v;
  }
  /// A value that must be <= max (else the file is corrupt).
  uint64_t u64(uint64_t max, const char* what);
  std::string str();
  void bytes(void* p, size_t n);
  /// Reads past n bytes of the payload (a section this run does not use).
  void skip(uint64_t n);
  template <class T>
  void array(ChunkedVector<T>& v, uint64_t max_count) {
    uint64_t n = count<T>(max_count);
    v.clear();
    v.resize(n);
    uint64_t done = 0;
    while (done < n) {
      uint64_t run = std::min<uint64_t>(ChunkedVector<T>::kBlock, n - done);
      bytes(&v[done], run * sizeof(T));
      done += run;
    }
  }
  template <class T>
  void array(std::vector<T>& v, uint64_t max_count) {
    uint64_t n = count<T>(max_count);
    v.resize(n);
    bytes(v.data(), n * sizeof(T));
  }
  /// Is the payload used up? (For a section newer files add at the end.)
  bool at_end() const { return remaining_ == 0; }
  /// The payload must be used up exactly.
  void finish();
  /// The file is damaged (a torn write, a flipped bit, a short file).
  [[noreturn]] void corrupt(const std::string& why) const;
  /// The file is sound but was written for another job, kind of run or
  /// format version: reported as a mismatch, not as damage.
  [[noreturn]] void mismatch(const std::string& why) const;

 private:
  void check_sum(uint64_t size);
  void header(std::string_view kind, std::string_view signature);
  template <class T>
  uint64_t count(uint64_t max_count) {
    uint64_t n = u64();
    if (n > max_count || n > remaining_ / sizeof(T)) corrupt("an array length overruns the file");
    return n;
  }
  std::string path_, noun_;
  std::unique_ptr<RegularFile> file_;  // only regular files are opened
  std::FILE* f_ = nullptr;
  uint64_t remaining_ = 0;  // payload bytes left
};

}  // namespace loom::solver
