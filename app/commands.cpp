// The list of `loom` subcommands. Each group lives in its own cmd_*.cpp.
#include "app/command.h"

namespace loom {

std::vector<CommandSpec> all_commands() {
  std::vector<CommandSpec> out;
  for (auto group : {basic_commands, play_commands, solve_commands, verify_commands,
                     migong_commands, audit_commands, render_commands, puzzle_commands}) {
    auto cmds = group();
    out.insert(out.end(), cmds.begin(), cmds.end());
  }
  return out;
}

}  // namespace loom
