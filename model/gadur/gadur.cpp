#include "model/gadur/gadur.h"

#include <algorithm>

namespace loom::gadur {

std::vector<RuleSpec> Options::specs() {
  return {
      {"exception",
       {"whole", "subset"},
       "merge legality: whole = all adjacent enemy groups must fit (S <= |G|); "
       "subset = some subset of at least two of them must fit"},
      {"capture",
       {"any", "merge-only"},
       "any = a placement captures whenever S == |G| (a lone stone takes a lone stone); "
       "merge-only = only when at least two enemy groups are involved"},
  };
}

Options Options::from(const RuleSet& r) {
  Options o;
  o.subset = r.is("exception", "subset");
  o.merge_only = r.is("capture", "merge-only");
  return o;
}

namespace {

/// The group of `within` containing site s0 (in `within`), and its halo
/// (the group plus its neighbours) if asked: a search over the neighbour
/// table, faster than dilation for the small groups of these boards.
template <int W>
Bitboard<W> group_of(const HexMasks<W>& m, int s0, const Bitboard<W>& within,
                     Bitboard<W>* halo = nullptr) {
  Bitboard<W> g = Bitboard<W>::single(s0);
  Bitboard<W> near = m.neighbours(s0);
  Bitboard<W> frontier = near & within;
  while (frontier.any()) {
    g |= frontier;
    Bitboard<W> next;
    frontier.for_each([&](int s) { next |= m.neighbours(s); });
    near |= next;
    frontier = (next & within).andnot(g);
  }
  if (halo) *halo = near | g;
  return g;
}

/// Calls f(X) once for every set X of k cells of `within` each of whose
/// connected parts (in `within`) contains a cell of `roots` (roots within
/// `within`): Redelmeier's enumeration of connected sets, rooted at a
/// virtual cell next to every root. `untried` holds the cells that may
/// still join X on this branch, `seen` every cell ever offered on it.
template <int W, class F>
void anchored_grow(const HexMasks<W>& m, const Bitboard<W>& within, Bitboard<W> x,
                   Bitboard<W> untried, const Bitboard<W>& seen, int left, F& f) {
  while (untried.any()) {
    const int v = untried.pop_lowest();
    Bitboard<W> x2 = x;
    x2.set(v);
    if (left == 1) {
      f(x2);
      continue;
    }
    const Bitboard<W> fresh = (m.neighbours(v) & within).andnot(seen);
    anchored_grow(m, within, x2, untried | fresh, seen | fresh, left - 1, f);
  }
}

template <int W, class F>
void anchored_sets(const HexMasks<W>& m, const Bitboard<W>& roots, const Bitboard<W>& within, int k,
                   F&& f) {
  if (k > 0) anchored_grow(m, within, Bitboard<W>{}, roots, roots, k, f);
}

/// N bitboards that are not zero-filled when made (Bitboard's constructor
/// zeroes its words): the group lists below are written before they are
/// read, and zero-filling them took a quarter of has_placement()'s time.
template <int W, int N>
struct BoardList {
  std::array<std::array<uint64_t, W>, N> raw;
  Bitboard<W> operator[](int i) const {
    Bitboard<W> b;
    b.w = raw[i];
    return b;
  }
  void set(int i, const Bitboard<W>& b) { raw[i] = b.w; }
};

/// Connected groups of one colour, each with its extended neighbourhood.
template <int W>
struct Groups {
  static constexpr int kCap = kMaxSites<W>;
  int n = 0;
  BoardList<W, kCap> stones;
  BoardList<W, kCap> halo;  ///< stones plus their neighbours
  std::array<int, kCap> size;

  void build(const HexMasks<W>& m, Bitboard<W> todo) {
    n = 0;
    while (todo.any()) {
      Bitboard<W> h;
      Bitboard<W> g = group_of(m, todo.lowest(), todo, &h);
      todo = todo.andnot(g);
      stones.set(n, g);
      halo.set(n, h);
      size[n] = g.count();
      ++n;
    }
  }

  /// The group a stone on c joins: c and these groups next to it.
  Bitboard<W> joined_at(const HexMasks<W>& m, int c) const {
    Bitboard<W> g = Bitboard<W>::single(c);
    const Bitboard<W>& nb = m.neighbours(c);
    for (int i = 0; i < n; ++i)
      if (stones[i].intersects(nb)) g |= stones[i];
    return g;
  }

  /// These groups as the enemies of a merged group g (RULES.md section 4):
  /// the ones touching g, their stones and total size, and whether the merge
  /// may be played (at least two groups whose total size, or under
  /// exception=subset the two smallest, is at most |g|).
  struct Merge {
    int groups = 0;
    int total = 0;
    Bitboard<W> enemies;
    bool legal = false;
  };
  /// These groups after a stone of their colour is placed on the empty
  /// cell c: the groups next to c join it.
  Groups with_stone(const HexMasks<W>& m, int c) const {
    Groups r;
    const Bitboard<W>& nb = m.neighbours(c);
    Bitboard<W> g = Bitboard<W>::single(c), h = nb | g;
    int gsize = 1;
    for (int i = 0; i < n; ++i) {
      if (stones[i].intersects(nb)) {
        g |= stones[i];
        h |= halo[i];
        gsize += size[i];
        continue;
      }
      r.stones.set(r.n, stones[i]);
      r.halo.set(r.n, halo[i]);
      r.size[r.n++] = size[i];
    }
    r.stones.set(r.n, g);
    r.halo.set(r.n, h);
    r.size[r.n++] = gsize;
    return r;
  }

  /// Has the side owning these groups a merge placement on one of `cells`
  /// (each next to one of its stones) against the groups `enemy`?
  bool some_merge(const HexMasks<W>& m, const Groups& enemy, const Bitboard<W>& cells,
                  bool subset) const {
    bool found = false;
    cells.for_each([&](int c) {
      if (found) return;
      const Bitboard<W> g = joined_at(m, c);
      found = enemy.merging(g, g.count(), subset).legal;
    });
    return found;
  }

  Merge merging(const Bitboard<W>& g, int gsize, bool subset) const {
    Merge r;
    int s1 = 1 << 30, s2 = 1 << 30;
    for (int i = 0; i < n; ++i) {
      if (!halo[i].intersects(g)) continue;
      ++r.groups;
      const int s = size[i];
      r.total += s;
      r.enemies |= stones[i];
      if (s < s1) {
        s2 = s1;
        s1 = s;
      } else if (s < s2) {
        s2 = s;
      }
    }
    r.legal = r.groups >= 2 && (subset ? s1 + s2 <= gsize : r.total <= gsize);
    return r;
  }
};

}  // namespace

template <int W>
Placement<W> State<W>::analyse(int c) const {
  const auto& m = ctx_->masks;
  const BB& own = stones_[idx(to_move_)];
  const BB& opp = stones_[idx(other(to_move_))];
  Placement<W> p{};
  BB cbit = BB::single(c);
  BB halo;
  p.group = group_of(m, c, own | cbit, &halo);
  BB touching = halo & opp;
  std::array<int, kMaxSites<W>> sizes;
  while (touching.any()) {
    BB g = group_of(m, touching.lowest(), opp);
    touching = touching.andnot(g);
    p.enemies |= g;
    sizes[p.num_enemy_groups++] = g.count();
  }
  p.enemy_size = p.enemies.count();
  int gsize = p.group.count();
  bool touches_friend = m.neighbours(c).intersects(own);
  if (!touches_friend) {
    p.legal = true;
  } else if (p.num_enemy_groups < 2) {
    p.legal = false;
  } else if (!ctx_->opt.subset) {
    p.legal = p.enemy_size <= gsize;
  } else {
    std::partial_sort(sizes.begin(), sizes.begin() + 2, sizes.begin() + p.num_enemy_groups);
    p.legal = sizes[0] + sizes[1] <= gsize;
  }
  p.captures = p.legal && p.num_enemy_groups > 0 && p.enemy_size == gsize &&
               (!ctx_->opt.merge_only || p.num_enemy_groups >= 2);
  return p;
}

template <int W>
Bitboard<W> State<W>::legal_sites() const {
  const auto& m = ctx_->masks;
  const BB& own = stones_[idx(to_move_)];
  const BB& opp = stones_[idx(other(to_move_))];
  BB e = empty();
  BB near_own = m.dilate(own);
  BB legal = e.andnot(near_own);  // touching no friendly stone: always legal
  BB cand = e & near_own;
  if (cand.none()) return legal;
  // Merges: G = c + the friendly groups around c; it needs >= 2 adjacent
  // enemy groups (so opp must have >= 2 groups) of total size <= |G|.
  Groups<W> mine, theirs;
  theirs.build(m, opp);
  if (theirs.n < 2) return legal;
  mine.build(m, own);
  cand.for_each([&](int c) {
    const BB g = mine.joined_at(m, c);
    if (theirs.merging(g, g.count(), ctx_->opt.subset).legal) legal.set(c);
  });
  return legal;
}

template <int W>
bool State<W>::has_placement() const {
  const auto& m = ctx_->masks;
  const BB& own = stones_[idx(to_move_)];
  const BB& opp = stones_[idx(other(to_move_))];
  const BB e = empty();
  const BB near_own = m.dilate(own);
  if (e.andnot(near_own).any()) return true;
  const BB cand = e & near_own;
  if (cand.none()) return false;
  Groups<W> mine, theirs;
  theirs.build(m, opp);
  if (theirs.n < 2) return false;
  mine.build(m, own);
  return mine.some_merge(m, theirs, cand, ctx_->opt.subset);
}

template <int W>
bool State<W>::is_terminal() const {
  return !has_placement();
}

template <int W>
void State<W>::apply(const Move& mv, Undo& u) {
  Placement<W> p = analyse(mv.site);
  Color me = to_move_, opp = other(me);
  u.hash = hash_;
  u.captured = p.captures ? p.enemies : BB{};
  stones_[idx(me)].set(mv.site);
  hash_ ^= ctx_->key(mv.site, me);
  if (p.captures) {
    stones_[idx(opp)] = stones_[idx(opp)].andnot(p.enemies);
    p.enemies.for_each([&](int s) { hash_ ^= ctx_->key(s, opp); });
  }
  to_move_ = opp;
  hash_ ^= ctx_->side_key();
}

template <int W>
void State<W>::undo(const Move& mv, const Undo& u) {
  Color me = other(to_move_);
  stones_[idx(me)].reset(mv.site);
  stones_[idx(to_move_)] |= u.captured;
  to_move_ = me;
  hash_ = u.hash;
}

template <int W>
uint64_t State<W>::recompute_hash() const {
  return transformed_hash(0);  // the identity
}

template <int W>
std::string State<W>::check_invariants() const {
  const BB& valid = ctx_->masks.valid();
  if (stones_[0].intersects(stones_[1])) return "a site holds both colours";
  if ((stones_[0] | stones_[1]).andnot(valid).any()) return "a stone lies off the board";
  if (hash_ != recompute_hash()) return "incremental hash differs from recomputed hash";
  return "";
}

template <int W>
uint64_t State<W>::transformed_hash(int k) const {
  // The stones' keys move with the map; the side to move's stays.
  const HexGeometry& g = geo();
  uint64_t h = to_move_ == Color::kWhite ? ctx_->side_key() : 0;
  for (Color c : {Color::kBlack, Color::kWhite})
    stones_[idx(c)].for_each([&](int s) { h ^= ctx_->key(g.map_site(k, s), c); });
  return h;
}

template <int W>
void State<W>::transformed_hashes(ImageKeys::Hashes& out) const {
  out.fill(to_move_ == Color::kWhite ? ctx_->side_key() : 0);
  for (Color c : {Color::kBlack, Color::kWhite})
    stones_[idx(c)].for_each([&](int s) { ctx_->images.add(out, s, idx(c)); });
}

template <int W>
State<W> State<W>::transformed(int k) const {
  State t = *this;
  for (int c = 0; c < 2; ++c) t.stones_[c] = ctx_->masks.map(k, stones_[c]);
  t.hash_ = t.recompute_hash();
  return t;
}

template <int W>
int State<W>::placements(Placed* out, bool with_answers) const {
  const auto& m = ctx_->masks;
  const BB& own = stones_[idx(to_move_)];
  const BB& opp = stones_[idx(other(to_move_))];
  const BB e = empty();
  const BB near_own = m.dilate(own);
  // Empty cells next to no enemy stone: a lone reply for the opponent
  // unless the placement fills the last one. A capture empties whole enemy
  // groups, whose cells touch no remaining enemy stone: a reply too.
  const BB far_opp = e.andnot(m.dilate(opp));
  const auto answered = [&](const Placed& p) {
    return with_answers && (p.captured.any() || far_opp.andnot(BB::single(p.site)).any());
  };
  int n = 0;
  // Lone placements (G = {c}) are legal; they capture only when S == 1:
  // exactly one adjacent enemy stone, itself alone (never under merge-only,
  // which needs |E| >= 2).
  e.andnot(near_own).for_each([&](int c) {
    Placed& p = out[n++];
    p.site = static_cast<int16_t>(c);
    p.captured = BB{};
    if (!ctx_->opt.merge_only) {
      const BB nb = m.neighbours(c) & opp;
      if (nb.count() == 1 && !m.neighbours(nb.lowest()).intersects(opp)) p.captured = nb;
    }
    p.answered = answered(p);
  });
  const BB cand = e & near_own;
  Groups<W> mine, theirs;
  bool have_theirs = false, have_mine = false;
  if (cand.any()) {
    theirs.build(m, opp);
    have_theirs = true;
    if (theirs.n >= 2) {
      mine.build(m, own);
      have_mine = true;
      cand.for_each([&](int c) {
        const BB g = mine.joined_at(m, c);
        const int gsize = g.count();
        const auto mg = theirs.merging(g, gsize, ctx_->opt.subset);
        if (!mg.legal) return;
        Placed& p = out[n++];
        p.site = static_cast<int16_t>(c);
        p.captured = mg.total == gsize ? mg.enemies : BB{};
        p.answered = answered(p);
      });
    }
  }
  if (!with_answers) return n;
  // The others leave the opponent no lone reply (every empty cell touches
  // one of its stones) and capture nothing: does it have a merge? Its
  // groups are as here; ours are joined at the site.
  for (int i = 0; i < n; ++i) {
    Placed& p = out[i];
    if (p.answered) continue;
    if (!have_theirs) theirs.build(m, opp);
    if (!have_mine) mine.build(m, own);
    have_theirs = have_mine = true;
    const Groups<W> ours = mine.with_stone(m, p.site);
    p.answered =
        ours.n >= 2 && theirs.some_merge(m, ours, e.andnot(BB::single(p.site)), ctx_->opt.subset);
  }
  return n;
}

// Retrograde moves. The last mover L placed some stone c of theirs; let G be
// c's group now. Without a capture the position before is this one minus c
// (with L to move), if that placement is legal and captures nothing. With a
// capture, the removed set X was every enemy group touching G (so no stone
// of the side to move touches G now), each such group touched G, and
// |X| == |G|; an X cell next to a remaining enemy stone would have joined
// that stone's group, which would have been removed too. So X is a set of
// |G| empty cells, none next to an enemy stone, inside the part of those
// cells reachable from G's rim.
template <int W>
void State<W>::retractions(std::vector<Placed>& out) const {
  out.clear();
  const auto& m = ctx_->masks;
  const Color last = other(to_move_);
  const BB mine = stones_[idx(last)];
  const BB theirs = stones_[idx(to_move_)];
  const BB free_cells = empty().andnot(m.dilate(theirs));
  Groups<W> their_groups;
  bool have_theirs = false;
  BB todo = mine;
  while (todo.any()) {
    const int c = todo.lowest();
    const BB& nbc = m.neighbours(c);
    if (!nbc.intersects(mine)) {
      todo.reset(c);
      // A lone stone (the common case, in closed form): it was a legal
      // placement. Without a capture, unless it would have taken a lone
      // adjacent enemy stone; with one (never under merge-only: |E| = 1),
      // the taken stone was an empty neighbour next to no enemy stone.
      const BB nb = nbc & theirs;
      if (nb.none()) {
        out.push_back({static_cast<int16_t>(c), false, BB{}});
        if (!ctx_->opt.merge_only)
          (nbc & free_cells).for_each([&](int x) {
            out.push_back({static_cast<int16_t>(c), false, BB::single(x)});
          });
      } else if (ctx_->opt.merge_only || nb.count() > 1 ||
                 m.neighbours(nb.lowest()).intersects(theirs)) {
        out.push_back({static_cast<int16_t>(c), false, BB{}});
      }
      continue;
    }
    // A merge: G is the group now, whichever of its stones was placed last
    // (placing any stone of G next to the rest of G makes G again), so
    // what follows holds for every stone of G alike. E: the enemy groups
    // next to G (the side to move's stones, unchanged when nothing was
    // captured).
    if (!have_theirs) {
      their_groups.build(m, theirs);
      have_theirs = true;
    }
    const BB g = group_of(m, c, mine);
    todo = todo.andnot(g);
    const int gsize = g.count();
    const auto mg = their_groups.merging(g, gsize, ctx_->opt.subset);
    if (mg.legal && mg.total != gsize)
      g.for_each([&](int s) { out.push_back({static_cast<int16_t>(s), false, BB{}}); });
    const BB rim = m.rim(g);
    if (rim.intersects(theirs)) continue;
    // Replaying a stone of G before X was taken: no stone of the side to
    // move touches G (checked above) and no cell of X touches one (X lies
    // in free_cells), so the enemy groups next to G are the connected parts
    // of X that touch G's rim; |G| == |X| makes the merge legal and a
    // capture, and it takes exactly X iff every part of X touches the rim
    // and there are at least two. The sets of |G| free cells whose every
    // part touches the rim are listed each once (anchored_sets), and the
    // one-part ones dropped.
    anchored_sets(m, rim & free_cells, free_cells, gsize, [&](const BB& x) {
      if (group_of(m, x.lowest(), x) != x)
        g.for_each([&](int s) { out.push_back({static_cast<int16_t>(s), false, x}); });
    });
  }
}

template <int W>
void State<W>::predecessors(std::vector<State>& out) const {
  out.clear();
  std::vector<Placed> rs;
  retractions(rs);
  const Color last = other(to_move_);
  for (const Placed& p : rs) {
    State q = *this;
    q.stones_[idx(last)].reset(p.site);
    q.stones_[idx(to_move_)] |= p.captured;
    q.to_move_ = last;
    q.hash_ = q.recompute_hash();
    out.push_back(q);
  }
}

template <int W>
void State<W>::put(int site, Color c) {
  for (Color x : {Color::kBlack, Color::kWhite})
    if (stones_[idx(x)].test(site)) {
      stones_[idx(x)].reset(site);
      hash_ ^= ctx_->key(site, x);
    }
  stones_[idx(c)].set(site);
  hash_ ^= ctx_->key(site, c);
}

template <int W>
void State<W>::set_to_move(Color c) {
  if (c != to_move_) hash_ ^= ctx_->side_key();
  to_move_ = c;
}

template class State<1>;
template class State<3>;
template class State<5>;
template class State<10>;

}  // namespace loom::gadur
