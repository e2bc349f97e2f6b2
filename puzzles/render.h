// SVG diagrams of positions of all five games (issue 13): for `loom render`,
// the puzzle collections and any tool that shows a board. Pure functions of a
// position; they know nothing of the command line.
//
// Every board site is one element with class="site" and data-site="d4"
// (Gadur and Migong cells, Fiodar and Enfargar points); Long Nardy points
// carry class="point" and data-point="k" (1..24). Geometry: RULES.md section 1
// (x = q - r/2, y = r*sqrt(3)/2, row 1 at the bottom).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/nardy/nardy.h"

namespace loom::puzzles {

/// Text for XML and HTML (element text and attribute values): & < > " '
/// as entities, control characters other than newline and tab as spaces
/// (XML 1.0 forbids them), bytes that are not well-formed UTF-8 as U+FFFD.
/// Shared by the SVG, the collection page and the
/// audit report.
std::string markup_escape(std::string_view s);

struct RenderOptions {
  std::string last_move;              ///< a move token to mark ("" none)
  std::string caption;                ///< text under the board ("" none)
  std::vector<std::string> numbered;  ///< tokens to mark 1, 2, 3, ... (solution steps)
};

/// The position as a standalone SVG document (valid XML). S is one of
/// gadur::State<W>, fiodar::State<W>, enfargar::State<W>, migong::State<W>
/// for W in 1, 3, 5, 10 (explicitly instantiated in render.cpp). Tokens in
/// `o` that do not name a site of the board are ignored (`pass` included).
template <class S>
std::string render_svg(const S& state, const RenderOptions& o);

/// A Long Nardy tables board: stacks (a count where they overflow), borne-off
/// counts, the side to move and, if given, the dice. last_move / numbered are
/// turns ("24/18 18/13"); their steps' points are marked.
std::string render_nardy_svg(const nardy::Position& p, const nardy::Options& opt,
                             std::optional<nardy::Roll> dice, const RenderOptions& o);

}  // namespace loom::puzzles
