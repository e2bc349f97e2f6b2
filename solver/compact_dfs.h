// Alpha-beta with a compact, exact-key transposition entry (`loom solve
// --method compact`) for win/loss games of two colours of stones (DenseGame,
// solver/dense.h): Gadur `capture=merge-only` is its target. Boards of at
// most 19 cells (side 3) use the 32-bit base-3 key of the dense index and
// 8-byte entries; boards of up to 39 cells (side 4: 37) a 64-bit base-3 key
// (WideCodec, solver/dense.h) and 16-byte entries.
//
// The search is a boolean negamax ("does the side to move win?"): on a
// win/loss game without draws every alpha-beta window collapses to that
// question, and a proved node is final. An entry is {key, meta}, each a
// Key (uint32_t or uint64_t):
//   key    the exact position key + 1 (base-3 board and side to move; 0
//          marks an empty slot) - the whole board, so a hit is never a
//          different position (no hash collision);
//   meta   bits 0-1 the value (1: the mover wins, 2: the mover loses),
//          bits 2-7 log2 of the nodes its proof took (replacement: least
//          work), bits 8-15 the best move's site + 1 (0: none), tried first.
// Buckets of 4 entries are chosen by a mix of the key.
//
// Symmetry is optional (off by default: the 12 images cost more than the
// transpositions they find). A line longer than kMaxPly, which only a
// cyclic game (Gadur as written) has, stops the search with an error that
// points to the retrograde methods.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "model/common/errors.h"
#include "model/common/game.h"
#include "solver/control.h"
#include "solver/dense.h"
#include "solver/entry_table.h"
#include "solver/value.h"

namespace loom::solver {

/// Thrown when a search reaches its node budget.
struct CompactNodeLimit {};

template <DenseGame S, class Codec = DenseCodec>
class CompactDfs {
 public:
  using Move = typename S::Move;
  using Key = typename Codec::Key;
  using NodeLimit = CompactNodeLimit;
  struct alignas(2 * sizeof(Key)) Entry {
    Key key = 0;  ///< position key + 1; 0: empty
    Key meta = 0;
  };
  static constexpr int kEntryBytes = sizeof(Entry);
  static constexpr int kMaxPly = 512;
  static constexpr int kWays = 4;
  using Table = EntryTable<Entry, kWays>;
  /// Can searches on several threads share one table? (8-byte entries,
  /// and 16-byte ones where they are read and written whole: Table.)
  static bool shareable() { return Table::shareable(); }

  struct Config {
    uint64_t table_bytes = uint64_t{64} << 20;
    uint64_t max_nodes = 0;  ///< 0: no limit
    /// Set: the node budget is shared with other searches and comes in
    /// grants (NodeBudget; max_nodes unused).
    std::function<uint64_t()> grant;
    bool symmetry = false;
    /// search_placed() where the game lists its placements (Gadur); tests
    /// turn it off to compare it with the generic search().
    bool placements = true;
    /// Called every 2^20 nodes (progress; may throw to stop the search).
    std::function<void()> tick;
  };

  CompactDfs(const S& proto, Config cfg)
      : cfg_(std::move(cfg)),
        codec_(proto.geo(), cfg_.symmetry),
        table_(cfg_.table_bytes, codec_.key_count()),
        stack_(kMaxPly + 2) {
    refuse_undecided_ends(proto);
  }

  /// A search on another thread that uses `other`'s table (which must
  /// outlive it; only where shareable()); cfg.table_bytes is not used.
  CompactDfs(const S& proto, Config cfg, const CompactDfs& other)
      : cfg_(std::move(cfg)),
        codec_(proto.geo(), cfg_.symmetry),
        table_(other.table_, typename Table::Share{}),
        stack_(kMaxPly + 2) {}  // `other` was made from the same game: checked there

  /// A game that says whether every end has a winner (decisive_ends():
  /// Enfargar only under stall=more-stones) is refused before any work
  /// when one may not (else the search stopped at the first such end it
  /// met, or ran to its node limit without meeting one).
  static void refuse_undecided_ends(const S& proto) {
    if constexpr (requires {
                    { proto.decisive_ends() } -> std::convertible_to<bool>;
                  })
      if (!proto.decisive_ends())
        throw InputError(
            "--method compact solves win/loss games; under these rules a game can end "
            "without a winner");
  }

  /// Does the side to move win? Throws CompactNodeLimit at the node budget.
  bool mover_wins(const S& root) {
    if constexpr (PlacementGame<S>) {
      if (cfg_.placements && codec_.symmetries() == 1) return search_placed(root, key_of(root), 0);
    }
    S s = root;
    return search(s, 0);
  }

  uint64_t nodes() const { return nodes_; }
  uint64_t stored() const { return stored_; }
  /// Entries in use in the table this search allocated (the positions
  /// stored by it and by the searches sharing it).
  uint64_t occupied() const { return table_.occupied(); }
  /// Bytes of the table this search allocated (0 if it shares another's).
  uint64_t table_bytes() const { return table_.bytes(); }
  /// A saved table's layout tag (solver/entry_table.h).
  static constexpr uint64_t kTableLayout = table_layout('C', sizeof(Key), kEntryBytes, 1);
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
  int symmetries() const { return codec_.symmetries(); }

 private:
  Key key_of(const S& s) const {
    return codec_.canonical(s.stones(Color::kBlack).w[0], s.stones(Color::kWhite).w[0],
                            s.to_move());
  }
  Entry* bucket(Key key) const { return table_.bucket(key); }
  /// The entry's value (1 the mover wins, 2 it loses, 0 none) or -1 if the
  /// bucket has no entry for the key; best_site gets its move.
  static int probe(Entry* b, Key key, int& best_site) {
    for (int i = 0; i < kWays; ++i)
      if (const Entry e = Table::read(b[i]); e.key == key + 1) {
        best_site = static_cast<int>((e.meta >> 8) & 0xff) - 1;
        return static_cast<int>(e.meta & 3);
      }
    return -1;
  }

  /// Counts a node; ticks, and throws at the node budget and past kMaxPly.
  void enter(int ply) {
    if (nodes_ >= budget_.limit && !budget_.extend()) throw CompactNodeLimit{};
    ++nodes_;
    if ((nodes_ & ((uint64_t{1} << 20) - 1)) == 0 && cfg_.tick) cfg_.tick();
    if (ply >= kMaxPly)
      throw InputError("--method compact: a line of play longer than " + std::to_string(kMaxPly) +
                       " plies (the game has cycles: use --method dense or retrograde)");
  }
  /// Does the mover win this end? (Only wins and losses are allowed.)
  static bool mover_wins_at_end(const Outcome& o, Color mover) {
    if (o.kind != Outcome::Kind::kBlackWins && o.kind != Outcome::Kind::kWhiteWins)
      throw InputError("--method compact solves win/loss games; this one has other ends");
    return o == Outcome::win(mover);
  }

  bool search(S& s, int ply) {
    enter(ply);
    const Key key = key_of(s);
    Entry* b = bucket(key);
    int best_site = -1;
    if (const int v = probe(b, key, best_site); v > 0) return v == 1;
    auto& ms = stack_[ply];
    s.legal_moves(ms);
    if (ms.empty()) return mover_wins_at_end(s.outcome(), s.to_move());
    // Start loading every child's bucket now: the loads overlap, and each
    // is (mostly) in cache when the child probes it. The key of a child
    // without captures is the parent's plus the placed stone's digit (a
    // capture makes the address wrong, which costs only the prefetch).
    if (codec_.symmetries() == 1) {
      const bool white = s.to_move() == Color::kWhite;
      const Key base = codec_.side_flipped(key, white);
      const Key digit = white ? 2 : 1;
      for (const Move& m : ms)
        if (site_of(m) >= 0)  // a pass (Enfargar) has no placed stone
          __builtin_prefetch(bucket(codec_.moved_key_one(base, m.site, digit, 0, 0)));
    }
    // The stored best move first, then by history score.
    if (best_site >= 0)
      for (size_t i = 1; i < ms.size(); ++i)
        if (site_of(ms[i]) == best_site) {
          std::swap(ms[0], ms[i]);
          break;
        }
    const size_t from = best_site >= 0 && site_of(ms[0]) == best_site ? 1 : 0;
    std::sort(ms.begin() + static_cast<long>(from), ms.end(),
              [&](const Move& x, const Move& y) { return history_[slot(x)] > history_[slot(y)]; });
    const uint64_t before = nodes_;
    typename S::Undo u;
    bool win = false;
    int site = -1;
    for (size_t i = 0; i < ms.size(); ++i) {
      const Move m = ms[i];
      s.apply(m, u);
      bool child_wins = search(s, ply + 1);
      s.undo(m, u);
      if (!child_wins) {
        win = true;
        site = site_of(m);
        history_[slot(m)] += 1;
        break;
      }
    }
    store(b, key, win, nodes_ - before, site);
    return win;
  }

  /// search() for games that list their placements with their captures
  /// (Gadur, solver/dense.h PlacementGame), without symmetry: one pass over
  /// the groups gives every legal placement and what it removes, a child is
  /// built from its two bitboards (no analyse, no undo), and its exact key
  /// (captures included) is the parent's plus the digit changes, so every
  /// child's bucket is prefetched at the right address. The same tree as
  /// search() (the same moves in the same order: tests/solver).
  bool search_placed(const S& s, Key key, int ply) {
    enter(ply);
    Entry* b = bucket(key);
    int best_site = -1;
    if (const int v = probe(b, key, best_site); v > 0) return v == 1;
    Placed* ps = &placed_[static_cast<size_t>(ply) * kMaxPlaced];
    const int n = s.placements(ps);
    if (n == 0) {
      if constexpr (requires { s.outcome_when_stuck(); })
        return mover_wins_at_end(s.outcome_when_stuck(), s.to_move());
      else
        return mover_wins_at_end(s.outcome(), s.to_move());
    }
    const bool white = s.to_move() == Color::kWhite;
    Key* keys = &keys_[static_cast<size_t>(ply) * kMaxPlaced];
    for (int i = 0; i < n; ++i) {
      keys[i] = codec_.placed_key(key, white, ps[i].site, ps[i].captured.w[0]);
      __builtin_prefetch(bucket(keys[i]));
    }
    // The order of search(): the stored best move first, then by history
    // score (a stable order of the rest by site, as legal_moves lists them).
    int* order = &order_[static_cast<size_t>(ply) * kMaxPlaced];
    for (int i = 0; i < n; ++i) order[i] = i;
    std::sort(order, order + n, [&](int x, int y) { return ps[x].site < ps[y].site; });
    int from = 0;
    if (best_site >= 0)
      for (int i = 0; i < n; ++i)
        if (ps[order[i]].site == best_site) {
          std::swap(order[0], order[i]);
          from = 1;
          break;
        }
    std::sort(order + from, order + n, [&](int x, int y) {
      return history_[slot_site(ps[x].site)] > history_[slot_site(ps[y].site)];
    });
    const uint64_t before = nodes_;
    bool win = false;
    int site = -1;
    for (int j = 0; j < n; ++j) {
      const Placed& p = ps[order[j]];
      if (!search_placed(placed_child(s, p), keys[order[j]], ply + 1)) {
        win = true;
        site = p.site;
        history_[slot_site(p.site)] += 1;
        break;
      }
    }
    store(b, key, win, nodes_ - before, site);
    return win;
  }

  static int site_of(const Move& m) { return m.site; }
  static size_t slot_site(int site) { return static_cast<size_t>(site + 1) & 63; }
  static size_t slot(const Move& m) { return slot_site(m.site); }

  void store(Entry* b, Key key, bool win, uint64_t work, int site) {
    const Key lg = static_cast<Key>(std::min<uint64_t>(63, std::bit_width(work)));
    const Entry e{key + 1, Key{win ? 1u : 2u} | lg << 2 | static_cast<Key>(site + 1) << 8};
    int victim = 0;
    Key least = ~Key{0};
    for (int i = 0; i < kWays; ++i) {
      const Entry x = Table::read(b[i]);
      if (x.key == 0 || x.key == key + 1) {
        if (x.key == 0) ++stored_;
        Table::write(b[i], e);
        return;
      }
      const Key w = (x.meta >> 2) & 63;
      if (w < least) {
        least = w;
        victim = i;
      }
    }
    if (lg >= least) Table::write(b[victim], e);
  }

  Config cfg_;
  Codec codec_;
  Table table_;  ///< its own, or shared with searches on other threads
  std::vector<std::vector<Move>> stack_;
  // search_placed's per-ply scratch: placements, child keys, visit order.
  using Placed = typename dense_detail::MemberOr<dense_detail::PlacedT, S, PlacementGame<S>>::type;
  static constexpr size_t kMaxPlaced = 64;
  std::vector<Placed> placed_ = std::vector<Placed>((kMaxPly + 2) * kMaxPlaced);
  std::vector<Key> keys_ = std::vector<Key>((kMaxPly + 2) * kMaxPlaced);
  std::vector<int> order_ = std::vector<int>((kMaxPly + 2) * kMaxPlaced);
  std::array<uint32_t, 64> history_{};
  NodeBudget budget_{cfg_.max_nodes, cfg_.grant};
  uint64_t nodes_ = 0, stored_ = 0;
};

}  // namespace loom::solver
