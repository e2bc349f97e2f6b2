// Fiodar (RULES.md section 2 and the Fiodar clarifications of section 7; seed 000).
//
// Threads are maximal runs of one colour along one of the three lines; a thread
// is cut when the points just beyond both ends are enemy stones (`cut=gap`:
// the first stone met beyond each end, over empty points, is an enemy stone;
// the edge never cuts). A weave (connected group) is cut when each of its
// stones lies on a cut thread. A turn is a pass or a placement that removes
// every cut enemy weave (judged right after placing, all together); it is
// illegal if a friendly weave is then cut (`suicide=capture-first`: unless it
// removed something) or if the board repeats an end-of-turn board of the same
// player (superko, passes included). Two passes in a row end the game; score =
// territory + prisoners + a half point for the first of the two final passes
// (`half=first-pass-of-game`: for the first player who passed at all).
//
// Speed. Cut status is computed with bitboard line fills: for each of the six
// directions, the stones whose run in that direction ends at a cutter are
// found by shifting along the line (no per-stone walks). Move generation
// precomputes per position which empty points could change any cut status
// (complete a cut of an enemy thread, or lie on a cut thread themselves);
// every other empty point is a plain placement that only needs the superko
// test, itself done once per position against the mover's history.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/common/bitboard.h"
#include "model/common/game.h"
#include "model/common/hex.h"
#include "model/common/rules.h"
#include "model/common/zobrist.h"

namespace loom::fiodar {

inline constexpr int kDefaultSide = 7;

struct Options {
  bool cut_gap = false;             ///< cut=gap
  bool capture_first = false;       ///< suicide=capture-first
  bool half_first_of_game = false;  ///< half=first-pass-of-game
  static std::vector<RuleSpec> specs();
  static Options from(const RuleSet& rules);
  bool operator==(const Options&) const = default;
};

/// Immutable per-game data shared by all states of one game: geometry,
/// options, Zobrist keys.
template <int W>
struct Context {
  Context(int side, Options o)
      : masks(HexMasks<W>::get(side)),
        opt(o),
        keys(zobrist_keys(0x666964646172ull /* "fiodar" */,
                          2 * HexGeometry::get(side).slots() + kExtraKeys)) {}
  const HexMasks<W>& masks;
  Options opt;
  /// [site*2 + colour], then kExtraKeys more: 0 side to move is White,
  /// 1-2 consecutive passes 1 and 2, 3-4 first passer Black/White, 5-6 the
  /// two history sums, 7 prisoners, 8 the history entry mix.
  std::vector<uint64_t> keys;
  static constexpr int kExtraKeys = 9;
  uint64_t key(int site, Color c) const { return keys[site * 2 + idx(c)]; }
  /// The same game: side and options (two contexts made alike, e.g. one per
  /// game of a puzzle file, compare their states as equal).
  bool same_game(const Context& o) const {
    return this == &o || (&masks == &o.masks && opt == o.opt);
  }
  uint64_t extra(int i) const { return keys[keys.size() - kExtraKeys + i]; }
};

/// A board: stones[idx(colour)]. The unit of superko comparison.
template <int W>
using Board = std::array<Bitboard<W>, 2>;

/// One entry of a player's superko history: an end-of-turn board and its
/// Zobrist hash (State::board_hash of that board).
template <int W>
struct HistoryEntry {
  uint64_t hash = 0;
  Board<W> board{};
  bool operator==(const HistoryEntry&) const = default;
};

/// What a placement on an empty point does (State::analyse).
template <int W>
struct Placement {
  Bitboard<W> removed;       ///< enemy stones removed (the cut enemy weaves)
  Bitboard<W> friendly_cut;  ///< friendly stones in weaves cut after the removals
  Board<W> result{};         ///< the board at the end of the turn
  uint64_t result_hash = 0;  ///< its Zobrist hash
  bool suicide = false;      ///< forbidden by the no-suicide rule
  bool superko = false;      ///< repeats an end-of-turn board of the mover
  bool legal = false;
};

/// A player's score: territory + prisoners + the half point.
struct Score {
  int territory = 0;
  int prisoners = 0;
  bool half = false;
  int total2() const { return 2 * (territory + prisoners) + (half ? 1 : 0); }  ///< in half points
};

template <int W>
class State {
 public:
  using BB = Bitboard<W>;
  static constexpr int16_t kPassSite = -1;
  /// A placement site, or pass (site kPassSite, which sorts first).
  struct Move {
    int16_t site = kPassSite;
    static constexpr Move pass() { return Move{kPassSite}; }
    bool is_pass() const { return site == kPassSite; }
    auto operator<=>(const Move&) const = default;
  };
  struct Undo {
    BB removed;
    uint64_t board_hash = 0;
    uint8_t passes = 0;
    int8_t first_passer = -1;
    bool pushed = false;  ///< a history entry was pushed (false: a pass whose board was known)
  };

  /// Empty board, Black to move, empty histories. The context must outlive the state.
  explicit State(const Context<W>* ctx);

  /// Same position and everything that affects play or score: stones, side to
  /// move, pass state, prisoners and the superko histories (compared as sets).
  bool operator==(const State& o) const;

  const Context<W>& context() const { return *ctx_; }
  const Options& options() const { return ctx_->opt; }
  const HexGeometry& geo() const { return ctx_->masks.geo(); }
  const BB& stones(Color c) const { return stones_[idx(c)]; }
  const Board<W>& board() const { return stones_; }
  BB empty() const { return ctx_->masks.valid().andnot(stones_[0] | stones_[1]); }
  Color to_move() const { return to_move_; }

  /// Consecutive passes ending the play so far (0, 1, or 2 = game over).
  int consecutive_passes() const { return passes_; }
  bool last_move_was_pass() const { return passes_ > 0; }
  /// The first player who passed in the game, if any (half=first-pass-of-game).
  std::optional<Color> first_passer() const {
    return first_passer_ < 0 ? std::nullopt
                             : std::optional<Color>(static_cast<Color>(first_passer_));
  }
  /// Enemy stones this player has removed.
  int prisoners(Color c) const { return prisoners_[idx(c)]; }

  /// The superko history of a player: its distinct end-of-turn boards
  /// (passes included, the start board excluded), oldest first. A placement
  /// by that player may not produce any of them.
  std::span<const HistoryEntry<W>> history(Color c) const { return history_[idx(c)]; }
  /// What besides the board and the side to move decides the legal moves
  /// (when no history board matters) and the score still to come: the
  /// consecutive passes (0 or 1 before the end), plus 2 x (first passer + 1)
  /// under half=first-pass-of-game. At most 5.
  uint32_t play_state() const {
    return passes_ +
           (ctx_->opt.half_first_of_game ? 2u * static_cast<uint32_t>(first_passer_ + 1) : 0u);
  }
  /// Whether `b` (with Zobrist hash h, see board_hash_of) is in c's history.
  bool in_history(Color c, uint64_t h, const Board<W>& b) const;
  /// Superko, for solvers whose tables key a position by its board
  /// (solver/superko_dfs.h). A placement of c adds one stone of c and can
  /// only remove enemy stones, so its result can equal a history board X of
  /// c only if X[c] is a strict superset of c's stones; and c's stones are
  /// removed only by captures (the enemy's prisoners), so before c has lost
  /// a stone every history board of c holds only stones of c on the board.
  ///
  /// Calls f(c, board) for every history board X of colour c with X[c] a
  /// strict superset of keep[c], where keep holds stones now on the board
  /// that a set of continuations never removed (keep = the board: the
  /// boards a continuation removing none of them can still meet). A
  /// placement of c after such continuations can only recreate one of these.
  template <class F>
  void for_each_above(const Board<W>& keep, F&& f) const {
    for (Color c : {Color::kBlack, Color::kWhite}) {
      const BB& k = keep[idx(c)];
      // Nothing of c was ever captured: every board of c's history holds
      // a subset of c's stones now.
      if (prisoners_[idx(other(c))] == 0 && k == stones_[idx(c)]) continue;
      for (const auto& e : history_[idx(c)]) {
        const BB& x = e.board[idx(c)];
        if (x != k && k.andnot(x).none()) f(c, e.board);
      }
    }
  }
  /// Whether superko refuses some placement of the side to move here (a
  /// placement otherwise legal whose result is a board of its history).
  bool superko_refuses() const;
  /// Zobrist hash of the stones only (the key of history entries).
  uint64_t board_hash() const { return board_hash_; }
  uint64_t board_hash_of(const Board<W>& b) const;

  /// Stones of colour c on at least one cut thread (against the other colour).
  BB cut_stones(Color c) const;
  /// Stones of colour c in cut weaves.
  BB cut_weaves(Color c) const;

  /// Evaluates a placement of the side to move on empty site c.
  Placement<W> analyse(int c) const;
  /// The legal placements of the side to move (empty when the game is over).
  BB legal_sites() const;

  void legal_moves(std::vector<Move>& out) const;
  /// Pass plus the legal placements; 0 when the game is over.
  uint64_t count_legal_moves() const {
    return is_terminal() ? 0 : 1 + static_cast<uint64_t>(legal_sites().count());
  }
  void apply(const Move& m, Undo& u);
  void undo(const Move& m, const Undo& u);

  /// Covers everything operator== compares (histories as sets, order-free).
  uint64_t hash() const;
  /// Memory the state owns on the heap (its superko histories); solver
  /// tables count it against their budget.
  uint64_t heap_bytes() const {
    return (history_[0].capacity() + history_[1].capacity()) * sizeof(HistoryEntry<W>);
  }
  uint64_t recompute_hash() const;
  bool is_terminal() const { return passes_ >= 2; }
  /// Scores as they stand: territory and prisoners now; the half point only
  /// once its holder is known (see half_point_holder).
  std::array<Score, 2> scores() const;
  /// Who gets the half point: at the end per the rules; before the end only
  /// under half=first-pass-of-game once someone has passed; else nullopt.
  std::optional<Color> half_point_holder() const;
  /// Territory (empty points in regions touching only stones of c).
  int territory(Color c) const;
  /// At the end: margin2 = (Black - White) in half points, the winner as kind.
  Outcome outcome() const;

  std::string move_name(const Move& m) const {
    return m.is_pass() ? std::string("pass") : geo().name(m.site);
  }
  std::optional<Move> parse_move(std::string_view token) const;
  std::string check_invariants() const;

  State transformed(int k) const;
  /// transformed(k).hash() without building the image (no allocation): the
  /// solver's symmetry reduction compares the 12 images by hash first.
  uint64_t transformed_hash(int k) const;
  Move map_move(int k, const Move& m) const {
    return m.is_pass() ? m : Move{static_cast<int16_t>(geo().map_site(k, m.site))};
  }

  /// Places a stone directly (test set-up and the pie setup); the hash is kept
  /// consistent. Histories are not touched: a set-up board belongs to no history.
  void put(int site, Color c);
  void remove(int site);
  void set_to_move(Color c);

 private:
  BB cutmask(const BB& s, const BB& e, const BB& empty) const;
  BB weaves_within(const BB& s, const BB& cut) const;
  void push_history(Color c, uint64_t h);
  uint64_t compose_hash(uint64_t board_hash, const std::array<uint64_t, 2>& sums) const;
  uint64_t entry_mix(uint64_t h) const;

  const Context<W>* ctx_;
  Board<W> stones_{};
  Color to_move_ = Color::kBlack;
  uint8_t passes_ = 0;
  int8_t first_passer_ = -1;
  std::array<int32_t, 2> prisoners_{};
  uint64_t board_hash_ = 0;
  std::array<std::vector<HistoryEntry<W>>, 2> history_;
  std::array<uint64_t, 2> hist_sum_{};  ///< sum of entry_mix(hash) over each history
};

}  // namespace loom::fiodar
