#include "model/nardy/movegen.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "model/common/zobrist.h"

namespace loom::nardy {

namespace {

constexpr uint32_t kBoardMask = (1u << kPoints) - 1;
constexpr uint32_t kOutsideHome = (1u << kHome) - 1;  // route indices 0..17

/// Board index (point - 1) of route index r, per colour.
constexpr auto kBoardIndex = [] {
  std::array<std::array<int8_t, kPoints>, 2> t{};
  for (int r = 0; r < kPoints; ++r) {
    t[idx(Color::kBlack)][r] = static_cast<int8_t>(point_of(Color::kBlack, r) - 1);
    t[idx(Color::kWhite)][r] = static_cast<int8_t>(point_of(Color::kWhite, r) - 1);
  }
  return t;
}();

/// Zobrist keys of the mover-frame counts ([route][count], count 0 -> 0).
struct Keys {
  uint64_t count[kPoints][kCheckers + 1] = {};
};
const Keys& keys() {
  static const Keys k = [] {
    Keys k;
    uint64_t s = 0x6e61726479676e6bull;  // "nardygnk"
    for (auto& row : k.count)
      for (int c = 1; c <= kCheckers; ++c) row[c] = splitmix64(s);
    return k;
  }();
  return k;
}

/// Every step text of a colour ranked in byte order, so that comparing turns
/// as packed rank sequences (8 bits per step, most significant first, 0 for
/// no step) is comparing their texts in byte order: a space (the separator)
/// sorts before every character of a step, so the first differing step
/// decides, and a shorter step text sorts first when it is a prefix.
struct Texts {
  uint8_t rank[2][kPoints][7] = {};
  Step step[2][256] = {};
};
const Texts& texts() {
  static const Texts t = [] {
    Texts t;
    for (Color c : {Color::kBlack, Color::kWhite}) {
      std::vector<std::pair<std::string, Step>> all;
      for (int r = 0; r < kPoints; ++r)
        for (int d = 1; d <= 6; ++d) {
          Step s{static_cast<int8_t>(point_of(c, r)),
                 static_cast<int8_t>(r + d >= kOffRoute ? 0 : point_of(c, r + d))};
          all.emplace_back(s.text(), s);
        }
      std::sort(all.begin(), all.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      all.erase(std::unique(all.begin(), all.end(),
                            [](const auto& a, const auto& b) { return a.first == b.first; }),
                all.end());
      for (size_t i = 0; i < all.size(); ++i) t.step[idx(c)][i] = all[i].second;
      for (int r = 0; r < kPoints; ++r)
        for (int d = 1; d <= 6; ++d) {
          Step s{static_cast<int8_t>(point_of(c, r)),
                 static_cast<int8_t>(r + d >= kOffRoute ? 0 : point_of(c, r + d))};
          auto it =
              std::find_if(all.begin(), all.end(), [&](const auto& e) { return e.second == s; });
          t.rank[idx(c)][r][d] = static_cast<uint8_t>(it - all.begin());
        }
    }
    return t;
  }();
  return t;
}

/// A position during a turn, in the mover's frame.
struct Node {
  std::array<uint8_t, kPoints> c;  ///< mover's checkers by route index
  uint32_t mask;                   ///< bit r set iff c[r] > 0
  uint32_t key;                    ///< smallest turn text reaching it (packed ranks)
  uint64_t hash;                   ///< Zobrist of c
  uint8_t rem;                     ///< non-double after one step: the die still to play
  uint8_t first;                   ///< non-double after one step: the die played
};

/// Equal mover counts (24 bytes compared as three words).
inline bool same_counts(const Node& a, const Node& b) {
  uint64_t x[3], y[3];
  std::memcpy(x, a.c.data(), sizeof x);
  std::memcpy(y, b.c.data(), sizeof y);
  return ((x[0] ^ y[0]) | (x[1] ^ y[1]) | (x[2] ^ y[2])) == 0;
}

/// Open-addressing set of nodes keyed by (counts, die still to play); a
/// duplicate keeps the smaller turn key. Cleared in O(1) by a stamp.
class NodeSet {
 public:
  void clear() {
    nodes_.clear();
    if (++stamp_ == 0) {
      std::fill(stamps_.begin(), stamps_.end(), 0u);
      stamp_ = 1;
    }
  }
  const std::vector<Node>& nodes() const { return nodes_; }
  void insert(const Node& n) {
    if ((nodes_.size() + 1) * 2 > cap_) grow();
    place(n, /*fresh=*/false);
  }

 private:
  void place(const Node& n, bool fresh) {
    uint64_t h = n.hash ^ (uint64_t{n.rem} * 0x9E3779B97F4A7C15ull);
    size_t i = (h ^ (h >> 29)) & (cap_ - 1);
    while (stamps_[i] == stamp_) {
      Node& o = nodes_[index_[i]];
      if (!fresh && o.hash == n.hash && o.rem == n.rem && same_counts(o, n)) {
        if (n.key < o.key) o.key = n.key;
        return;
      }
      i = (i + 1) & (cap_ - 1);
    }
    stamps_[i] = stamp_;
    if (fresh) return;  // index_ set by the caller
    index_[i] = static_cast<uint32_t>(nodes_.size());
    nodes_.push_back(n);
  }
  void grow() {
    cap_ = cap_ ? cap_ * 2 : 1024;
    stamps_.assign(cap_, 0u);
    index_.assign(cap_, 0u);
    stamp_ = 1;
    for (uint32_t j = 0; j < nodes_.size(); ++j) {
      const Node& n = nodes_[j];
      uint64_t h = n.hash ^ (uint64_t{n.rem} * 0x9E3779B97F4A7C15ull);
      size_t i = (h ^ (h >> 29)) & (cap_ - 1);
      while (stamps_[i] == stamp_) i = (i + 1) & (cap_ - 1);
      stamps_[i] = stamp_;
      index_[i] = j;
    }
  }

  std::vector<Node> nodes_;
  std::vector<uint32_t> stamps_, index_;
  uint32_t stamp_ = 1;
  size_t cap_ = 0;
};

/// result() from the on-board counts (shared with the generator's setup).
bool finished(int white_on, int black_on, Color to_move, const Options& opt) {
  if (black_on == 0) return true;
  if (white_on == 0) return !(opt.last_roll && to_move == Color::kBlack);
  return false;
}

}  // namespace

struct TurnGenerator::Impl {
  explicit Impl(GenStats* s) : stats(s), K(keys()), T(texts()) {}

  GenStats* stats;
  const Keys& K;
  const Texts& T;
  NodeSet level[5];
  std::vector<const Node*> finals;
  Node root{};
  Node win{};
  bool has_win = false;

  // Per call.
  Color me = Color::kWhite;
  uint32_t opp_mask = 0;     ///< route indices (mover frame) holding an opposing checker
  int head0 = 0;             ///< mover's checkers on its head at the start of the turn
  int head_limit = 1;        ///< checkers that may leave the head this turn
  int check_mode = 1;        ///< 0: block at the end only; 1: on newly held points; 2: every step
  bool block_active = true;  ///< the opponent has borne off none
  bool block_hit = false;    ///< a step was refused by the block rule
  uint32_t bad_starts = 0;   ///< opponent-route starts a of a 6-window that would be illegal
  uint32_t land_ok[7] = {};  ///< per die: sources whose landing point is free of the opponent
  Position rest;             ///< the input board without the mover's checkers
  Position flipped;          ///< the input board with the other side to move
  int my_on = 0;             ///< mover's checkers on the board

  /// The 6-block rule (RULES.md section 6, section 7) for the mover's points `mask`.
  bool block_ok(uint32_t mask) const {
    if (!block_active) return true;
    // Opponent's route index of mover route r is (r + 12) mod 24.
    uint32_t q = ((mask << 12) | (mask >> 12)) & kBoardMask;
    uint32_t x = q & (q >> 1) & (q >> 2) & (q >> 3) & (q >> 4) & (q >> 5);
    return (x & bad_starts) == 0;
  }

  /// Sources of node n that may play die d, before the head and block checks:
  /// landing free of the opponent, or bearing off (all home; exact, or the
  /// farthest checker for a larger die).
  uint32_t sources(const Node& n, int d) const {
    uint32_t out = n.mask & land_ok[d];
    if (!(n.mask & kOutsideHome)) {
      const int exact = kOffRoute - d;
      out |= n.mask & (1u << exact);
      const int far = std::countr_zero(n.mask);
      if (far > exact) out |= 1u << far;
    }
    return out;
  }

  /// Plays die d from source r (one of sources(n, d)) as step number k of
  /// the turn into ch; false if the head or block rule forbids it. Without
  /// kKey the turn key is not maintained (positions only).
  template <bool kKey = true>
  bool step(const Node& n, int r, int d, int k, Node& ch) {
    ++stats->steps_tried;
    const int t = r + d;
    uint32_t nm = n.c[r] == 1 ? n.mask & ~(1u << r) : n.mask;
    if (t >= kOffRoute) {
      if (check_mode == 2 && !block_ok(nm)) {
        ++stats->block_rejected;
        block_hit = true;
        return false;
      }
      ch = n;
      ch.hash ^= K.count[r][n.c[r]] ^ K.count[r][n.c[r] - 1];
      --ch.c[r];
      ch.mask = nm;
    } else {
      if (r == 0 && head0 - n.c[0] >= head_limit) {
        ++stats->head_rejected;
        return false;
      }
      nm |= 1u << t;
      if (check_mode == 2 || (check_mode == 1 && !((n.mask >> t) & 1))) {
        if (!block_ok(nm)) {
          ++stats->block_rejected;
          block_hit = true;
          return false;
        }
      }
      ch = n;
      ch.hash ^=
          K.count[r][n.c[r]] ^ K.count[r][n.c[r] - 1] ^ K.count[t][n.c[t]] ^ K.count[t][n.c[t] + 1];
      --ch.c[r];
      ++ch.c[t];
      ch.mask = nm;
    }
    if constexpr (kKey) ch.key = n.key | uint32_t(T.rank[idx(me)][r][d] + 1) << (8 * (3 - k));
    return true;
  }

  void record_win(const Node& ch) {
    if (!has_win || ch.key < win.key) win = ch;
    has_win = true;
  }

  bool valid_final(const Node& n) const { return check_mode != 0 || block_ok(n.mask); }

  /// Reads the position into the mover's frame. Returns false if the game is over.
  bool setup(const Position& p, Roll roll, const Options& opt) {
    me = p.to_move();
    const Color them = other(me);
    root = Node{};
    opp_mask = 0;
    my_on = 0;
    int opp_on = 0;
    rest = p.with_to_move(them);
    flipped = rest;
    const int sign = me == Color::kWhite ? 1 : -1;
    const auto& index = kBoardIndex[idx(me)];
    for (int r = 0; r < kPoints; ++r) {
      const int i = index[r];
      const int v = p.points()[i] * sign;  // > 0 mover, < 0 opponent
      if (v > 0) {
        root.c[r] = static_cast<uint8_t>(v);
        root.mask |= 1u << r;
        my_on += v;
        rest.set(i + 1, 0);
      } else if (v < 0) {
        opp_mask |= 1u << r;
        opp_on -= v;
      }
    }
    return prepare(roll, opt, opp_on);
  }

  /// setup() for a board given in the mover's frame (routes()).
  bool setup_routes(Color mover, const Routes& mine, uint32_t opp, int opp_on, Roll roll,
                    const Options& opt) {
    me = mover;
    root = Node{};
    root.c = mine;
    my_on = 0;
    for (int r = 0; r < kPoints; ++r) {
      my_on += mine[r];
      if (mine[r]) root.mask |= 1u << r;
    }
    opp_mask = opp & kBoardMask;
    return prepare(roll, opt, opp_on);
  }

  /// Appends the mover's route counts after each turn kept for `roll` (the
  /// board set up by setup_routes; a pass gives the board itself).
  void append_routes(Roll roll, std::vector<Routes>& out) {
    const size_t first = out.size();
    if (expand_fast(roll, my_on)) {
      if (has_win) out.push_back(routes_of(win_turn));
      for (const auto& t : fast) out.push_back(routes_of(t));
    } else {
      expand_exact(roll);
      for (const Node* n : finals) out.push_back(n->c);
    }
    if (out.size() == first) out.push_back(root.c);
  }

  /// The head rule for `roll`: one checker leaves the head a turn, two on a
  /// first turn (all on the head) with 6-6, 4-4 or 3-3.
  void set_head_limit(Roll roll, const Options& opt) {
    const bool exception = roll.is_double() && (roll.hi == 3 || roll.hi == 4 || roll.hi == 6);
    head_limit = head0 == opt.checkers && exception ? 2 : 1;
  }

  /// The per-call state both setups share, from root, opp_mask and my_on.
  bool prepare(Roll roll, const Options& opt, int opp_on) {
    finals.clear();
    has_win = false;
    block_hit = false;
    if (finished(me == Color::kWhite ? my_on : opp_on, me == Color::kWhite ? opp_on : my_on, me,
                 opt))
      return false;
    for (int d = 1; d <= 6; ++d) land_ok[d] = ~(opp_mask >> d) & ((1u << (kOffRoute - d)) - 1);
    head0 = root.c[0];
    set_head_limit(roll, opt);
    block_active = opp_on >= opt.checkers;  // the opponent has borne off none
    if (block_active) {
      uint32_t oq = ((opp_mask << 12) | (opp_mask >> 12)) & kBoardMask;
      int h = 31 - std::countl_zero(oq);  // the opponent's most advanced checker
      bad_starts = kBoardMask & ~((1u << std::max(0, h - 5)) - 1);  // a + 5 >= h
    }
    check_mode = opt.block_end_of_turn ? 0 : block_ok(root.mask) ? 1 : 2;
    return true;
  }

  /// Exact expansion level by level with merging (smallest turn key per
  /// intermediate position): the positions and their canonical turns.
  void expand_exact(Roll roll) {
    root.hash = 0;
    for (uint32_t m = root.mask; m; m &= m - 1) {
      const int r = std::countr_zero(m);
      root.hash ^= K.count[r][root.c[r]];
    }
    finals.clear();
    has_win = false;
    Node ch;
    if (roll.is_double()) {
      const int d = roll.hi;
      level[0].clear();
      level[0].insert(root);
      for (int k = 0; k < 4; ++k) {
        level[k + 1].clear();
        for (const Node& n : level[k].nodes())
          for (uint32_t m = sources(n, d); m; m &= m - 1) {
            if (!step(n, std::countr_zero(m), d, k, ch)) continue;
            if (ch.mask == 0)
              record_win(ch);
            else
              level[k + 1].insert(ch);
          }
      }
      int top = 0;
      if (has_win) {
        top = 4;
        finals.push_back(&win);
      } else {
        for (int k = 4; k >= 1 && top == 0; --k)
          for (const Node& n : level[k].nodes())
            if (valid_final(n)) {
              top = k;
              break;
            }
      }
      if (top)
        for (const Node& n : level[top].nodes())
          if (valid_final(n)) finals.push_back(&n);
      return;
    }

    // Non-double: level 1 keyed by (position, die still to play).
    level[1].clear();
    level[2].clear();
    for (int die : {roll.hi, roll.lo}) {
      const uint8_t rem = die == roll.hi ? roll.lo : roll.hi;
      for (uint32_t m = sources(root, die); m; m &= m - 1) {
        if (!step(root, std::countr_zero(m), die, 0, ch)) continue;
        ch.rem = rem;
        ch.first = static_cast<uint8_t>(die);
        if (ch.mask == 0)
          record_win(ch);
        else
          level[1].insert(ch);
      }
    }
    for (const Node& n : level[1].nodes())
      for (uint32_t m = sources(n, n.rem); m; m &= m - 1) {
        if (!step(n, std::countr_zero(m), n.rem, 1, ch)) continue;
        ch.rem = 0;
        ch.first = 0;
        if (ch.mask == 0)
          record_win(ch);
        else
          level[2].insert(ch);
      }
    if (has_win) finals.push_back(&win);
    for (const Node& n : level[2].nodes())
      if (valid_final(n)) finals.push_back(&n);
    if (!finals.empty()) return;
    // Only one die can be played: the larger if it can be (RULES.md section 6).
    for (int die : {roll.hi, roll.lo}) {
      for (const Node& n : level[1].nodes())
        if (n.first == die && valid_final(n)) finals.push_back(&n);
      if (!finals.empty()) break;
    }
  }

  // ---- Fast path (positions only, no turn texts) ----
  //
  // One working board changed in place (apply / undo), turns kept as their
  // steps and turned into positions at the end; no node is copied.
  //
  // Double: the steps of a turn form a multiset of sources, and a multiset
  // that some order can play can also be played with its sources in
  // ascending route order: a checker is always there (arrivals come from
  // lower sources), the head count does not depend on order, and for bearing
  // off, playing the back checkers first is the most permissive (a checker
  // still outside home or farther than a bearing-off point at that moment
  // never moves afterwards, so no order helps). Only the per-step block check
  // depends on order. So the ascending-order search lists every reachable
  // multiset once, and different multisets of one die give different
  // positions (the board difference determines the sources), so no merging
  // is needed. If a step was refused by the block rule the exact expansion
  // is run instead.
  //
  // Non-double: both orders are searched; equal positions are merged by the
  // net change of the two steps (points left, points reached), which
  // determines the position exactly.

  struct FastTurn {
    uint8_t src[4];
    uint8_t die[4];
    uint8_t n;
  };
  std::array<uint8_t, kPoints> w{};  ///< working board (mover's frame)
  uint32_t wmask = 0;
  int won = 0;  ///< mover's checkers on the board
  FastTurn cur{};
  std::vector<FastTurn> fast;  ///< finals (or candidates) of the fast path
  std::vector<FastTurn> ones;  ///< non-double: turns of one step
  FastTurn win_turn{};
  int best = 0;  ///< double: deepest level holding a valid final found so far
  std::vector<uint32_t> key_stamp, key_value;
  uint32_t key_gen = 0;

  /// Head and block checks of die d from source r (one of sources(wmask, d));
  /// on success nm is the mover's points after the step.
  bool can(int r, int d, uint32_t& nm) {
    const int t = r + d;
    nm = wmask & ~(uint32_t{w[r] == 1} << r);
    if (t < kOffRoute) {
      if (r == 0 && head0 - w[0] >= head_limit) {
        ++stats->head_rejected;
        return false;
      }
      nm |= 1u << t;
      if (check_mode == 2 || (check_mode == 1 && !((wmask >> t) & 1))) {
        if (!block_ok(nm)) {
          ++stats->block_rejected;
          block_hit = true;
          return false;
        }
      }
    } else if (check_mode == 2 && !block_ok(nm)) {
      ++stats->block_rejected;
      block_hit = true;
      return false;
    }
    return true;
  }
  void apply(int r, int d) {
    if (--w[r] == 0) wmask &= ~(1u << r);
    const int t = r + d;
    if (t < kOffRoute) {
      if (w[t]++ == 0) wmask |= 1u << t;
    } else {
      --won;
    }
  }
  void undo(int r, int d) {
    const int t = r + d;
    if (t < kOffRoute) {
      if (--w[t] == 0) wmask &= ~(1u << t);
    } else {
      ++won;
    }
    if (w[r]++ == 0) wmask |= 1u << r;
  }
  uint32_t sources_w(int d) const {
    uint32_t out = wmask & land_ok[d];
    if (!(wmask & kOutsideHome)) {
      const int exact = kOffRoute - d;
      out |= wmask & (1u << exact);
      const int far = std::countr_zero(wmask);
      if (far > exact) out |= 1u << far;
    }
    return out;
  }
  void consider(int k) {
    if (k > best) {
      best = k;
      fast.clear();
    }
    if (k == best) fast.push_back(cur);
  }

  /// Ascending-order search (k steps played, next source >= min_r). Returns
  /// the deepest level of a valid final in the subtree (4 for a win).
  int sorted_dfs(int d, int k, int min_r) {
    int deepest = 0;
    uint32_t nm;
    for (uint32_t m = sources_w(d) & ~((1u << min_r) - 1); m; m &= m - 1) {
      const int r = std::countr_zero(m);
      if (!can(r, d, nm)) continue;
      const bool off = r + d >= kOffRoute;
      cur.src[k] = static_cast<uint8_t>(r);
      cur.die[k] = static_cast<uint8_t>(d);
      cur.n = static_cast<uint8_t>(k + 1);
      if (won - off == 0) {
        if (!has_win) win_turn = cur;
        has_win = true;
        if (best < 4) {
          best = 4;
          fast.clear();
        }
        deepest = 4;
        continue;
      }
      const int k1 = k + 1;
      int below = 0;
      if (k1 < 4) {
        apply(r, d);
        below = sorted_dfs(d, k1, r);
        undo(r, d);
      }
      if (below > k1) {
        deepest = std::max(deepest, below);
      } else if (check_mode != 0 || block_ok(nm)) {
        cur.n = static_cast<uint8_t>(k1);
        consider(k1);
        deepest = std::max(deepest, k1);
      }
    }
    return deepest;
  }

  /// Inserts a non-double final's key; true if it was new.
  bool insert_key(uint32_t key) {
    if (key_stamp.empty()) {
      key_stamp.assign(1024, 0u);
      key_value.assign(1024, 0u);
    }
    uint32_t i = (key * 0x9E3779B1u) >> 22;
    while (key_stamp[i] == key_gen) {
      if (key_value[i] == key) return false;
      i = (i + 1) & 1023u;
    }
    key_stamp[i] = key_gen;
    key_value[i] = key;
    return true;
  }

  /// The net change of steps s1 (die a) then s2 (die b): the points left
  /// and reached (24 = off) with a checker passing through cancelled, each
  /// pair sorted, 5 bits per entry (31 = none).
  static uint32_t net_key(int s1, int a, int s2, int b) {
    int t1 = std::min(s1 + a, kOffRoute), t2 = std::min(s2 + b, kOffRoute);
    int l0 = s1, l1 = s2, r0 = t1, r1 = t2;
    if (t1 == s2) {  // the same checker moved on
      l1 = 31;
      r0 = 31;
    } else if (t2 == s1) {  // the second checker took the first one's place
      l0 = 31;
      r1 = 31;
    }
    if (l0 > l1) std::swap(l0, l1);
    if (r0 > r1) std::swap(r0, r1);
    return static_cast<uint32_t>(l0 | l1 << 5 | r0 << 10 | r1 << 15);
  }

  /// Fills `fast` (and the win) with the turns kept. False if the exact
  /// expansion must be used instead.
  bool expand_fast(Roll roll, int my_on) {
    w = root.c;
    wmask = root.mask;
    won = my_on;
    fast.clear();
    has_win = false;
    best = 0;
    if (roll.is_double()) {
      if (check_mode == 2) return false;
      block_hit = false;
      sorted_dfs(roll.hi, 0, 0);
      return !block_hit;
    }
    if (++key_gen == 0) {
      std::fill(key_stamp.begin(), key_stamp.end(), 0u);
      key_gen = 1;
    }
    ones.clear();
    uint32_t nm;
    for (int x : {roll.hi, roll.lo}) {
      const int y = x == roll.hi ? roll.lo : roll.hi;
      for (uint32_t m = sources_w(x); m; m &= m - 1) {
        const int s1 = std::countr_zero(m);
        if (!can(s1, x, nm)) continue;
        cur = FastTurn{{static_cast<uint8_t>(s1)}, {static_cast<uint8_t>(x)}, 1};
        if (s1 + x >= kOffRoute && won == 1) {
          if (!has_win) win_turn = cur;
          has_win = true;
          continue;
        }
        if (check_mode != 0 || block_ok(nm)) ones.push_back(cur);
        apply(s1, x);
        cur.n = 2;
        cur.die[1] = static_cast<uint8_t>(y);
        for (uint32_t m2 = sources_w(y); m2; m2 &= m2 - 1) {
          const int s2 = std::countr_zero(m2);
          if (!can(s2, y, nm)) continue;
          cur.src[1] = static_cast<uint8_t>(s2);
          if (s2 + y >= kOffRoute && won == 1) {
            if (!has_win) win_turn = cur;
            has_win = true;
          } else if ((check_mode != 0 || block_ok(nm)) && insert_key(net_key(s1, x, s2, y))) {
            fast.push_back(cur);
          }
        }
        undo(s1, x);
      }
    }
    if (has_win || !fast.empty()) return true;
    // Only one die can be played: the larger if it can be (RULES.md section 6).
    for (const auto& t : ones)
      if (t.die[0] == roll.hi) fast.push_back(t);
    if (fast.empty()) fast = ones;
    return true;
  }

  /// The position a fast-path turn leads to.
  Position position_of(const FastTurn& t) const {
    Position out = flipped;
    const int sign = me == Color::kWhite ? 1 : -1;
    const auto& index = kBoardIndex[idx(me)];
    for (int i = 0; i < t.n; ++i) {
      int r = t.src[i], d = t.die[i];
      out.set(index[r] + 1, out.at(index[r] + 1) - sign);
      if (r + d < kOffRoute) out.set(index[r + d] + 1, out.at(index[r + d] + 1) + sign);
    }
    return out;
  }

  Position position_of(const Node& n) const {
    Position out = rest;
    const int sign = me == Color::kWhite ? 1 : -1;
    const auto& index = kBoardIndex[idx(me)];
    for (uint32_t m = n.mask; m; m &= m - 1) {
      int r = std::countr_zero(m);
      out.set(index[r] + 1, sign * n.c[r]);
    }
    return out;
  }

  /// The mover's route counts after a fast-path turn.
  Routes routes_of(const FastTurn& t) const {
    Routes out = root.c;
    for (int i = 0; i < t.n; ++i) {
      --out[t.src[i]];
      if (t.src[i] + t.die[i] < kOffRoute) ++out[t.src[i] + t.die[i]];
    }
    return out;
  }

  Turn turn_of(const Node& n) const {
    Turn t;
    for (int i = 0; i < 4; ++i) {
      uint32_t f = (n.key >> (8 * (3 - i))) & 0xff;
      if (!f) break;
      t.steps[t.size++] = T.step[idx(me)][f - 1];
    }
    return t;
  }
};

TurnGenerator::TurnGenerator(Options opt) : opt_(opt), impl_(std::make_unique<Impl>(&stats_)) {}
TurnGenerator::~TurnGenerator() = default;

void TurnGenerator::positions(const Position& p, Roll roll, std::vector<Position>& out) {
  out.clear();
  Impl& x = *impl_;
  if (!x.setup(p, roll, opt_)) return;
  if (x.expand_fast(roll, x.my_on)) {
    if (x.has_win) out.push_back(x.position_of(x.win_turn));
    for (const auto& t : x.fast) out.push_back(x.position_of(t));
  } else {
    x.expand_exact(roll);
    for (const Node* n : x.finals) out.push_back(x.position_of(*n));
  }
  if (out.empty()) out.push_back(p.with_to_move(other(p.to_move())));
}

void TurnGenerator::routes(Color me, const Routes& mine, uint32_t opp_mask, int opp_on, Roll roll,
                           std::vector<Routes>& out) {
  out.clear();
  if (impl_->setup_routes(me, mine, opp_mask, opp_on, roll, opt_)) impl_->append_routes(roll, out);
}

void TurnGenerator::routes(Color me, const Routes& mine, uint32_t opp_mask, int opp_on,
                           std::vector<Routes>& out, std::array<uint32_t, 22>& begin) {
  out.clear();
  Impl& x = *impl_;
  const auto& rolls = all_rolls();
  // The head limit is the only part of the setup that depends on the roll.
  const bool live = x.setup_routes(me, mine, opp_mask, opp_on, rolls[0], opt_);
  for (size_t i = 0; i < rolls.size(); ++i) {
    begin[i] = static_cast<uint32_t>(out.size());
    if (!live) continue;
    const Roll r = rolls[i];
    x.set_head_limit(r, opt_);
    x.append_routes(r, out);
  }
  begin[rolls.size()] = static_cast<uint32_t>(out.size());
}

void TurnGenerator::turns(const Position& p, Roll roll, std::vector<Child>& out) {
  out.clear();
  if (!impl_->setup(p, roll, opt_)) return;
  impl_->expand_exact(roll);
  if (impl_->finals.empty()) {
    out.push_back({p.with_to_move(other(p.to_move())), Turn{}});
    return;
  }
  for (const Node* n : impl_->finals) out.push_back({impl_->position_of(*n), impl_->turn_of(*n)});
}

namespace {

uint64_t perft_rec(TurnGenerator& g, const Position& p, int depth,
                   std::vector<std::vector<Position>>& bufs) {
  if (depth == 0) return 1;
  uint64_t total = 0;
  auto& buf = bufs[depth];
  for (const Roll& roll : all_rolls()) {
    g.positions(p, roll, buf);
    if (depth == 1) {
      total += buf.size();
      continue;
    }
    for (const Position& c : buf) total += perft_rec(g, c, depth - 1, bufs);
  }
  return total;
}

}  // namespace

uint64_t perft(const Position& p, int depth, const Options& opt) {
  if (depth <= 0) return 1;
  TurnGenerator g(opt);
  std::vector<std::vector<Position>> bufs(depth + 1);
  return perft_rec(g, p, depth, bufs);
}

std::vector<std::pair<Roll, uint64_t>> perft_divide(const Position& p, int depth,
                                                    const Options& opt) {
  std::vector<std::pair<Roll, uint64_t>> out;
  if (depth <= 0) return out;
  TurnGenerator g(opt);
  std::vector<std::vector<Position>> bufs(depth + 1);
  std::vector<Position> children;
  for (const Roll& roll : all_rolls()) {
    g.positions(p, roll, children);
    uint64_t n = 0;
    for (const Position& c : children) n += depth == 1 ? 1 : perft_rec(g, c, depth - 1, bufs);
    out.emplace_back(roll, n);
  }
  return out;
}

}  // namespace loom::nardy
