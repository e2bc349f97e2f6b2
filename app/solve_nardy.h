// `loom solve nardy` (CONVENTIONS.md "Long Nardy exact values"): wires the
// exact Long Nardy solvers of solver/nardy/ to the command line and prints
// their results (text, and one JSON line with --json).
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "app/game_nardy.h"

namespace loom {

struct NardySolveArgs {
  bool position_given = false;
  std::optional<nardy::Roll> dice;
  bool json = false;
  std::string db_dir;  ///< "" = default cache directory
  int threads = 2;
  int stop_after = 0;           ///< testing: stop a database build after N new chunks
  std::ostream* tty = nullptr;  ///< progress line (a terminal) or null
};

/// Values the position of `game` (or, without --position, solves the whole
/// game for checkers=K from the start). Throws InputError when the position
/// is not covered.
void solve_nardy(const NardyGame& game, const NardySolveArgs& args, std::ostream& out,
                 std::ostream& err);

}  // namespace loom
