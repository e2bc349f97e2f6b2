// loom render: an SVG diagram of any position of the five games
// (puzzles/render.h draws it; this file only wires the options).

#include "app/command.h"
#include "app/render_game.h"
#include "model/common/errors.h"
#include "model/common/files.h"

namespace loom {

std::vector<CommandSpec> render_commands() {
  std::vector<CommandSpec> cmds;
  cmds.push_back({"render", "write an SVG diagram of a position", [](CLI::App* cmd) {
                    auto ga = std::make_shared<GameArgs>();
                    ga->add_to(cmd, /*with_dice=*/true);
                    auto out_path = std::make_shared<std::string>();
                    auto caption = std::make_shared<std::string>();
                    cmd->add_option("--out", *out_path, "the SVG file to write")->required();
                    cmd->add_option("--caption", *caption, "a line of text under the board");
                    return Action([=](std::ostream& out, std::ostream&) {
                      auto game = ga->build();
                      puzzles::RenderOptions ro;
                      ro.caption = *caption;
                      ro.last_move = last_token(ga->record);  // marked
                      std::optional<nardy::Roll> roll;
                      if (ga->given("--dice")) roll = nardy::Roll::parse(ga->dice);
                      const std::string svg = render_game_svg(*game, ro, roll);
                      write_text_file(*out_path, svg);
                      out << "wrote " << *out_path << "\n";
                    });
                  }});
  return cmds;
}

}  // namespace loom
