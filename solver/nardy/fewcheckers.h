// Long Nardy with few checkers (checkers=K), solved exactly from the start
// (docs/nardy-exact.md). A state is (mover's checkers, opponent's checkers),
// each a multiset of K route indices (24 = borne off): C(K + 24, K) per side.
// Colours are folded: a position is read in the mover's route frame, so
// White-to-move and Black-to-move positions share one table.
//
// Every turn that plays a step lowers the mover's pips, so states are
// evaluated by increasing total pips. The only loop is a forced pass: a roll
// with no legal step leaves the board and hands the turn over, and the
// partner state (opponent, mover) lies in the same layer. For each such
// couple the two values solve a pair of linear equations exactly,
//   P(w,b) = X(w,b) + q(w,b) (1 - P(b,w)),
//   P(b,w) = X(b,w) + q(b,w) (1 - P(w,b)),
// with X the contribution of the rolls that move (successors in lower
// layers, already final) and q the probability of a pass; q q' = 1 (both
// sides blocked for every roll) is a game that never ends: value 0 for both
// (counted in `endless`). Expected points use the same equations with
// E = Y - q E'.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "model/nardy/movegen.h"
#include "model/nardy/nardy.h"

namespace loom::nardy::exact {

/// One opening roll's best turn (by winning chance, ties: turn text order).
struct OpeningPlay {
  Roll roll;
  Turn turn;          ///< best turn by p_win
  double p_win = 0;   ///< White's winning chance after it
  Turn points_turn;   ///< best turn by expected points
  double points = 0;  ///< White's expected points after points_turn
  int distinct = 0;   ///< distinct results of the roll
};

class FewCheckers {
 public:
  static constexpr int kMaxK = 4;
  /// Solves checkers=opt.checkers (1..kMaxK) with `threads` threads. Throws
  /// InputError for a larger K or end=last-roll (not supported).
  static FewCheckers solve(const Options& opt, int threads);

  /// Files (docs/nardy-exact.md). save() writes FILE.tmp and renames it;
  /// load() checks header, size and checksum: nullopt and `why` when the
  /// file is missing, corrupt or for another K (throws InputError for a
  /// path that is not a regular file).
  void save(const std::string& file) const;
  static std::optional<FewCheckers> load(const std::string& file, const Options& opt,
                                         std::string* why);
  static std::string file_name(const std::string& dir, int k);
  /// The solve in chunk files under dir (whole layers, each with its own
  /// checksum; an interrupted solve resumes from the finished chunks), then
  /// saved as file_name(dir, K). stop_after_chunks > 0 stops (as if killed)
  /// after writing that many new chunks and returns nullopt. chunk_states:
  /// states per chunk at least (0: 4 Mi).
  static std::optional<FewCheckers> solve_resumable(const Options& opt, const std::string& dir,
                                                    int threads, std::ostream* notes,
                                                    std::ostream* tty, int stop_after_chunks = 0,
                                                    uint64_t chunk_states = 0);
  /// The table from file_name(dir, K), solved resumably and saved when it
  /// is missing or fails its checks (a note to `notes`). Throws Interrupted
  /// when stop_after_chunks stopped the solve.
  static FewCheckers cached(const Options& opt, const std::string& dir, std::ostream* notes,
                            std::ostream* tty, int threads, int stop_after_chunks = 0);

  const Options& options() const { return opt_; }
  /// The mover's winning chance (both maximising it) and expected points
  /// (both maximising them) at p; nullopt for a finished game. Throws
  /// InputError if p is not playable under the options.
  std::optional<double> p_win(const Position& p) const;
  std::optional<double> points(const Position& p) const;
  /// (p_win, points) of the side that just moved into `child`.
  std::pair<double, double> after_turn(const Position& child, Color mover) const;
  /// The 21 opening rolls from the start.
  std::vector<OpeningPlay> openings() const;

  uint64_t configs() const { return configs_; }
  uint64_t states() const { return states_; }              ///< legal (mover, opponent) pairs
  uint64_t pass_couples() const { return pass_couples_; }  ///< states with a pass roll
  uint64_t endless() const { return endless_; }
  uint64_t generator_calls() const { return calls_; }
  double seconds() const { return seconds_; }
  /// Every value bit for bit equal (tests: a resumed or loaded table).
  bool same_table(const FewCheckers& o) const {
    return opt_.checkers == o.opt_.checkers && v_ == o.v_;
  }

 private:
  friend struct FewCheckersSolver;
  std::optional<size_t> index(const Position& p) const;
  Options opt_;
  uint64_t configs_ = 0, states_ = 0, pass_couples_ = 0, endless_ = 0, calls_ = 0;
  double seconds_ = 0;
  struct Value {
    double p = 0, e = 0;  ///< the mover's p_win and expected points
    bool operator==(const Value&) const = default;
  };
  std::vector<Value> v_;  ///< by mover config * configs + opponent config
};

}  // namespace loom::nardy::exact
