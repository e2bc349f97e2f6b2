// Puzzles with proved unique answers (issue 13; CONVENTIONS.md "Puzzles"):
// the generator (make_puzzles), the independent checker (check_puzzle) and
// the collection writer. Generic over the game concept; the entry points are
// explicitly instantiated for the hex states puzzles are made on (see
// kPuzzleWidth), one translation unit per game (puzzles/<game>_puzzles.cpp).
//
// docs/puzzles.md describes the method: candidates, questions, rejections,
// the solution line, the difficulty formula and why the checker is
// independent of the generator.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/enfargar/enfargar.h"
#include "model/fiodar/fiodar.h"
#include "model/gadur/gadur.h"
#include "model/migong/migong.h"

namespace loom::puzzles {

/// What `loom puzzle make` asks for. game/size/rules are echoed into every
/// puzzle (rules: every option in force, defaults included).
struct MakeOptions {
  std::string game;
  int size = 0;
  std::vector<std::pair<std::string, std::string>> rules;
  /// The rules that differ from the game's defaults ("capture=merge-only";
  /// empty: none), named on every diagram so that it is not read under the
  /// defaults.
  std::string variant;
  int count = 10;
  uint64_t seed = 1;
  /// Exact search budget per candidate: positions (retrograde) or nodes
  /// (alpha-beta). A candidate over it is rejected ("over budget").
  uint64_t max_positions = 200'000;
  /// Budget of the independent re-proof the generator runs on each accepted
  /// puzzle (the checker's search, without the Z3 step).
  uint64_t check_positions = 3'000'000;
  /// Give up after this many played games (0: 40 per requested puzzle).
  int max_games = 0;
  /// Most puzzles taken from one played game.
  int per_game = 2;
  /// Progress line (a terminal), or null.
  std::ostream* tty = nullptr;
  /// The progress file (puzzles/progress.h), "" for none: resumed from if
  /// it exists, saved at game boundaries every checkpoint_interval seconds
  /// and once more at the end. The caller removes it once the collection is
  /// written.
  std::string progress_file;
  double checkpoint_interval = 10;
  /// Part of the progress file's job signature (the loom version).
  std::string version;
  /// A note when a run resumes, or null.
  std::ostream* notes = nullptr;
  /// Testing: stop as if interrupted (progress saved, Interrupted thrown)
  /// after this many games of this run (0: never).
  uint64_t stop_after = 0;
};

/// The job signature of a `puzzle make` progress file: every option that
/// decides the collection (max_games as in force).
std::string make_signature(const MakeOptions& opt, int max_games);

/// The generator's result: puzzles sorted by difficulty (ids assigned in that
/// order), their diagrams, and the counts behind them.
struct MakeReport {
  std::vector<nlohmann::json> puzzles;
  std::vector<std::string> svgs;
  uint64_t games = 0;                        ///< games played for candidates
  uint64_t candidates = 0;                   ///< positions examined
  std::map<std::string, uint64_t> rejected;  ///< reason -> count
  double seconds = 0;
  /// The job's signature (progress.h), written beside the collection as
  /// puzzles.job; empty when the run keeps no progress file (the bench).
  std::string job;
  /// One line per board: counts and rejection rates (for `make` and the bench).
  std::string summary() const;
};

struct CheckOptions {
  /// Budget of the independent search (positions it may store).
  uint64_t max_positions = 5'000'000;
  /// Confirm the legal-move set against the Z3 specification.
  bool spec = true;
};

/// Outcome of re-proving one puzzle: confirmed, or the first reason not.
struct CheckResult {
  bool confirmed = false;
  std::string reason;
  uint64_t positions = 0;  ///< positions the independent search visited
  int spec_checks = 0;     ///< Z3 checks of the specification step (0: not run)
};

/// Boards puzzles are made and checked on: the bitboard widths of the small
/// boards (side <= 4: W = 1) and of each game's recommended board (Fiodar 7
/// and Migong 7: W = 3; Enfargar 9: W = 5). Only these are instantiated.
template <class S>
inline constexpr bool kPuzzleState = false;
template <>
inline constexpr bool kPuzzleState<gadur::State<1>> = true;
template <>
inline constexpr bool kPuzzleState<fiodar::State<1>> = true;
template <>
inline constexpr bool kPuzzleState<fiodar::State<3>> = true;
template <>
inline constexpr bool kPuzzleState<enfargar::State<1>> = true;
template <>
inline constexpr bool kPuzzleState<enfargar::State<5>> = true;
template <>
inline constexpr bool kPuzzleState<migong::State<1>> = true;
template <>
inline constexpr bool kPuzzleState<migong::State<3>> = true;

/// Generates opt.count puzzles (fewer if max_games runs out) from `start`
/// (the empty board of the game, rules and size in force). Deterministic
/// for a seed: the same options give the same puzzles (timings aside).
template <class S>
MakeReport make_puzzles(const S& start, const MakeOptions& opt);

/// Re-proves one puzzle object from `start` (the empty board of the game,
/// size and rules the puzzle names, with a Fiodar puzzle's `setup` placed
/// on it as `--setup` places it: the record is played from there). Throws
/// InputError when the object is malformed (a key missing or of the wrong
/// type).
template <class S>
CheckResult check_puzzle(const S& start, const nlohmann::json& puzzle, const CheckOptions& opt);

/// The Z3 step of the checker on its own: "" when the specification's legal
/// moves at s are exactly `listed` (sorted) and each gives the model's
/// position after it, else the disagreement. (Exposed so that the tests can
/// show it catches a missing or extra move the model check would not.)
template <class S>
std::string spec_confirm(const S& s, const std::vector<typename S::Move>& listed);

/// A JSON value as a message quotes it: a scalar as its JSON text, clipped;
/// an array or object by its kind only (dumping a deeply nested one recurses
/// once a level, and a crafted file nests 100,000 deep).
std::string json_in_message(const nlohmann::json& v);

/// Throws InputError unless `p` has every key of CONVENTIONS.md "Puzzles"
/// with the right JSON type (the game-independent part of the check).
void validate_shape(const nlohmann::json& p);

/// validate_shape, and for a puzzle read from a file also an id that is a
/// short token (it names <id>.svg and appears in every message).
void validate_file_puzzle(const nlohmann::json& p);

/// Writes DIR/puzzles.jsonl (one object a line), DIR/<id>.svg per puzzle
/// and DIR/index.html (puzzles/html.h). Creates DIR. Throws InputError if
/// it cannot be written.
void write_collection(const std::string& dir, const std::string& title, const MakeReport& r);

/// Reads the puzzle objects of a file (one JSON object a line; blank lines
/// skipped), or of DIR/puzzles.jsonl for a directory. Throws InputError if
/// not a regular file, unreadable, or not JSON objects.
std::vector<nlohmann::json> read_puzzles(const std::string& path);

/// The puzzle objects of a puzzles.jsonl text; `name` names it in errors.
std::vector<nlohmann::json> parse_puzzles(std::string_view text, const std::string& name);

#define LOOM_PUZZLE_EXTERN(S)                                                  \
  extern template MakeReport make_puzzles<S>(const S&, const MakeOptions&);    \
  extern template CheckResult check_puzzle<S>(const S&, const nlohmann::json&, \
                                              const CheckOptions&);            \
  extern template std::string spec_confirm<S>(const S&, const std::vector<typename S::Move>&);
LOOM_PUZZLE_EXTERN(gadur::State<1>)
LOOM_PUZZLE_EXTERN(fiodar::State<1>)
LOOM_PUZZLE_EXTERN(fiodar::State<3>)
LOOM_PUZZLE_EXTERN(enfargar::State<1>)
LOOM_PUZZLE_EXTERN(enfargar::State<5>)
LOOM_PUZZLE_EXTERN(migong::State<1>)
LOOM_PUZZLE_EXTERN(migong::State<3>)
#undef LOOM_PUZZLE_EXTERN

/// A collection's order and names: sorted by difficulty (stable, so equal
/// difficulties keep the generator's order), ids PREFIX-001, PREFIX-002, ...
/// `F` has `difficulty` and the puzzle object `j`.
template <class F>
void order_and_name(std::vector<F>& found, const std::string& prefix) {
  std::stable_sort(found.begin(), found.end(),
                   [](const F& a, const F& b) { return a.difficulty < b.difficulty; });
  for (size_t i = 0; i < found.size(); ++i) {
    char num[32];
    std::snprintf(num, sizeof num, "%03zu", i + 1);
    found[i].j["id"] = prefix + "-" + num;
  }
}

}  // namespace loom::puzzles
