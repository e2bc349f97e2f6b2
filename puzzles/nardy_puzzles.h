// Long Nardy `roll` puzzles (CONVENTIONS.md "Puzzles"; docs/puzzles.md): a
// bear-off position and a roll where exactly one distinct result gives the
// highest winning chance, ahead of the second best by at least min_gap.
//
// - The generator takes its candidates from seeded games (random play, or a
//   greedy policy that races) and values every result of the roll that was
//   thrown with the two-sided bear-off database (solver/nardy/bearoff.h).
// - The checker re-derives every value by its own route: a top-down
//   expectimax in doubles over the positions the model's turn generator
//   gives (no database, no home indices), and, under checkers=15, the set of
//   results against the Z3 specification (properties/spec/nardy_spec.h).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "model/nardy/nardy.h"
#include "puzzles/puzzles.h"

namespace loom::puzzles {

/// Default --min-gap: a winning chance 0.02 ahead of the second-best turn.
/// Where no mars is possible (every puzzle position with a checker borne
/// off) the expected points are 2p - 1, so 0.02 in p is 0.04 in points:
/// the size of error backgammon tools first call "doubtful". It is also
/// 40 times the databases' proven rounding bound (4.6e-4).
inline constexpr double kDefaultMinGap = 0.02;
/// The checker accepts a listed winning chance within this of its own
/// exact value (2x the databases' proven rounding bound, docs/nardy-exact.md).
inline constexpr double kNardyTolerance = 1e-3;
/// Best turns whose exact winning chances differ by at most this tie: the
/// checker's doubles show an exact tie as a difference of about 1e-16.
inline constexpr double kNardyTieGap = 1e-9;

struct NardyMakeOptions {
  std::vector<std::pair<std::string, std::string>> rules;  ///< every option in force
  /// The rules that differ from the defaults (empty: none), on every diagram.
  std::string variant;
  nardy::Options opt;
  int max_checkers = 6;  ///< no side has more on the board
  double min_gap = kDefaultMinGap;
  int count = 10;
  uint64_t seed = 1;
  std::string db_dir;  ///< bear-off database directory ("" = default cache)
  int max_games = 0;   ///< 0: 200 per requested puzzle
  int per_game = 2;    ///< most puzzles taken from one game
  /// --race-wrong: keep only puzzles whose answer is not the race move
  /// (fewest expected turns to bear off): most others ask nothing of a
  /// player who races.
  bool race_wrong_only = false;
  /// Budget of the checker's re-proof per puzzle (position pairs).
  uint64_t check_pairs = 2'000'000;
  std::ostream* tty = nullptr;    ///< progress line, or null
  std::ostream* notes = nullptr;  ///< database notes (built, rejected), resume notes, or null
  /// The progress file, as MakeOptions::progress_file (puzzles/progress.h).
  std::string progress_file;
  double checkpoint_interval = 10;
  std::string version;      ///< part of the progress file's job signature
  uint64_t stop_after = 0;  ///< testing: as MakeOptions::stop_after
};

/// The job signature of a Long Nardy `puzzle make` progress file.
std::string nardy_make_signature(const NardyMakeOptions& opt, int max_games);

/// Generates opt.count puzzles (fewer if max_games runs out), sorted by
/// difficulty, each re-proved by check_nardy_puzzle (without the Z3 step).
/// Deterministic for a seed. Throws InputError under end=last-roll (the
/// databases value the race to the first side off).
MakeReport make_nardy_puzzles(const NardyMakeOptions& opt);
/// Throws InputError for options make_nardy_puzzles refuses (before any work).
void check_nardy_make(const NardyMakeOptions& opt);

struct NardyCheckOptions {
  bool spec = true;                    ///< confirm the results against Z3
  uint64_t max_pairs = 5'000'000;      ///< budget of the expectimax
  double tolerance = kNardyTolerance;  ///< accepted |listed - exact|
};

/// Re-proves one Long Nardy puzzle object (see the file comment). Throws
/// InputError when the object is malformed.
CheckResult check_nardy_puzzle(const nlohmann::json& puzzle, const NardyCheckOptions& opt);

/// The checker's exact winning chance of the side to move in a bear-off
/// position (both sides all home), or nullopt over `max_pairs` positions.
/// Exposed for the tests (against the databases and the naive reference).
std::optional<double> nardy_exact_p_win(const nardy::Position& p, const nardy::Options& opt,
                                        uint64_t max_pairs, uint64_t* positions = nullptr);

}  // namespace loom::puzzles
