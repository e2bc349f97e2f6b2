#include "model/common/diagram.h"

#include <algorithm>

namespace loom {

std::string hex_diagram(const HexGeometry& g, const std::function<char(int)>& cell) {
  const int n = g.side();
  std::string out;
  for (int r = 2 * n - 2; r >= 0; --r) {
    int qlo = std::max(0, r - (n - 1)), qhi = std::min(2 * n - 2, r + n - 1);
    std::string line = (r + 1 < 10 ? " " : "") + std::to_string(r + 1) + " ";
    line += std::string(2 * qlo - r + (n - 1), ' ');
    for (int q = qlo; q <= qhi; ++q) {
      line += cell(g.site(q, r));
      if (q < qhi) line += ' ';
    }
    line += std::string(2 * (2 * n - 2) - (2 * qhi - r + (n - 1)), ' ');
    line += "   " + g.name(g.site(qlo, r)) + "-" + g.name(g.site(qhi, r));
    out += line + "\n";
  }
  return out;
}

}  // namespace loom
