// The progress file of `loom puzzle make` (issue 17): a killed generation
// resumes where its last save left it, and gives the same collection as an
// uninterrupted run (docs/robustness.md, "Puzzle generation").
//
// The file is a solver checkpoint (solver/checkpoint.h: written to a
// temporary file, flushed to disk and renamed; a checksum over the whole
// file; a job signature, so that another job's file is refused as a
// mismatch and a damaged one as corrupt). It is saved at game boundaries
// only, where the generator's whole state is small: the random source, the
// index of the next game, the report's counters (rejections included), the
// set of positions already examined and the puzzles found so far.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "solver/control.h"

namespace loom::puzzles {

/// The generator's state between two games.
struct Progress {
  uint64_t rng = 0;        ///< the random source's state (detail::Rng)
  uint64_t next_game = 0;  ///< index of the next game to play
  uint64_t games = 0;      ///< MakeReport::games so far
  uint64_t candidates = 0;
  std::map<std::string, uint64_t> rejected;
  std::vector<uint64_t> seen_hashes;   ///< board games: canonical hashes examined
  std::vector<std::string> seen_keys;  ///< Long Nardy: position-and-results keys
  /// Puzzles found so far, in the generator's order (before sorting and
  /// naming), as the objects it built.
  std::vector<nlohmann::json> found;
};

struct MakeReport;

/// A Progress with the generator's position (random source, next game) and
/// the report's counters; the caller adds its seen set and its puzzles.
Progress progress_of(uint64_t rng, int next_game, const MakeReport& rep);

/// Restores the report's counters from `p`, writes the resume note to
/// `notes` (if any) and returns the index of the next game.
int resume_counters(const Progress& p, MakeReport& rep, const std::string& path, size_t found,
                    int count, std::ostream* notes);

/// The file in a collection directory naming the job that made it (the
/// progress signature): a rerun of that job may make it again, another job
/// may not write into it.
std::string job_path(const std::string& dir);

/// Throws InputError when `dir` holds a finished collection of another job
/// than `signature` (a new run replaced its puzzles.jsonl and index.html and
/// left its SVGs beside the new ones). load_progress() calls it when there
/// is no progress file.
void check_collection_job(const std::string& dir, const std::string& signature);

/// The progress file of the collection directory `dir`.
std::string progress_path(const std::string& dir);

/// Checkpoint kinds: one for the board games, one for Long Nardy.
inline constexpr const char* kProgressKind = "puzzle make";
inline constexpr const char* kNardyProgressKind = "puzzle make nardy";

/// Writes `p` atomically to `path` under `signature` (solver/checkpoint.h).
void save_progress(const std::string& path, const char* kind, const std::string& signature,
                   const Progress& p);

/// The progress saved in `path`, or nullopt if there is no such file (then
/// its directory may hold no other job's collection: check_collection_job).
/// Throws InputError when the file is damaged ("is corrupt") or belongs to
/// another job ("does not match this job"). `check` vets each saved puzzle
/// (it returns "" or what is wrong: the file is then corrupt).
std::optional<Progress> load_progress(
    const std::string& path, const char* kind, const std::string& signature,
    const std::function<std::string(const nlohmann::json&)>& check);

/// Removes the progress file and its temporary (after the collection is written).
void remove_progress(const std::string& path);

/// The run control of a `make`: progress line, checkpoint interval, the
/// testing stop; with a progress file, Ctrl-C or SIGTERM saves at the next
/// game boundary and the run exits 130 (it was killed, losing the games
/// since the last save, with 130 or 143).
inline solver::RunControl::Config make_control(std::ostream* tty, double checkpoint_interval,
                                               uint64_t stop_after,
                                               const std::string& progress_file) {
  solver::RunControl::Config cc;
  cc.tty = tty;
  cc.checkpoint_interval = checkpoint_interval;
  cc.stop_after = stop_after;
  cc.catch_signals = !progress_file.empty();
  return cc;
}

/// "%.17g": a double as text that reads back to the same double.
std::string exact_double(double x);

}  // namespace loom::puzzles
