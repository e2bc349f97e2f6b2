// The games `loom` knows, with their sizes, rule options and factories.
// Each game contributes one GameInfo from its own app/game_<name>.cpp.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/any_game.h"
#include "model/common/rules.h"

namespace loom {

/// Game-specific start options given on the command line; a game that does
/// not use one rejects it (make_game checks the GameInfo flags).
struct StartOptions {
  std::optional<std::string> setup;       ///< fiodar: 2-stone pie setup "d4 c3"
  std::string setup_name = "--setup";     ///< how errors name it (a puzzle's: "setup")
  std::optional<std::string> edges_file;  ///< migong: edge colouring file
};

struct GameInfo {
  std::string name;
  std::string title;      ///< one line for help texts
  bool available = true;  ///< false: the game is not implemented in this build
  bool has_size = true;   ///< false for Long Nardy (fixed board)
  int default_size = 0, min_size = 0, max_size = 0;
  bool accepts_setup = false;  ///< uses StartOptions::setup
  bool accepts_edges = false;  ///< uses StartOptions::edges_file
  std::function<std::vector<RuleSpec>()> rule_specs;
  /// Builds the start position for a validated size, rule set and start options.
  std::function<std::unique_ptr<AnyGame>(int size, const RuleSet& rules, const StartOptions& start)>
      make;
};

const std::vector<GameInfo>& all_games();
/// Throws InputError for an unknown or unavailable game.
const GameInfo& find_game(std::string_view name);

/// Validates size and rule assignments and builds the start position.
/// No size means the game's default. Throws InputError on bad input.
std::unique_ptr<AnyGame> make_game(std::string_view name, std::optional<int> size,
                                   const std::vector<std::string>& rules,
                                   const StartOptions& start = {});

GameInfo gadur_info();
GameInfo fiodar_info();
GameInfo enfargar_info();
GameInfo migong_info();
GameInfo nardy_info();

}  // namespace loom
