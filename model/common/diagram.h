// Text diagrams of hex boards: rows from top to bottom, each cell one
// character, cells two columns apart and each row shifted half a cell so the
// board shows as a hexagon (x = q - r/2, RULES.md section 1).
#pragma once

#include <functional>
#include <string>

#include "model/common/hex.h"

namespace loom {

/// `cell(site)` gives the character drawn for a site. Each line starts with the
/// row number; each row ends with the names of its first and last site.
std::string hex_diagram(const HexGeometry& g, const std::function<char(int)>& cell);

}  // namespace loom
