// Enfargar (RULES.md section 3 and the Enfargar clarifications of section 7;
// seed 001).
//
// A stone has a lifeline when, walking from it in some direction over empty
// points, it reaches the off-board after at least one empty point (any number
// under `edge=touch`), or the first stone it meets is a friendly stone with a
// lifeline: the least fixed point. A turn places a stone on an empty point
// such that (1) the new stone has a lifeline right after placing and (2) after
// every enemy stone without a lifeline (judged once, right after placing) has
// been flipped, every friendly stone has one. A player with no such placement
// passes. A turn that leaves no enemy stone (there was at least one) wins; two
// passes in a row end the game unresolved (`stall=more-stones`: more stones
// wins, a tie goes against the player who placed last).
//
// Lifelines are computed with bitboard ray fills (one occluded fill per
// direction, iterated to the fixed point); see enfargar.cpp for why the legal
// placements of a reachable position need only condition (1) and a handful of
// exact checks.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/common/bitboard.h"
#include "model/common/game.h"
#include "model/common/hex.h"
#include "model/common/image_keys.h"
#include "model/common/rules.h"
#include "model/common/zobrist.h"

namespace loom::enfargar {

inline constexpr int kDefaultSide = 9;

struct Options {
  bool touch = false;        ///< edge=touch: a stone on the edge has a lifeline
  bool more_stones = false;  ///< stall=more-stones: two passes in a row are scored
  static std::vector<RuleSpec> specs();
  static Options from(const RuleSet& rules);
};

/// Exact evaluation of one placement by the side to move (State::analyse).
template <int W>
struct Placement {
  bool lifeline = false;   ///< condition (1): the new stone has a lifeline
  Bitboard<W> flips;       ///< enemy stones without a lifeline right after placing
  bool all_alive = false;  ///< condition (2): every friendly stone has one after flipping
  bool legal = false;      ///< the point is empty and (1) and (2) hold
};

/// Immutable per-game data shared by all states of one game: geometry,
/// options, edge masks, Zobrist keys.
template <int W>
struct Context {
  Context(int side, Options o);
  const HexMasks<W>& masks;
  Options opt;
  Bitboard<W> edge_any;  ///< sites with at least one off-board direction
  /// [site*2 + colour]; then side to move is White, one pass made, two passes
  /// made, annihilation.
  std::vector<uint64_t> keys;
  uint64_t key(int site, Color c) const { return keys[site * 2 + idx(c)]; }
  uint64_t flip_key(int site) const { return keys[site * 2] ^ keys[site * 2 + 1]; }
  uint64_t side_key() const { return keys[keys.size() - 4]; }
  uint64_t pass_key(int passes) const { return keys[keys.size() - 4 + passes]; }  // passes 1, 2
  uint64_t wiped_key() const { return keys.back(); }
  ImageKeys images;  ///< the stones' keys under the 12 symmetries
};

template <int W>
class State {
 public:
  using BB = Bitboard<W>;
  /// A placement on `site`, or a pass (site == kPass).
  struct Move {
    static constexpr int16_t kPass = -1;
    int16_t site = kPass;
    bool is_pass() const { return site == kPass; }
    auto operator<=>(const Move&) const = default;
  };
  struct Undo {
    BB flips;
    uint64_t hash = 0;
    uint8_t passes = 0;
    bool wiped = false;
    bool alive = true;
  };

  /// Empty board, Black to move. The context must outlive the state.
  explicit State(const Context<W>* ctx) : ctx_(ctx) { hash_ = recompute_hash(); }

  bool operator==(const State&) const = default;
  const Context<W>& context() const { return *ctx_; }
  const HexGeometry& geo() const { return ctx_->masks.geo(); }
  const BB& stones(Color c) const { return stones_[idx(c)]; }
  BB empty() const { return ctx_->masks.valid().andnot(stones_[0] | stones_[1]); }
  Color to_move() const { return to_move_; }
  /// Consecutive passes just made (0, 1 or 2; 2 ends the game).
  int passes() const { return passes_; }
  /// True when every stone on the board has a lifeline. It holds in every
  /// position reached by play from the empty board (see enfargar.cpp).
  bool all_alive() const { return alive_; }

  /// The stones of colour c that have a lifeline on the current board.
  BB lifelines(Color c) const;
  /// The legal placements of the side to move (empty if the game is over).
  BB legal_sites() const;
  /// Exact evaluation of placing a stone of the side to move on `site`,
  /// straight from the rules (three fixed points; not the hot path).
  Placement<W> analyse(int site) const;

  void legal_moves(std::vector<Move>& out) const;
  uint64_t count_legal_moves() const;

  /// A legal placement and the enemy stones it flips.
  struct FlipPlacement {
    int16_t site;
    BB flips;
  };
  /// The legal placements of the side to move with their flips (as apply()
  /// would make them), in site order, written to out (room for every
  /// site); returns how many (0: a pass is the only move, or the game is
  /// over). Cheaper than apply() on each: one lifeline witness a stone is
  /// found once for the position, and only a placement on a witness is
  /// searched (see enfargar.cpp).
  int placements_with_flips(FlipPlacement* out) const;
  void apply(const Move& m, Undo& u);
  void undo(const Move& m, const Undo& u);

  uint64_t hash() const { return hash_; }
  uint64_t recompute_hash() const;
  bool is_terminal() const { return wiped_ || passes_ >= 2; }
  /// Annihilation: the player who moved last wins. Two passes in a row:
  /// unresolved, or under stall=more-stones the larger colour wins and a tie
  /// goes against the player who placed last — in a game played from the
  /// empty board that is the player who passed last (the one not to move).
  Outcome outcome() const;

  std::string move_name(const Move& m) const {
    return m.is_pass() ? std::string("pass") : geo().name(m.site);
  }
  std::optional<Move> parse_move(std::string_view token) const;
  std::string check_invariants() const;

  State transformed(int k) const;
  /// Does every end have a winner? (A stall is scored only under
  /// stall=more-stones; win/loss solvers refuse the game otherwise.)
  bool decisive_ends() const { return ctx_->opt.more_stones; }
  /// transformed(k).hash() without building the image (the solvers'
  /// canonical form compares images by hash and builds only the one it keeps).
  uint64_t transformed_hash(int k) const;
  /// transformed_hash(k) for every k, in one pass over the stones.
  void transformed_hashes(ImageKeys::Hashes& out) const;

  /// Compact image for solver tables and checkpoint files: both colours'
  /// stones, then one word with the side to move (bit 0), the passes (bits
  /// 1-2) and the annihilation flag (bit 3). Holds no pointer; unpack (on
  /// any state of the same game) restores the position, its hash and the
  /// all_alive() cache.
  struct Packed {
    std::array<uint64_t, 2 * W + 1> w{};
    bool operator==(const Packed&) const = default;
  };
  Packed pack() const {
    Packed p;
    for (int c = 0; c < 2; ++c)
      for (int i = 0; i < W; ++i) p.w[c * W + i] = stones_[c].w[i];
    p.w[2 * W] = (to_move_ == Color::kWhite ? 1u : 0u) | (uint64_t{passes_} << 1) |
                 (wiped_ ? uint64_t{8} : 0);
    return p;
  }
  State unpack(const Packed& p) const {
    State s(ctx_);
    for (int c = 0; c < 2; ++c)
      for (int i = 0; i < W; ++i) s.stones_[c].w[i] = p.w[c * W + i];
    // Off-board bits (a forged file) are dropped: pack() then differs from p.
    for (auto& b : s.stones_) b &= ctx_->masks.valid();
    s.to_move_ = (p.w[2 * W] & 1) ? Color::kWhite : Color::kBlack;
    s.passes_ = static_cast<uint8_t>((p.w[2 * W] >> 1) & 3);
    s.wiped_ = (p.w[2 * W] & 8) != 0;
    s.alive_ = s.compute_alive();
    s.hash_ = s.recompute_hash();
    return s;
  }
  Move map_move(int k, const Move& m) const {
    return m.is_pass() ? m : Move{static_cast<int16_t>(geo().map_site(k, m.site))};
  }

  /// Test set-up: places (or replaces) a stone; hash and all_alive() are kept
  /// consistent.
  void put(int site, Color c);
  /// Test and search set-up: replaces every stone at once (disjoint, on the
  /// board); the side to move and the pass count stay, the annihilation flag
  /// is cleared.
  void set_stones(const BB& black, const BB& white);
  void set_to_move(Color c);
  /// The position with exactly these stones (disjoint, on the board),
  /// `mover` to move, no pass just made and the game not over by
  /// annihilation; all_alive() and the hash are recomputed. Dense solver
  /// indices decode boards with it.
  State with_board(const BB& black, const BB& white, Color mover) const {
    State s(ctx_);
    s.to_move_ = mover;
    s.set_stones(black, white);
    return s;
  }
  /// with_board for a board reached by legal play from this position,
  /// without the hash (left 0): for dense solvers that only generate moves
  /// from the state. If every stone here has a lifeline, so has every
  /// stone there (a legal placement keeps it so; a pass keeps the board),
  /// and all_alive() is set without recomputing it.
  State with_board_unhashed(const BB& black, const BB& white, Color mover) const {
    State s(ctx_);
    s.to_move_ = mover;
    s.stones_[idx(Color::kBlack)] = black;
    s.stones_[idx(Color::kWhite)] = white;
    s.alive_ = alive_ || s.compute_alive();
    s.hash_ = 0;
    return s;
  }

 private:
  /// The keys of the side to move, the passes and the annihilation (no
  /// symmetry moves them).
  uint64_t status_hash() const;
  /// Stones of `own` with a lifeline, given the empty points (the least fixed
  /// point: iterated directional ray fills until nothing changes).
  BB life_of(const BB& own, const BB& empty) const;
  /// Whether the group of `seed` (the stones of `own` joined to it by sight:
  /// a walk over empty points from one meets the other first) contains a
  /// stone of `sources`.
  bool reaches_source(const BB& own, const BB& empty, const BB& seed, const BB& sources) const;
  BB legal_sites_fast() const;
  BB legal_sites_exact() const;
  bool compute_alive() const;
  void flip_hash(const BB& flips);

  const Context<W>* ctx_;
  std::array<BB, 2> stones_{};
  Color to_move_ = Color::kBlack;
  uint8_t passes_ = 0;
  bool wiped_ = false;  ///< the last placement flipped the last enemy stone
  bool alive_ = true;   ///< cache of "every stone has a lifeline"
  uint64_t hash_ = 0;
};

/// Text drawing for `loom show`: X / O for stones with a lifeline, x / o for
/// stones without one, '.' empty; then counts, side to move or result.
template <int W>
std::string render(const State<W>& s);

}  // namespace loom::enfargar
