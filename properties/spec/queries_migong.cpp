// Migong queries (RULES.md section 5 and 7).
#include <stdexcept>

#include "properties/spec/migong_spec.h"
#include "properties/spec/query_util.h"

namespace loom::spec {

namespace {

/// Score (RULES.md 5): the largest k for which this player has strictly more
/// groups of measure k than the opponent; 0 if none.
z3::expr score(const Encoder& e, const Exprs& mine, const Exprs& theirs) {
  z3::expr s = e.num(0);
  for (size_t k = 1; k < mine.size(); ++k)  // ascending: the last true k wins
    s = z3::ite(mine[k] > theirs[k], e.num(static_cast<int>(k)), s);
  return s;
}

QueryAnswer scores_never_tie(int size, const MigongRules& rules) {
  MigongBoard b(size);
  z3::context c;
  Encoder e(c);
  Stopwatch clock;
  // Bounds: a group has at least one wedge, so each colour has at most
  // 6 * cells groups; a measure is at most the number of cells (extent) or
  // of wedges (measure=wedges).
  const int wedges = 6 * b.cells();
  const int top = rules.wedges ? wedges : b.cells();
  Exprs blue{e.num(0)}, yellow{e.num(0)};  // index 0 unused
  Exprs parts;
  for (int k = 1; k <= top; ++k) {
    blue.push_back(e.integer("blue_groups_" + std::to_string(k)));
    yellow.push_back(e.integer("yellow_groups_" + std::to_string(k)));
    parts.push_back(blue.back() >= 0 && blue.back() <= wedges);
    parts.push_back(yellow.back() >= 0 && yellow.back() <= wedges);
  }
  z3::expr sb = score(e, blue, yellow), sy = score(e, yellow, blue);
  parts.push_back(sb == sy && sb > 0);
  Solved s = solve(c, e, e.all(parts));
  QueryAnswer a;
  a.seconds = clock.seconds();
  a.witness = s.sat;
  a.lines.push_back("searched: every count 0.." + std::to_string(wedges) +
                    " of groups of each measure 1.." + std::to_string(top) + " for both players");
  if (s.sat) a.lines.push_back("tie: score " + std::to_string(int_of(*s.model, sb)));
  return a;
}

QueryAnswer unfillable_cell(int size, const MigongRules&) {
  MigongBoard b(size);
  MigongEdges edges = migong_default_edges(b);
  z3::context c;
  Encoder e(c);
  Stopwatch clock;
  // The most room a cell ever has: no neighbouring piece and no pattern of
  // the set used yet. Blue's first placement has it; so has Yellow's after
  // Blue's first piece elsewhere, not beside the cell. Later positions only
  // add constraints, so a cell no piece of a set fits now is never filled by
  // that set.
  Exprs at = e.booleans("mg_cell", b.cells());
  e.require(e.exactly_one(at));
  z3::expr blue_set = e.boolean("mg_blue_set");
  Exprs none_fits;
  for (int cell = 0; cell < b.cells(); ++cell) {
    Exprs no_blue, no_yellow;
    for (int bits = 0; bits < 64; ++bits) {
      Exprs p;
      for (int d = 0; d < 6; ++d) p.push_back(c.bool_val((bits >> d & 1) != 0));
      z3::expr fits = migong_fits_edges(e, edges, cell, p);
      if (bits != 0) no_blue.push_back(!fits);     // Blue's set: some wedge B
      if (bits != 63) no_yellow.push_back(!fits);  // Yellow's set: some wedge Y
    }
    none_fits.push_back(z3::implies(at[cell], z3::ite(blue_set, e.all(no_blue), e.all(no_yellow))));
  }
  Solved s = solve(c, e, e.all(none_fits));
  // Yellow's best case needs a legal first Blue placement on a cell that is
  // neither the cell nor beside it; check that one exists for every cell.
  int yellow_room = 0;
  for (int cell = 0; cell < b.cells(); ++cell) {
    Encoder f(c);
    Exprs far;
    for (int other = 0; other < b.cells(); ++other) {
      bool beside = other == cell;
      for (int d = 0; d < 6; ++d) beside = beside || b.neighbour(cell, d) == other;
      if (beside) continue;
      Exprs p = f.booleans("mg_first", 6);
      far.push_back(migong_fits_edges(f, edges, other, p) && f.any(p));
    }
    yellow_room += solve(c, f, f.any(far)).sat;
  }
  QueryAnswer a;
  a.seconds = clock.seconds();
  a.witness = s.sat;
  int fewest = 64;
  std::string where;
  for (int cell = 0; cell < b.cells(); ++cell) {
    int free = 0;
    for (int d = 0; d < 6; ++d) free += edges[cell][d] < 0;
    if (free < fewest) fewest = free, where = b.name(cell);
  }
  a.lines.push_back("every cell of side " + std::to_string(size) + " has at least " +
                    std::to_string(fewest) + " wedges facing other cells (e.g. " + where +
                    "), which any pattern may colour");
  a.lines.push_back("Yellow can reach the empty-neighbourhood case for " +
                    std::to_string(yellow_room) + " of " + std::to_string(b.cells()) +
                    " cells (Blue's first piece elsewhere, not beside the cell)");
  if (!s.sat) return a;
  int cell = -1;
  for (int k = 0; k < b.cells(); ++k)
    if (value_of(*s.model, at[k])) cell = k;
  bool blue = value_of(*s.model, blue_set);
  HexPicture p;
  p.side = size;
  p.caption = std::string("no ") + (blue ? "Blue" : "Yellow") + " piece ever fits *";
  for (int i = 0; i < b.hex().size(); ++i) p.cells.push_back(b.cell(i) < 0 ? '#' : '.');
  p.cells[b.site(cell)] = '*';
  a.pictures.push_back(p);
  a.facts = {{"cell", b.name(cell)}, {"set", blue ? "blue" : "yellow"}};
  return a;
}

}  // namespace

QueryAnswer migong_query(const std::string& name, int size, const MigongRules& rules) {
  if (name == "scores-never-tie") return scores_never_tie(size, rules);
  if (name == "unfillable-cell") return unfillable_cell(size, rules);
  throw std::invalid_argument("unknown migong query " + name);
}

}  // namespace loom::spec
