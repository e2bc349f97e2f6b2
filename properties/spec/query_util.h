// Shared machinery of the queries: timing, solving with an optional
// "fewest stones" minimisation, and pictures of hex positions.
#pragma once

#include <z3++.h>

#include <chrono>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "properties/spec/encoder.h"
#include "properties/spec/hex_position.h"
#include "properties/spec/queries.h"

namespace loom::spec {

class Stopwatch {
 public:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

/// The running query's time limit (0: none) while this object lives, on
/// this thread.
class QueryDeadline {
 public:
  explicit QueryDeadline(double seconds);
  ~QueryDeadline();
  QueryDeadline(const QueryDeadline&) = delete;
  QueryDeadline& operator=(const QueryDeadline&) = delete;

 private:
  std::optional<std::chrono::steady_clock::time_point> previous_;
};

/// What is left of the running query's time limit (run_spec_query's
/// `time_limit`), in seconds; infinity when it has none.
double query_seconds_left();
/// Gives a solver at most what is left of the query's time limit and of
/// `own` seconds; false (and nothing set) when none is left.
bool give_time(z3::solver& s, double own = std::numeric_limits<double>::infinity());
/// give_time, throwing QueryTimeout when no time is left.
void limit_time(z3::solver& s, double own = std::numeric_limits<double>::infinity());
/// Throws QueryTimeout if the query's time limit has passed, else
/// std::runtime_error naming Z3's reason for answering "unknown".
[[noreturn]] void unknown_answer(const z3::solver& s);

struct Solved {
  bool sat = false;
  std::optional<z3::model> model;
  int best = -1;            ///< least value of the minimised term found
  bool proved_min = false;  ///< no smaller value is possible
};

/// Checks definitions + goal. If SAT and `minimise` is given, binary-searches
/// the least value of that Int term, spending at most `budget` seconds on it.
/// Throws std::runtime_error if Z3 answers "unknown" to the first check.
Solved solve(z3::context& c, const Encoder& e, const z3::expr& goal,
             const std::optional<z3::expr>& minimise = std::nullopt, double budget = 60);

/// 'X' own, 'O' opp, '.' empty.
HexPicture picture(const HexBoard& b, const Cells& cells, const std::string& caption);

/// One ply of a hex game for unrolling: the move from `before` (mover's
/// frame), given the positions after the earlier plies (each in its mover's
/// frame), returns the position after (mover's frame), the placement site
/// (one-hot; all false for a pass), whether it is a pass, and legality.
struct Ply {
  HexPosition after;
  Exprs at;
  z3::expr pass;
  z3::expr legal;
};
using PlyFn = std::function<Ply(Encoder& e, const HexPosition& before, int ply,
                                const std::vector<HexPosition>& earlier_afters)>;

/// `plies` legal plies from the empty board (bounded model checking).
/// positions[t] is the position before ply t in the frame of its mover
/// (Black moves at even t); positions[plies] is the final one.
struct Unrolled {
  std::vector<HexPosition> positions;
  std::vector<Ply> plies;
  z3::expr legal;
};
Unrolled unroll(Encoder& e, const HexBoard& b, int plies, const PlyFn& ply);

/// A reachable witness found by unrolling: the record and the final position.
struct Reached {
  std::vector<std::string> record;  ///< tokens, Black first ("pass" for a pass)
  Cells final_black_white;          ///< per site 0 empty, 1 Black, 2 White
  bool black_to_move = true;
  std::optional<z3::model> model;
  int plies = 0;
};
/// Tries k = 0, 1, ... plies (up to max_plies, within `budget` seconds):
/// goal(e, unrolled) states the property of the final position (and may add
/// variables). Returns the first (shortest) witness found.
std::optional<Reached> shortest_line(
    z3::context& c, const HexBoard& b, int max_plies, double budget, const PlyFn& ply,
    const std::function<z3::expr(Encoder&, const Unrolled&)>& goal,
    const std::function<void(const Reached&, const z3::model&, const Unrolled&)>& read = {});

/// 'X' Black, 'O' White from absolute cells.
HexPicture picture_bw(const HexBoard& b, const Cells& black_white, const std::string& caption);
/// "1 ply", "6 plies".
inline std::string plies_text(int n) {
  return std::to_string(n) + (n == 1 ? " ply" : " plies");
}
/// The record as one line: "1. d4 2. c3 ..." style is avoided; plain tokens.
std::string record_text(const std::vector<std::string>& record);
/// Number of stones in a position term.
z3::expr stone_count(const Encoder& e, const HexPosition& p);

}  // namespace loom::spec
