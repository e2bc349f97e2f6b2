// Depth-first proof-number search (`loom solve --method dfpn`) for win/loss
// placement games of two colours of stones (PlacementGame, solver/dense.h:
// Gadur `capture=merge-only`, the rule set whose game graph is acyclic), the
// alternative to the compact alpha-beta (solver/compact_dfs.h) that issue 15
// asks to measure beside it.
//
// The search is Nagai's df-pn (2002) in negamax form: a node's proof number
// pn estimates how many leaves must be proved to show that its mover wins,
// its disproof number dn how many to show that the mover loses. With the
// children's (pn, dn) seen from their own movers and k the children not yet
// proved or disproved,
//   pn = min over children of dn(child),
//   dn = max over children of pn(child) + k - 1
// (Ueda, Hashimoto, Hashimoto and Iida, "Weak proof-number search", 2008:
// df-pn's sum counts a position reached by several orders once per order,
// and Gadur's placements transpose a great deal; measured on Gadur side 3
// merge-only, with leaves at (1, 1), the max form needs 2.5 M instead of
// 4.1 M nodes after c3 a1 and 24.6 M instead of 41.4 M from the start). A
// leaf not yet searched counts (1, 1 + its parent's moves / 2).
// MID(n, thpn, thdn) expands the child of least dn with the thresholds
//   child thpn = thdn - (k - 1),
//   child thdn = min(thpn, dn2 + dn2 / 4 + 1)  (dn2: the second least dn),
// and returns when pn >= thpn or dn >= thdn; the root runs with infinite
// thresholds, so it returns only with a proof or a disproof. The second
// threshold is Pawlewicz and Lew's 1 + epsilon trick (2007; epsilon = 1/4):
// it lets the search stay longer in one child instead of switching back and
// forth between two of nearly equal dn.
//
// Gadur's stuck player wins, so a placement that leaves the opponent no
// placement loses at once: placements(out, true) marks those (answered ==
// false) and they count as proved wins for the child's mover without a
// visit.
//
// Table: 4-way buckets of 16-byte entries {tag, pn, dn}; tag is the exact
// key + 1 (the 32-bit dense key up to 19 cells, the 64-bit wide key up to
// 37: 2 * 3^37 < 2^60) in its low 60 bits and half the log2 of the work
// below the entry in its top 4 (replacement: least work, proved entries
// kept over unproved ones of the same work; a new result always goes in,
// since its parent reads it back at once). A hit is never another position (exact keys). Symmetry
// is not used (as in the compact search: the 12 images cost more than the transpositions they
// find). A line longer than kMaxPly (only a cyclic game has one) stops with an error pointing to
// the retrograde methods.
//
// Threads (`--threads`, solver/driver.h): searches of different openings
// may share one table (shareable(): entries read and written whole,
// solver/entry_table.h). A proved or disproved entry is a proof whoever wrote
// it; another thread's unproved numbers only steer the search, as stale
// numbers of this thread's own do.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "model/common/errors.h"
#include "model/common/game.h"
#include "solver/dense.h"
#include "solver/entry_table.h"

namespace loom::solver {

/// Thrown when a df-pn search reaches its node budget.
struct DfpnNodeLimit {};

template <DenseGame S, class Codec = DenseCodec>
requires PlacementGame<S>
class Dfpn {
 public:
  using Key = typename Codec::Key;
  using NodeLimit = DfpnNodeLimit;
  static constexpr uint32_t kInf = std::numeric_limits<uint32_t>::max();
  struct alignas(16) Entry {
    uint64_t tag = 0;  ///< key + 1 (0: empty), log2 of the work / 2 in bits 60-63
    uint32_t pn = 1, dn = 1;
  };
  static_assert(sizeof(Entry) == 16);
  static constexpr int kEntryBytes = sizeof(Entry);
  static constexpr int kMaxPly = 512;
  static constexpr int kWays = 4;
  using Table = EntryTable<Entry, kWays>;

  struct Config {
    uint64_t table_bytes = uint64_t{64} << 20;
    uint64_t max_nodes = 0;  ///< 0: no limit
    /// Set: the node budget is shared with other searches and comes in
    /// grants (NodeBudget; max_nodes unused).
    std::function<uint64_t()> grant;
    /// Called every 2^20 nodes (progress; may throw to stop the search).
    std::function<void()> tick;
  };

  Dfpn(const S& proto, Config cfg)
      : cfg_(std::move(cfg)),
        codec_(checked(proto).geo(), false),
        table_(cfg_.table_bytes, codec_.key_count()) {}

  /// Can searches on several threads share one table? (Its entries are
  /// read and written whole: Intel and AMD processors with AVX, Table.)
  static bool shareable() { return Table::shareable(); }

  /// A search on another thread that uses `other`'s table (which must
  /// outlive it; only where shareable()); cfg.table_bytes is not used.
  Dfpn(const S& proto, Config cfg, const Dfpn& other)
      : cfg_(std::move(cfg)),
        codec_(proto.geo(), false),
        table_(other.table_, typename Table::Share{}) {}

  /// Does the side to move win? Throws NodeLimit at the node budget.
  bool mover_wins(const S& root) {
    const Key key = codec_.canonical(root.stones(Color::kBlack).w[0],
                                     root.stones(Color::kWhite).w[0], root.to_move());
    // Infinite thresholds: MID returns only with a proof or a disproof.
    uint32_t pn, dn;
    mid(root, key, kInf, kInf, 0, pn, dn);
    return pn == 0;
  }

  uint64_t nodes() const { return nodes_; }
  uint64_t stored() const { return stored_; }
  /// Entries in use in the table this search allocated (the positions
  /// stored by it and by the searches sharing it).
  uint64_t occupied() const { return table_.occupied(); }
  /// Bytes of the table this search allocated (0 if it shares another's).
  uint64_t table_bytes() const { return table_.bytes(); }
  /// A saved table's layout tag (solver/entry_table.h).
  static constexpr uint64_t kTableLayout = table_layout('D', sizeof(Key), kEntryBytes, 1);
  /// The table to a checkpoint, and back (EntryTable::write, read: false
  /// if the saved table has another layout or size). Not while the search
  /// writes to it: between searches, or from its own tick.
  template <class Writer>
  void write_table(Writer& w) const {
    table_.write(w, kTableLayout);
  }
  template <class Reader>
  bool read_table(Reader& rd) {
    return table_.read(rd, kTableLayout);
  }
  int symmetries() const { return 1; }

 private:
  using Placed = typename S::Placed;
  static constexpr size_t kMaxPlaced = 64;
  static constexpr int kMaxCells = 37;  ///< 2 * 3^37 + 1 < 2^60
  static constexpr uint64_t kTagKey = (uint64_t{1} << 60) - 1;

  /// The position (a board of at most kMaxCells cells), else InputError.
  static const S& checked(const S& s) {
    if (s.geo().num_sites() > kMaxCells)
      throw InputError("--method dfpn: boards of at most " + std::to_string(kMaxCells) +
                       " cells (side 4)");
    return s;
  }
  Entry* bucket(Key key) const { return table_.bucket(key); }
  /// The key's entry in its bucket, read whole (a shared table's entry is
  /// never seen half written); false if there is none.
  static bool find(Entry* b, Key key, Entry& out) {
    for (int i = 0; i < kWays; ++i) {
      const Entry e = Table::read(b[i]);
      if ((e.tag & kTagKey) == uint64_t{key} + 1) {
        out = e;
        return true;
      }
    }
    return false;
  }
  static uint64_t work_of(const Entry& e) { return e.tag >> 60; }
  static bool final(const Entry& e) { return e.pn == 0 || e.dn == 0; }

  void store(Key key, uint32_t pn, uint32_t dn, uint64_t work) {
    Entry* b = bucket(key);
    const uint64_t lg = std::min<uint64_t>(15, std::bit_width(work) / 2);
    const Entry e{(uint64_t{key} + 1) | lg << 60, pn, dn};
    // The victim: an empty slot, else the least work, an unproved entry
    // before a proved one.
    const auto rank = [](const Entry& x) { return std::tuple(x.tag != 0, work_of(x), final(x)); };
    int victim = 0;
    Entry least;
    for (int i = 0; i < kWays; ++i) {
      const Entry x = Table::read(b[i]);
      if ((x.tag & kTagKey) == uint64_t{key} + 1) {
        Table::write(b[i], e);
        return;
      }
      if (i == 0 || rank(x) < rank(least)) {
        victim = i;
        least = x;
      }
    }
    // Always stored: the parent reads it back at once.
    if (least.tag == 0) ++stored_;
    Table::write(b[victim], e);
  }

  /// Counts a node; ticks, and throws at the node budget and past kMaxPly.
  void enter(int ply) {
    if (nodes_ >= budget_.limit && !budget_.extend()) throw NodeLimit{};
    ++nodes_;
    if ((nodes_ & ((uint64_t{1} << 20) - 1)) == 0 && cfg_.tick) cfg_.tick();
    if (ply >= kMaxPly)
      throw InputError("--method dfpn: a line of play longer than " + std::to_string(kMaxPly) +
                       " plies (the game has cycles: use --method dense or retrograde)");
  }

  static uint32_t sat_add(uint32_t a, uint32_t b) {
    if (a == kInf || b == kInf) return kInf;
    return static_cast<uint32_t>(std::min<uint64_t>(uint64_t{a} + b, kInf - 1));
  }

  /// Expands s (key `key`) until pn >= thpn or dn >= thdn; its final
  /// numbers go to pn, dn (and to the table).
  void mid(const S& s, Key key, uint32_t thpn, uint32_t thdn, int ply, uint32_t& pn, uint32_t& dn) {
    enter(ply);
    const uint64_t before = nodes_;
    Placed* ps = &placed_[static_cast<size_t>(ply) * kMaxPlaced];
    const int n = s.placements(ps, true);
    if (n == 0) {
      // Stuck: the mover wins (Gadur; only win/loss games are allowed).
      const Outcome o = s.outcome_when_stuck();
      if (o.kind != Outcome::Kind::kBlackWins && o.kind != Outcome::Kind::kWhiteWins)
        throw InputError("--method dfpn solves win/loss games; this one has other ends");
      const bool win = o == Outcome::win(s.to_move());
      pn = win ? 0 : kInf;
      dn = win ? kInf : 0;
      store(key, pn, dn, 1);
      return;
    }
    const bool white = s.to_move() == Color::kWhite;
    Key* keys = &keys_[static_cast<size_t>(ply) * kMaxPlaced];
    for (int i = 0; i < n; ++i) {
      keys[i] = codec_.placed_key(key, white, ps[i].site, ps[i].captured.w[0]);
      __builtin_prefetch(bucket(keys[i]));
    }
    // The children's numbers, read from the table once. An unanswered
    // placement hands the opponent a stuck position, a win for it (pn 0,
    // dn inf); a child not in the table starts at pn 1 and dn 1 + n / 2
    // (to disprove its mover's win all of its moves, about as many as
    // ours, must fail; n / 2 measured best of 1, n / 8, n / 4, n / 2 and n
    // on Gadur side 3 merge-only: 2.29 M nodes after c3 a1 and 19.2 M from
    // the start, against 2.52 M and 24.6 M with dn 1). Afterwards only the
    // child just searched changes, to what it returned (even if its entry
    // has been replaced since); another child's entry may have moved
    // through a transposition meanwhile, and its stale numbers only cost a
    // visit (proved numbers are final: a stale entry never proves anything).
    Nums* nums = &nums_[static_cast<size_t>(ply) * kMaxPlaced];
    for (int i = 0; i < n; ++i) {
      nums[i] = ps[i].answered ? Nums{1, static_cast<uint32_t>(1 + n / 2)} : Nums{0, kInf};
      if (!ps[i].answered) continue;
      if (Entry e; find(bucket(keys[i]), keys[i], e)) nums[i] = {e.pn, e.dn};
    }
    for (;;) {
      pn = kInf;
      dn = 0;
      uint32_t dn2 = kInf, open = 0;
      int best = -1;
      for (int i = 0; i < n; ++i) {
        const uint32_t cpn = nums[i].pn, cdn = nums[i].dn;
        if (cpn == kInf) {
          dn = kInf;  // a child whose mover loses: a proof for this mover
        } else if (dn != kInf && cpn != 0) {
          dn = std::max(dn, cpn);
          ++open;
        }
        if (cdn < pn) {
          dn2 = pn;
          pn = cdn;
          best = i;
        } else if (cdn < dn2) {
          dn2 = cdn;
        }
      }
      if (dn != kInf && open > 1) dn = sat_add(dn, open - 1);
      if (pn == 0 || dn == 0 || pn >= thpn || dn >= thdn) break;
      // pn < thpn and dn < thdn here, and the best child is open (so
      // open >= 1): the child may grow its pn up to the max that keeps dn
      // below thdn. An infinite threshold stays so.
      const uint32_t child_thpn = thdn == kInf ? kInf : thdn - (open - 1);
      const uint32_t grown =
          dn2 == kInf
              ? kInf
              : static_cast<uint32_t>(std::min<uint64_t>(uint64_t{dn2} + dn2 / 4 + 1, kInf - 1));
      const uint32_t child_thdn = std::min(thpn, grown);
      mid(placed_child(s, ps[best]), keys[best], child_thpn, child_thdn, ply + 1, nums[best].pn,
          nums[best].dn);
    }
    store(key, pn, dn, nodes_ - before);
  }

  Config cfg_;
  Codec codec_;
  Table table_;  ///< its own, or shared with searches on other threads
  // Per-ply scratch: placements, child keys, the children's numbers.
  std::vector<Placed> placed_ = std::vector<Placed>((kMaxPly + 2) * kMaxPlaced);
  std::vector<Key> keys_ = std::vector<Key>((kMaxPly + 2) * kMaxPlaced);
  struct Nums {
    uint32_t pn, dn;
  };
  std::vector<Nums> nums_ = std::vector<Nums>((kMaxPly + 2) * kMaxPlaced);
  NodeBudget budget_{cfg_.max_nodes, cfg_.grant};
  uint64_t nodes_ = 0, stored_ = 0;
};

}  // namespace loom::solver
