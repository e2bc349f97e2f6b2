#include "properties/spec/migong_spec.h"

#include <stdexcept>

namespace loom::spec {

MigongBoard::MigongBoard(int n) : hex_(n) {
  cell_.assign(hex_.size(), -1);
  for (int s = 0; s < hex_.size(); ++s) {
    if (s == hex_.centre()) continue;  // the centre is a border, not a cell
    cell_[s] = static_cast<int>(site_.size());
    site_.push_back(s);
  }
}

int MigongBoard::neighbour(int c, int d) const {
  int s = hex_.neighbour(site_[c], d);
  return s < 0 ? -1 : cell_[s];
}

MigongEdges migong_default_edges(const MigongBoard& b) {
  const HexBoard& h = b.hex();
  const int n = h.side();
  MigongEdges edges(b.cells());
  std::vector<std::array<int, 6>> seen(b.cells());
  for (int c = 0; c < b.cells(); ++c)
    for (int d = 0; d < 6; ++d) {
      edges[c][d] = -1;
      seen[c][d] = b.neighbour(c, d) >= 0;
    }
  // Centre border: its side facing direction j constrains wedge (j+3) mod 6
  // of the cell at centre + direction j; B for even j.
  for (int j = 0; j < 6; ++j) {
    int c = b.cell(h.neighbour(h.centre(), j));
    edges[c][(j + 3) % 6] = j % 2 == 0 ? 1 : 0;
    seen[c][(j + 3) % 6] = 1;
  }
  // Rim walk: side s starts at corner c_s (c_0 = a1, c_{s+1} = c_s + (n-1)
  // steps in direction s) and lists n-1 cells in direction s; each cell gives
  // its off-board edges in counter-clockwise order (a contiguous run of
  // directions, listed from the run's first one); edge k is B for even k.
  int q = 0, r = 0, k = 0;
  for (int s = 0; s < 6; ++s) {
    for (int t = 0; t < n - 1; ++t) {
      int site = h.at(q + t * kStep[s][0], r + t * kStep[s][1]);
      int c = b.cell(site);
      int first = 0;
      while (!(h.neighbour(site, first) < 0 && h.neighbour(site, (first + 5) % 6) >= 0)) ++first;
      for (int d = first; h.neighbour(site, d % 6) < 0; ++d) {
        if (seen[c][d % 6]) throw std::logic_error("migong rim walk visits an edge twice");
        edges[c][d % 6] = k % 2 == 0 ? 1 : 0;
        seen[c][d % 6] = 1;
        ++k;
      }
    }
    q += (n - 1) * kStep[s][0];
    r += (n - 1) * kStep[s][1];
  }
  if (k != 6 * (2 * n - 1)) throw std::logic_error("migong rim walk: wrong number of edges");
  for (int c = 0; c < b.cells(); ++c)
    for (int d = 0; d < 6; ++d)
      if (!seen[c][d]) throw std::logic_error("migong rim walk misses an edge");
  return edges;
}

MigongPosition fresh_migong_position(Encoder& e, const MigongBoard& b, const std::string& name) {
  MigongPosition p{e.booleans(name + "_occ", b.cells()), e.booleans(name + "_blue", b.cells()),
                   e.booleans(name + "_wedge", b.cells() * 6)};
  for (int c = 0; c < b.cells(); ++c) {
    e.require(z3::implies(!p.occupied[c], !p.blue[c]));
    for (int d = 0; d < 6; ++d) e.require(z3::implies(!p.occupied[c], !p.wedge[c * 6 + d]));
  }
  return p;
}

z3::expr migong_fits_edges(const Encoder& e, const MigongEdges& edges, int cell,
                           const Exprs& pattern) {
  Exprs ok;
  for (int d = 0; d < 6; ++d)
    if (edges[cell][d] >= 0) ok.push_back(edges[cell][d] == 1 ? pattern[d] : !pattern[d]);
  return e.all(ok);
}

MigongMove encode_migong_move(Encoder& e, const MigongBoard& b, const MigongEdges& edges,
                              const z3::expr& blue_moves, const MigongPosition* before_in, int cell,
                              int pattern_bits) {
  const int n = b.cells();
  MigongPosition before = before_in ? *before_in : fresh_migong_position(e, b, "mg_before");
  Exprs at;
  if (cell >= 0) {
    for (int c = 0; c < n; ++c) at.push_back(e.ctx().bool_val(c == cell));
  } else {
    at = e.booleans("mg_at", n);
    e.require(e.exactly_one(at));
  }
  Exprs p;
  if (pattern_bits >= 0)
    for (int d = 0; d < 6; ++d) p.push_back(e.ctx().bool_val((pattern_bits >> d & 1) != 0));
  else
    p = e.booleans("mg_pattern", 6);

  Exprs ok;
  // The piece belongs to the mover's set: at least one wedge of its colour.
  Exprs has_b, has_y;
  for (int d = 0; d < 6; ++d) {
    has_b.push_back(p[d]);
    has_y.push_back(!p[d]);
  }
  ok.push_back(z3::ite(blue_moves, e.any(has_b), e.any(has_y)));
  // The mover has not placed this pattern before.
  for (int c = 0; c < n; ++c) {
    Exprs same{before.occupied[c], before.blue[c] == blue_moves};
    for (int d = 0; d < 6; ++d) same.push_back(before.wedge[c * 6 + d] == p[d]);
    ok.push_back(!e.all(same));
  }
  for (int c = 0; c < n; ++c) {
    Exprs here{!before.occupied[c]};
    for (int d = 0; d < 6; ++d) {
      int nb = b.neighbour(c, d);
      if (nb >= 0)  // an occupied neighbour imposes its facing wedge
        here.push_back(
            z3::implies(before.occupied[nb], p[d] == before.wedge[nb * 6 + (d + 3) % 6]));
      else  // an edge (rim or centre) imposes its colour
        here.push_back(edges[c][d] == 1 ? p[d] : !p[d]);
    }
    ok.push_back(z3::implies(at[c], e.all(here)));
  }
  z3::expr legal = e.name("mg_legal", e.all(ok));

  MigongPosition after;
  for (int c = 0; c < n; ++c) {
    after.occupied.push_back(before.occupied[c] || at[c]);
    after.blue.push_back(z3::ite(at[c], blue_moves, before.blue[c]));
    for (int d = 0; d < 6; ++d)
      after.wedge.push_back(z3::ite(at[c], p[d], before.wedge[c * 6 + d]));
  }
  return MigongMove{before, after, blue_moves, at, p, legal};
}

}  // namespace loom::spec
