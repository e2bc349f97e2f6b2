// Gadur (RULES.md section 4; seed 002).
//
// A placement at c is legal iff c is empty and either c touches no friendly
// stone, or the merged group G (c plus the friendly groups it joins) touches
// at least two enemy groups E whose total size S is at most |G|
// (`exception=subset`: some subset of at least two groups of E fits).
// If E is non-empty and S == |G| every group of E is removed
// (`capture=merge-only`: only when |E| >= 2). A player with no legal placement
// at the start of the turn wins; there is no pass.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
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

namespace loom::gadur {

inline constexpr int kDefaultSide = 4;

struct Options {
  bool subset = false;      ///< exception=subset
  bool merge_only = false;  ///< capture=merge-only
  static std::vector<RuleSpec> specs();
  static Options from(const RuleSet& rules);
};

/// What one placement does: the merged group, the adjacent enemy groups, and
/// whether it is legal and captures. Computed by State::analyse.
template <int W>
struct Placement {
  Bitboard<W> group;     ///< G: the friendly group containing c after placing
  Bitboard<W> enemies;   ///< union of the groups of E
  int num_enemy_groups;  ///< |E|
  int enemy_size;        ///< S
  bool legal;
  bool captures;
};

/// Immutable per-game data shared by all states of one game: geometry,
/// options, Zobrist keys.
template <int W>
struct Context {
  Context(int side, Options o)
      : masks(HexMasks<W>::get(side)),
        opt(o),
        keys(zobrist_keys(0x6761647572ull /* "gadur" */, 2 * HexGeometry::get(side).slots() + 1)),
        images(HexGeometry::get(side), keys, 2) {}
  const HexMasks<W>& masks;
  Options opt;
  std::vector<uint64_t> keys;  ///< [site*2 + colour], last = side to move is White
  ImageKeys images;            ///< the stones' keys under the 12 symmetries
  uint64_t key(int site, Color c) const { return keys[site * 2 + idx(c)]; }
  uint64_t side_key() const { return keys.back(); }
};

template <int W>
class State {
 public:
  using BB = Bitboard<W>;
  struct Move {
    int16_t site = -1;
    auto operator<=>(const Move&) const = default;
  };
  struct Undo {
    BB captured;
    uint64_t hash = 0;
  };

  /// Empty board, Black to move. The context must outlive the state.
  explicit State(const Context<W>* ctx) : ctx_(ctx) { hash_ = recompute_hash(); }

  bool operator==(const State&) const = default;
  const Context<W>& context() const { return *ctx_; }
  const HexGeometry& geo() const { return ctx_->masks.geo(); }
  const BB& stones(Color c) const { return stones_[idx(c)]; }
  BB empty() const { return ctx_->masks.valid().andnot(stones_[0] | stones_[1]); }
  Color to_move() const { return to_move_; }

  /// The legal placements of the side to move, as a bitboard.
  BB legal_sites() const;
  /// Evaluates placing a stone of the side to move on empty site c.
  Placement<W> analyse(int c) const;

  void legal_moves(std::vector<Move>& out) const {
    out.clear();
    legal_sites().for_each([&](int s) { out.push_back(Move{static_cast<int16_t>(s)}); });
  }
  uint64_t count_legal_moves() const { return static_cast<uint64_t>(legal_sites().count()); }
  void apply(const Move& m, Undo& u);
  void undo(const Move& m, const Undo& u);

  uint64_t hash() const { return hash_; }
  uint64_t recompute_hash() const;
  bool is_terminal() const;
  /// At a terminal position the player to move (who cannot place) wins.
  Outcome outcome() const { return is_terminal() ? Outcome::win(to_move_) : Outcome{}; }
  /// outcome() for a caller that has found no legal placement already
  /// (placements() gave none, so is_terminal() holds): the mover wins.
  Outcome outcome_when_stuck() const { return Outcome::win(to_move_); }

  std::string move_name(const Move& m) const { return geo().name(m.site); }
  std::optional<Move> parse_move(std::string_view token) const {
    auto s = geo().parse(token);
    if (!s) return std::nullopt;
    return Move{static_cast<int16_t>(*s)};
  }
  std::string check_invariants() const;

  State transformed(int k) const;
  /// transformed(k).hash() without building the image (the solvers'
  /// canonical form compares images by hash and builds only the one it keeps).
  uint64_t transformed_hash(int k) const;
  /// transformed_hash(k) for every k, in one pass over the stones.
  void transformed_hashes(ImageKeys::Hashes& out) const;

  /// Compact image for solver tables and checkpoint files: both colours'
  /// stones, the side to move in the top bit of the last word (the padded
  /// layout never uses it). Holds no pointer; unpack (on any state of the
  /// same game) restores the position with its hash.
  struct Packed {
    std::array<uint64_t, 2 * W> w{};
    bool operator==(const Packed&) const = default;
  };
  Packed pack() const {
    Packed p;
    for (int c = 0; c < 2; ++c)
      for (int i = 0; i < W; ++i) p.w[c * W + i] = stones_[c].w[i];
    if (to_move_ == Color::kWhite) p.w[2 * W - 1] |= uint64_t{1} << 63;
    return p;
  }
  State unpack(const Packed& p) const {
    State s(ctx_);
    for (int c = 0; c < 2; ++c)
      for (int i = 0; i < W; ++i) s.stones_[c].w[i] = p.w[c * W + i];
    // Off the board: the side-to-move bit, and any bit of a forged file
    // (then pack() differs from p).
    for (auto& b : s.stones_) b &= ctx_->masks.valid();
    s.to_move_ = (p.w[2 * W - 1] >> 63) ? Color::kWhite : Color::kBlack;
    s.hash_ = s.recompute_hash();
    return s;
  }
  Move map_move(int k, const Move& m) const {
    return Move{static_cast<int16_t>(geo().map_site(k, m.site))};
  }

  /// The position with exactly these stones (disjoint, on the board) and
  /// `mover` to move; the hash is recomputed. Dense solver indices decode
  /// boards with it.
  State with_board(const BB& black, const BB& white, Color mover) const {
    State s(ctx_);
    s.stones_[0] = black;
    s.stones_[1] = white;
    s.to_move_ = mover;
    s.hash_ = s.recompute_hash();
    return s;
  }
  /// Every position from which one legal placement leads to this one (the
  /// retrograde moves), in no particular order, possibly with repeats. Each
  /// candidate is checked by replaying the placement with analyse(), so
  /// every listed position is a true predecessor; the list is complete
  /// because a capture can only have removed enemy groups that touched the
  /// placed stone's group, held cells now empty and not next to a remaining
  /// enemy stone, and totalled the group's size (see gadur.cpp).
  void predecessors(std::vector<State>& out) const;

  /// One placement as the dense solver sees it: the site and the enemy
  /// stones it removes.
  struct Placed {
    int16_t site;
    /// The opponent has a placement after it (else the child is an end:
    /// the opponent, stuck, wins); set by placements(out, true).
    bool answered = false;
    BB captured;
  };
  /// The legal placements of the side to move with their captures (lone
  /// placements first, each part in increasing site order), written to out
  /// (room for every site); returns
  /// their number. The same as legal_sites() then analyse() of each, from
  /// one pass over the groups (no allocation).
  /// With `with_answers`, also whether the opponent can answer each
  /// (Placed::answered; else it is left false).
  int placements(Placed* out, bool with_answers = false) const;
  /// The retrograde moves of predecessors() as (site the last mover placed,
  /// stones of the side to move it captured), possibly with repeats; out is
  /// cleared first (its capacity is reused).
  void retractions(std::vector<Placed>& out) const;
  /// Has the side to move a legal placement? (!is_terminal(), stopping at
  /// the first one found.)
  bool has_placement() const;
  /// with_board without recomputing the hash (it is left 0): for dense
  /// solvers that only generate moves from the state.
  State with_board_unhashed(const BB& black, const BB& white, Color mover) const {
    State s(ctx_, 0);
    s.stones_[0] = black;
    s.stones_[1] = white;
    s.to_move_ = mover;
    return s;
  }

  /// Places stones directly (test set-up); the hash is kept consistent.
  void put(int site, Color c);
  void set_to_move(Color c);

 private:
  State(const Context<W>* ctx, int) : ctx_(ctx) {}

  const Context<W>* ctx_;
  std::array<BB, 2> stones_{};
  Color to_move_ = Color::kBlack;
  uint64_t hash_ = 0;
};

}  // namespace loom::gadur
