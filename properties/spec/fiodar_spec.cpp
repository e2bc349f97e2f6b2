#include "properties/spec/fiodar_spec.h"

namespace loom::spec {

namespace {

// The thread of `mine` through i, continued in direction d, ends in a cutter:
// along the ray, zero or more `mine` stones, then (cut=gap only) zero or more
// empty points, then an enemy stone. Off the board first: no cutter.
z3::expr cut_end(const Encoder& e, const HexBoard& b, int i, int d, const Exprs& mine,
                 const Exprs& theirs, bool gap) {
  const auto& ray = b.ray(i, d);
  Exprs ways;
  for (size_t k = 0; k < ray.size(); ++k) {
    // ray[k] is the cutter; ray[0..a) are the thread's stones, ray[a..k) empty.
    for (size_t a = gap ? 0 : k; a <= k; ++a) {
      Exprs w{theirs[ray[k]]};
      for (size_t t = 0; t < a; ++t) w.push_back(mine[ray[t]]);
      for (size_t t = a; t < k; ++t) w.push_back(!mine[ray[t]] && !theirs[ray[t]]);
      ways.push_back(e.all(w));
    }
  }
  return e.any(ways);
}

}  // namespace

Exprs fiodar_on_cut_thread(const Encoder& e, const HexBoard& b, const Exprs& mine,
                           const Exprs& theirs, bool gap) {
  Exprs out;
  for (int i = 0; i < b.size(); ++i) {
    Exprs lines;
    for (int l = 0; l < 3; ++l)
      lines.push_back(cut_end(e, b, i, l, mine, theirs, gap) &&
                      cut_end(e, b, i, l + 3, mine, theirs, gap));
    out.push_back(mine[i] && e.any(lines));
  }
  return out;
}

Exprs fiodar_cut_weave_stones(Encoder& e, const HexBoard& b, const std::string& name,
                              const Exprs& mine, const Exprs& theirs, bool gap) {
  Exprs on_cut = fiodar_on_cut_thread(e, b, mine, theirs, gap);
  Exprs free_stone;
  for (int i = 0; i < b.size(); ++i) free_stone.push_back(mine[i] && !on_cut[i]);
  // A weave is uncut iff it has a stone on no cut thread.
  Exprs uncut = reach(e, b, name + "_uncut", free_stone, mine);
  Exprs out;
  for (int i = 0; i < b.size(); ++i) out.push_back(mine[i] && !uncut[i]);
  return out;
}

FiodarMove encode_fiodar_move(Encoder& e, const HexBoard& b, const FiodarRules& rules,
                              const HexPosition* before_in, int site,
                              const std::vector<Cells>& forbidden) {
  const int n = b.size();
  HexPosition before = before_in ? *before_in : fresh_position(e, b, "fiodar_before");
  Exprs at;
  z3::expr pass = e.no();
  if (site == kPassMove) {
    for (int i = 0; i < n; ++i) at.push_back(e.no());
    pass = e.yes();
  } else if (site >= 0) {
    at = choose_site(e, b, site, "fiodar_at");
  } else {
    at = e.booleans("fiodar_at", n);
    pass = e.boolean("fiodar_pass");
    Exprs options = at;
    options.push_back(pass);
    e.require(e.exactly_one(options));
  }

  Exprs empty_ok;
  for (int i = 0; i < n; ++i)
    empty_ok.push_back(z3::implies(at[i], !before.own[i] && !before.opp[i]));

  // Right after the placement: judge every enemy weave, remove the cut ones.
  Exprs own1;
  for (int i = 0; i < n; ++i) own1.push_back(before.own[i] || at[i]);
  Exprs judged = fiodar_cut_weave_stones(e, b, "fiodar_enemy", before.opp, own1, rules.gap);
  Exprs removed, opp2;
  for (int i = 0; i < n; ++i) {
    removed.push_back(judged[i] && !pass);
    opp2.push_back(before.opp[i] && !removed[i]);
  }

  // Suicide: a friendly weave cut after the removals.
  Exprs own_cut_after = fiodar_cut_weave_stones(e, b, "fiodar_own2", own1, opp2, rules.gap);
  Exprs own_cut_before = fiodar_cut_weave_stones(e, b, "fiodar_own1", own1, before.opp, rules.gap);
  z3::expr cut_after = e.name("fiodar_own_cut", e.any(own_cut_after));
  z3::expr cut_before = e.name("fiodar_own_cut_before_removal", e.any(own_cut_before));
  z3::expr removes = e.any(removed);

  z3::expr suicide_ok = !cut_after;
  if (rules.capture_first) suicide_ok = suicide_ok || removes;

  HexPosition after;
  for (int i = 0; i < n; ++i) {
    after.own.push_back(z3::ite(pass, before.own[i], own1[i]));
    after.opp.push_back(opp2[i]);
  }
  Exprs differ;
  for (const auto& f : forbidden) differ.push_back(!equals(e, after, f));
  z3::expr placement_ok = e.all(empty_ok) && suicide_ok && e.all(differ);
  z3::expr legal = e.name("fiodar_legal", pass || placement_ok);
  return FiodarMove{before,
                    after,
                    at,
                    pass,
                    legal,
                    removed,
                    e.count(removed),
                    cut_before && !pass,
                    cut_after && !pass};
}

}  // namespace loom::spec
