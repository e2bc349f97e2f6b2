// Fiodar queries (RULES.md section 2 and 7).
#include <stdexcept>

#include "properties/spec/fiodar_spec.h"
#include "properties/spec/query_util.h"

namespace loom::spec {

namespace {

/// The start of a turn as play reaches it under the default rules: no weave
/// of either colour is cut (the opponent's suicide check and removals leave
/// none; see docs/verification.md).
z3::expr no_cut_weaves(Encoder& e, const HexBoard& b, const HexPosition& p, bool gap) {
  Exprs own = fiodar_cut_weave_stones(e, b, "fiodar_inv_own", p.own, p.opp, gap);
  Exprs opp = fiodar_cut_weave_stones(e, b, "fiodar_inv_opp", p.opp, p.own, gap);
  return !e.any(own) && !e.any(opp);
}

QueryAnswer legal_by_removal(int size, const FiodarRules& rules) {
  HexBoard b(size);
  z3::context c;
  Encoder e(c);
  Stopwatch clock;
  FiodarMove m = encode_fiodar_move(e, b, rules);
  z3::expr goal = !m.pass && m.legal && m.friendly_cut_before_removal && !m.friendly_cut_after &&
                  no_cut_weaves(e, b, m.before, rules.gap);
  Solved s = solve(c, e, goal, stone_count(e, m.before));
  QueryAnswer a;
  a.seconds = clock.seconds();
  a.witness = s.sat;
  if (!s.sat) return a;
  const z3::model& z = *s.model;
  int site = read_site(z, m.at);
  HexPicture p =
      picture(b, read_cells(z, m.before), "before: X to move plays * (removed O stones drawn o)");
  p.cells[site] = '*';
  for (int i = 0; i < b.size(); ++i)
    if (value_of(z, m.removed[i])) p.cells[i] = 'o';
  a.pictures.push_back(p);
  a.pictures.push_back(picture(b, read_cells(z, m.after), "after the removal"));
  a.lines.push_back(
      "X plays " + b.name(site) +
      ": right after the placement an X weave is cut (suicide if judged now), but the "
      "cut O weave(s) go first (" +
      std::to_string(int_of(z, m.removed_count)) + " stones) and then no X weave is cut: legal");
  a.lines.push_back("start position: no weave of either colour is cut; fewest stones " +
                    std::to_string(s.best) +
                    (s.proved_min ? " (proved minimal)" : " (not proved minimal)"));
  a.facts = {{"move", b.name(site)},
             {"removed", std::to_string(int_of(z, m.removed_count))},
             {"stones", std::to_string(s.best)},
             {"minimal", s.proved_min ? "true" : "false"}};
  return a;
}

QueryAnswer cut_without_full_thread(int size, const FiodarRules& rules) {
  HexBoard b(size);
  z3::context c;
  Encoder e(c);
  Stopwatch clock;
  FiodarMove m = encode_fiodar_move(e, b, rules);
  // W: the O weave of a chosen stone, judged on the board right after the
  // placement; it is cut (removed), and no one line holds all of it (a weave
  // inside one line is a single thread).
  Exprs seed = e.booleans("fiodar_seed", b.size());
  e.require(e.exactly_one(seed));
  Exprs opp1 = m.before.opp;
  Exprs weave = reach(e, b, "fiodar_W", seed, opp1);
  Exprs parts{!m.pass, m.legal, no_cut_weaves(e, b, m.before, rules.gap)};
  for (int i = 0; i < b.size(); ++i) parts.push_back(z3::implies(seed[i], m.removed[i]));
  for (int l = 0; l < 3; ++l)
    for (int v = 0; v < 2 * size - 1; ++v) {
      Exprs outside;  // W has a stone off line v of orientation l
      for (int i = 0; i < b.size(); ++i)
        if (b.line_of(i, l) + (l == 1 ? size - 1 : 0) != v) outside.push_back(weave[i]);
      parts.push_back(e.any(outside));
    }
  Solved s = solve(c, e, e.all(parts), stone_count(e, m.before));
  QueryAnswer a;
  a.seconds = clock.seconds();
  a.witness = s.sat;
  if (!s.sat) return a;
  const z3::model& z = *s.model;
  int site = read_site(z, m.at);
  HexPicture p = picture(b, read_cells(z, m.before),
                         "before: X to move plays *; the cut O weave W is drawn o");
  p.cells[site] = '*';
  int w = 0;
  for (int i = 0; i < b.size(); ++i)
    if (value_of(z, weave[i])) p.cells[i] = 'o', ++w;
  a.pictures.push_back(p);
  a.lines.push_back("after X plays " + b.name(site) + ", every stone of the " + std::to_string(w) +
                    "-stone O weave W lies on a cut thread, but W is not one thread (no line holds "
                    "all of it), so W is cut and removed");
  a.lines.push_back("start position: no weave of either colour is cut; fewest stones " +
                    std::to_string(s.best) +
                    (s.proved_min ? " (proved minimal)" : " (not proved minimal)"));
  a.facts = {{"move", b.name(site)},
             {"weave_size", std::to_string(w)},
             {"stones", std::to_string(s.best)},
             {"minimal", s.proved_min ? "true" : "false"}};
  return a;
}

}  // namespace

QueryAnswer fiodar_query(const std::string& name, int size, const FiodarRules& rules) {
  if (name == "legal-by-removal") return legal_by_removal(size, rules);
  if (name == "cut-without-full-thread") return cut_without_full_thread(size, rules);
  throw std::invalid_argument("unknown fiodar query " + name);
}

}  // namespace loom::spec
