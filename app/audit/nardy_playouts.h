// Long Nardy playouts for `loom audit`: White's first-move advantage, the
// draw rate (end=last-roll), mars rate and game length, from seeded games.
#pragma once

#include <nlohmann/json.hpp>

#include "app/audit/playouts.h"
#include "model/nardy/nardy.h"

namespace loom::audit {

/// Plays `games` seeded games from `start` (random: a distinct result of the
/// roll uniformly; greedy: the result with the fewest own pips left, ties at
/// random) and returns the measured figures as JSON (see docs/audit.md).
nlohmann::json nardy_playouts(const nardy::Position& start, const nardy::Options& opt,
                              Policy policy, int games, uint64_t seed, double seconds);

}  // namespace loom::audit
