#include "model/enfargar/enfargar.h"

#include "model/common/diagram.h"

// Why the hot path needs only condition (1).
//
// Write "a sees b" when b is the first stone met walking from a in a straight
// line over empty points; the relation is symmetric. A stone is a *source*
// when some such walk leaves the board after at least one empty point (any
// number under edge=touch). The lifeline stones of a colour are then exactly
// the stones whose component, in the graph of that colour's stones joined by
// "sees", contains a source.
//
// Invariant A: at the start of every turn of a game played from the empty
// board, every stone on the board has a lifeline.
//   (a) Placing p with a lifeline keeps every friendly lifeline: a friendly
//       walk that ran through p's point now meets p first, and p has one.
//   (b) Flipping only adds friendly stones, so friendly lifelines survive it.
//   (c) Every flipped stone has a lifeline as a friendly stone. Let F' be the
//       flipped stones left without one. A walk from a stone of F' that meets
//       a friendly (original) stone or an unflipped enemy stone, or leaves the
//       board after an empty point, would give it a lifeline now or would have
//       given it one as an enemy stone before the flip (the empty points are
//       the same). So every line through a stone of F' holds only F' stones
//       and empty points, and p is on none of them. Before the placement the
//       same lines held the same stones, so no stone of F' had a lifeline
//       then either, against invariant A at the start of the turn.
//   (d) Enemy stones that keep their colour keep their lifelines: the flipped
//       stones never relayed a lifeline to them.
// Hence condition (2) never rejects a placement that satisfies (1) in such a
// position: the end-of-turn clause is redundant in play (docs/findings.md).
// tests/enfargar check it against the literal rules on every position of the
// exhaustive searches and along random games.
//
// Condition (1) under invariant A. If p is not a source it has a lifeline iff
// it sees a friendly stone whose component keeps a source once p is placed.
// p can only cut a source whose exit walk ends exactly at p's point (p then
// sits on the edge with nothing beyond it; otherwise p itself would be a
// source), so outside edge=touch the points where such a cut is possible are
// checked exactly: p's group must keep a stone that still walks off the board
// (usually a stone p sees does; otherwise the group is searched from p);
// everywhere else (1) is "p is a source or p sees a friendly stone".
//
// Positions set up by hand (tests) may break invariant A; all_alive() tells,
// and then every placement is evaluated literally (analyse).

namespace loom::enfargar {

std::vector<RuleSpec> Options::specs() {
  return {
      {"edge",
       {"gap", "touch"},
       "gap = a walk to the edge gives a lifeline only after at least one empty point; "
       "touch = a stone on the edge also has one from the direction leaving the board"},
      {"stall",
       {"unresolved", "more-stones"},
       "two passes in a row end the game: unresolved = no result (reported as such); "
       "more-stones = more stones wins, a tie goes against the player who placed last"},
  };
}

Options Options::from(const RuleSet& r) {
  Options o;
  o.touch = r.is("edge", "touch");
  o.more_stones = r.is("stall", "more-stones");
  return o;
}

template <int W>
Context<W>::Context(int side, Options o)
    : masks(HexMasks<W>::get(side)),
      opt(o),
      keys(zobrist_keys(0x656e6661726761ull /* "enfarga" */,
                        2 * HexGeometry::get(side).slots() + 4)),
      images(HexGeometry::get(side), keys, 2) {
  for (int d = 0; d < kNumDirs; ++d) edge_any |= masks.edge_in(d);
}

namespace {

/// One word: a doubling fill (Kogge-Stone). After the round of step k, f
/// holds the points from which some walk of at most 2k - 1 steps over
/// `pass` ends on the target, and p the points starting k points of `pass`
/// in a row; a shift of k steps is one shift of k times the direction's
/// step (a run of board points in a row never wraps in the padded layout).
/// The rounds stop once 2k - 1 covers the longest line; no branch on the
/// stones. kDown: the direction's delta is negative (W, SW, SE), so the
/// point k steps ahead of y is y - k |delta|; `step` is |delta|.
template <bool kDown>
uint64_t doubling_reach(uint64_t f, uint64_t p, int step, uint64_t valid, int longest) {
  // bit y set iff x holds the point sh bits ahead of y
  const auto ahead = [valid](uint64_t x, int sh) { return (kDown ? x << sh : x >> sh) & valid; };
  int sh = step;
  for (int k = 1;; k *= 2, sh *= 2) {
    f |= p & ahead(f, sh);
    if (2 * k - 1 >= longest) break;
    p &= ahead(p, sh);
  }
  return ahead(f, step);
}

/// Points x such that walking from x in direction d over points of `pass`
/// (zero or more) one arrives at a point of `target`. An occluded fill
/// backwards from the target, one step per iteration.
template <int W>
Bitboard<W> ray_reach(const HexMasks<W>& m, const Bitboard<W>& target, const Bitboard<W>& pass,
                      int d) {
  if constexpr (W == 1) {
    // The direction's sign chooses the shift once, not at every shift.
    const int delta = m.geo().delta(d);
    const uint64_t valid = m.valid().w[0];
    const int longest = 2 * m.geo().side() - 1;
    Bitboard<W> reach;
    reach.w[0] = delta > 0 ? doubling_reach<false>(target.w[0], pass.w[0], delta, valid, longest)
                           : doubling_reach<true>(target.w[0], pass.w[0], -delta, valid, longest);
    return reach;
  }
  const int back = opposite(d);
  Bitboard<W> reach = m.shift(target, back);
  Bitboard<W> front = reach & pass;
  while (front.any()) {
    Bitboard<W> next = m.shift(front, back).andnot(reach);
    reach |= next;
    front = next & pass;
  }
  return reach;
}

}  // namespace

template <int W>
Bitboard<W> State<W>::life_of(const BB& own, const BB& empty) const {
  const auto& m = ctx_->masks;
  // Walks may pass through friendly stones: a friendly stone on the way sees
  // the target itself, so it has a lifeline and relays it backwards.
  const BB pass = empty | own;
  BB life = ctx_->opt.touch ? own & ctx_->edge_any : BB{};
  for (;;) {
    BB before = life;
    for (int d = 0; d < kNumDirs; ++d) {
      BB target = life | (empty & m.edge_in(d));
      life |= own & ray_reach(m, target, pass, d);
      if (life == own) return life;
    }
    if (life == before) return life;
  }
}

template <int W>
Bitboard<W> State<W>::lifelines(Color c) const {
  return life_of(stones_[idx(c)], empty());
}

template <int W>
bool State<W>::compute_alive() const {
  BB e = empty();
  for (int c = 0; c < 2; ++c)
    if (life_of(stones_[c], e) != stones_[c]) return false;
  return true;
}

template <int W>
Placement<W> State<W>::analyse(int site) const {
  Placement<W> p;
  BB e = empty();
  if (!e.test(site)) return p;
  const BB& own = stones_[idx(to_move_)];
  const BB& opp = stones_[idx(other(to_move_))];
  BB me1 = own | BB::single(site);
  BB e1 = e.andnot(BB::single(site));
  p.lifeline = life_of(me1, e1).test(site);
  p.flips = opp.andnot(life_of(opp, e1));
  BB me2 = me1 | p.flips;
  p.all_alive = life_of(me2, e1) == me2;
  p.legal = p.lifeline && p.all_alive;
  return p;
}

template <int W>
Bitboard<W> State<W>::legal_sites_exact() const {
  BB legal;
  empty().for_each([&](int s) {
    if (analyse(s).legal) legal.set(s);
  });
  return legal;
}

template <int W>
bool State<W>::reaches_source(const BB& own, const BB& empty, const BB& seed,
                              const BB& sources) const {
  const auto& m = ctx_->masks;
  const BB pass = empty | own;
  BB group = seed, frontier = seed;
  for (;;) {
    BB found;
    for (int d = 0; d < kNumDirs; ++d) found |= ray_reach(m, frontier, pass, d);
    found = (found & own).andnot(group);
    if (found.intersects(sources)) return true;
    if (found.none()) return false;
    group |= found;
    frontier = found;
  }
}

template <int W>
Bitboard<W> State<W>::legal_sites_fast() const {
  const auto& m = ctx_->masks;
  const BB e = empty();
  const BB& own = stones_[idx(to_move_)];
  const bool touch = ctx_->opt.touch;
  BB source = touch ? e & ctx_->edge_any : BB{};
  std::array<BB, kNumDirs> sees_dir, exit_dir;
  BB sees;
  for (int d = 0; d < kNumDirs; ++d) {
    BB exits = ray_reach(m, e & m.edge_in(d), e, d);
    source |= exits;
    exit_dir[d] = exits & own;  // friendly stones that walk off the board in direction d
    sees_dir[d] = ray_reach(m, own, e, d);
    sees |= sees_dir[d];
  }
  BB legal = e & (source | sees);
  if (touch) return legal;
  // Points where the new stone would sit on the end of a friendly exit walk:
  // empty edge points x (off-board beyond x in direction d) that see a
  // friendly stone in the opposite direction. There the new stone's group
  // must be searched for a source that survives the placement.
  BB cut;
  for (int d = 0; d < kNumDirs; ++d) cut |= m.edge_in(d) & sees_dir[opposite(d)];
  const BB check = (e & cut & sees).andnot(source);
  const HexGeometry& g = geo();
  check.for_each([&](int x) {
    // Friendly sources once x is occupied: all but a stone whose only exit
    // walk ends at x.
    BB sources;
    for (int d = 0; d < kNumDirs; ++d) {
      BB s = exit_dir[d];
      if (m.edge_in(d).test(x)) {
        int t = g.neighbour(x, opposite(d));
        while (t >= 0 && e.test(t)) t = g.neighbour(t, opposite(d));
        if (t >= 0) s.reset(t);
      }
      sources |= s;
    }
    // Usually a stone x sees is such a source: look along the six directions.
    for (int d = 0; d < kNumDirs; ++d) {
      int t = g.neighbour(x, d);
      while (t >= 0 && e.test(t)) t = g.neighbour(t, d);
      if (t >= 0 && sources.test(t)) return;
    }
    // Otherwise search x's group on the board after placing.
    const BB bit = BB::single(x);
    if (!reaches_source(own, e.andnot(bit), bit, sources)) legal.reset(x);
  });
  return legal;
}

template <int W>
Bitboard<W> State<W>::legal_sites() const {
  if (is_terminal()) return BB{};
  return alive_ ? legal_sites_fast() : legal_sites_exact();
}

template <int W>
void State<W>::legal_moves(std::vector<Move>& out) const {
  out.clear();
  if (is_terminal()) return;
  BB legal = legal_sites();
  if (legal.none()) {
    out.push_back(Move{Move::kPass});
    return;
  }
  legal.for_each([&](int s) { out.push_back(Move{static_cast<int16_t>(s)}); });
}

template <int W>
int State<W>::placements_with_flips(FlipPlacement* out) const {
  const BB legal = legal_sites();
  if (legal.none()) return 0;
  const auto& m = ctx_->masks;
  const BB e = empty();
  const BB& opp = stones_[idx(other(to_move_))];
  // The points where a placement may flip something: the points of one
  // lifeline witness for each enemy stone. A stone that walks off the
  // board by itself in two directions (a straight walk over empty and
  // friendly points ending on an empty edge point) keeps a walk whatever
  // point is filled, since a point lies on at most one of a stone's six
  // walks; nor does one with two directions each reaching such a walk or
  // such a stone (below). Any other stone with one walk is witnessed by
  // it; the rest by the straight segment to a stone already witnessed. A
  // placement off every witness leaves every witness, hence every
  // lifeline, standing, and flips nothing; the others are searched
  // (life_of).
  BB risky = legal;
  if (!ctx_->opt.touch) {
    const BB pass = e | opp;
    BB one, two, witness;
    std::array<BB, kNumDirs> walk;
    for (int d = 0; d < kNumDirs; ++d) {
      walk[d] = opp & ray_reach(m, e & m.edge_in(d), pass, d);
      two |= one & walk[d];
      one |= walk[d];
    }
    // Robust: two directions, each a walk or a straight segment to a
    // robust stone (no one point cuts both).
    BB robust = two;
    for (;;) {
      BB r1, r2;
      for (int d = 0; d < kNumDirs; ++d) {
        const BB r = opp & ray_reach(m, robust | (e & m.edge_in(d)), pass, d);
        r2 |= r1 & r;
        r1 |= r;
      }
      if (r2 == robust) break;
      robust = r2;
    }
    const BB single = one.andnot(robust);
    for (int d = 0; d < kNumDirs; ++d)
      for (BB f = m.shift(single & walk[d], d) & pass; f.any(); f = m.shift(f, d) & pass)
        witness |= f;
    BB alive = one | robust, left = opp.andnot(alive);
    while (left.any()) {
      const BB before = left;
      for (int d = 0; d < kNumDirs && left.any(); ++d) {
        const BB now = left & ray_reach(m, alive, pass, d);
        if (now.none()) continue;
        // The segment from each to the first witnessed stone ahead.
        for (BB f = m.shift(now, d) & pass; f.any(); f = m.shift(f.andnot(alive), d) & pass)
          witness |= f;
        alive |= now;
        left = left.andnot(now);
      }
      if (left == before) break;  // stones without a lifeline: search every point
    }
    if (left.none()) risky = legal & witness;
  }
  int n = 0;
  legal.for_each([&](int x) {
    FlipPlacement& p = out[n++];
    p.site = static_cast<int16_t>(x);
    p.flips = risky.test(x) ? opp.andnot(life_of(opp, e.andnot(BB::single(x)))) : BB{};
  });
  return n;
}

template <int W>
uint64_t State<W>::count_legal_moves() const {
  if (is_terminal()) return 0;
  int n = legal_sites().count();
  return n == 0 ? 1 : static_cast<uint64_t>(n);
}

template <int W>
void State<W>::flip_hash(const BB& flips) {
  flips.for_each([&](int s) { hash_ ^= ctx_->flip_key(s); });
}

template <int W>
void State<W>::apply(const Move& mv, Undo& u) {
  u.hash = hash_;
  u.passes = passes_;
  u.wiped = wiped_;
  u.alive = alive_;
  u.flips = BB{};
  Color me = to_move_, them = other(me);
  if (passes_ > 0) hash_ ^= ctx_->pass_key(passes_);
  if (mv.is_pass()) {
    ++passes_;
    hash_ ^= ctx_->pass_key(passes_);
  } else {
    passes_ = 0;
    BB bit = BB::single(mv.site);
    BB& own = stones_[idx(me)];
    BB& opp = stones_[idx(them)];
    const bool had_enemy = opp.any();
    own |= bit;
    hash_ ^= ctx_->key(mv.site, me);
    BB e = empty();
    BB flips = opp.andnot(life_of(opp, e));
    if (flips.any()) {
      opp = opp.andnot(flips);
      own |= flips;
      flip_hash(flips);
      u.flips = flips;
    }
    if (had_enemy && opp.none()) {
      wiped_ = true;
      hash_ ^= ctx_->wiped_key();
    }
    // Invariant A carries over a legal placement (see the top of this file);
    // a hand-made position is re-examined.
    if (!alive_) alive_ = compute_alive();
  }
  to_move_ = them;
  hash_ ^= ctx_->side_key();
}

template <int W>
void State<W>::undo(const Move& mv, const Undo& u) {
  Color me = other(to_move_);
  if (!mv.is_pass()) {
    stones_[idx(me)].reset(mv.site);
    stones_[idx(me)] = stones_[idx(me)].andnot(u.flips);
    stones_[idx(to_move_)] |= u.flips;
  }
  to_move_ = me;
  passes_ = u.passes;
  wiped_ = u.wiped;
  alive_ = u.alive;
  hash_ = u.hash;
}

template <int W>
Outcome State<W>::outcome() const {
  if (wiped_) return Outcome::win(other(to_move_));
  if (passes_ < 2) return Outcome{};
  if (!ctx_->opt.more_stones) return Outcome{Outcome::Kind::kUnresolved};
  int b = stones_[idx(Color::kBlack)].count(), w = stones_[idx(Color::kWhite)].count();
  if (b != w) return Outcome::win(b > w ? Color::kBlack : Color::kWhite);
  // Tie: against the player who placed last, the one who passed last.
  return Outcome::win(to_move_);
}

template <int W>
std::optional<typename State<W>::Move> State<W>::parse_move(std::string_view token) const {
  if (token == "pass") return Move{Move::kPass};
  auto s = geo().parse(token);
  if (!s) return std::nullopt;
  return Move{static_cast<int16_t>(*s)};
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
  if (passes_ > 2) return "more than two consecutive passes";
  if (wiped_ && passes_ != 0) return "annihilation flag after a pass";
  if (wiped_ && (stones_[idx(to_move_)].any() || stones_[idx(other(to_move_))].none()))
    return "annihilation flag but the loser has stones or the winner none";
  if (alive_ != compute_alive()) return "cached all_alive differs from the lifelines";
  if (hash_ != recompute_hash()) return "incremental hash differs from recomputed hash";
  return "";
}

template <int W>
uint64_t State<W>::status_hash() const {
  uint64_t h = to_move_ == Color::kWhite ? ctx_->side_key() : 0;
  if (passes_ > 0) h ^= ctx_->pass_key(passes_);
  if (wiped_) h ^= ctx_->wiped_key();
  return h;
}

template <int W>
uint64_t State<W>::transformed_hash(int k) const {
  // The stones' keys move with the map; the status keys stay.
  const HexGeometry& g = geo();
  uint64_t h = status_hash();
  for (Color c : {Color::kBlack, Color::kWhite})
    stones_[idx(c)].for_each([&](int s) { h ^= ctx_->key(g.map_site(k, s), c); });
  return h;
}

template <int W>
void State<W>::transformed_hashes(ImageKeys::Hashes& out) const {
  out.fill(status_hash());
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
void State<W>::put(int site, Color c) {
  for (Color x : {Color::kBlack, Color::kWhite})
    if (stones_[idx(x)].test(site)) {
      stones_[idx(x)].reset(site);
      hash_ ^= ctx_->key(site, x);
    }
  stones_[idx(c)].set(site);
  hash_ ^= ctx_->key(site, c);
  alive_ = compute_alive();
}

template <int W>
void State<W>::set_stones(const BB& black, const BB& white) {
  stones_[idx(Color::kBlack)] = black;
  stones_[idx(Color::kWhite)] = white;
  wiped_ = false;
  alive_ = compute_alive();
  hash_ = recompute_hash();
}

template <int W>
void State<W>::set_to_move(Color c) {
  if (c != to_move_) hash_ ^= ctx_->side_key();
  to_move_ = c;
}

template <int W>
std::string render(const State<W>& s) {
  const Bitboard<W> life_b = s.lifelines(Color::kBlack), life_w = s.lifelines(Color::kWhite);
  std::string out = hex_diagram(s.geo(), [&](int site) {
    if (s.stones(Color::kBlack).test(site)) return life_b.test(site) ? 'X' : 'x';
    if (s.stones(Color::kWhite).test(site)) return life_w.test(site) ? 'O' : 'o';
    return '.';
  });
  const int nb = s.stones(Color::kBlack).count(), nw = s.stones(Color::kWhite).count();
  out += "X = black (" + std::to_string(nb) + " stones), O = white (" + std::to_string(nw) +
         " stones)\n";
  const int lifeless = nb + nw - life_b.count() - life_w.count();
  if (lifeless > 0)
    out += "x, o = stones without a lifeline (" + std::to_string(lifeless) + ")\n";
  else
    out += "every stone has a lifeline\n";
  const Outcome o = s.outcome();
  const std::string mover = color_name(s.to_move());
  if (o.ongoing()) {
    const int n = s.legal_sites().count();
    out += mover + " to move, " +
           (n > 0 ? std::to_string(n) + " legal placements"
                  : std::string("no legal placement: must pass"));
    if (s.passes() == 1)
      out += " (" + std::string(color_name(other(s.to_move()))) + " has just passed)";
    out += "\n";
  } else if (s.passes() < 2) {
    out += std::string("game over: ") + color_name(other(s.to_move())) +
           " flipped the last enemy stone and wins\n";
  } else if (o.kind == Outcome::Kind::kUnresolved) {
    out += "game over: two passes in a row, unresolved (the rules give no result)\n";
  } else {
    out += std::string("game over: two passes in a row, ") +
           (o.kind == Outcome::Kind::kBlackWins ? "black" : "white") + " wins on stones (" +
           std::to_string(nb) + "-" + std::to_string(nw) +
           (nb == nw ? ", tie against the last placer" : "") + ")\n";
  }
  return out;
}

template struct Context<1>;
template struct Context<3>;
template struct Context<5>;
template struct Context<10>;
template class State<1>;
template class State<3>;
template class State<5>;
template class State<10>;
template std::string render(const State<1>&);
template std::string render(const State<3>&);
template std::string render(const State<5>&);
template std::string render(const State<10>&);

}  // namespace loom::enfargar
