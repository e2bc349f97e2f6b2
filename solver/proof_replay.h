// A second proof of a superko result (`loom solve --method superko
// --replay`): the proof tree of each bound on the value is played out move
// by move on the model's own state, whose legal moves come from the whole
// superko history, and every leaf is scored by the model's outcome. The
// superko search (solver/superko_dfs.h) is asked only which move to try
// at the prover's nodes (SuperkoDfs::test and its stored best move); a
// wrong answer can make the replay fail, never succeed wrongly.
//
// Claims are about Black's final margin in half points (prisoners already
// taken included): "at least b" is proved by Black (one move at Black's
// nodes, every legal move at White's), "at most b" by White.
//
// Transpositions. A proved claim is reused at another node only under a
// condition checked with exact sets (no digests): same board, side to move
// and play state, and the same set
// R_K(H) = {(c, X): X a board of c's history, X[c] a strict superset of
// K[c]}, where K is the stones present at every node the proof relied on
// (the nodes of the proof tree below: the prover's chosen child only, the
// opponent's every child; an entry reused inside folds its own K in). A
// placement of c at such a node D gives R with R[c] a strict superset of
// D[c], which holds K[c]; superko refuses it iff R is a board of c's
// history (the boards played since the node, the same under both
// histories, or a board of R_K). So every node of the proof has the same
// legal moves under both histories and the proof carries over. This is the
// argument of superko_dfs.h, checked here by separate code over exact sets
// instead of 45-bit digests and on the proof tree only.
//
// Most proofs are reused under a weaker condition. If superko refused no
// placement at any opponent's node of the proof (Fiodar's superko rarely
// refuses anything), the claim proved under H holds under every H2 whose
// R'_K(H2) is a subset of R'_K(H), where R'_K keeps only the boards of R_K
// that also hold K[c'] for the other colour c'. Every move the proof plays
// gives a node of the proof, whose board holds K (both colours), and it was
// legal under H: were its board in H2 it would be in R'_K(H2), so in H. So
// the prover's chosen moves stay legal, and the opponent's legal moves stay
// legal; the opponent gains none, since superko refused none under H. The
// flag "refused" travels up with the keep (an entry reused inside passes
// its own up); a refused proof is stored with R_K and reused only where R_K
// is the same, as above. An entry reused inside a proof reused this way
// still holds: its own condition follows from the proof's, since its keep
// contains K.
//
// Symmetry. If the game is invariant under a board symmetry g, a proof at
// a node with history H maps move by move to a proof at its image with
// history g(H). So a claim is stored in the frame of the symmetry that makes
// its position smallest, with its keep and R_K mapped by the same symmetry,
// and a node looks it up in its own such frame; the symmetries used are the
// oracle's (all 12 if it uses them) or a list given by the caller.
//
// At the prover's nodes a child whose claim the memo already holds is
// taken before the oracle's move (no proof tree below it to play out).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <concepts>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <vector>

#include "model/common/bitboard.h"
#include "model/common/errors.h"
#include "model/common/game.h"
#include "model/common/hex.h"
#include "solver/superko_dfs.h"

namespace loom::solver {

/// A history entry's board: the entry itself, or its `board` member.
template <class E>
const std::array<Bitboard<1>, 2>& history_board(const E& e) {
  if constexpr (requires { e.board; })
    return e.board;
  else
    return e;
}

/// A superko game whose state lists each player's history boards.
template <class S>
concept HistoryGame = SuperkoGame<S> && requires(const S& s, Color c) {
  { history_board(*s.history(c).begin()) } -> std::convertible_to<std::array<Bitboard<1>, 2>>;
  { s.superko_refuses() } -> std::convertible_to<bool>;
};

template <HistoryGame S>
class ProofReplay {
 public:
  using Move = typename S::Move;
  using Board = std::array<Bitboard<1>, 2>;

  struct Stats {
    uint64_t nodes = 0;         ///< nodes of the proof trees played out (memo hits included)
    uint64_t leaves = 0;        ///< finished games scored by the model
    uint64_t hits = 0;          ///< claims reused from the memo
    uint64_t stored = 0;        ///< memo entries (each: proved bounds under one key)
    uint64_t oracle_nodes = 0;  ///< nodes the superko search spent answering
    uint64_t sets = 0;          ///< distinct R_K sets in the pool
    uint64_t pool_full = 0;     ///< claims not stored: the pool of R_K sets was full
    uint64_t kept_out = 0;      ///< claims not stored: the bucket held costlier ones
  };

  /// `oracle` is a superko search over the same game (its table is reused
  /// when warm); the memo stops growing at about `max_bytes`, and keeps
  /// only claims whose proof took at least `min_work` nodes (most nodes sit
  /// next to the leaves, where proving again is cheaper than storing).
  /// Claims are shared between the images of a position under
  /// `symmetries` (board symmetries under which the game is invariant; by
  /// default all 12 if the oracle uses symmetry, else none).
  explicit ProofReplay(SuperkoDfs<S>& oracle, uint64_t max_bytes = uint64_t{1} << 30,
                       uint64_t min_work = 1, std::vector<int> symmetries = {})
      : oracle_(&oracle), geo_(&oracle.geo()), min_work_(min_work) {
    if (geo_->num_sites() > 19 || geo_->slots() > 32)
      throw InputError("--replay: boards of at most 19 cells");
    // No more buckets than the board has positions (a claim is keyed by
    // its position): a 7-cell board took 16 MB of a 64 MB memo.
    const uint64_t buckets = table_buckets(max_bytes / 4, sizeof(Slot) * kWays, oracle.key_count());
    bucket_mask_ = buckets - 1;
    slots_.assign(buckets * kWays, Slot{});
    // The pool of R_K sets: an eighth of its budget for the index (at most
    // half full), the rest for the sets' elements and their offsets.
    const uint64_t pool = max_bytes / 4 * 3;
    index_.assign(std::bit_floor(std::max<uint64_t>(pool / 8 / sizeof(uint64_t), 2)), 0);
    elems_budget_ = std::max<uint64_t>(pool / 8 * 7 / sizeof(uint64_t), 16);
    elems_.reserve(elems_budget_);
    starts_.reserve(index_.size() / 2 + 1);
    if (symmetries.empty())
      for (int g = 0; g < (oracle.symmetries() > 1 ? kNumSymmetries : 1); ++g)
        symmetries.push_back(g);
    if (symmetries.front() != 0) symmetries.insert(symmetries.begin(), 0);
    if (symmetries.size() > size_t{kNumSymmetries} ||
        std::any_of(symmetries.begin(), symmetries.end(),
                    [](int g) { return g < 0 || g >= kNumSymmetries; }))
      throw std::invalid_argument("ProofReplay: symmetries are 0-11, each once");
    nsym_ = static_cast<int>(symmetries.size());
    for (int j = 0; j < nsym_; ++j) syms_[j] = symmetries[static_cast<size_t>(j)];
    for (int g = 0; g < kNumSymmetries; ++g) inverse_[g] = HexGeometry::inverse(g);
    for (int g = 0; g < kNumSymmetries; ++g)
      for (int part = 0; part < 4; ++part)
        for (uint32_t bits = 0; bits < 256; ++bits) {
          uint32_t m = 0;
          for (int i = 0; i < 8; ++i) {
            const int site = part * 8 + i;
            if ((bits >> i & 1) && geo_->is_site(site))
              m |= uint32_t{1} << geo_->compact(geo_->map_site(g, site));
          }
          padded_[g][part][bits] = m;
        }
  }

  /// Whether Black's final margin (half points) from `root` is at least
  /// (at_least) or at most `b` under best play, proved by playing out the
  /// proof tree. False: no proof found (the oracle was wrong, or the claim).
  bool prove(const S& root, bool at_least, int b) {
    S s = root;
    Board keep;
    bool refused = false;
    // The oracle's work is counted even when a tick throws.
    struct Count {
      ProofReplay* r;
      uint64_t before;
      ~Count() { r->st_.oracle_nodes += r->oracle_->nodes() - before; }
    } count{this, oracle_->nodes()};
    return claim(s, at_least, b, keep, refused, 0);
  }

  const Stats& stats() const { return st_; }

  /// Called every 2^20 proof nodes (progress, interruption: it may throw).
  std::function<void()> tick;

 private:
  static Board board_of(const S& s) { return {s.stones(Color::kBlack), s.stones(Color::kWhite)}; }
  static int black_margin(const S& s) { return s.outcome().margin2; }
  static int past(const S& s) {
    return 2 * (s.prisoners(Color::kBlack) - s.prisoners(Color::kWhite));
  }
  static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

  /// The cells of a board over the compact indices, and their image under
  /// symmetry g.
  uint64_t cells(Bitboard<1> b, int g = 0) const {
    const uint64_t w = b.w[0];
    const auto& t = padded_[g];
    return t[0][w & 255] | t[1][w >> 8 & 255] | t[2][w >> 16 & 255] | t[3][w >> 24 & 255];
  }

  /// A node's place in the memo: its position (both colours' cells, play
  /// state and side to move; claims are on the margin still to come, so
  /// prisoners taken before the node do not matter) in the frame of the
  /// symmetry g that makes it smallest (the first such g).
  struct Frame {
    uint64_t pos = 0;  ///< bits 0-41
    int g = 0;
    uint64_t bucket = 0;  ///< the bucket: a hash of pos
  };
  Frame frame_of(const S& s) const {
    const Bitboard<1> b = s.stones(Color::kBlack), w = s.stones(Color::kWhite);
    const uint64_t state = s.play_state() * 2 + (s.to_move() == Color::kWhite ? 1u : 0u);
    Frame f{cells(b) | cells(w) << 19, 0};
    for (int j = 1; j < nsym_; ++j) {
      const int g = syms_[j];
      const uint64_t k = cells(b, g) | cells(w, g) << 19;
      if (k < f.pos) f = {k, g};
    }
    f.pos |= state << 38;
    f.bucket = mix(f.pos) & bucket_mask_;
    return f;
  }

  /// R_K in frame g: the history boards X of each colour c whose c-stones
  /// strictly contain keep[c], each packed as colour (bit 38), white cells
  /// (bits 19-37) and black cells (bits 0-18) after g, sorted, in rel_.
  /// With `whole`, R'_K: only the X that also hold the other colour's keep.
  void relevant(const S& s, const Board& keep, int g, bool whole) {
    rel_.clear();
    for (Color c : {Color::kBlack, Color::kWhite}) {
      const int i = c == Color::kBlack ? 0 : 1;
      const Bitboard<1>& k = keep[static_cast<size_t>(i)];
      const Bitboard<1>& ko = keep[static_cast<size_t>(1 - i)];
      for (const auto& e : s.history(c)) {
        const Board& h = history_board(e);
        const Bitboard<1>& x = h[static_cast<size_t>(i)];
        if (x != k && k.andnot(x).none() &&
            (!whole || ko.andnot(h[static_cast<size_t>(1 - i)]).none()))
          rel_.push_back(uint64_t(i) << 38 | cells(h[1], g) << 19 | cells(h[0], g));
      }
    }
    std::sort(rel_.begin(), rel_.end());
    rel_.erase(std::unique(rel_.begin(), rel_.end()), rel_.end());
  }

  /// The pool of distinct R_K sets: set i (from 1) is
  /// elems_[starts_[i-1], starts_[i]) (starts_[0] = 0); index_ is an open
  /// addressing table of (hash high half << 32 | id), 0 empty.
  uint64_t hash_rel() const {
    uint64_t h = 0x9e3779b97f4a7c15ull ^ rel_.size();
    for (uint64_t x : rel_) h = mix(h ^ x);
    return h;
  }
  /// Whether rel_ is a subset of pool set id (both sorted).
  bool rel_within(uint32_t id) const {
    if (id == 0) return rel_.empty();
    const auto a = elems_.begin() + static_cast<std::ptrdiff_t>(starts_[id - 1]);
    const auto z = elems_.begin() + static_cast<std::ptrdiff_t>(starts_[id]);
    return std::includes(a, z, rel_.begin(), rel_.end());
  }
  bool same_rel(uint32_t id) const {
    const uint64_t a = starts_[id - 1], n = starts_[id] - a;
    return n == rel_.size() &&
           std::equal(rel_.begin(), rel_.end(), elems_.begin() + static_cast<std::ptrdiff_t>(a));
  }
  /// The pool index of rel_ (0: the empty set; -1: not in the pool, and
  /// index_[slot] is where it would go, with hash h).
  int64_t find_rel(uint64_t& slot, uint64_t& h) const {
    if (rel_.empty()) return 0;
    h = hash_rel();
    const uint64_t mask = index_.size() - 1;
    for (slot = h & mask;; slot = (slot + 1) & mask) {
      const uint64_t e = index_[slot];
      if (e == 0) return -1;
      const auto id = static_cast<uint32_t>(e);
      if ((e >> 32) == (h >> 32) && same_rel(id)) return id;
    }
  }
  /// The pool index of rel_, added if missing (-1: the pool is full).
  int64_t intern_rel() {
    uint64_t slot = 0, h = 0;
    if (const int64_t id = find_rel(slot, h); id >= 0) return id;
    if (2 * (starts_.size() + 1) > index_.size() || elems_.size() + rel_.size() > elems_budget_ ||
        starts_.size() >= 0xfffffffeu)
      return -1;
    elems_.insert(elems_.end(), rel_.begin(), rel_.end());
    starts_.push_back(elems_.size());
    const auto id = static_cast<uint32_t>(starts_.size() - 1);
    index_[slot] = (h >> 32) << 32 | id;
    ++st_.sets;
    return id;
  }

  /// The memo: buckets of kWays 16-byte slots. A slot's exact key packs
  /// the position in its frame (Frame::pos) and the cells of the board
  /// missing from the keep K (bits 42-60, in the frame); R_K is the index
  /// of its exact set (in the frame) in the pool. The bucket depends on the
  /// position only, so every keep stored for it is in one bucket (spreading
  /// a position's claims over buckets by R_B, which every lookup knows,
  /// stored four times as many claims but took 32.3 M proof nodes instead
  /// of 19.0 M five stones into side 3). Bounds: the margin still to come
  /// >= lo, <= hi.
  static constexpr int kWays = 16;
  struct Slot {
    uint64_t key = 0;  ///< packed key + 1 (0: empty)
    uint32_t rel = 0;
    int8_t lo = -128, hi = 127;  ///< -128 / 127: none
    uint8_t work = 0;            ///< log2 of the proof's nodes (replacement)
    uint8_t exact = 0;           ///< 1: rel is R_K (match it exactly); 0: R'_K (hold it)
  };
  static_assert(sizeof(Slot) == 16);

  Slot* bucket_of(const Frame& f) { return &slots_[f.bucket * kWays]; }
  /// The keep a slot's missing-cells mask (in frame g) stands for at board b.
  Board keep_of(const Board& b, uint64_t missing, int g) const {
    Board k = b;
    for (uint64_t m = missing; m; m &= m - 1) {
      const int site = geo_->map_site(inverse_[g], geo_->site_of_compact(std::countr_zero(m)));
      k[0].reset(site);
      k[1].reset(site);
    }
    return k;
  }

  /// Whether the memo proves the claim (the margin still to come >= fb or
  /// <= fb) at s; if so keep and refused are the entry's.
  bool memo_proves(const S& s, const Frame& f, bool at_least, int fb, Board& keep, bool& refused) {
    const Board board = board_of(s);
    const Slot* const bk = bucket_of(f);
    uint64_t last = ~uint64_t{0};  // the last keep and kind whose set is in rel_
    int64_t last_rel = -1;         // its pool index (exact kind)
    for (int i = 0; i < kWays; ++i) {
      const Slot& e = bk[i];
      if (e.key == 0 || ((e.key - 1) & ((uint64_t{1} << 42) - 1)) != f.pos) continue;
      if (at_least ? (e.lo == -128 || e.lo < fb) : (e.hi == 127 || e.hi > fb)) continue;
      const uint64_t missing = (e.key - 1) >> 42;
      const Board k = keep_of(board, missing, f.g);
      if ((missing << 1 | e.exact) != last) {
        relevant(s, k, f.g, !e.exact);
        uint64_t slot = 0, h = 0;
        if (e.exact) last_rel = find_rel(slot, h);
        last = missing << 1 | e.exact;
      }
      if (e.exact ? last_rel != int64_t{e.rel} : !rel_within(e.rel)) continue;
      keep = k;
      refused = e.exact != 0;
      return true;
    }
    return false;
  }

  /// Proves the claim at s (the node's board is folded into keep; refused:
  /// superko refused a placement at an opponent's node of the proof).
  bool claim(S& s, bool at_least, int b, Board& keep, bool& refused, int ply) {
    const uint64_t first = st_.nodes++;
    if ((first & ((1u << 20) - 1)) == 0 && tick) tick();
    keep = board_of(s);
    refused = false;
    if (s.is_terminal()) {
      ++st_.leaves;
      const int m = black_margin(s);
      return at_least ? m >= b : m <= b;
    }
    const Frame f = frame_of(s);
    const int fb = b - past(s);  // the claim on the margin still to come
    const Board board = keep;
    if (memo_proves(s, f, at_least, fb, keep, refused)) {
      ++st_.hits;
      return true;
    }
    if (moves_.size() <= static_cast<size_t>(ply)) moves_.resize(static_cast<size_t>(ply) + 1);
    auto& ms = moves_[static_cast<size_t>(ply)];
    s.legal_moves(ms);
    typename S::Undo u;
    Board ck;
    bool cr = false;
    auto fold = [&] {  // a child's proof is part of this one
      keep[0] &= ck[0];
      keep[1] &= ck[1];
      refused = refused || cr;
    };
    const bool prover = (s.to_move() == Color::kBlack) == at_least;
    bool ok = true;
    if (prover) {
      ok = false;
      // A child the memo already proves, if any (no proof tree below it).
      for (const Move& m : ms) {
        s.apply(m, u);
        bool known = false;
        const bool leaf = s.is_terminal();
        if (leaf) {
          ck = board_of(s);
          cr = false;
          known = at_least ? black_margin(s) >= b : black_margin(s) <= b;
        } else {
          known = memo_proves(s, frame_of(s), at_least, b - past(s), ck, cr);
        }
        s.undo(m, u);
        if (known) {
          ++st_.nodes;
          ++(leaf ? st_.leaves : st_.hits);
          fold();
          ok = true;
          break;
        }
      }
      // Else the oracle's move first, then any other the oracle says holds.
      const int t = s.to_move() == Color::kBlack ? 1 : -1;
      const int beta = t * (b - past(s));  // the mover's future value needed
      if (!ok && oracle_->test(s, beta) >= beta) {
        if (const auto m = oracle_->stored_move(s)) {
          const auto i = std::find(ms.begin(), ms.end(), *m);
          if (i != ms.end()) std::rotate(ms.begin(), i, i + 1);
        }
        for (const Move& m : ms) {
          s.apply(m, u);
          // The child's value (its mover's side) must be at most
          // taken - beta: below the null window at taken - beta + 1.
          const int cut = 2 * static_cast<int>(u.removed.count()) - beta + 1;
          const bool holds = s.is_terminal() || oracle_->test(s, cut) < cut;
          const bool proved = holds && claim(s, at_least, b, ck, cr, ply + 1);
          s.undo(m, u);
          if (proved) {
            fold();
            ok = true;
            break;
          }
        }
      }
    } else {
      // Every legal move is answered; a move superko refuses here must stay
      // refused wherever the claim is reused.
      refused = s.superko_refuses();
      for (const Move& m : ms) {
        s.apply(m, u);
        ok = claim(s, at_least, b, ck, cr, ply + 1);
        s.undo(m, u);
        if (!ok) break;
        fold();
      }
    }
    if (ok && st_.nodes - first >= min_work_ && fb >= -127 && fb <= 126)
      store(s, f, board, keep, refused, at_least, fb, st_.nodes - first);
    return ok;
  }

  /// Adds a proved claim (the margin still to come >= fb, or <= fb) for
  /// the node s in frame f, with board `board` and keep `keep`.
  void store(const S& s, const Frame& f, const Board& board, const Board& keep, bool refused,
             bool at_least, int fb, uint64_t work) {
    relevant(s, keep, f.g, !refused);
    const int64_t rel = intern_rel();
    if (rel < 0) {
      ++st_.pool_full;
      return;
    }
    const uint64_t missing = cells((board[0] | board[1]).andnot(keep[0] | keep[1]), f.g);
    const uint64_t key = (f.pos | missing << 42) + 1;
    const auto lg = static_cast<uint8_t>(std::bit_width(work));
    Slot* const bk = bucket_of(f);
    Slot* victim = nullptr;
    for (int i = 0; i < kWays; ++i) {
      Slot& e = bk[i];
      if (e.key == key && e.rel == static_cast<uint32_t>(rel) && e.exact == refused) {
        victim = &e;
        break;
      }
      if (!victim || (victim->key != 0 && (e.key == 0 || e.work < victim->work))) victim = &e;
    }
    if (victim->key != key || victim->rel != static_cast<uint32_t>(rel) ||
        victim->exact != refused) {
      if (victim->key != 0 && victim->work > lg) {
        ++st_.kept_out;
        return;
      }
      if (victim->key == 0) ++st_.stored;
      *victim = Slot{key, static_cast<uint32_t>(rel), -128, 127, lg, refused};
    }
    if (at_least)
      victim->lo = static_cast<int8_t>(std::max<int>(victim->lo == -128 ? -127 : victim->lo, fb));
    else
      victim->hi = static_cast<int8_t>(std::min<int>(victim->hi == 127 ? 126 : victim->hi, fb));
    victim->work = std::max(victim->work, lg);
  }

  SuperkoDfs<S>* oracle_;
  const HexGeometry* geo_;
  uint64_t min_work_;
  int nsym_ = 1;
  std::array<int, kNumSymmetries> syms_{};  ///< the symmetries used (syms_[0] = 0)
  std::array<int, kNumSymmetries> inverse_{};
  /// A board's padded bits, byte by byte, to its compact cells after g.
  std::array<std::array<std::array<uint32_t, 256>, 4>, kNumSymmetries> padded_{};
  std::vector<Slot> slots_;
  uint64_t bucket_mask_ = 0;
  std::vector<uint64_t> rel_;  ///< the R_K set being looked up or stored
  std::vector<uint64_t> elems_;
  std::vector<uint64_t> starts_{0};
  std::vector<uint64_t> index_;
  uint64_t elems_budget_ = 0;
  std::deque<std::vector<Move>> moves_;  ///< move lists per ply (a deque: growing keeps references)
  Stats st_;
};

}  // namespace loom::solver
