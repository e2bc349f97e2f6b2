// loom render: an SVG diagram of any position of the five games
// (puzzles/render.h draws it; this file only wires the options).
#include <fstream>
#include <sstream>

#include "app/command.h"
#include "app/typed_game.h"
#include "model/common/errors.h"
#include "puzzles/render.h"

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
                      // The last move of the record is marked.
                      std::istringstream rec(ga->record);
                      for (std::string tok; rec >> tok;) ro.last_move = tok;
                      std::string svg;
                      visit_state(*game, [&](const auto& s) {
                        using S = std::remove_cvref_t<decltype(s)>;
                        if constexpr (std::is_same_v<S, NardyGame>) {
                          std::optional<nardy::Roll> roll;
                          if (ga->given("--dice")) roll = nardy::Roll::parse(ga->dice);
                          svg = puzzles::render_nardy_svg(s.position(), s.options(), roll, ro);
                        } else {
                          svg = puzzles::render_svg(s, ro);
                        }
                      });
                      std::ofstream f(*out_path, std::ios::binary | std::ios::trunc);
                      if (!f) throw InputError("cannot write " + *out_path);
                      f << svg;
                      f.close();
                      if (!f) throw InputError("cannot write " + *out_path);
                      out << "wrote " << *out_path << "\n";
                    });
                  }});
  return cmds;
}

}  // namespace loom
