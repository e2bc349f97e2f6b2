#include "app/registry.h"

#include "model/common/errors.h"

namespace loom {

const std::vector<GameInfo>& all_games() {
  static const std::vector<GameInfo> games = {fiodar_info(), enfargar_info(), gadur_info(),
                                              migong_info(), nardy_info()};
  return games;
}

const GameInfo& find_game(std::string_view name) {
  std::string known;
  for (const auto& g : all_games()) {
    if (g.name == name) {
      if (!g.available)
        throw InputError("game '" + g.name + "' is not yet available in this build");
      return g;
    }
    known += (known.empty() ? "" : ", ") + g.name;
  }
  throw InputError("unknown game '" + detail::printable(name) + "' (known: " + known + ")");
}

std::unique_ptr<AnyGame> make_game(std::string_view name, std::optional<int> requested,
                                   const std::vector<std::string>& rules,
                                   const StartOptions& start) {
  const GameInfo& g = find_game(name);
  int size = 0;
  if (!g.has_size) {
    if (requested) throw InputError(g.name + " has a fixed board: --size is not used");
  } else {
    size = requested.value_or(g.default_size);
    if (size < g.min_size || size > g.max_size)
      throw InputError(g.name + " board size must be " + std::to_string(g.min_size) + ".." +
                       std::to_string(g.max_size) + ", got " + std::to_string(size));
  }
  if (start.setup && !g.accepts_setup)
    throw InputError(start.setup_name + " is not used by " + g.name);
  if (start.edges_file && !g.accepts_edges) throw InputError("--edges is not used by " + g.name);
  RuleSet rs(g.rule_specs());
  rs.set_all(rules);
  return g.make(size, rs, start);
}

}  // namespace loom
