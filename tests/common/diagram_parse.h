// Board diagrams in tests: rows written top (row 2n-1) to bottom (row 1),
// one non-space character per site, any spacing/indentation (as drawn by
// hex_diagram, labels omitted). Returns (site, character) for every site.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/common/hex.h"

namespace loom::testing {

inline std::vector<std::pair<int, char>> parse_hex_diagram(const HexGeometry& g,
                                                           std::string_view text) {
  std::vector<std::string> rows;
  std::string cur;
  for (char c : text) {
    if (c == '\n') {
      if (!cur.empty()) rows.push_back(cur);
      cur.clear();
    } else if (c != ' ' && c != '\t') {
      cur += c;
    }
  }
  if (!cur.empty()) rows.push_back(cur);
  const int n = g.side();
  if (static_cast<int>(rows.size()) != 2 * n - 1)
    throw std::invalid_argument("diagram has " + std::to_string(rows.size()) + " rows, need " +
                                std::to_string(2 * n - 1));
  std::vector<std::pair<int, char>> out;
  for (int i = 0; i < 2 * n - 1; ++i) {
    int r = 2 * n - 2 - i;
    int qlo = std::max(0, r - (n - 1)), qhi = std::min(2 * n - 2, r + n - 1);
    if (static_cast<int>(rows[i].size()) != qhi - qlo + 1)
      throw std::invalid_argument("diagram row " + std::to_string(r + 1) + " has " +
                                  std::to_string(rows[i].size()) + " cells, need " +
                                  std::to_string(qhi - qlo + 1));
    for (int q = qlo; q <= qhi; ++q) out.emplace_back(g.site(q, r), rows[i][q - qlo]);
  }
  return out;
}

}  // namespace loom::testing
