#include "properties/spec/gadur_spec.h"

namespace loom::spec {

GroupLabels group_labels(Encoder& e, const HexBoard& b, const std::string& name,
                         const Exprs& stones) {
  const int n = b.size();
  Exprs label = e.integers(name + "_label", n);
  Exprs level = e.integers(name + "_level", n);
  Exprs root;
  for (int i = 0; i < n; ++i) root.push_back(stones[i] && label[i] == e.num(i));
  for (int i = 0; i < n; ++i) {
    e.require(z3::implies(!stones[i], label[i] == e.num(-1)));
    // A label is at most the site's own index and is shared along the group.
    e.require(z3::implies(stones[i], label[i] <= e.num(i)));
    Exprs down{root[i]};
    for (int d = 0; d < 6; ++d) {
      int j = b.neighbour(i, d);
      if (j < 0) continue;
      e.require(z3::implies(stones[i] && stones[j], label[i] == label[j]));
      down.push_back(stones[j] && level[j] < level[i]);
    }
    // Every stone leads down to a root, so each group has one and the label
    // is that root's index, which is then the least index in the group.
    e.require(z3::implies(stones[i], e.any(down)));
  }
  return GroupLabels{label, root};
}

GadurMove encode_gadur_move(Encoder& e, const HexBoard& b, const GadurRules& rules,
                            const HexPosition* before_in, int site, const GroupLabels* labels_in) {
  const int n = b.size();
  HexPosition before = before_in ? *before_in : fresh_position(e, b, "gadur_before");
  Exprs at = choose_site(e, b, site, "gadur_at");

  // c is empty.
  Exprs empty_ok;
  for (int i = 0; i < n; ++i)
    empty_ok.push_back(z3::implies(at[i], !before.own[i] && !before.opp[i]));
  z3::expr placeable = e.all(empty_ok);

  Exprs own1;
  for (int i = 0; i < n; ++i) own1.push_back(before.own[i] || at[i]);
  Exprs near_own = touching(e, b, before.own);
  Exprs touch;
  for (int i = 0; i < n; ++i) touch.push_back(at[i] && near_own[i]);
  z3::expr merges = e.name("gadur_merges", e.any(touch));

  // G: the friendly group containing c after placing.
  Exprs group = reach(e, b, "gadur_G", at, own1);
  // X: every enemy stone of a group adjacent to G.
  Exprs enemies = reach(e, b, "gadur_X", touching(e, b, group), before.opp);
  z3::expr gsize = e.name_int("gadur_gsize", e.count(group));
  z3::expr esize = e.name_int("gadur_esize", e.count(enemies));
  // |E| >= 2 iff some stone of X is not connected (through enemy stones) to
  // the first stone of X, i.e. X is not one group.
  Exprs first;
  z3::expr earlier = e.no();
  for (int i = 0; i < n; ++i) {
    first.push_back(enemies[i] && !earlier);
    earlier = earlier || enemies[i];
  }
  Exprs first_group = reach(e, b, "gadur_X1", first, before.opp);
  Exprs outside;
  for (int i = 0; i < n; ++i) outside.push_back(enemies[i] && !first_group[i]);
  z3::expr some = e.name("gadur_E1", e.any(enemies));
  z3::expr several = e.name("gadur_E2", e.any(outside));

  z3::expr exception = several && esize <= gsize;
  z3::expr egroups = z3::ite(several, e.num(2), z3::ite(some, e.num(1), e.num(0)));
  if (rules.subset || labels_in) {
    // Group labels give |E| exactly and the size of every group.
    GroupLabels labels = labels_in ? *labels_in : group_labels(e, b, "gadur_opp", before.opp);
    Exprs e_roots;
    for (int i = 0; i < n; ++i) e_roots.push_back(enemies[i] && labels.root[i]);
    egroups = e.name_int("gadur_egroups", e.count(e_roots));
    e.require((egroups >= 2) == several);
    if (rules.subset) {
      // "Some subset of at least two groups of E has total size <= |G|":
      // group sizes are positive, so such a subset exists iff some pair of
      // groups of E fits (two members of any fitting subset fit too).
      Exprs size_of;
      for (int a = 0; a < n; ++a) {
        Exprs mine;
        for (int i = 0; i < n; ++i) mine.push_back(before.opp[i] && labels.label[i] == e.num(a));
        size_of.push_back(e.count(mine));
      }
      Exprs pairs;
      for (int a = 0; a < n; ++a)
        for (int c = a + 1; c < n; ++c)
          pairs.push_back(e_roots[a] && e_roots[c] && size_of[a] + size_of[c] <= gsize);
      exception = several && e.any(pairs);
    }
  }
  z3::expr legal = e.name("gadur_legal", placeable && (!merges || exception));
  z3::expr captures = some && esize == gsize;
  if (rules.merge_only) captures = captures && several;
  captures = e.name("gadur_captures", captures);

  HexPosition after;
  for (int i = 0; i < n; ++i) {
    after.own.push_back(own1[i]);
    after.opp.push_back(before.opp[i] && !(captures && enemies[i]));
  }
  return GadurMove{before, after, at,      legal,  group,   enemies,
                   gsize,  esize, egroups, merges, captures};
}

}  // namespace loom::spec
