// loom moves | perft | show | rules | score, and the shared GameArgs.
#include "app/command.h"
#include "app/int_option.h"
#include "model/common/bitboard.h"
#include "model/common/errors.h"

namespace loom {

void GameArgs::add_to(CLI::App* c, bool with_dice) {
  cmd = c;
  c->add_option("game", game, "fiodar, enfargar, gadur, migong or nardy")->required();
  add_int_option(c, "--size", size, "board side (default: the game's recommended side)", kMinSide,
                 kMaxSide);
  c->add_option("--rule", rules, "rule variant NAME=VALUE (repeatable; see `loom rules GAME`)")
      ->take_all()
      ->allow_extra_args(false);
  c->add_option("--record", record, "move tokens from the start, separated by spaces");
  c->add_option("--position", position, "nardy: position string S:c1,...,c24");
  c->add_option("--setup", start.setup,
                "fiodar: the 2-stone pie setup \"BLACK WHITE\" placed before the record");
  c->add_option("--edges", start.edges_file, "migong: edge colouring file (default: built in)");
  if (with_dice) c->add_option("--dice", dice, "nardy: the roll, two digits such as 65");
}

bool GameArgs::given(const char* option) const {
  return cmd->get_option_no_throw(option) != nullptr && cmd->count(option) > 0;
}

std::unique_ptr<AnyGame> GameArgs::build() const {
  StartOptions so;
  if (given("--setup")) so.setup = start.setup;
  if (given("--edges")) so.edges_file = start.edges_file;
  auto g = make_game(game, given("--size") ? std::optional<int>(size) : std::nullopt, rules, so);
  if (given("--position")) g->set_position(position);
  if (given("--dice")) g->set_dice(dice);
  if (given("--record")) g->play_record(record);
  return g;
}

std::vector<CommandSpec> basic_commands() {
  std::vector<CommandSpec> cmds;

  cmds.push_back({"moves", "print the legal moves of a position, sorted", [](CLI::App* cmd) {
                    auto ga = std::make_shared<GameArgs>();
                    ga->add_to(cmd, /*with_dice=*/true);
                    return Action([ga](std::ostream& out, std::ostream&) {
                      for (const auto& t : ga->build()->legal_tokens()) out << t << "\n";
                    });
                  }});

  cmds.push_back({"perft", "count the leaf nodes of the move tree at a depth", [](CLI::App* cmd) {
                    auto ga = std::make_shared<GameArgs>();
                    ga->add_to(cmd);
                    auto depth = std::make_shared<int>(-1);
                    auto divide = std::make_shared<bool>(false);
                    add_int_option(cmd, "--depth", *depth,
                                   "search depth in plies (turns for nardy), at most " +
                                       std::to_string(kMaxPerftDepth),
                                   0, kMaxPerftDepth)
                        ->required();
                    cmd->add_flag("--divide", *divide, "also print each move's subtotal");
                    return Action([=](std::ostream& out, std::ostream&) {
                      if (*depth < 0 || *depth > kMaxPerftDepth)
                        throw InputError("--depth must be 0.." + std::to_string(kMaxPerftDepth) +
                                         ", got " + std::to_string(*depth));
                      auto g = ga->build();
                      if (*divide) {
                        uint64_t total = 0;
                        for (const auto& [tok, n] : g->divide(*depth)) {
                          out << tok << " " << n << "\n";
                          total += n;
                        }
                        out << (*depth == 0 ? 1 : total) << "\n";
                      } else {
                        out << g->perft(*depth) << "\n";
                      }
                    });
                  }});

  cmds.push_back({"show", "draw the position reached by a record", [](CLI::App* cmd) {
                    auto ga = std::make_shared<GameArgs>();
                    ga->add_to(cmd);
                    return Action(
                        [ga](std::ostream& out, std::ostream&) { out << ga->build()->show(); });
                  }});

  cmds.push_back({"rules", "list a game's sizes and rule options", [](CLI::App* cmd) {
                    auto game = std::make_shared<std::string>();
                    cmd->add_option("game", *game, "game name")->required();
                    return Action([game](std::ostream& out, std::ostream&) {
                      const GameInfo& gi = find_game(*game);
                      out << gi.title << "\n";
                      if (gi.has_size)
                        out << "size: " << gi.min_size << ".." << gi.max_size << " (default "
                            << gi.default_size << ")\n";
                      for (const auto& spec : gi.rule_specs()) {
                        out << "--rule " << spec.key << "=";
                        for (size_t i = 0; i < spec.values.size(); ++i)
                          out << (i ? "|" : "") << spec.values[i] << (i == 0 ? " (default)" : "");
                        out << "\n    " << spec.help << "\n";
                      }
                    });
                  }});

  cmds.push_back({"score", "score the position reached by a record", [](CLI::App* cmd) {
                    auto ga = std::make_shared<GameArgs>();
                    ga->add_to(cmd);
                    // The games with a score_report (Gadur and Enfargar have none).
                    cmd->get_option("game")->description("fiodar, migong or nardy");
                    return Action([ga](std::ostream& out, std::ostream&) {
                      out << ga->build()->score_report();
                    });
                  }});
  return cmds;
}

}  // namespace loom
