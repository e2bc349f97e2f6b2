#include "model/fiodar/fiodar.h"

#include <algorithm>

namespace loom::fiodar {

std::vector<RuleSpec> Options::specs() {
  return {
      {"cut",
       {"adjacent", "gap"},
       "adjacent = a thread is cut by enemy stones directly beyond both ends; "
       "gap = empty points may lie between a thread end and its cutter"},
      {"suicide",
       {"forbidden", "capture-first"},
       "forbidden = a placement may not leave a friendly weave cut; "
       "capture-first = it may if it removed at least one enemy weave"},
      {"half",
       {"final-pass", "first-pass-of-game"},
       "the half point goes to: final-pass = the player who made the first of the two final "
       "passes; first-pass-of-game = the first player who passed at all"},
  };
}

Options Options::from(const RuleSet& r) {
  Options o;
  o.cut_gap = r.is("cut", "gap");
  o.capture_first = r.is("suicide", "capture-first");
  o.half_first_of_game = r.is("half", "first-pass-of-game");
  return o;
}

namespace {

/// f together with every point reached from it by stepping in direction `dir`
/// while staying inside `within` (a fill along one line direction).
template <int W>
Bitboard<W> spread(const HexMasks<W>& m, Bitboard<W> f, const Bitboard<W>& within, int dir) {
  Bitboard<W> acc = f;
  while (f.any()) {
    f = within & m.shift(f, dir);
    acc |= f;
  }
  return acc;
}

/// Points of `within` from which walking in direction d over points of
/// `within` first leaves `within` at a point of `target` (within and target
/// disjoint). Off-board is never in target: the edge never counts.
template <int W>
Bitboard<W> run_to(const HexMasks<W>& m, const Bitboard<W>& within, const Bitboard<W>& target,
                   int d) {
  const int back = opposite(d);
  return spread(m, within & m.shift(target, back), within, back);
}

/// Line analysis of the stones S of one colour against the stones E of the
/// other, per direction d:
///   run[d]: stones of S whose run along d is followed by a cutter (an E
///           stone right beyond it, or, under cut=gap, the first stone met
///           beyond it over empty points is an E stone);
///   gap[d]: (cut=gap) empty points whose walk along d over empty points
///           first meets an E stone.
/// cut: stones of S on a cut thread (run[l] and run[l+3] for some line l).
template <int W>
struct Lines {
  std::array<Bitboard<W>, 6> run;
  std::array<Bitboard<W>, 6> gap;
  Bitboard<W> cut;

  Lines(const HexMasks<W>& m, const Bitboard<W>& s, const Bitboard<W>& e, const Bitboard<W>& empty,
        bool use_gap) {
    for (int d = 0; d < 6; ++d) {
      if (use_gap) {
        gap[d] = run_to(m, empty, e, d);
        run[d] = run_to(m, s, e | gap[d], d);
      } else {
        run[d] = run_to(m, s, e, d);
      }
    }
    for (int l = 0; l < 3; ++l) cut |= run[l] & run[l + 3];
  }
};

}  // namespace

template <int W>
State<W>::State(const Context<W>* ctx) : ctx_(ctx) {
  // Reserved so that apply() does not allocate in ordinary games; longer
  // games grow the vectors (amortised).
  for (auto& h : history_) h.reserve(64);
  board_hash_ = board_hash_of(stones_);
}

template <int W>
bool State<W>::operator==(const State& o) const {
  if (!ctx_->same_game(*o.ctx_) || stones_ != o.stones_ || to_move_ != o.to_move_ ||
      passes_ != o.passes_ || prisoners_ != o.prisoners_)
    return false;
  if (ctx_->opt.half_first_of_game && first_passer_ != o.first_passer_) return false;
  for (int c = 0; c < 2; ++c) {
    if (history_[c].size() != o.history_[c].size() || hist_sum_[c] != o.hist_sum_[c]) return false;
    for (const auto& e : history_[c])
      if (!o.in_history(static_cast<Color>(c), e.hash, e.board)) return false;
  }
  return true;
}

template <int W>
bool State<W>::in_history(Color c, uint64_t h, const Board<W>& b) const {
  for (const auto& e : history_[idx(c)])
    if (e.hash == h && e.board == b) return true;
  return false;
}

template <int W>
uint64_t State<W>::board_hash_of(const Board<W>& b) const {
  uint64_t h = 0;
  for (Color c : {Color::kBlack, Color::kWhite})
    b[idx(c)].for_each([&](int s) { h ^= ctx_->key(s, c); });
  return h;
}

template <int W>
Bitboard<W> State<W>::cutmask(const BB& s, const BB& e, const BB& empty) const {
  return Lines<W>(ctx_->masks, s, e, empty, ctx_->opt.cut_gap).cut;
}

template <int W>
Bitboard<W> State<W>::weaves_within(const BB& s, const BB& cut) const {
  const auto& m = ctx_->masks;
  BB c = s & cut;
  if (c.none()) return {};
  BB touched = m.flood(c, s);  // the weaves holding at least one cut stone
  BB alive = m.flood(touched.andnot(cut), touched);
  return touched.andnot(alive);
}

template <int W>
Bitboard<W> State<W>::cut_stones(Color c) const {
  return cutmask(stones_[idx(c)], stones_[idx(other(c))], empty());
}

template <int W>
Bitboard<W> State<W>::cut_weaves(Color c) const {
  return weaves_within(stones_[idx(c)], cut_stones(c));
}

template <int W>
Placement<W> State<W>::analyse(int c) const {
  const auto& m = ctx_->masks;
  const Color me = to_move_, op = other(me);
  Placement<W> p;
  BB mine = stones_[idx(me)] | BB::single(c);
  BB theirs = stones_[idx(op)];
  BB emp = m.valid().andnot(mine | theirs);
  // All cut enemy weaves, judged right after the placement, go together.
  p.removed = weaves_within(theirs, cutmask(theirs, mine, emp));
  theirs = theirs.andnot(p.removed);
  emp |= p.removed;
  // The suicide check looks at every friendly weave after the removals.
  p.friendly_cut = weaves_within(mine, cutmask(mine, theirs, emp));
  p.suicide = p.friendly_cut.any() && !(ctx_->opt.capture_first && p.removed.any());
  p.result[idx(me)] = mine;
  p.result[idx(op)] = theirs;
  uint64_t h = board_hash_ ^ ctx_->key(c, me);
  p.removed.for_each([&](int s) { h ^= ctx_->key(s, op); });
  p.result_hash = h;
  p.superko = in_history(me, h, p.result);
  p.legal = !p.suicide && !p.superko;
  return p;
}

template <int W>
Bitboard<W> State<W>::legal_sites() const {
  BB legal;
  if (is_terminal()) return legal;
  const auto& m = ctx_->masks;
  const bool gap = ctx_->opt.cut_gap;
  const Color me = to_move_, op = other(me);
  const BB& mine = stones_[idx(me)];
  const BB& theirs = stones_[idx(op)];
  const BB emp = empty();
  Lines<W> lo(m, theirs, mine, emp, gap);  // enemy threads against my stones
  Lines<W> lm(m, mine, theirs, emp, gap);  // my threads against enemy stones
  if (weaves_within(theirs, lo.cut).any() || weaves_within(mine, lm.cut).any()) {
    // A weave is cut already (left by capture-first, or uncovered by a removal
    // under cut=gap): every placement changes the picture; evaluate each.
    emp.for_each([&](int s) {
      if (analyse(s).legal) legal.set(s);
    });
    return legal;
  }
  // No weave is cut now. A placement on s then removes nothing unless it
  // completes the cut of an enemy thread (s beyond one end, or in the gap
  // there, the other end already cut), and can leave a friendly weave cut only
  // if s itself lies on a cut thread (other friendly weaves keep their
  // threads and cutters, or, under cut=gap, can only lose cutters).
  //
  // "Half-cut" stones: on a thread cut at one end whose other end is an empty
  // point, so one placement there cuts the thread. A weave can be cut by one
  // placement only if each of its stones is cut or half-cut; weaves that
  // cannot are ignored (their uncut stones stay uncut).
  auto half_cut = [&](const Lines<W>& ln, const BB& own) {
    BB h;
    for (int d = 0; d < 6; ++d) {
      const int back = opposite(d);
      // Run ends whose neighbour on the back side is empty, then their runs.
      BB tips = ln.run[d].andnot(ln.run[back]) & m.shift(emp, d);
      h |= spread(m, tips, own, d);
    }
    return h;
  };
  const BB enemy_doomable = weaves_within(theirs, lo.cut | half_cut(lo, theirs));
  BB capture;                     // points whose placement may remove an enemy weave
  std::array<BB, 6> capture_dir;  // ... by cutting a thread met looking along d
  if (enemy_doomable.any()) {
    for (int d = 0; d < 6; ++d) {
      const int back = opposite(d);
      BB ends = emp & m.shift((lo.run[d] & enemy_doomable).andnot(lo.run[back]), back);
      capture_dir[d] = gap ? spread(m, ends, emp, back) : ends;
      capture |= capture_dir[d];
    }
  }
  BB on_cut;  // points where a stone of mine would lie on a cut thread
  for (int l = 0; l < 3; ++l) {
    BB fwd = theirs | lm.run[l], bwd = theirs | lm.run[l + 3];
    if (gap) {
      fwd |= lm.gap[l];
      bwd |= lm.gap[l + 3];
    }
    on_cut |= m.shift(fwd, opposite(l)) & m.shift(bwd, l);
  }
  on_cut &= emp;
  // On a cut thread: a lone stone is suicide; a stone joining a weave that
  // can never be entirely cut is safe; anything else is evaluated in full.
  const BB mine_doomable = weaves_within(mine, lm.cut | half_cut(lm, mine));
  const BB touch_any = m.dilate(mine);
  const BB touch_safe = m.dilate(mine.andnot(mine_doomable));
  const BB on_cut_safe = on_cut & touch_safe;
  const BB on_cut_lone = on_cut.andnot(touch_any);
  legal = emp.andnot(capture | on_cut) | on_cut_safe.andnot(capture);
  // Superko for the placements that remove nothing: the result is `mine + s`,
  // `theirs`, so only history boards with exactly those enemy stones matter.
  for (const auto& e : history_[idx(me)]) {
    if (e.board[idx(op)] != theirs) continue;
    BB x = e.board[idx(me)] ^ mine;
    if (x.count() == 1 && !x.intersects(mine)) legal = legal.andnot(x);
  }
  // Points that may remove enemy weaves: find the removal. The enemy threads
  // newly cut are the runs met first from s along each direction whose far
  // end is already cut. Without a removal the cases above apply; with one, a
  // stone on no cut thread is safe (a removal only takes cutters away).
  capture.for_each([&](int s) {
    const BB sbit = BB::single(s);
    BB newly;
    for (int d = 0; d < 6; ++d) {
      if (!capture_dir[d].test(s)) continue;
      BB first = m.shift(sbit, d);
      if (gap) first = m.shift(spread(m, first & emp, emp, d) | sbit, d).andnot(emp);
      BB tip = first & lo.run[d];  // lo.run[d] holds enemy stones only
      if (tip.any()) newly |= spread(m, tip, theirs, d);
    }
    // No enemy weave is cut now: only weaves holding a newly cut stone can go.
    BB removed;
    if (newly.any()) {
      const BB touched = m.flood(newly, theirs);
      removed = touched.andnot(m.flood(touched.andnot(lo.cut | newly), touched));
    }
    if (on_cut.test(s)) {
      if (removed.any() || !(on_cut_safe.test(s) || on_cut_lone.test(s))) {
        if (analyse(s).legal) legal.set(s);
        return;
      }
      if (on_cut_lone.test(s)) return;  // suicide
    }
    Board<W> result;
    result[idx(me)] = mine | sbit;
    result[idx(op)] = theirs.andnot(removed);
    uint64_t h = board_hash_ ^ ctx_->key(s, me);
    removed.for_each([&](int x) { h ^= ctx_->key(x, op); });
    if (!in_history(me, h, result)) legal.set(s);
  });
  const BB full = on_cut.andnot(capture | on_cut_safe | on_cut_lone);
  full.for_each([&](int s) {
    if (analyse(s).legal) legal.set(s);
  });
  return legal;
}

template <int W>
bool State<W>::superko_refuses() const {
  const Color me = to_move_, op = other(me);
  if (is_terminal() || prisoners_[idx(op)] == 0) return false;  // see for_each_above
  const BB& mine = stones_[idx(me)];
  const BB& theirs = stones_[idx(op)];
  const BB emp = empty();
  // A candidate board holds my stones plus one empty point (the placement
  // that could give it) and a subset of the enemy's stones.
  for (const auto& e : history_[idx(me)]) {
    const BB extra = e.board[idx(me)].andnot(mine);
    if (extra.count() != 1 || mine.andnot(e.board[idx(me)]).any() ||
        e.board[idx(op)].andnot(theirs).any() || !extra.intersects(emp))
      continue;
    const Placement<W> p = analyse(extra.lowest());
    if (p.superko && !p.suicide) return true;
  }
  return false;
}

template <int W>
void State<W>::legal_moves(std::vector<Move>& out) const {
  out.clear();
  if (is_terminal()) return;
  out.push_back(Move::pass());
  legal_sites().for_each([&](int s) { out.push_back(Move{static_cast<int16_t>(s)}); });
}

template <int W>
uint64_t State<W>::entry_mix(uint64_t h) const {
  uint64_t x = h ^ ctx_->extra(8);
  return splitmix64(x);
}

template <int W>
void State<W>::push_history(Color c, uint64_t h) {
  history_[idx(c)].push_back(HistoryEntry<W>{h, stones_});
  hist_sum_[idx(c)] += entry_mix(h);
}

template <int W>
void State<W>::apply(const Move& mv, Undo& u) {
  const Color me = to_move_, op = other(me);
  u.board_hash = board_hash_;
  u.passes = passes_;
  u.first_passer = first_passer_;
  if (mv.is_pass()) {
    u.removed = BB{};
    if (first_passer_ < 0) first_passer_ = static_cast<int8_t>(idx(me));
    ++passes_;
    // A pass ends a turn too: its board joins the passer's history (once).
    u.pushed = !in_history(me, board_hash_, stones_);
    if (u.pushed) push_history(me, board_hash_);
  } else {
    Placement<W> p = analyse(mv.site);
    u.removed = p.removed;
    u.pushed = true;
    stones_ = p.result;
    board_hash_ = p.result_hash;
    prisoners_[idx(me)] += p.removed.count();
    passes_ = 0;
    push_history(me, board_hash_);
  }
  to_move_ = op;
}

template <int W>
void State<W>::undo(const Move& mv, const Undo& u) {
  const Color me = other(to_move_), op = to_move_;
  if (u.pushed) {
    hist_sum_[idx(me)] -= entry_mix(history_[idx(me)].back().hash);
    history_[idx(me)].pop_back();
  }
  if (!mv.is_pass()) {
    stones_[idx(me)].reset(mv.site);
    stones_[idx(op)] |= u.removed;
    prisoners_[idx(me)] -= u.removed.count();
  }
  passes_ = u.passes;
  first_passer_ = u.first_passer;
  board_hash_ = u.board_hash;
  to_move_ = me;
}

namespace {
uint64_t mix(uint64_t x) {
  return splitmix64(x);
}
}  // namespace

template <int W>
uint64_t State<W>::hash() const {
  return compose_hash(board_hash_, hist_sum_);
}

template <int W>
uint64_t State<W>::transformed_hash(int k) const {
  const auto& m = ctx_->masks;
  Board<W> b{m.map(k, stones_[0]), m.map(k, stones_[1])};
  std::array<uint64_t, 2> sums{};
  for (int c = 0; c < 2; ++c)
    for (const auto& e : history_[c])
      sums[c] += entry_mix(board_hash_of({m.map(k, e.board[0]), m.map(k, e.board[1])}));
  return compose_hash(board_hash_of(b), sums);
}

template <int W>
uint64_t State<W>::compose_hash(uint64_t board_hash, const std::array<uint64_t, 2>& sums) const {
  uint64_t h = board_hash;
  if (to_move_ == Color::kWhite) h ^= ctx_->extra(0);
  if (passes_ > 0) h ^= ctx_->extra(passes_);
  if (first_passer_ >= 0 && ctx_->opt.half_first_of_game) h ^= ctx_->extra(3 + first_passer_);
  h ^= mix(sums[0] ^ ctx_->extra(5));
  h ^= mix(sums[1] ^ ctx_->extra(6));
  uint64_t pr = (static_cast<uint64_t>(static_cast<uint32_t>(prisoners_[0])) << 32) |
                static_cast<uint32_t>(prisoners_[1]);
  h ^= mix(pr ^ ctx_->extra(7));
  return h;
}

template <int W>
uint64_t State<W>::recompute_hash() const {
  State t = *this;
  t.board_hash_ = board_hash_of(stones_);
  for (int c = 0; c < 2; ++c) {
    t.hist_sum_[c] = 0;
    for (auto& e : t.history_[c]) t.hist_sum_[c] += entry_mix(board_hash_of(e.board));
  }
  return t.hash();
}

template <int W>
int State<W>::territory(Color c) const {
  const auto& m = ctx_->masks;
  int total = 0;
  BB todo = empty();
  while (todo.any()) {
    BB region = m.flood(todo.lowest_bit(), todo);
    todo = todo.andnot(region);
    BB rim = m.rim(region);
    // Owned: touches at least one stone and every stone it touches is c's.
    if (rim.intersects(stones_[idx(c)]) && !rim.intersects(stones_[idx(other(c))]))
      total += region.count();
  }
  return total;
}

template <int W>
std::optional<Color> State<W>::half_point_holder() const {
  if (ctx_->opt.half_first_of_game) return first_passer();
  // The first of the two final passes was made by the player now to move.
  if (is_terminal()) return to_move_;
  return std::nullopt;
}

template <int W>
std::array<Score, 2> State<W>::scores() const {
  std::array<Score, 2> s;
  auto half = half_point_holder();
  for (Color c : {Color::kBlack, Color::kWhite}) {
    s[idx(c)].territory = territory(c);
    s[idx(c)].prisoners = prisoners_[idx(c)];
    s[idx(c)].half = half && *half == c;
  }
  return s;
}

template <int W>
Outcome State<W>::outcome() const {
  if (!is_terminal()) return {};
  auto s = scores();
  Outcome o;
  o.margin2 = s[0].total2() - s[1].total2();  // odd: exactly one half point
  o.kind = o.margin2 > 0 ? Outcome::Kind::kBlackWins : Outcome::Kind::kWhiteWins;
  return o;
}

template <int W>
std::optional<typename State<W>::Move> State<W>::parse_move(std::string_view token) const {
  if (token == "pass") return Move::pass();
  auto s = geo().parse(token);
  if (!s) return std::nullopt;
  return Move{static_cast<int16_t>(*s)};
}

template <int W>
std::string State<W>::check_invariants() const {
  const BB& valid = ctx_->masks.valid();
  auto board_ok = [&](const Board<W>& b) {
    return !b[0].intersects(b[1]) && (b[0] | b[1]).andnot(valid).none();
  };
  if (!board_ok(stones_)) return "a site holds both colours or a stone lies off the board";
  if (board_hash_ != board_hash_of(stones_)) return "board hash differs from the stones";
  if (hash() != recompute_hash()) return "incremental hash differs from recomputed hash";
  if (passes_ > 2) return "more than two consecutive passes";
  if (passes_ > 0 && first_passer_ < 0) return "a pass was made but no first passer is recorded";
  if (prisoners_[0] < 0 || prisoners_[1] < 0) return "negative prisoner count";
  for (int c = 0; c < 2; ++c) {
    const auto& h = history_[c];
    for (size_t i = 0; i < h.size(); ++i) {
      if (!board_ok(h[i].board)) return "a history board is inconsistent";
      if (h[i].hash != board_hash_of(h[i].board)) return "a history hash differs from its board";
      for (size_t j = 0; j < i; ++j)
        if (h[j].board == h[i].board) return "a board appears twice in one history";
    }
  }
  return "";
}

template <int W>
State<W> State<W>::transformed(int k) const {
  const auto& m = ctx_->masks;
  State t = *this;
  for (int c = 0; c < 2; ++c) t.stones_[c] = m.map(k, stones_[c]);
  t.board_hash_ = t.board_hash_of(t.stones_);
  for (int c = 0; c < 2; ++c) {
    t.hist_sum_[c] = 0;
    for (auto& e : t.history_[c]) {
      for (int x = 0; x < 2; ++x) e.board[x] = m.map(k, e.board[x]);
      e.hash = t.board_hash_of(e.board);
      t.hist_sum_[c] += t.entry_mix(e.hash);
    }
  }
  return t;
}

template <int W>
void State<W>::remove(int site) {
  for (Color x : {Color::kBlack, Color::kWhite})
    if (stones_[idx(x)].test(site)) {
      stones_[idx(x)].reset(site);
      board_hash_ ^= ctx_->key(site, x);
    }
}

template <int W>
void State<W>::put(int site, Color c) {
  remove(site);
  stones_[idx(c)].set(site);
  board_hash_ ^= ctx_->key(site, c);
}

template <int W>
void State<W>::set_to_move(Color c) {
  to_move_ = c;
}

template class State<1>;
template class State<3>;
template class State<5>;
template class State<10>;

}  // namespace loom::fiodar
