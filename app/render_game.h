// The SVG of the position behind an AnyGame, for every command that draws
// one (loom render, the audit report, the puzzle fixture page): the typed
// state is passed to puzzles/render.h.
#pragma once

#include <optional>
#include <sstream>
#include <string>
#include <type_traits>

#include "app/typed_game.h"
#include "puzzles/render.h"

namespace loom {

/// The last token of a record ("" if none): the move a diagram marks.
inline std::string last_token(const std::string& record) {
  std::istringstream in(record);
  std::string last;
  for (std::string t; in >> t;) last = t;
  return last;
}

/// Hex games by puzzles::render_svg, Long Nardy by render_nardy_svg with
/// `roll` shown (if any).
inline std::string render_game_svg(const AnyGame& g, const puzzles::RenderOptions& ro,
                                   std::optional<nardy::Roll> roll = std::nullopt) {
  std::string svg;
  visit_state(g, [&](const auto& s) {
    using S = std::remove_cvref_t<decltype(s)>;
    if constexpr (std::is_same_v<S, NardyGame>)
      svg = puzzles::render_nardy_svg(s.position(), s.options(), roll, ro);
    else
      svg = puzzles::render_svg(s, ro);
  });
  return svg;
}

}  // namespace loom
