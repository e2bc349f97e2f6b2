// Long Nardy bear-off databases (docs/nardy-exact.md): exact values of the
// race once every checker of both sides is home. The two homes never meet
// (White's home is points 1-6, Black's 13-18, and no checker leaves home),
// so a side's moves depend only on its own home: a home is a distribution of
// 0..15 checkers over distances 1..6 from off, 54,264 of them.
//
// Every successor comes from the model's turn generator (model/nardy/
// movegen.h) applied to a home position (Successors), so these tables obey
// exactly the rules the game plays by.
//
// API for tools (puzzles, the command line):
//   const auto& db = TwoSided::cached(n, dir)     // open or build, N = n
//   db.p_win(mover_home, opponent_home)
//   rank_roll(position, roll, db)                 // a roll's results, best first
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "model/nardy/movegen.h"
#include "model/nardy/nardy.h"

namespace loom::nardy::exact {

inline constexpr int kHomePoints = 6;
inline constexpr int kMaxHomeCheckers = 15;
inline constexpr int kRolls = 21;
/// Longest bear-off in turns kept in a distribution (never reached: 15
/// checkers on the 6 point need at most 30 turns, checked at build).
inline constexpr int kMaxTurns = 48;

/// Home positions with at most n checkers: C(n + 6, 6).
uint32_t home_count(int n);
inline constexpr uint32_t kHomePositions = 54264;  ///< home_count(15)

/// Checkers at distance 1..6 from off (c[0]: distance 1).
using Home = std::array<uint8_t, kHomePoints>;

/// Dense index: the colex rank of the 6-subset {c1, c1+c2+1, ...} of
/// {0..n+5}, so the homes with at most n checkers are exactly 0..home_count(n)-1
/// and the empty home is 0.
uint32_t home_index(const Home& h);
Home home_at(uint32_t index);
int home_checkers(const Home& h);
int home_pips(const Home& h);

/// Colour c's home in p, if every checker of c on the board is home.
std::optional<Home> home_of(const Position& p, Color c);
/// The board with `white` on points 1-6 and `black` on 13-18.
Position home_position(const Home& white, const Home& black, Color to_move);

/// For every home (<= 15 checkers) and each of the 21 rolls (all_rolls()
/// order), the distinct homes a legal turn can leave, from the model's
/// TurnGenerator. Built once per process (about 1.1 M generator calls).
class Successors {
 public:
  static const Successors& get();
  std::span<const uint16_t> of(uint32_t home, int roll) const {
    const uint32_t k = home * kRolls + static_cast<uint32_t>(roll);
    return {list_.data() + start_[k], list_.data() + start_[k + 1]};
  }
  size_t total() const { return list_.size(); }
  double build_seconds() const { return seconds_; }

 private:
  Successors();
  std::vector<uint32_t> start_;
  std::vector<uint16_t> list_;
  double seconds_ = 0;
};

/// A chance or expected points summed in doubles can land an ulp outside
/// its range (-2.2e-16, 1.0000000000000002): what is printed is clamped.
inline double clamp_chance(double p) {
  return std::clamp(p, 0.0, 1.0);
}
inline double clamp_points(double e) {
  return std::clamp(e, -2.0, 2.0);  // mars: 2 points
}

/// Weight (out of 36) of roll i of all_rolls().
inline int roll_weight(int i) {
  return all_rolls()[static_cast<size_t>(i)].weight();
}

/// One-sided database: for every home, the distribution of the number of
/// turns to bear off all (playing to minimise the expected number) and of
/// turns until the first checker is off (minimising that expectation).
class OneSided {
 public:
  static const OneSided& get();
  /// P(exactly t turns), t = 0..kMaxTurns-1.
  std::span<const float> off_all(uint32_t home) const {
    return {all_.data() + size_t{home} * kMaxTurns, kMaxTurns};
  }
  std::span<const float> first_off(uint32_t home) const {
    return {first_.data() + size_t{home} * kMaxTurns, kMaxTurns};
  }
  double expected_off_all(uint32_t home) const { return mean_all_[home]; }
  double expected_first_off(uint32_t home) const { return mean_first_[home]; }
  /// The successor of `roll` minimising the expected turns to bear off all
  /// (the smallest index among equals).
  uint32_t best_race_move(uint32_t home, int roll) const;
  double build_seconds() const { return seconds_; }

 private:
  OneSided();
  std::vector<float> all_, first_;
  std::vector<double> mean_all_, mean_first_;
  double seconds_ = 0;
};

/// Build progress: (pairs done, pairs in all).
using Progress = std::function<void(uint64_t, uint64_t)>;

/// Two-sided database for up to N checkers a side. Entry (a, b): a is the
/// home of the side to move, b the opponent's:
///   p_win  = the mover's winning chance when both sides maximise their
///            winning chance;
///   points = the mover's expected points (oin 1, mars 2, -2..2) when both
///            sides maximise expected points, with mars read for
///            checkers=N (a side with all N on the board has borne off none).
/// Stored as doubles for N <= kExactMax (16 bytes a pair; N = 8: 144 MB), so
/// that their values are the exact ones up to double rounding (bound
/// kExactBound); for larger N as fixed point, P / 65535 (uint16) and
/// E / 16383 (int16), 4 bytes a pair (N = 15: 11.8 GB), with the proven
/// rounding bounds kFixedPBound and kFixedEBound (docs/nardy-exact.md).
/// Evaluation order: by the pair's total pips, so every successor pair
/// (b, a') has a smaller total and is already final.
class TwoSided {
 public:
  static constexpr double kPScale = 65535.0;
  static constexpr double kEScale = 16383.0;
  /// The largest N whose table holds doubles.
  static constexpr int kExactMax = 8;
  /// |value - exact| for a double table (p_win and points): each pair adds
  /// under 1e-14 of rounding (21 sums of weighted values of at most 2,
  /// relative error 2^-53 each) to what it read, along at most 2 x 30 turns.
  static constexpr double kExactBound = 1e-12;
  /// |value - exact| for a fixed-point table: half a unit a stored value
  /// along at most 2 x 30 turns (60 / 131,070 and 60 / 32,766).
  static constexpr double kFixedPBound = 4.6e-4;
  static constexpr double kFixedEBound = 1.9e-3;

  TwoSided() = default;
  /// Builds in memory with `threads` threads.
  static TwoSided build(int n, int threads, const Progress& progress = {});

  int n() const { return n_; }
  uint32_t size() const { return size_; }
  uint64_t pairs() const { return uint64_t{size_} * size_; }
  /// Doubles (N <= kExactMax) rather than fixed point.
  bool exact() const { return exact_for(n_); }
  static bool exact_for(int n) { return n <= kExactMax; }
  /// Bytes of one stored value (P or E) in a table for n.
  static size_t value_bytes(int n) { return exact_for(n) ? sizeof(double) : sizeof(uint16_t); }
  /// Proven bounds on |p_win - exact| and |points - exact|.
  double p_bound() const { return exact() ? kExactBound : kFixedPBound; }
  double points_bound() const { return exact() ? kExactBound : kFixedEBound; }
  double p_win(uint32_t mover, uint32_t opp) const {
    const size_t i = at(mover, opp);
    return exact() ? pd_[i] : p_[i] / kPScale;
  }
  /// Expected points under checkers=N mars (see the class comment).
  double points(uint32_t mover, uint32_t opp) const {
    const size_t i = at(mover, opp);
    return exact() ? ed_[i] : e_[i] / kEScale;
  }

  /// File I/O (docs/nardy-exact.md). save() writes FILE.tmp and renames it.
  void save(const std::string& file) const;
  /// Reads and checks a file (header, size, checksum): nullopt and `why`
  /// when it is missing, corrupt or for another N (InputError for a path
  /// that is not a regular file).
  static std::optional<TwoSided> load(const std::string& file, int n, std::string* why);
  /// The file name of the database for n in dir.
  static std::string file_name(const std::string& dir, int n);
  /// Opens the database for n in dir, building (resumably, in chunk files)
  /// and saving it when it is missing or fails its checks; notes (a file
  /// rejected, a build started) to `notes`, a progress line to `tty` (either
  /// may be null). Cached per process.
  static const TwoSided& cached(int n, const std::string& dir, std::ostream* notes = nullptr,
                                std::ostream* tty = nullptr, int threads = 0,
                                int stop_after_chunks = 0);

  /// Chunked, resumable build into dir (chunk files per pip-sum layer group,
  /// each with its own checksum; an interrupted build resumes from the
  /// finished chunks). stop_after_chunks > 0 stops (as if killed) after
  /// writing that many new chunks and returns nullopt.
  /// chunk_pairs: pairs per chunk at least (0: 4 Mi).
  static std::optional<TwoSided> build_resumable(int n, const std::string& dir, int threads,
                                                 std::ostream* notes, std::ostream* tty,
                                                 int stop_after_chunks = 0,
                                                 uint64_t chunk_pairs = 0);

 private:
  size_t at(uint32_t a, uint32_t b) const { return size_t{a} * size_ + b; }
  /// Sized for n: the doubles or the fixed-point arrays, zeroed.
  void allocate(int n);
  /// The stored P and E arrays as bytes (value_bytes(n_) a pair each).
  unsigned char* p_bytes();
  unsigned char* e_bytes();
  const unsigned char* p_bytes() const;
  const unsigned char* e_bytes() const;
  int n_ = 0;
  uint32_t size_ = 0;
  std::vector<uint16_t> p_;  ///< fixed point (N > kExactMax)
  std::vector<int16_t> e_;
  std::vector<double> pd_;  ///< doubles (N <= kExactMax)
  std::vector<double> ed_;
  friend struct TwoSidedBuilder;
};

/// A pair's values in doubles: the mover's winning chance and expected
/// points. In the recursion's memo, p < 0 marks a pair not valued yet.
struct PairValue {
  double p = -1, e = 0;
};

/// Exact values (doubles) of the bear-off pairs reachable from one pair of
/// homes, by recursion with a dense memo over U, the homes either side can
/// reach: positions whose homes reach few homes are valued exactly whatever
/// their checker count, with no table built (a 15-checker table takes
/// 11.8 GB and 40 CPU minutes). Mars is read for checkers=N as in TwoSided;
/// a pair is evaluated by the same function as the table of doubles uses,
/// so the values equal that table's bit for bit.
class BearoffRecursion {
 public:
  /// For the pair (a, b) under mars at checkers=n; ok() is false (nothing
  /// allocated) when U has more than `max_homes` homes.
  BearoffRecursion(int n, uint32_t a, uint32_t b, uint32_t max_homes);
  bool ok() const { return ok_; }
  /// |U|, and the pairs valued so far (at most |U|^2).
  uint32_t homes() const { return static_cast<uint32_t>(homes_.size()); }
  uint64_t pairs() const;
  /// Both homes in U (every result of a turn of a home in U is in U).
  double p_win(uint32_t mover, uint32_t opp) { return value(local(mover), local(opp)).p; }
  double points(uint32_t mover, uint32_t opp) { return value(local(mover), local(opp)).e; }

 private:
  uint32_t local(uint32_t home) const;
  PairValue value(uint32_t x, uint32_t y);  // local indices
  int n_;
  bool ok_ = false;
  std::vector<uint32_t> homes_;  ///< U, by local index
  std::vector<int32_t> index_;   ///< home -> local index, -1 outside U
  std::vector<PairValue> memo_;  ///< |U| x |U|, mover's local index major
};

/// The default cache directory: $XDG_CACHE_HOME/loom, else ~/.cache/loom,
/// else ./loom-cache.
std::string default_cache_dir();

/// Both homes of a position (every checker of both sides home), the mover's
/// first; nullopt otherwise.
std::optional<std::pair<Home, Home>> bearoff_homes(const Position& p);

/// One distinct result of a roll with its value for the side that rolled.
struct RankedTurn {
  Position position;  ///< the result (the opponent to move)
  Turn turn;          ///< the canonical turn reaching it (movegen.h)
  double p_win = 0;   ///< the roller's winning chance after it
};
/// Every distinct result of `roll` from the bear-off position p (both
/// sides home, at most db.n() checkers each), best first (ties: position
/// string order). Throws InputError if p is not covered.
std::vector<RankedTurn> rank_roll(const Position& p, Roll roll, const TwoSided& db,
                                  const Options& opt = {});
/// The same with the values of `rec` (every home of p, any checker count).
std::vector<RankedTurn> rank_roll(const Position& p, Roll roll, BearoffRecursion& rec,
                                  const Options& opt = {});

}  // namespace loom::nardy::exact
