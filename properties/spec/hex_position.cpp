#include "properties/spec/hex_position.h"

namespace loom::spec {

HexPosition fresh_position(Encoder& e, const HexBoard& b, const std::string& name) {
  HexPosition p{e.booleans(name + "_own", b.size()), e.booleans(name + "_opp", b.size())};
  for (int i = 0; i < b.size(); ++i) e.require(!(p.own[i] && p.opp[i]));
  return p;
}

z3::expr equals(const Encoder& e, const HexPosition& p, const Cells& cells) {
  Exprs eq;
  for (size_t i = 0; i < cells.size(); ++i) {
    eq.push_back(cells[i] == 1 ? p.own[i] : !p.own[i]);
    eq.push_back(cells[i] == 2 ? p.opp[i] : !p.opp[i]);
  }
  return e.all(eq);
}

Cells read_cells(const z3::model& m, const HexPosition& p) {
  Cells out(p.own.size(), 0);
  for (size_t i = 0; i < out.size(); ++i) {
    if (value_of(m, p.own[i])) out[i] = 1;
    if (value_of(m, p.opp[i])) out[i] = 2;
  }
  return out;
}

Exprs choose_site(Encoder& e, const HexBoard& b, int fixed, const std::string& name) {
  Exprs at;
  if (fixed >= 0) {
    for (int i = 0; i < b.size(); ++i) at.push_back(e.ctx().bool_val(i == fixed));
    return at;
  }
  at = e.booleans(name, b.size());
  e.require(e.exactly_one(at));
  return at;
}

int read_site(const z3::model& m, const Exprs& at) {
  for (size_t i = 0; i < at.size(); ++i)
    if (value_of(m, at[i])) return static_cast<int>(i);
  return -1;
}

std::vector<std::vector<Encoder::Support>> adjacency(const Encoder& e, const HexBoard& b) {
  std::vector<std::vector<Encoder::Support>> sup(b.size());
  for (int i = 0; i < b.size(); ++i)
    for (int d = 0; d < 6; ++d)
      if (int j = b.neighbour(i, d); j >= 0) sup[i].push_back({j, e.yes()});
  return sup;
}

Exprs reach(Encoder& e, const HexBoard& b, const std::string& name, const Exprs& seed,
            const Exprs& allowed) {
  return e.least_fixed_point(name, allowed, seed, adjacency(e, b));
}

Exprs touching(const Encoder& e, const HexBoard& b, const Exprs& set) {
  Exprs out;
  for (int i = 0; i < b.size(); ++i) {
    Exprs nb;
    for (int d = 0; d < 6; ++d)
      if (int j = b.neighbour(i, d); j >= 0) nb.push_back(set[j]);
    out.push_back(e.any(nb));
  }
  return out;
}

}  // namespace loom::spec
