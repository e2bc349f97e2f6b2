// Alpha-beta for scored games with positional superko (Fiodar) whose table
// is keyed by the board (`loom solve --method superko`), on boards of at
// most 19 cells (the base-3 index of solver/dense.h).
//
// Graph-history interaction. Superko makes the legal moves depend on the
// earlier boards, so a result found under one history is not in general
// valid under another (Kishimoto and Mueller, "A solution to the GHI problem
// for depth-first proof-number search", 2004). DfsSolver keys its table
// with the whole history (few transpositions, 1,250 bytes a Fiodar side-3
// position). This search keys it by what can still matter.
//
// A search from N (board B) under history H explores nodes D; let K be the
// stones of each colour present at every explored node (the *keep*, K <= B;
// K = B unless a line removed stones now on the board), and S_K(H) the
// history boards X of each colour c with X[c] a strict superset of K[c]
// (S::for_each_above(keep)). Claim: the result holds at every position with
// N's board, side to move and play state under every history H' with
// S_K(H') = S_K(H).
//
// - A placement s of colour c at an explored node D results in R with
//   R[c] = D[c] + s, a strict superset of D[c], which holds K[c]. It is
//   refused iff R is in c's history: the boards played from N to D (the
//   same under H and H') or a board of H_c, which then is one of S_K(H),
//   the same as S_K(H'). So every explored node has the same moves under
//   H', every leaf the same score (scores count only what is still to
//   come, below), and the result's proof is the same.
// - A table hit at D uses an entry with its own keep K_D, which is folded
//   into K (K <= K_D); S_K_D at D under H' is the path's boards plus the
//   boards of S_K(H') above K_D, so the same as under H: the entry applies
//   under H' too. By induction over the order in which entries are
//   written, every entry holds for every position its key matches.
//
// The key of an entry: board, side to move, play state (passes; the first
// passer under half=first-pass-of-game), the cells of B missing from K (a
// 19-bit mask in the canonical frame; 0 in most entries) and a digest of
// S_K. The bucket is chosen by the board and the digest of S_B (the boards
// above the board itself, A), which every lookup knows: S_B is S_K's
// boards above B, so the entries a position can use all lie in its bucket.
// A lookup compares an entry's digest with S_K computed for the entry's K
// (A itself when the mask is 0).
//
// The digests are the one hash the key relies on: two different sets of
// boards with the same digest (45 bits of a sum of mixed exact base-3
// indices in the canonical frame) would share an entry. The board part of
// the key is exact; S_B is empty (digest 0) until a capture.
//
// Scores are in half points, from the mover's side, and count only what is
// still to come: the final margin less the prisoners taken so far (a
// capture shifts a child's value by twice the stones taken), so positions
// with the same board but other prisoner counts share their entry.
//
// Entries are 16 bytes, buckets of 4 (64 bytes): a word
//   bits  0-35  key + 1 (0: empty slot): (base-3 board and side) * 8 + the
//               play state;
//   bits 36-43  lower bound + 128 (0: none); bits 44-51 upper bound + 128
//               (255: none);
//   bits 52-56  the best move in the canonical frame (0 none, 1-19 the
//               compact site + 1, 31 pass), tried first;
//   bits 57-62  log2 of the nodes below (replacement: least work);
// and a word: bits 0-18 the cells of B not in K (canonical compact
// indices), bits 19-63 the digest of S_K.
// Symmetry (on by default): the key is the least of the 12 images; the
// digests and the mask are taken in that image's frame. The root value
// comes from MTD(f) (null-window searches).
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <concepts>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/common/bitboard.h"
#include "model/common/errors.h"
#include "model/common/game.h"
#include "solver/core.h"
#include "solver/dense.h"
#include "solver/entry_table.h"

namespace loom::solver {

/// A game with positional superko whose model can tell when the history
/// cannot matter (model/fiodar: for_each_above).
template <class S>
concept SuperkoGame = Game<S> && requires(const S& s, Color c, const typename S::Undo& u) {
  {s.for_each_above(std::array<Bitboard<1>, 2>{}, [](Color, const std::array<Bitboard<1>, 2>&) {})};
  { s.play_state() } -> std::convertible_to<uint32_t>;
  { s.consecutive_passes() } -> std::convertible_to<int>;
  { s.stones(c) } -> std::convertible_to<Bitboard<1>>;
  { s.prisoners(c) } -> std::convertible_to<int>;
  { s.geo() } -> std::convertible_to<const HexGeometry&>;
  { u.removed } -> std::convertible_to<Bitboard<1>>;
};

/// Thrown when a SuperkoDfs search reaches its node budget.
struct SuperkoNodeLimit {};

template <SuperkoGame S>
class SuperkoDfs {
  struct Entry;

 public:
  using Move = typename S::Move;
  using NodeLimit = SuperkoNodeLimit;
  static constexpr int kMaxPly = 1024;
  static constexpr int kWays = 4;
  static constexpr int kInf = 1 << 20;
  static constexpr int kPassCode = 31;

  using Table = EntryTable<Entry, kWays>;
  /// Can searches on several threads share one table? (Where its 16-byte
  /// entries are read and written whole: Table.) Entries written by
  /// another search are claims of the same kind, valid wherever their key
  /// matches, whichever search wrote them.
  static bool shareable() { return Table::shareable(); }

  struct Config {
    uint64_t table_bytes = uint64_t{64} << 20;
    uint64_t max_nodes = 0;  ///< 0: no limit
    bool symmetry = true;
    /// Called every 2^20 nodes (progress, interruption: it may throw).
    std::function<void()> tick;
    /// Set: the node budget is shared with other searches and comes in
    /// grants (NodeBudget; max_nodes unused).
    std::function<uint64_t()> grant;
  };

  struct Stats {
    uint64_t nodes = 0;    ///< positions searched (table hits and leaves included)
    uint64_t hits = 0;     ///< table answers used
    uint64_t stored = 0;   ///< entries written into empty slots
    uint64_t partial = 0;  ///< results stored with a keep smaller than the board
  };

  // No more buckets than the board has positions (a 7-cell board took its
  // whole 512 MB default, and the time to clear it): Table.
  SuperkoDfs(const S& proto, Config cfg)
      : cfg_(std::move(cfg)),
        codec_(proto.geo(), cfg_.symmetry),
        geo_(&proto.geo()),
        table_(cfg_.table_bytes, codec_.key_count()),
        stack_(kMaxPly + 2) {
    for (int k = 0; k < 12; ++k) inverse_[k] = HexGeometry::inverse(k);
  }
  /// A search on another thread that uses `other`'s table (which must
  /// outlive it; only where shareable()); cfg.table_bytes is not used.
  SuperkoDfs(const S& proto, Config cfg, const SuperkoDfs& other)
      : cfg_(std::move(cfg)),
        codec_(proto.geo(), cfg_.symmetry),
        geo_(&proto.geo()),
        table_(other.table_, typename Table::Share{}),
        stack_(kMaxPly + 2),
        own_history_(),
        history_(other.history_) {
    for (int k = 0; k < 12; ++k) inverse_[k] = HexGeometry::inverse(k);
  }

  /// The exact value of `root` (not over) in half points from the mover's
  /// side, counting only what is still to come (prisoners taken so far
  /// excluded). MTD(f): null-window searches from `guess`.
  int value(const S& root, int guess = 1) {
    int lo = -kInf, hi = kInf, g = guess;
    while (lo < hi) {
      const int beta = g == lo ? g + 1 : g;
      g = test(root, beta);
      if (g < beta)
        hi = g;
      else
        lo = g;
    }
    return g;
  }

  /// A null-window search of `root` (not over) at `beta`, in value()'s
  /// terms: a result g >= beta proves the value is at least g, g < beta that
  /// it is at most g.
  int test(const S& root, int beta) {
    S s = root;
    Board keep;
    return search(s, beta - 1, beta, 0, keep);
  }

  /// The move the table holds for s (not over), if any: the one a search
  /// tries first there (after a fail high: the move that proved the bound).
  std::optional<Move> stored_move(const S& s) {
    const Board stones{s.stones(Color::kBlack), s.stones(Color::kWhite)};
    const Key k = key_of(s);
    const uint64_t above = above_digest(s, stones, k.sym);
    const Found f = probe(s, stones, k, above, bucket(k.key, above));
    if (!f.entry || !f.code) return std::nullopt;
    std::vector<Move> ms;
    s.legal_moves(ms);
    for (const Move& m : ms)
      if (is_code(m, f.code, k.sym)) return m;
    return std::nullopt;
  }

  const Stats& stats() const { return st_; }
  const HexGeometry& geo() const { return *geo_; }
  uint64_t nodes() const { return st_.nodes; }
  /// Entries this search wrote into empty slots.
  uint64_t stored() const { return st_.stored; }
  /// Entries in use in the table this search allocated (the positions
  /// stored by it and by the searches sharing it).
  uint64_t occupied() const { return table_.occupied(); }
  /// Bytes of the table this search allocated (0 if it shares another's).
  uint64_t table_bytes() const { return table_.bytes(); }
  int symmetries() const { return codec_.symmetries(); }
  /// The positions the board has (the dense key space: 2 x 3^cells).
  uint64_t key_count() const { return codec_.key_count(); }

  /// The future margin of a finished position (mover's side, half points).
  static int leaf_value(const S& s) {
    const Outcome o = s.outcome();
    const int past = 2 * (s.prisoners(Color::kBlack) - s.prisoners(Color::kWhite));
    const int black = o.margin2 - past;
    return s.to_move() == Color::kBlack ? black : -black;
  }

 private:
  struct Key {
    uint64_t key = 0;  ///< 36-bit key (before the + 1)
    int sym = 0;       ///< the symmetry mapping the position to its canonical image
  };

  Key key_of(const S& s) const {
    Key k;
    const uint32_t board = codec_.canonical(s.stones(Color::kBlack).w[0],
                                            s.stones(Color::kWhite).w[0], s.to_move(), k.sym);
    k.key = uint64_t{board} * 8 + (s.play_state() & 7);
    return k;
  }
  /// A table entry (16 bytes): the two words described above.
  struct alignas(16) Entry {
    uint64_t w = 0;
    uint64_t above = 0;
  };
  Entry* bucket(uint64_t key, uint64_t above) {
    uint64_t h = (key + 1 + above) * 0x9e3779b97f4a7c15ull;
    return table_.bucket_at(h >> 27);
  }
  static constexpr uint64_t kKeyMask = (uint64_t{1} << 36) - 1;

  int code_of(const Move& m, int sym) const {
    return m.is_pass() ? kPassCode : geo_->compact(geo_->map_site(sym, m.site)) + 1;
  }
  bool is_code(const Move& m, int code, int sym) const {
    if (code == kPassCode) return m.is_pass();
    return !m.is_pass() && m.site == geo_->map_site(inverse_[sym], geo_->site_of_compact(code - 1));
  }
  size_t slot(const Move& m) const { return m.is_pass() ? 63 : static_cast<size_t>(m.site) & 63; }

  using Board = std::array<Bitboard<1>, 2>;
  static constexpr uint64_t kMaskBits = (uint64_t{1} << 19) - 1;

  /// The boards above `keep` (S::for_each_above) as one digest in the
  /// canonical frame (bits 19-63; the low bits hold an entry's mask): a sum
  /// of mixed exact base-3 indices, so it does not depend on their order or
  /// on the symmetry. 0: none.
  uint64_t above_digest(const S& s, const Board& keep, int sym) const {
    uint64_t d = 0;
    s.for_each_above(keep, [&](Color c, const Board& x) {
      uint64_t idx = uint64_t{codec_.weight(sym, x[0].w[0])} + 2 * codec_.weight(sym, x[1].w[0]);
      uint64_t z = idx * 2 + (c == Color::kWhite ? 1 : 0) + 0x9e3779b97f4a7c15ull;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      d += z ^ (z >> 31);
    });
    return d & ~kMaskBits;
  }
  /// The cells of `board` missing from `keep`, as canonical compact indices.
  uint64_t mask_of(const Board& board, const Board& keep, int sym) const {
    uint64_t m = 0;
    ((board[0] | board[1]).andnot(keep[0] | keep[1])).for_each([&](int site) {
      m |= uint64_t{1} << geo_->compact(geo_->map_site(sym, site));
    });
    return m;
  }
  /// The keep an entry's mask stands for at a position with `board`.
  Board keep_of(const Board& board, uint64_t mask, int sym) const {
    Board k = board;
    for (; mask; mask &= mask - 1) {
      const int site = geo_->map_site(inverse_[sym], geo_->site_of_compact(std::countr_zero(mask)));
      k[0].reset(site);
      k[1].reset(site);
    }
    return k;
  }

  /// What the table knows about a position: bounds (from the mover's
  /// side), the best move's code and the keep they rely on.
  struct Found {
    bool entry = false;
    int lo = -kInf, hi = kInf, code = 0;
    Board keep{};
  };
  /// The entry of bucket b for s (key k, boards above its board `above`).
  Found probe(const S& s, const Board& stones, const Key& k, uint64_t above, Entry* b) const {
    Found f;
    for (int i = 0; i < kWays; ++i) {
      const Entry e = Table::read(b[i]);  // whole: another search may write it
      if ((e.w & kKeyMask) != k.key + 1) continue;
      const uint64_t mask = e.above & kMaskBits;
      f.keep = stones;
      if (mask == 0) {
        if (e.above != above) continue;
      } else {
        f.keep = keep_of(stones, mask, k.sym);
        if ((e.above & ~kMaskBits) != above_digest(s, f.keep, k.sym)) continue;
      }
      f.entry = true;
      f.code = static_cast<int>((e.w >> 52) & 31);
      f.lo = decode_lo(e.w);
      f.hi = decode_hi(e.w);
      return f;
    }
    return f;
  }

  /// Searches s with window (alpha, beta); `keep` receives the stones the
  /// result relies on staying on the board (the K of the file comment).
  int search(S& s, int alpha, int beta, int ply, Board& keep) {
    if (st_.nodes >= budget_.limit && !budget_.extend()) throw SuperkoNodeLimit{};
    if ((++st_.nodes & ((1u << 20) - 1)) == 0 && cfg_.tick) cfg_.tick();
    const Board stones{s.stones(Color::kBlack), s.stones(Color::kWhite)};
    keep = stones;
    if (s.is_terminal()) return leaf_value(s);
    if (ply >= kMaxPly)
      throw InputError("--method superko: a line of play longer than " + std::to_string(kMaxPly) +
                       " plies");
    const Key k = key_of(s);
    const uint64_t above = above_digest(s, stones, k.sym);
    Entry* b = bucket(k.key, above);
    const Found f = probe(s, stones, k, above, b);
    int best_code = f.code;
    const int lo = f.lo, hi = f.hi;
    if (f.entry) {
      keep = f.keep;  // the bounds used below rely on the entry's keep
      if (lo >= beta || hi <= alpha || lo == hi) {
        ++st_.hits;
        return lo >= beta ? lo : hi;
      }
      alpha = std::max(alpha, lo);
      beta = std::min(beta, hi);
    }
    auto& ms = stack_[static_cast<size_t>(ply)];
    s.legal_moves(ms);
    // After a pass, passing ends the game (an exact leaf, no search): first
    // (legal_moves lists pass first). Then the stored best move, then by
    // history score (pass included).
    size_t from = s.consecutive_passes() == 1 ? 1 : 0;
    if (best_code)
      for (size_t i = from; i < ms.size(); ++i)
        if (is_code(ms[i], best_code, k.sym)) {
          std::swap(ms[from++], ms[i]);
          break;
        }
    // The history scores read once (a search sharing them may update them
    // meanwhile; the sort needs fixed keys).
    auto& hist = (*history_)[s.to_move() == Color::kWhite ? 1 : 0];
    std::array<uint32_t, 64> score;
    for (size_t i = from; i < ms.size(); ++i)
      score[slot(ms[i])] =
          std::atomic_ref<uint32_t>(hist[slot(ms[i])]).load(std::memory_order_relaxed);
    std::sort(ms.begin() + static_cast<long>(from), ms.end(),
              [&](const Move& x, const Move& y) { return score[slot(x)] > score[slot(y)]; });
    const uint64_t before = st_.nodes;
    const int alpha0 = alpha;
    int best = -kInf;
    const Move* best_move = nullptr;
    typename S::Undo u;
    Board ck;
    for (const Move& m : ms) {
      s.apply(m, u);
      const int taken = 2 * u.removed.count();
      const int v = taken - search(s, taken - beta, taken - std::max(alpha, best), ply + 1, ck);
      s.undo(m, u);
      keep[0] &= ck[0];
      keep[1] &= ck[1];
      if (v > best) {
        best = v;
        best_move = &m;
        if (v >= beta) {
          // A lost update under sharing only weakens the ordering.
          std::atomic_ref<uint32_t> h(hist[slot(m)]);
          h.store(h.load(std::memory_order_relaxed) + (1u << std::min(ply, 20)),
                  std::memory_order_relaxed);
          break;
        }
      }
    }
    // Bounds: fail high gives a lower bound, fail low an upper bound.
    int nlo = -kInf, nhi = kInf;
    if (best >= beta)
      nlo = best;
    else if (best <= alpha0)
      nhi = best;
    else
      nlo = nhi = best;
    // Combine with what the entry knew (its keep is folded into keep).
    nlo = std::max(nlo, lo);
    nhi = std::min(nhi, hi);
    uint64_t word2 = above;
    if (keep != stones) {
      ++st_.partial;
      word2 = above_digest(s, keep, k.sym) | mask_of(stones, keep, k.sym);
    }
    store(b, k.key, word2, nlo, nhi, best_move ? code_of(*best_move, k.sym) : 0,
          st_.nodes - before);
    return best;
  }

  // Bounds as bytes: 0 is "no lower bound", 255 "no upper bound"; a finite
  // bound must lie in -127..126 (a side-3 margin is at most 39 half points;
  // a bound outside is not stored).
  static int decode_lo(uint64_t e) {
    const int x = static_cast<int>((e >> 36) & 0xff);
    return x == 0 ? -kInf : x - 128;
  }
  static int decode_hi(uint64_t e) {
    const int x = static_cast<int>((e >> 44) & 0xff);
    return x == 255 ? kInf : x - 128;
  }

  void store(Entry* b, uint64_t key, uint64_t word2, int lo, int hi, int code, uint64_t work) {
    auto byte = [](int v, int none) -> int {
      if (v <= -kInf || v >= kInf) return none;
      return v < -127 || v > 126 ? -1 : v + 128;
    };
    const int lb = byte(lo, 0), hb = byte(hi, 255);
    if (lb < 0 || hb < 0) return;
    const uint64_t lg = std::min<uint64_t>(63, std::bit_width(work));
    Entry e;
    e.w = (key + 1) | (uint64_t(lb) << 36) | (uint64_t(hb) << 44) | (uint64_t(code) << 52) |
          (lg << 57);
    e.above = word2;
    int victim = 0;
    uint64_t least = ~uint64_t{0};
    for (int i = 0; i < kWays; ++i) {
      const Entry x = Table::read(b[i]);
      if (x.w == 0 || ((x.w & kKeyMask) == key + 1 && x.above == word2)) {
        if (x.w == 0) ++st_.stored;
        Table::write(b[i], e);
        return;
      }
      const uint64_t w = (x.w >> 57) & 63;
      if (w < least) {
        least = w;
        victim = i;
      }
    }
    if (lg >= least) Table::write(b[victim], e);
  }

  Config cfg_;
  DenseCodec codec_;
  const HexGeometry* geo_;
  std::array<int, 12> inverse_{};  ///< HexGeometry::inverse, looked up per node
  Table table_;
  std::vector<std::vector<Move>> stack_;
  /// History scores per colour and move: this search's own (allocated
  /// unless it shares), or those of the search whose table it shares (the
  /// openings' searches teach each other move order, as one search does
  /// from opening to opening: a fresh history for each opening took 7
  /// times the nodes on a side-3 test).
  using History = std::array<std::array<uint32_t, 64>, 2>;
  std::unique_ptr<History> own_history_ = std::make_unique<History>();
  History* history_ = own_history_.get();
  Stats st_;
  NodeBudget budget_{cfg_.max_nodes, cfg_.grant};
};

}  // namespace loom::solver
