// Alpha-beta for scored games with positional superko (Fiodar) whose table
// is keyed by the board (`loom solve --method superko`), on boards of at
// most 19 cells (the base-3 index of solver/dense.h).
//
// Graph-history interaction. Superko makes the legal moves depend on the
// earlier boards, so a result found under one history is not in general
// valid under another (Kishimoto and Mueller, "A solution to the GHI problem
// for depth-first proof-number search", 2004). DfsSolver keys its table
// with the whole history (few transpositions, 1,250 bytes a Fiodar side-3
// position). This search keys it by what can still matter:
//
//   key = board, side to move, play state (passes; the first passer under
//         half=first-pass-of-game), and the set A of *boards above*: the
//         history boards X of each colour c with X[c] a strict superset of
//         c's stones now (S::for_each_above), as a 64-bit digest.
//
// and stores a result only if it is *clean*: at every explored node
// superko refused no move (S::superko_refuses, exact), and no explored line
// removed a stone that is on the board now (the intersection of each
// colour's stones over the explored nodes is the board's own). Why a clean
// result found at N (board B) under history H holds under every history H'
// with the same A:
//
// - A placement s of colour c at an explored node D results in R with
//   R[c] = D[c] + s, a strict superset of D[c], which holds B[c] (clean).
//   It is refused iff R is in c's history: the boards played from N to D
//   (the same under H and H') or a board of H_c with R[c] a strict
//   superset of B[c], that is a board of A, also the same. So D refuses
//   under H' exactly what it refuses under H: nothing.
// - So every explored node has the same moves, every leaf the same score
//   (scores count only what is still to come, below), and a table hit at D
//   finds the same entry: D's own A under H' equals that under H (a board
//   above D is above B, and those are A's), so the key is the same.
// - By induction over the order in which entries are written, every entry
//   holds for every position with its key. A result that is not clean is
//   returned but not stored (Stats::unclean, Stats::lossy).
//
// The digest of A is the one hash the key relies on: two different sets of
// boards above with the same 64-bit digest (a sum of mixed exact base-3
// indices in the canonical frame) would share an entry. The board part of
// the key is exact; A is empty (digest 0) until a capture.
//
// Scores are in half points, from the mover's side, and count only what is
// still to come: the final margin less the prisoners taken so far (a
// capture shifts a child's value by twice the stones taken), so positions
// with the same board but other prisoner counts share their entry.
//
// Entries are 16 bytes, buckets of 4 (64 bytes): the digest of A, and a
// word
//   bits  0-35  key + 1 (0: empty slot): (base-3 board and side) * 8 + the
//               play state;
//   bits 36-43  lower bound + 128 (0: none); bits 44-51 upper bound + 128
//               (255: none);
//   bits 52-56  the best move in the canonical frame (0 none, 1-19 the
//               compact site + 1, 31 pass), tried first;
//   bits 57-62  log2 of the nodes below (replacement: least work).
// Symmetry (on by default): the key is the least of the 12 images; A's
// digest is taken in that image's frame. The root value comes from MTD(f)
// (null-window searches).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <concepts>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "model/common/bitboard.h"
#include "model/common/errors.h"
#include "model/common/game.h"
#include "solver/dense.h"
#include "solver/huge_pages.h"

namespace loom::solver {

/// A game with positional superko whose model can tell when the history
/// cannot matter (model/fiodar: superko_refuses, for_each_above).
template <class S>
concept SuperkoGame = Game<S> && requires(const S& s, Color c, const typename S::Undo& u) {
  { s.superko_refuses() } -> std::convertible_to<bool>;
  {s.for_each_above([](Color, const std::array<Bitboard<1>, 2>&) {})};
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
 public:
  using Move = typename S::Move;
  static constexpr int kMaxPly = 1024;
  static constexpr int kWays = 4;
  static constexpr int kInf = 1 << 20;
  static constexpr int kPassCode = 31;

  struct Config {
    uint64_t table_bytes = uint64_t{64} << 20;
    uint64_t max_nodes = 0;  ///< 0: no limit
    bool symmetry = true;
    /// Called every 2^20 nodes (progress, interruption: it may throw).
    std::function<void()> tick;
  };

  struct Stats {
    uint64_t nodes = 0;    ///< positions searched (table hits and leaves included)
    uint64_t hits = 0;     ///< table answers used
    uint64_t stored = 0;   ///< entries written into empty slots
    uint64_t unclean = 0;  ///< results not stored: they may depend on the history
    uint64_t lossy = 0;    ///< results not stored: a line removed a stone of the board
  };

  SuperkoDfs(const S& proto, Config cfg)
      : cfg_(cfg), codec_(proto.geo(), cfg.symmetry), geo_(&proto.geo()), stack_(kMaxPly + 2) {
    uint64_t buckets =
        std::bit_floor(std::max<uint64_t>(cfg.table_bytes / (sizeof(Entry) * kWays), 1));
    mask_ = buckets - 1;
    table_.assign(buckets * kWays, Entry{});
    for (int k = 0; k < 12; ++k) inverse_[k] = HexGeometry::inverse(k);
  }

  /// The exact value of `root` (not over) in half points from the mover's
  /// side, counting only what is still to come (prisoners taken so far
  /// excluded). MTD(f): null-window searches from `guess`.
  int value(const S& root, int guess = 1) {
    int lo = -kInf, hi = kInf, g = guess;
    S s = root;
    while (lo < hi) {
      const int beta = g == lo ? g + 1 : g;
      Dep dep;
      g = search(s, beta - 1, beta, 0, dep);
      if (g < beta)
        hi = g;
      else
        lo = g;
    }
    return g;
  }

  const Stats& stats() const { return st_; }
  uint64_t nodes() const { return st_.nodes; }
  uint64_t table_bytes() const { return table_.size() * sizeof(Entry); }
  int symmetries() const { return codec_.symmetries(); }

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
  /// A table entry (16 bytes): the word described above and the digest of
  /// the boards above (above_digest).
  struct Entry {
    uint64_t w = 0;
    uint64_t above = 0;
  };
  Entry* bucket(uint64_t key, uint64_t above) {
    uint64_t h = (key + 1 + above) * 0x9e3779b97f4a7c15ull;
    return &table_[((h >> 27) & mask_) * kWays];
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

  /// What a result depends on: clean (no explored node had a move refused
  /// by superko) and, per colour, the stones of that colour on the board at
  /// every explored node (the intersection). A clean result whose keep is
  /// the board's own stones holds under every history with the same boards
  /// above the board (see the file comment).
  struct Dep {
    bool clean = true;
    std::array<Bitboard<1>, 2> keep{};
  };

  /// The boards above the position (S::for_each_above) as one 64-bit
  /// digest, in the canonical frame: a sum of mixed exact base-3 indices,
  /// so it does not depend on their order or on the symmetry. 0: none.
  uint64_t above_digest(const S& s, int sym) const {
    uint64_t d = 0;
    s.for_each_above([&](Color c, const std::array<Bitboard<1>, 2>& x) {
      uint64_t idx = uint64_t{codec_.weight(sym, x[0].w[0])} + 2 * codec_.weight(sym, x[1].w[0]);
      uint64_t z = idx * 2 + (c == Color::kWhite ? 1 : 0) + 0x9e3779b97f4a7c15ull;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      d += (z ^ (z >> 31)) | 1;
    });
    return d;
  }

  int search(S& s, int alpha, int beta, int ply, Dep& dep) {
    if (cfg_.max_nodes && st_.nodes >= cfg_.max_nodes) throw SuperkoNodeLimit{};
    if ((++st_.nodes & ((1u << 20) - 1)) == 0 && cfg_.tick) cfg_.tick();
    const std::array<Bitboard<1>, 2> stones{s.stones(Color::kBlack), s.stones(Color::kWhite)};
    dep.keep = stones;
    if (s.is_terminal()) {
      dep.clean = true;
      return leaf_value(s);
    }
    if (ply >= kMaxPly)
      throw InputError("--method superko: a line of play longer than " + std::to_string(kMaxPly) +
                       " plies");
    const Key k = key_of(s);
    const uint64_t above = above_digest(s, k.sym);
    Entry* b = bucket(k.key, above);
    int best_code = 0;
    int lo = -kInf, hi = kInf;
    for (int i = 0; i < kWays; ++i)
      if ((b[i].w & kKeyMask) == k.key + 1 && b[i].above == above) {
        const Entry& e = b[i];
        best_code = static_cast<int>((e.w >> 52) & 31);
        lo = decode_lo(e.w);
        hi = decode_hi(e.w);
        if (lo >= beta || hi <= alpha || lo == hi) {
          ++st_.hits;
          dep.clean = true;
          return lo >= beta ? lo : hi;
        }
        alpha = std::max(alpha, lo);
        beta = std::min(beta, hi);
        break;
      }
    dep.clean = !s.superko_refuses();
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
    auto& hist = history_[s.to_move() == Color::kWhite ? 1 : 0];
    std::sort(ms.begin() + static_cast<long>(from), ms.end(),
              [&](const Move& x, const Move& y) { return hist[slot(x)] > hist[slot(y)]; });
    const uint64_t before = st_.nodes;
    const int alpha0 = alpha;
    int best = -kInf;
    const Move* best_move = nullptr;
    typename S::Undo u;
    Dep cd;
    for (const Move& m : ms) {
      s.apply(m, u);
      const int taken = 2 * u.removed.count();
      const int v = taken - search(s, taken - beta, taken - std::max(alpha, best), ply + 1, cd);
      s.undo(m, u);
      dep.clean = dep.clean && cd.clean;
      dep.keep[0] &= cd.keep[0];
      dep.keep[1] &= cd.keep[1];
      if (v > best) {
        best = v;
        best_move = &m;
        if (v >= beta) {
          hist[slot(m)] += 1u << std::min(ply, 20);
          break;
        }
      }
    }
    if (!dep.clean) {
      ++st_.unclean;
      return best;
    }
    if (dep.keep != stones) {
      ++st_.lossy;
      return best;
    }
    // Bounds: fail high gives a lower bound, fail low an upper bound.
    int nlo = -kInf, nhi = kInf;
    if (best >= beta)
      nlo = best;
    else if (best <= alpha0)
      nhi = best;
    else
      nlo = nhi = best;
    // Combine with what the entry knew (it was clean too).
    nlo = std::max(nlo, lo);
    nhi = std::min(nhi, hi);
    store(b, k.key, above, nlo, nhi, best_move ? code_of(*best_move, k.sym) : 0,
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

  void store(Entry* b, uint64_t key, uint64_t above, int lo, int hi, int code, uint64_t work) {
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
    e.above = above;
    int victim = 0;
    uint64_t least = ~uint64_t{0};
    for (int i = 0; i < kWays; ++i) {
      if (b[i].w == 0 || ((b[i].w & kKeyMask) == key + 1 && b[i].above == above)) {
        if (b[i].w == 0) ++st_.stored;
        b[i] = e;
        return;
      }
      const uint64_t w = (b[i].w >> 57) & 63;
      if (w < least) {
        least = w;
        victim = i;
      }
    }
    if (lg >= least) b[victim] = e;
  }

  Config cfg_;
  DenseCodec codec_;
  const HexGeometry* geo_;
  std::array<int, 12> inverse_{};  ///< HexGeometry::inverse, looked up per node
  HugeVector<Entry> table_;        ///< on huge pages: every probe is a cache miss
  uint64_t mask_ = 0;
  std::vector<std::vector<Move>> stack_;
  std::array<std::array<uint32_t, 64>, 2> history_{};  ///< per colour
  Stats st_;
};

}  // namespace loom::solver
