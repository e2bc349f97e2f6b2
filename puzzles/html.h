// The self-contained puzzle collection page `index.html` (issue 13): every
// puzzle with its diagram, question, side to move and difficulty; the reader
// answers by clicking a site (Long Nardy: picking a turn; Migong: a cell then
// a pattern) and the page says whether that is the answer and otherwise that
// move's exact value; "show solution" steps through the line. No network:
// CSS, script and SVG are inline.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace loom::puzzles {

/// The side's name as the game calls it ("black" / "white" in the puzzle
/// objects): Black or White, Migong's Blue or Yellow.
std::string side_title(const std::string& game, const std::string& to_move);

/// " (rules capture=merge-only)" for a puzzle caption, "" for the defaults
/// (`variant`: the rules that differ from them).
inline std::string rules_suffix(const std::string& variant) {
  return variant.empty() ? "" : " (rules " + variant + ")";
}

/// The page. `puzzles` are objects as CONVENTIONS.md "Puzzles" describes,
/// shown in the order given (the caller sorts by difficulty); svgs[i] is the
/// diagram of puzzles[i] (render_svg / render_nardy_svg). Throws
/// std::invalid_argument if the two lists differ in length.
std::string collection_html(const std::string& title, const std::vector<nlohmann::json>& puzzles,
                            const std::vector<std::string>& svgs);

}  // namespace loom::puzzles
