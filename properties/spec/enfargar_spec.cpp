#include "properties/spec/enfargar_spec.h"

namespace loom::spec {

Exprs enfargar_lifelines(Encoder& e, const HexBoard& b, const std::string& name, const Exprs& mine,
                         const Exprs& theirs, bool touch) {
  const int n = b.size();
  auto empty = [&](int j) { return !mine[j] && !theirs[j]; };
  Exprs base;
  std::vector<std::vector<Encoder::Support>> supports(n);
  for (int i = 0; i < n; ++i) {
    Exprs edge_ways;
    for (int d = 0; d < 6; ++d) {
      const auto& ray = b.ray(i, d);
      // (a) every point up to the edge is empty; at least one unless edge=touch.
      if (!ray.empty() || touch) {
        Exprs all_empty;
        for (int j : ray) all_empty.push_back(empty(j));
        edge_ways.push_back(e.all(all_empty));
      }
      // (b) the first stone met is ray[k]: it must be friendly with a lifeline.
      Exprs before_empty;
      for (int j : ray) {
        supports[i].push_back({j, e.all(before_empty)});
        before_empty.push_back(empty(j));
      }
    }
    base.push_back(e.any(edge_ways));
  }
  // The support from ray[k] only counts if ray[k] is in the set, i.e. one of
  // `mine` with a lifeline: an enemy stone met first gives nothing.
  return e.least_fixed_point(name, mine, base, supports);
}

EnfargarMove encode_enfargar_move(Encoder& e, const HexBoard& b, const EnfargarRules& rules,
                                  const HexPosition* before_in, int site, bool clause2) {
  const int n = b.size();
  HexPosition before = before_in ? *before_in : fresh_position(e, b, "enf_before");
  Exprs at = choose_site(e, b, site, "enf_at");

  Exprs empty_ok, own1;
  for (int i = 0; i < n; ++i) {
    empty_ok.push_back(z3::implies(at[i], !before.own[i] && !before.opp[i]));
    own1.push_back(before.own[i] || at[i]);
  }
  // (1) the new stone has a lifeline right after it is placed.
  Exprs own_life1 = enfargar_lifelines(e, b, "enf_own1", own1, before.opp, rules.touch);
  Exprs new_life;
  for (int i = 0; i < n; ++i) new_life.push_back(at[i] && own_life1[i]);
  z3::expr cond1 = e.name("enf_cond1", e.any(new_life));

  // Step 2: every enemy stone without a lifeline (judged once, on the board
  // right after the placement) becomes friendly.
  Exprs opp_life1 = enfargar_lifelines(e, b, "enf_opp1", before.opp, own1, rules.touch);
  Exprs flipped;
  HexPosition after;
  for (int i = 0; i < n; ++i) {
    flipped.push_back(before.opp[i] && !opp_life1[i]);
    after.own.push_back(own1[i] || flipped[i]);
    after.opp.push_back(before.opp[i] && !flipped[i]);
  }
  // (2) afterwards every friendly stone has a lifeline.
  Exprs own_life2 = enfargar_lifelines(e, b, "enf_own2", after.own, after.opp, rules.touch);
  Exprs every;
  for (int i = 0; i < n; ++i) every.push_back(z3::implies(after.own[i], own_life2[i]));
  z3::expr cond2 = e.name("enf_cond2", e.all(every));

  z3::expr legal = e.all(empty_ok) && cond1;
  if (clause2) legal = legal && cond2;
  legal = e.name("enf_legal", legal);
  z3::expr annihilates = e.any(before.opp) && !e.any(after.opp);
  return EnfargarMove{before, after, at, legal, cond1, cond2, flipped, annihilates};
}

}  // namespace loom::spec
