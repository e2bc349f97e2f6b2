#include "properties/spec/enfargar_spec.h"

namespace loom::spec {

LifelineStep enfargar_lifeline_step(const Encoder& e, const HexBoard& b, const Exprs& mine,
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
  return LifelineStep{base, supports};
}

Exprs enfargar_lifelines(Encoder& e, const HexBoard& b, const std::string& name, const Exprs& mine,
                         const Exprs& theirs, bool touch) {
  // The support from ray[k] only counts if ray[k] is in the set, i.e. one of
  // `mine` with a lifeline: an enemy stone met first gives nothing.
  LifelineStep step = enfargar_lifeline_step(e, b, mine, theirs, touch);
  return e.least_fixed_point(name, mine, step.base, step.supports);
}

z3::expr enfargar_point_empty(const Encoder& e, const HexPosition& before, const Exprs& at) {
  Exprs empty_ok;
  for (size_t i = 0; i < at.size(); ++i)
    empty_ok.push_back(z3::implies(at[i], !before.own[i] && !before.opp[i]));
  return e.all(empty_ok);
}

EnfargarMove encode_enfargar_move(Encoder& e, const HexBoard& b, const EnfargarRules& rules,
                                  const HexPosition* before_in, int site, bool clause2) {
  const int n = b.size();
  HexPosition before = before_in ? *before_in : fresh_position(e, b, "enf_before");
  Exprs at = choose_site(e, b, site, "enf_at");

  Exprs own1;
  for (int i = 0; i < n; ++i) own1.push_back(before.own[i] || at[i]);
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

  z3::expr legal = enfargar_point_empty(e, before, at) && cond1;
  if (clause2) legal = legal && cond2;
  legal = e.name("enf_legal", legal);
  z3::expr annihilates = e.any(before.opp) && !e.any(after.opp);
  return EnfargarMove{before, after, at, legal, cond1, cond2, flipped, annihilates};
}

namespace {

// Every `set` stone is in the least fixed point: it rests on a base or on a
// `set` stone of lower level. Returns the levels in `level`.
z3::expr all_supported(Encoder& e, const LifelineStep& step, const Exprs& set,
                       const std::string& name, Exprs* level) {
  const int n = static_cast<int>(set.size());
  *level = e.integers(name, n);
  Exprs out;
  for (int i = 0; i < n; ++i) {
    Exprs ways{step.base[i]};
    for (const auto& s : step.supports[i])
      ways.push_back(s.cond && set[s.from] && (*level)[s.from] < (*level)[i]);
    out.push_back(z3::implies(set[i], e.any(ways)));
  }
  return e.all(out);
}

// P is a pre-fixed point of the step restricted to `allowed`: whatever the
// step derives from P is in P.
z3::expr prefixed(const Encoder& e, const LifelineStep& step, const Exprs& allowed,
                  const Exprs& p) {
  Exprs out;
  for (size_t i = 0; i < p.size(); ++i) {
    Exprs ways{step.base[i]};
    for (const auto& s : step.supports[i]) ways.push_back(s.cond && p[s.from]);
    out.push_back(z3::implies(allowed[i] && e.any(ways), p[i]));
  }
  return e.all(out);
}

// Some stone of `cls` within `missing` has the least level among them (or
// none is missing): true of any finite assignment, stated to guide the search.
z3::expr least_member(Encoder& e, const Exprs& cls, const Exprs& missing, const Exprs& level,
                      const std::string& name) {
  const int n = static_cast<int>(cls.size());
  Exprs in, pick = e.booleans(name, n), parts;
  for (int i = 0; i < n; ++i) in.push_back(cls[i] && missing[i]);
  for (int i = 0; i < n; ++i) {
    parts.push_back(z3::implies(pick[i], in[i]));
    for (int j = 0; j < n; ++j)
      if (j != i) parts.push_back(z3::implies(pick[i] && in[j], level[j] >= level[i]));
  }
  parts.push_back(z3::implies(e.any(in), e.any(pick)));
  return e.all(parts);
}

}  // namespace

EnfargarClauseProbe encode_enfargar_clause_probe(Encoder& e, const HexBoard& b,
                                                 const EnfargarRules& rules, int site,
                                                 bool assume_lifelines) {
  const int n = b.size();
  HexPosition pos = fresh_position(e, b, "probe");
  Exprs at = choose_site(e, b, site, "probe_at");
  Exprs parts, lv_own, lv_opp, lv_new, lv_kept;
  // Before: every stone has a lifeline (the levels exist either way; they
  // only serve the least-member hints when the hypothesis is dropped).
  z3::expr h1 = all_supported(e, enfargar_lifeline_step(e, b, pos.own, pos.opp, rules.touch),
                              pos.own, "probe_l0o", &lv_own);
  z3::expr h2 = all_supported(e, enfargar_lifeline_step(e, b, pos.opp, pos.own, rules.touch),
                              pos.opp, "probe_l0p", &lv_opp);
  if (assume_lifelines) {
    parts.push_back(h1);
    parts.push_back(h2);
  }
  Exprs own1;
  for (int i = 0; i < n; ++i) {
    own1.push_back(pos.own[i] || at[i]);
    parts.push_back(z3::implies(at[i], !pos.own[i] && !pos.opp[i]));
  }
  // (1): the new stone is in the lifeline set after placing (a witness set M).
  Exprs m = e.booleans("probe_M", n);
  for (int i = 0; i < n; ++i) {
    parts.push_back(z3::implies(m[i], own1[i]));
    parts.push_back(z3::implies(at[i], m[i]));
  }
  parts.push_back(all_supported(e, enfargar_lifeline_step(e, b, own1, pos.opp, rules.touch), m,
                                "probe_l1", &lv_new));
  // Step 2: the flipped stones F are exactly the enemy stones without a
  // lifeline: the others have one (levels), F lies outside a pre-fixed point Q.
  Exprs flip = e.booleans("probe_F", n), q = e.booleans("probe_Q", n), kept;
  for (int i = 0; i < n; ++i) {
    parts.push_back(z3::implies(flip[i], pos.opp[i] && !q[i]));
    kept.push_back(pos.opp[i] && !flip[i]);
  }
  LifelineStep opp1 = enfargar_lifeline_step(e, b, pos.opp, own1, rules.touch);
  parts.push_back(all_supported(e, opp1, kept, "probe_lk", &lv_kept));
  parts.push_back(prefixed(e, opp1, pos.opp, q));
  HexPosition after;
  for (int i = 0; i < n; ++i) {
    after.own.push_back(own1[i] || flip[i]);
    after.opp.push_back(kept[i]);
  }
  // Not (2): a pre-fixed point P of the friendly step afterwards misses a
  // friendly stone, which therefore has no lifeline.
  Exprs p = e.booleans("probe_P", n), missing;
  parts.push_back(
      prefixed(e, enfargar_lifeline_step(e, b, after.own, after.opp, rules.touch), after.own, p));
  for (int i = 0; i < n; ++i) missing.push_back(after.own[i] && !p[i]);
  parts.push_back(e.any(missing));
  if (assume_lifelines) {  // the hints rest on the levels of the hypothesis
    parts.push_back(least_member(e, pos.own, missing, lv_own, "probe_min_own"));
    parts.push_back(least_member(e, flip, missing, lv_opp, "probe_min_flip"));
  }
  parts.push_back(least_member(e, m, missing, lv_new, "probe_min_new"));
  return EnfargarClauseProbe{pos, after, e.all(parts)};
}

}  // namespace loom::spec
