#include "model/migong/migong.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "model/common/errors.h"

namespace loom::migong {

namespace {

constexpr std::array<uint64_t, 4096> build_match() {
  std::array<uint64_t, 4096> t{};
  for (int mask = 0; mask < 64; ++mask)
    for (int value = 0; value < 64; ++value)
      for (int p = 0; p < 64; ++p)
        if ((p & mask) == value) t[mask << 6 | value] |= uint64_t{1} << p;
  return t;
}

}  // namespace

constinit const std::array<uint64_t, 4096> kMatch = build_match();

std::string pattern_name(int p) {
  std::string out(6, 'Y');
  for (int i = 0; i < 6; ++i)
    if ((p >> i) & 1) out[i] = 'B';
  return out;
}

std::optional<int> parse_pattern(std::string_view t) {
  if (t.size() != 6) return std::nullopt;
  int p = 0;
  for (int i = 0; i < 6; ++i) {
    if (t[i] == 'B')
      p |= 1 << i;
    else if (t[i] != 'Y')
      return std::nullopt;
  }
  return p;
}

namespace {

/// map_pattern for every symmetry and pattern.
struct PatternMaps {
  std::array<std::array<uint8_t, 64>, kNumSymmetries> map{};
  PatternMaps() {
    for (int k = 0; k < kNumSymmetries; ++k)
      for (int p = 0; p < 64; ++p) {
        int out = 0;
        for (int i = 0; i < 6; ++i)
          if ((p >> i) & 1) out |= 1 << HexGeometry::map_dir(k, i);
        map[k][p] = static_cast<uint8_t>(out);
      }
  }
};
const PatternMaps& pattern_maps() {
  static const PatternMaps maps;
  return maps;
}

}  // namespace

int map_pattern(int k, int p) {
  return pattern_maps().map[k][p];
}

std::vector<RuleSpec> Options::specs() {
  return {
      {"measure",
       {"extent", "wedges"},
       "how a group is measured for the score: extent = the number of distinct pieces with a "
       "wedge in it; wedges = its number of wedges"},
      {"pie",
       {"off", "on"},
       "on = on Yellow's first turn the token `swap` exchanges the players' colours instead of "
       "a placement (plain records have no pie decisions, hence off by default)"},
  };
}

Options Options::from(const RuleSet& r) {
  Options o;
  o.wedges = r.is("measure", "wedges");
  o.pie = r.is("pie", "on");
  return o;
}

// ---------------------------------------------------------------- Context

template <int W>
struct Context<W>::Family {
  std::vector<std::unique_ptr<Context>> members;
};

template <int W>
Context<W>::Context(int side, Options o, EdgeColouring edges)
    : masks_(&HexMasks<W>::get(side)), opt_(o), edges_(std::move(edges)) {
  const HexGeometry& g = masks_->geo();
  const int centre = g.centre();
  cells_ = masks_->valid();
  cells_.reset(centre);
  num_cells_ = cells_.count();
  nb_.assign(static_cast<size_t>(kSlots) * 6, -1);
  for (int s : g.sites()) {
    if (s == centre) continue;
    for (int d = 0; d < 6; ++d) {
      int t = g.neighbour(s, d);
      if (t >= 0 && t != centre) nb_[s * 6 + d] = static_cast<int16_t>(t);
    }
    int mask = edges_.edge_mask(s), value = edges_.blue_mask(s) & mask;
    cons0_[s] = static_cast<uint16_t>(mask << 6 | value);
  }
  for (int c = 0; c < 16; ++c) status_keys_[c] = mix(0x737461747573ull /* "status" */ + c);
  // The pieces' keys depend on nothing but W: made once, shared.
  static const std::vector<uint64_t> keys = [] {
    std::vector<uint64_t> k(static_cast<size_t>(kSlots) * 2 * 64);
    for (size_t x = 0; x < k.size(); ++x) k[x] = mix(x ^ 0x6d69676f6e67ull /* "migong" */);
    return k;
  }();
  keys_ = &keys;
  salt_ = mix(edges_.digest() ^ (opt_.wedges ? 0x10 : 0) ^ (opt_.pie ? 0x20 : 0));
}

template <int W>
std::shared_ptr<const Context<W>> Context<W>::make(int side, Options o,
                                                   const EdgeColouring& edges) {
  if (edges.side() != side)
    throw InputError("edge colouring is for side " + std::to_string(edges.side()) +
                     ", the board has side " + std::to_string(side));
  auto fam = std::make_shared<Family>();
  std::array<int, kNumSymmetries> member_of{};
  std::vector<int> frame;  // frame[j]: a symmetry mapping the base colouring to member j's
  for (int k = 0; k < kNumSymmetries; ++k) {
    EdgeColouring e = edges.mapped(k);
    int j = 0;
    while (j < static_cast<int>(fam->members.size()) && !(fam->members[j]->edges_ == e)) ++j;
    if (j == static_cast<int>(fam->members.size())) {
      fam->members.emplace_back(new Context(side, o, std::move(e)));
      frame.push_back(k);
    }
    member_of[k] = j;
  }
  // Member j is the base mapped by frame[j]; mapping it further by k gives
  // the base mapped by "frame[j], then k".
  for (size_t j = 0; j < fam->members.size(); ++j)
    for (int k = 0; k < kNumSymmetries; ++k)
      fam->members[j]->images_[k] =
          fam->members[member_of[HexGeometry::compose(frame[j], k)]].get();
  const Context* base = fam->members[0].get();
  return std::shared_ptr<const Context>(fam, base);
}

// ---------------------------------------------------------------- State

template <int W>
State<W>::State(const Context<W>* ctx) : ctx_{ctx}, cons_(ctx->edge_constraints()) {
  hash_ = recompute_hash();
}

template <int W>
bool State<W>::swap_available() const {
  return ctx_->options().pie && !swapped_ && to_move_ == Color::kWhite && passes_ == 0 &&
         num_pieces() == 1;
}

template <int W>
uint64_t State<W>::status_hash() const {
  uint64_t h = ctx_->salt();
  if (to_move_ == Color::kWhite) h ^= ctx_->status_key(1);
  if (swapped_) h ^= ctx_->status_key(2);
  h ^= ctx_->status_key(4 + passes_);
  h ^= ctx_->status_key(8 + last_placer_);
  return h;
}

template <int W>
uint64_t State<W>::recompute_hash() const {
  return transformed_hash(0);  // the identity
}

template <int W>
void State<W>::place(int s, Color owner, int p) {
  pattern_[s] = static_cast<uint8_t>(p);
  placed_[idx(owner)].set(s);
  used_[idx(owner)] |= uint64_t{1} << p;
  hash_ ^= ctx_->key(s, owner, p);
  for (int d = 0; d < 6; ++d) {
    int t = ctx_->cell_neighbour(s, d);
    if (t < 0) continue;
    int e = opposite(d);
    cons_[t] |= static_cast<uint16_t>((1 << (6 + e)) | (((p >> d) & 1) << e));
  }
}

template <int W>
void State<W>::remove(int s) {
  Color owner = placed_[0].test(s) ? Color::kBlack : Color::kWhite;
  int p = pattern_[s];
  hash_ ^= ctx_->key(s, owner, p);
  placed_[idx(owner)].reset(s);
  used_[idx(owner)] &= ~(uint64_t{1} << p);
  pattern_[s] = 0;
  for (int d = 0; d < 6; ++d) {
    int t = ctx_->cell_neighbour(s, d);
    if (t < 0) continue;
    int e = opposite(d);
    cons_[t] &= static_cast<uint16_t>(~((1 << (6 + e)) | (1 << e)));
  }
}

template <int W>
void State<W>::legal_moves(std::vector<Move>& out) const {
  out.clear();
  if (is_terminal()) return;
  const bool sw = swap_available();
  if (sw) out.push_back(Move::swap());
  const uint64_t avail = unplaced(colour_to_move());
  empty().for_each([&](int c) {
    uint64_t ok = avail & kMatch[cons_[c]];
    while (ok) {
      out.push_back(Move{static_cast<int16_t>(c), static_cast<uint8_t>(std::countr_zero(ok))});
      ok &= ok - 1;
    }
  });
  if (out.size() == (sw ? 1u : 0u)) out.insert(out.begin(), Move::pass());
}

template <int W>
uint64_t State<W>::count_legal_moves() const {
  if (is_terminal()) return 0;
  const uint64_t avail = unplaced(colour_to_move());
  uint64_t n = 0;
  empty().for_each(
      [&](int c) { n += static_cast<uint64_t>(std::popcount(avail & kMatch[cons_[c]])); });
  return (n ? n : 1) + (swap_available() ? 1 : 0);
}

template <int W>
bool State<W>::can_place() const {
  const uint64_t avail = unplaced(colour_to_move());
  BB e = empty();
  while (e.any())
    if (avail & kMatch[cons_[e.pop_lowest()]]) return true;
  return false;
}

template <int W>
void State<W>::apply(const Move& m, Undo& u) {
  u.hash = hash_;
  u.passes = passes_;
  u.last_placer = last_placer_;
  hash_ ^= status_hash();
  if (m.is_placement()) {
    place(m.site, colour_to_move(), m.pattern);
    passes_ = 0;
    last_placer_ = static_cast<int8_t>(idx(to_move_));
  } else if (m.is_pass()) {
    ++passes_;
  } else {  // swap
    swapped_ = true;
    passes_ = 0;
  }
  to_move_ = other(to_move_);
  hash_ ^= status_hash();
}

template <int W>
void State<W>::undo(const Move& m, const Undo& u) {
  to_move_ = other(to_move_);
  if (m.is_placement())
    remove(m.site);
  else if (m.is_swap())
    swapped_ = false;
  passes_ = u.passes;
  last_placer_ = u.last_placer;
  hash_ = u.hash;
}

template <int W>
template <class F>
void State<W>::for_each_group(F&& f) const {
  // Union-find over wedges (site * 6 + i) on the stack, path halving, the
  // root the lowest wedge of its group.
  constexpr int kWedges = kSlots * 6;
  std::array<int16_t, kWedges> parent, wedges, extent, last_site;
  const BB occ = occupied();
  const auto find = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  const auto unite = [&](int a, int b) {
    a = find(a);
    b = find(b);
    if (a != b) parent[std::max(a, b)] = static_cast<int16_t>(std::min(a, b));
  };
  const auto blue = [&](int s, int i) { return (pattern_[s] >> i) & 1; };
  occ.for_each([&](int s) {
    for (int i = 0; i < 6; ++i) {
      parent[s * 6 + i] = static_cast<int16_t>(s * 6 + i);
      wedges[s * 6 + i] = extent[s * 6 + i] = 0;
      last_site[s * 6 + i] = -1;
    }
  });
  occ.for_each([&](int s) {
    for (int i = 0; i < 6; ++i)
      if (blue(s, i) == blue(s, (i + 1) % 6)) unite(s * 6 + i, s * 6 + (i + 1) % 6);
    for (int d = 0; d < 3; ++d) {  // each shared edge once: E, NE, NW
      const int t = ctx_->cell_neighbour(s, d);
      if (t >= 0 && occ.test(t) && blue(s, d) == blue(t, opposite(d)))
        unite(s * 6 + d, t * 6 + opposite(d));
    }
  });
  occ.for_each([&](int s) {
    for (int i = 0; i < 6; ++i) {
      const int r = find(s * 6 + i);
      ++wedges[r];
      if (last_site[r] != s) {
        last_site[r] = static_cast<int16_t>(s);
        ++extent[r];
      }
    }
  });
  // Roots are the lowest wedge of their group, so groups come in order of
  // their representative while scanning sites and wedges in increasing order.
  occ.for_each([&](int s) {
    for (int i = 0; i < 6; ++i)
      if (const int w = s * 6 + i; parent[w] == w)
        f(s, i, blue(s, i) ? Color::kBlack : Color::kWhite, int{wedges[w]}, int{extent[w]});
  });
}

template <int W>
ScoreSheet State<W>::score() const {
  ScoreSheet sheet;
  sheet.by_wedges = ctx_->options().wedges;
  for_each_group([&](int site, int wedge, Color colour, int wedges, int extent) {
    sheet.groups.push_back(Group{colour, extent, wedges, site, wedge});
  });
  tally(sheet);
  return sheet;
}

template <int W>
std::array<int, 2> State<W>::scores() const {
  // score()'s groups, then each measure's balance (+1 a Blue group, -1 a
  // Yellow one): a colour's score is the largest measure it leads.
  const bool by_wedges = ctx_->options().wedges;
  std::array<int16_t, kSlots * 6 + 1> balance{};
  int top = 0;
  for_each_group([&](int, int, Color colour, int wedges, int extent) {
    const int m = by_wedges ? wedges : extent;
    balance[m] += colour == Color::kBlack ? 1 : -1;
    top = std::max(top, m);
  });
  std::array<int, 2> sc{};
  for (int k = top; k > 0 && (sc[0] == 0 || sc[1] == 0); --k) {
    if (sc[0] == 0 && balance[k] > 0) sc[0] = k;
    if (sc[1] == 0 && balance[k] < 0) sc[1] = k;
  }
  return sc;
}

template <int W>
Outcome State<W>::outcome() const {
  if (!is_terminal()) return {};
  const std::array<int, 2> sc = scores();
  Color last = last_placer_ >= 0 ? static_cast<Color>(last_placer_) : Color::kBlack;
  Color winner_colour = decide(sc[0], sc[1], colour_of(last));
  return Outcome::win(seat_of(winner_colour));
}

template <int W>
std::string State<W>::move_name(const Move& m) const {
  if (m.is_pass()) return "pass";
  if (m.is_swap()) return "swap";
  return pattern_name(m.pattern) + "@" + geo().name(m.site);
}

template <int W>
std::optional<typename State<W>::Move> State<W>::parse_move(std::string_view t) const {
  if (t == "pass") return Move::pass();
  if (t == "swap") return Move::swap();
  if (t.size() < 9 || t[6] != '@') return std::nullopt;
  auto p = parse_pattern(t.substr(0, 6));
  auto s = geo().parse(t.substr(7));
  if (!p || !s) return std::nullopt;
  return Move{static_cast<int16_t>(*s), static_cast<uint8_t>(*p)};
}

template <int W>
bool State<W>::piece_matches(int s) const {
  const EdgeColouring& e = ctx_->edges();
  const HexGeometry& g = geo();
  const BB occ = occupied();
  for (int d = 0; d < 6; ++d) {
    bool mine = (pattern_[s] >> d) & 1;
    int t = g.neighbour(s, d);
    if (t < 0 || t == g.centre()) {
      if (!e.is_edge(s, d) || e.is_blue(s, d) != mine) return false;
    } else if (occ.test(t) && (((pattern_[t] >> opposite(d)) & 1) != mine)) {
      return false;
    }
  }
  return true;
}

template <int W>
std::string State<W>::check_invariants() const {
  const BB occ = occupied();
  if (placed_[0].intersects(placed_[1])) return "a cell holds pieces of both sets";
  if (occ.andnot(ctx_->cells()).any()) return "a piece lies off the cells (or on the centre)";
  for (Color c : {Color::kBlack, Color::kWhite}) {
    uint64_t used = 0;
    int count = 0;
    placed_[idx(c)].for_each([&](int s) {
      used |= uint64_t{1} << pattern_[s];
      ++count;
    });
    if (used != used_[idx(c)]) return "used-pattern set differs from the pieces on the board";
    if (std::popcount(used) != count) return "a pattern stands twice for one player";
    if (used & ~owned_patterns(c)) return "a piece does not belong to its player's set";
  }
  for (int s = 0; s < kSlots; ++s)
    if (!occ.test(s) && pattern_[s] != 0) return "pattern stored on an empty slot";
  // Constraints recomputed from scratch.
  std::array<uint16_t, kSlots> cons = ctx_->edge_constraints();
  occ.for_each([&](int s) {
    for (int d = 0; d < 6; ++d) {
      int t = ctx_->cell_neighbour(s, d);
      if (t < 0) continue;
      int e = opposite(d);
      cons[t] |= static_cast<uint16_t>((1 << (6 + e)) | (((pattern_[s] >> d) & 1) << e));
    }
  });
  if (cons != cons_) return "incremental cell constraints differ from recomputed ones";
  std::string bad;
  occ.for_each([&](int s) {
    if (bad.empty() && !piece_matches(s)) bad = "the piece on " + geo().name(s) + " mismatches";
  });
  if (!bad.empty()) return bad;
  if (passes_ < 0 || passes_ > 2) return "pass counter out of range";
  if ((last_placer_ < 0) != occ.none()) return "last placer inconsistent with the board";
  if (swapped_ && !ctx_->options().pie) return "swapped without the pie rule";
  if (hash_ != recompute_hash()) return "incremental hash differs from recomputed hash";
  return "";
}

template <int W>
State<W> State<W>::transformed(int k) const {
  State t(&ctx_->image(k));
  const HexGeometry& g = geo();
  for (Color c : {Color::kBlack, Color::kWhite})
    placed_[idx(c)].for_each(
        [&](int s) { t.place(g.map_site(k, s), c, map_pattern(k, pattern_[s])); });
  t.to_move_ = to_move_;
  t.swapped_ = swapped_;
  t.passes_ = passes_;
  t.last_placer_ = last_placer_;
  t.hash_ = t.recompute_hash();
  return t;
}

template <int W>
uint64_t State<W>::transformed_hash(int k) const {
  // The status keys are the same in every context; the salt is the image's.
  uint64_t h = status_hash() ^ ctx_->salt() ^ ctx_->image(k).salt();
  const HexGeometry& g = geo();
  const auto& pm = pattern_maps().map[k];
  for (Color c : {Color::kBlack, Color::kWhite})
    placed_[idx(c)].for_each([&](int s) { h ^= ctx_->key(g.map_site(k, s), c, pm[pattern_[s]]); });
  return h;
}

template <int W>
typename State<W>::Packed State<W>::pack() const {
  Packed p;
  for (Color c : {Color::kBlack, Color::kWhite})
    placed_[idx(c)].for_each(
        [&](int s) { p.cell[s] = static_cast<uint8_t>(1 + 64 * idx(c) + pattern_[s]); });
  p.status = static_cast<uint64_t>(to_move_ == Color::kWhite) |
             static_cast<uint64_t>(swapped_) << 1 | static_cast<uint64_t>(passes_) << 2 |
             static_cast<uint64_t>(last_placer_ + 1) << 4;
  p.salt = ctx_->salt();
  return p;
}

template <int W>
State<W> State<W>::unpack(const Packed& p) const {
  State s(ctx_.p);
  // Whatever the bytes (a forged file): no slot off the board is read and
  // every field is in range; a caller comparing pack() with p sees what
  // was dropped.
  for (int site = 0; site < kSlots; ++site)
    if (p.cell[site] != 0 && ctx_->cells().test(site)) {
      const int v = p.cell[site] - 1;
      s.place(site, v >= 64 ? Color::kWhite : Color::kBlack, v & 63);
    }
  s.to_move_ = (p.status & 1) ? Color::kWhite : Color::kBlack;
  s.swapped_ = (p.status >> 1) & 1;
  s.passes_ = static_cast<int8_t>((p.status >> 2) & 3);
  const int last = static_cast<int>((p.status >> 4) & 3) - 1;
  s.last_placer_ = static_cast<int8_t>(last > 1 ? -1 : last);
  s.hash_ = s.recompute_hash();
  return s;
}

template <int W>
void State<W>::put(int site, Color owner, int pattern) {
  if (!ctx_->cells().test(site)) throw std::invalid_argument("put: not a cell");
  if (pattern < 0 || pattern > 63) throw std::invalid_argument("put: bad pattern");
  hash_ ^= status_hash();
  if (occupied().test(site)) remove(site);
  place(site, owner, pattern);
  if (last_placer_ < 0) last_placer_ = static_cast<int8_t>(idx(owner));
  hash_ ^= status_hash();
}

template <int W>
void State<W>::set_to_move(Color seat) {
  hash_ ^= status_hash();
  to_move_ = seat;
  hash_ ^= status_hash();
}

template <int W>
void State<W>::set_status(int passes, std::optional<Color> last_placer, bool swapped) {
  hash_ ^= status_hash();
  passes_ = static_cast<int8_t>(passes);
  last_placer_ = last_placer ? static_cast<int8_t>(idx(*last_placer)) : int8_t{-1};
  swapped_ = swapped;
  hash_ ^= status_hash();
}

template class Context<1>;
template class Context<3>;
template class Context<5>;
template class Context<10>;
template class State<1>;
template class State<3>;
template class State<5>;
template class State<10>;

}  // namespace loom::migong
