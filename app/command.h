// Building blocks of `loom` subcommands. A command declares its options on a
// CLI11 subcommand and returns the action to run when it is selected; groups
// of commands live in their own files (cmd_*.cpp) and are listed in
// commands.cpp. Actions report bad input by throwing InputError (exit 2).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/registry.h"

namespace loom {

using Action = std::function<void(std::ostream& out, std::ostream& err)>;

struct CommandSpec {
  std::string name;
  std::string help;
  /// Declares the options on `cmd`; the returned action runs if `cmd` is chosen.
  std::function<Action(CLI::App* cmd)> setup;
};

/// Every command `loom` offers, in help order.
std::vector<CommandSpec> all_commands();
/// moves, perft, show, rules, score (cmd_basic.cpp).
std::vector<CommandSpec> basic_commands();
/// verify (cmd_verify.cpp).
std::vector<CommandSpec> verify_commands();
/// solve (cmd_solve.cpp).
std::vector<CommandSpec> solve_commands();
/// play (cmd_play.cpp).
std::vector<CommandSpec> play_commands();
/// edges (cmd_migong.cpp).
std::vector<CommandSpec> migong_commands();
/// audit (cmd_audit.cpp; the work is in app/audit/).
std::vector<CommandSpec> audit_commands();
/// render (cmd_render.cpp).
std::vector<CommandSpec> render_commands();
/// puzzle make | check (cmd_puzzle.cpp).
std::vector<CommandSpec> puzzle_commands();

/// Thrown by an action that has reported a negative result on `err` and
/// must end with exit status 1 (e.g. `puzzle check` found a puzzle not
/// confirmed); what() is printed after "loom: " unless empty.
class CommandFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Options shared by the commands that take a game and a position. Create it
/// with std::make_shared and keep it alive in the action (CLI11 writes into it).
struct GameArgs {
  std::string game;
  int size = 0;
  std::vector<std::string> rules;
  std::string record;
  std::string position;  ///< nardy: position string
  std::string dice;      ///< nardy: a roll
  StartOptions start;    ///< game-specific start options (--setup, --edges)
  CLI::App* cmd = nullptr;

  /// Declares GAME, --size, --rule, --record, --position, --setup, --edges
  /// (and --dice if with_dice).
  void add_to(CLI::App* cmd, bool with_dice = false);
  bool given(const char* option) const;
  /// Builds the game, applies --position/--dice, then plays --record.
  std::unique_ptr<AnyGame> build() const;
};

}  // namespace loom
