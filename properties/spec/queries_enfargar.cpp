// Enfargar queries (RULES.md section 3 and 7).
#include <stdexcept>

#include "properties/spec/enfargar_spec.h"
#include "properties/spec/query_util.h"

namespace loom::spec {

namespace {

/// Every stone of both colours has a lifeline. Play keeps this at the start
/// of every turn: condition (2) gives it to the mover's stones, and an enemy
/// stone that keeps its colour had a lifeline right after the placement,
/// which the flips (enemy stones turning friendly) cannot take away: they
/// had no lifeline, so no enemy lifeline rests on them, and a flip changes
/// no empty point.
z3::expr all_lifelines(Encoder& e, const HexBoard& b, const HexPosition& p, bool touch) {
  Exprs own = enfargar_lifelines(e, b, "enf_inv_own", p.own, p.opp, touch);
  Exprs opp = enfargar_lifelines(e, b, "enf_inv_opp", p.opp, p.own, touch);
  Exprs all;
  for (int i = 0; i < b.size(); ++i) {
    all.push_back(z3::implies(p.own[i], own[i]));
    all.push_back(z3::implies(p.opp[i], opp[i]));
  }
  return e.all(all);
}

QueryAnswer no_placement_both(int size, const EnfargarRules& rules) {
  HexBoard b(size);
  z3::context c;
  Encoder e(c);
  Stopwatch clock;
  HexPosition before = fresh_position(e, b, "enf_pos");
  HexPosition swapped{before.opp, before.own};
  Exprs parts{all_lifelines(e, b, before, rules.touch), e.any(before.own), e.any(before.opp)};
  Exprs empty;
  for (int i = 0; i < b.size(); ++i) {
    empty.push_back(!before.own[i] && !before.opp[i]);
    parts.push_back(!encode_enfargar_move(e, b, rules, &before, i).legal);
    parts.push_back(!encode_enfargar_move(e, b, rules, &swapped, i).legal);
  }
  parts.push_back(e.any(empty));
  Solved s = solve(c, e, e.all(parts), stone_count(e, before));
  QueryAnswer a;
  a.seconds = clock.seconds();
  a.witness = s.sat;
  if (!s.sat) return a;
  Cells cells = read_cells(*s.model, before);
  a.pictures.push_back(picture(b, cells, "neither X nor O has a legal placement"));
  int own = 0, opp = 0, free = 0;
  for (int v : cells) (v == 1 ? own : v == 2 ? opp : free)++;
  a.lines.push_back("X " + std::to_string(own) + " stones, O " + std::to_string(opp) + " stones, " +
                    std::to_string(free) +
                    " empty points; every stone has a lifeline; a stone placed on any empty point "
                    "by either player fails condition (1) or (2): both pass, the game stalls");
  a.lines.push_back("fewest stones: " + std::to_string(s.best) +
                    (s.proved_min ? " (proved minimal)" : " (not proved minimal)"));
  a.facts = {{"stones", std::to_string(s.best)}, {"minimal", s.proved_min ? "true" : "false"}};
  return a;
}

QueryAnswer end_clause_redundant(int size, const EnfargarRules& rules) {
  HexBoard b(size);
  z3::context c;
  Encoder e(c);
  Stopwatch clock;
  EnfargarMove m = encode_enfargar_move(e, b, rules, nullptr, -1, /*clause2=*/false);
  // m.legal here is "empty point and condition (1)"; the witness would be a
  // placement that clause (2) alone rejects.
  z3::expr goal = all_lifelines(e, b, m.before, rules.touch) && m.legal && !m.all_have_lifeline;
  Solved s = solve(c, e, goal);
  QueryAnswer a;
  a.seconds = clock.seconds();
  a.witness = s.sat;
  if (!s.sat) {
    a.lines.push_back("checked: every position of side " + std::to_string(size) +
                      " whose stones all have lifelines, every placement on an empty point");
    return a;
  }
  const z3::model& z = *s.model;
  int site = read_site(z, m.at);
  HexPicture p = picture(b, read_cells(z, m.before), "before: X to move plays *");
  p.cells[site] = '*';
  a.pictures.push_back(p);
  a.pictures.push_back(picture(b, read_cells(z, m.after), "after the flips"));
  a.lines.push_back("the new stone at " + b.name(site) +
                    " has a lifeline, yet after the flips some X stone has none");
  a.facts = {{"move", b.name(site)}};
  return a;
}

}  // namespace

QueryAnswer enfargar_query(const std::string& name, int size, const EnfargarRules& rules) {
  if (name == "no-placement-both") return no_placement_both(size, rules);
  if (name == "end-clause-redundant") return end_clause_redundant(size, rules);
  throw std::invalid_argument("unknown enfargar query " + name);
}

}  // namespace loom::spec
