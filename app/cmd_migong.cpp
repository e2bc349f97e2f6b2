// loom edges: prints a Migong edge colouring in the file format that
// `--edges FILE` reads (model/migong/edges.h), to start a custom colouring from.
#include "app/command.h"
#include "app/game_migong.h"
#include "app/int_option.h"
#include "model/common/bitboard.h"
#include "model/common/errors.h"

namespace loom {

std::vector<CommandSpec> migong_commands() {
  std::vector<CommandSpec> cmds;
  cmds.push_back(
      {"edges", "print the Migong edge colouring in the --edges file format", [](CLI::App* cmd) {
         struct Args {
           std::string game;
           int size = 0;
           std::optional<std::string> edges;
         };
         auto a = std::make_shared<Args>();
         cmd->add_option("game", a->game, "migong (the only game with edge colours)")->required();
         add_int_option(cmd, "--size", a->size, "board side (default 7)", kMinSide, kMaxSide);
         cmd->add_option("--edges", a->edges, "an edge colouring file to check and print");
         return Action([a, cmd](std::ostream& out, std::ostream&) {
           const GameInfo& g = find_game(a->game);
           if (!g.accepts_edges) throw InputError(g.name + " has no edge colours");
           int size = cmd->count("--size") > 0 ? a->size : g.default_size;
           if (size < g.min_size || size > g.max_size)
             throw InputError(g.name + " board size must be " + std::to_string(g.min_size) + ".." +
                              std::to_string(g.max_size) + ", got " + std::to_string(size));
           out << migong_edges(size, a->edges).to_text();
         });
       }});
  return cmds;
}

}  // namespace loom
