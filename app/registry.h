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

struct GameInfo {
  std::string name;
  std::string title;      ///< one line for help texts
  bool available = true;  ///< false: the game is not implemented in this build
  bool has_size = true;   ///< false for Long Nardy (fixed board)
  int default_size = 0, min_size = 0, max_size = 0;
  std::function<std::vector<RuleSpec>()> rule_specs;
  /// Builds the start position for a validated size and rule set.
  std::function<std::unique_ptr<AnyGame>(int size, const RuleSet& rules)> make;
};

const std::vector<GameInfo>& all_games();
/// Throws InputError for an unknown or unavailable game.
const GameInfo& find_game(std::string_view name);

/// Validates size and rule assignments and builds the start position.
/// No size means the game's default. Throws InputError on bad input.
std::unique_ptr<AnyGame> make_game(std::string_view name, std::optional<int> size,
                                   const std::vector<std::string>& rules);

GameInfo gadur_info();
GameInfo fiodar_info();
GameInfo enfargar_info();
GameInfo migong_info();
GameInfo nardy_info();

}  // namespace loom
