// Migong (RULES.md section 5 and section 7; seed 003).
//
// Hex-hex board of side n minus the centre cell (a border, not a cell).
// A piece is a pattern of six wedges, bit i set = wedge i (facing direction i)
// is Blue. Blue owns the 63 patterns with a B, Yellow the 63 with a Y; each
// player places each of its own patterns at most once, never rotated. A piece
// placed on an empty cell must match, for every direction i, the facing wedge
// i+3 of an occupied neighbour and the colour of the board edge (rim or centre
// border) there. A player with a legal placement must place; otherwise it
// passes; two passes in a row end the game. Groups, extents and scores:
// model/migong/score.h.
//
// Speed. Each cell keeps a constraint (mask, value) over its six wedges: mask
// bit i = wedge i is fixed (by an edge or an occupied neighbour), value bit i
// = it must be Blue. The patterns that fit are a precomputed 64-bit set
// kMatch[mask, value]; the legal placements at a cell are that set ANDed with
// the mover's unplaced patterns, so generation and counting never scan
// patterns. A placement updates the constraints of its (up to six) neighbours;
// undo clears those bits again.
//
// Pie (`pie=on`). On Yellow's first turn the token `swap` is legal: the
// players exchange colours, the board stays and the player who moved first,
// now holding Yellow, moves next. The model's `to_move()` and outcomes speak
// of seats (Color::kBlack = the player who moved first), so a solver's
// negamax stays correct across a swap; without a swap seat and colour agree.
// Piece sets belong to colours (the swapper takes over Blue's set as it is).
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
#include "model/common/rules.h"
#include "model/migong/edges.h"
#include "model/migong/score.h"

namespace loom::migong {

inline constexpr int kDefaultSide = 7;
inline constexpr int kAllYellow = 0;  ///< pattern YYYYYY (only Yellow owns it)
inline constexpr int kAllBlue = 63;   ///< pattern BBBBBB (only Blue owns it)

/// "BYYBBY": letter i is wedge i (E, NE, NW, W, SW, SE).
std::string pattern_name(int pattern);
/// Inverse of pattern_name; nullopt unless exactly six letters B/Y.
std::optional<int> parse_pattern(std::string_view text);
/// The pattern carried along by symmetry k: wedge i goes to wedge map_dir(k, i).
int map_pattern(int k, int pattern);
/// Patterns a colour owns: Blue those with a B, Yellow those with a Y.
constexpr uint64_t owned_patterns(Color colour) {
  return colour == Color::kBlack ? ~uint64_t{1} : ~(uint64_t{1} << 63);
}

/// kMatch[mask << 6 | value]: the patterns p with (p & mask) == value.
extern const std::array<uint64_t, 4096> kMatch;

struct Options {
  bool wedges = false;  ///< measure=wedges: a group is measured by its wedges, not its extent
  bool pie = false;     ///< pie=on: Yellow may `swap` on its first turn
  bool operator==(const Options&) const = default;
  static std::vector<RuleSpec> specs();
  static Options from(const RuleSet& rules);
};

/// Immutable per-game data shared by all states of one game: geometry,
/// options, edge colouring, per-cell tables, hashing. Build with make(); the
/// returned pointer owns the context and its symmetric images (image(k)).
template <int W>
class Context {
 public:
  using BB = Bitboard<W>;
  static constexpr int kSlots = 64 * W;

  static std::shared_ptr<const Context> make(int side, Options o, const EdgeColouring& edges);
  static std::shared_ptr<const Context> make(int side, Options o = {}) {
    return make(side, o, EdgeColouring::standard(side));
  }

  const HexMasks<W>& masks() const { return *masks_; }
  const HexGeometry& geo() const { return masks_->geo(); }
  const Options& options() const { return opt_; }
  const EdgeColouring& edges() const { return edges_; }
  /// The cells: every site but the centre.
  const BB& cells() const { return cells_; }
  int num_cells() const { return num_cells_; }
  /// Neighbouring cell of `site` in direction d, or -1 (off the board or the centre).
  int cell_neighbour(int site, int d) const { return nb_[site * 6 + d]; }
  /// Constraint of an empty board at `site`: mask << 6 | value from the edges.
  uint16_t edge_constraint(int site) const { return cons0_[site]; }
  const std::array<uint16_t, kSlots>& edge_constraints() const { return cons0_; }

  /// The context of the board carried along by symmetry k: the same options
  /// and the edge colouring mapped with the board (EdgeColouring::mapped).
  /// Images with equal colourings are the same object, so image(k) == this
  /// whenever k preserves the colouring (for the default: the even rotations,
  /// with or without the mirror).
  const Context& image(int k) const { return *images_[k]; }
  /// The same game: side, options and edge colouring (two contexts made
  /// alike, e.g. one per game of a puzzle file).
  bool same_game(const Context& o) const {
    return this == &o || (masks_ == o.masks_ && opt_ == o.opt_ && edges_ == o.edges_);
  }

  /// Zobrist key of a piece: site, the colour whose set it came from, pattern.
  uint64_t key(int site, Color owner, int pattern) const {
    return (*keys_)[(static_cast<size_t>(site) * 2 + static_cast<size_t>(idx(owner))) * 64 +
                    static_cast<size_t>(pattern)];
  }
  /// Key of the status fields (side to move, swap, passes, last placer) and
  /// of the edge colouring (so states of different colourings never collide).
  uint64_t status_key(int code) const { return status_keys_[code]; }
  uint64_t salt() const { return salt_; }

  struct Family;

 private:
  Context(int side, Options o, EdgeColouring edges);
  static uint64_t mix(uint64_t z) {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  const HexMasks<W>* masks_;
  Options opt_;
  EdgeColouring edges_;
  BB cells_;
  int num_cells_ = 0;
  std::vector<int16_t> nb_;
  std::array<uint16_t, kSlots> cons0_{};
  uint64_t salt_ = 0;
  std::array<uint64_t, 16> status_keys_{};
  /// key(): [(site * 2 + owner) * 64 + pattern], one table for every context.
  const std::vector<uint64_t>* keys_ = nullptr;
  std::array<const Context*, kNumSymmetries> images_{};
};

template <int W>
class State {
 public:
  using BB = Bitboard<W>;
  static constexpr int kSlots = 64 * W;

  /// A placement (site >= 0, pattern 0..63), `pass` or `swap` (site -1).
  /// Ordered by (site, pattern): pass, swap, then placements by site.
  struct Move {
    int16_t site = -1;
    uint8_t pattern = 0;
    static constexpr Move pass() { return {-1, 0}; }
    static constexpr Move swap() { return {-1, 1}; }
    bool is_pass() const { return site < 0 && pattern == 0; }
    bool is_swap() const { return site < 0 && pattern == 1; }
    bool is_placement() const { return site >= 0; }
    auto operator<=>(const Move&) const = default;
  };
  struct Undo {
    uint64_t hash = 0;
    int8_t passes = 0;
    int8_t last_placer = -1;
  };

  /// Empty board, Blue (seat kBlack) to move. The context must outlive the state.
  explicit State(const Context<W>* ctx);

  bool operator==(const State&) const = default;
  const Context<W>& context() const { return *ctx_; }
  const HexGeometry& geo() const { return ctx_->geo(); }

  /// The seat to move (kBlack = the player who moved first).
  Color to_move() const { return to_move_; }
  /// The colour a seat holds (they differ only after a pie swap).
  Color colour_of(Color seat) const { return swapped_ ? other(seat) : seat; }
  Color seat_of(Color colour) const { return swapped_ ? other(colour) : colour; }
  /// The colour of the pieces the side to move places.
  Color colour_to_move() const { return colour_of(to_move_); }
  bool swapped() const { return swapped_; }
  /// Passes in a row just made (2 = the game is over).
  int passes() const { return passes_; }
  /// The seat that made the last placement, if any.
  std::optional<Color> last_placer() const {
    if (last_placer_ < 0) return std::nullopt;
    return static_cast<Color>(last_placer_);
  }
  bool swap_available() const;

  BB occupied() const { return placed_[0] | placed_[1]; }
  /// Pieces that came from `colour`'s set.
  const BB& placed_from(Color colour) const { return placed_[idx(colour)]; }
  BB empty() const { return ctx_->cells().andnot(occupied()); }
  int num_pieces() const { return occupied().count(); }
  /// Pattern of the piece on an occupied site.
  int pattern_at(int site) const { return pattern_[site]; }
  /// Patterns `colour` still has to place.
  uint64_t unplaced(Color colour) const { return owned_patterns(colour) & ~used_[idx(colour)]; }
  /// Constraint of `site` (mask << 6 | value) from edges and occupied neighbours.
  uint16_t constraint(int site) const { return cons_[site]; }
  /// Patterns the side to move may place on empty cell `site`.
  uint64_t legal_patterns(int site) const {
    return unplaced(colour_to_move()) & kMatch[cons_[site]];
  }

  void legal_moves(std::vector<Move>& out) const;
  uint64_t count_legal_moves() const;
  /// Whether the side to move has any legal placement.
  bool can_place() const;
  void apply(const Move& m, Undo& u);
  void undo(const Move& m, const Undo& u);

  uint64_t hash() const { return hash_; }
  uint64_t recompute_hash() const;
  bool is_terminal() const { return passes_ >= 2; }
  /// Decided at the end (score.h): the higher score wins; at 0-0 the seat that
  /// made the last placement loses (with no placement at all, which no game
  /// from the empty board reaches, the first seat loses).
  Outcome outcome() const;
  /// Groups and scores of the position as it stands.
  ScoreSheet score() const;
  /// score().score without the sheet (no allocation): what outcome() and
  /// the solvers' leaves need.
  std::array<int, 2> scores() const;

  std::string move_name(const Move& m) const;
  /// `PATTERN@site`, `pass` or `swap`. The centre parses (it is a site) and
  /// is never legal.
  std::optional<Move> parse_move(std::string_view token) const;
  std::string check_invariants() const;
  /// Whether the piece on `site` matches every occupied neighbour and edge
  /// (checked from the edge colouring and the neighbours' patterns directly).
  bool piece_matches(int site) const;

  /// Compact image for solver tables (solver/core.h KeyTraits): a byte a
  /// slot (0 empty, 1 + pattern from Blue's set, 65 + pattern from
  /// Yellow's), the status fields and the context's salt (positions of two
  /// edge colourings never compare equal). 80 bytes on one-word boards
  /// against the state's 260 and more. unpack (on any state of the same
  /// game) restores the position with its constraints and hash.
  struct Packed {
    std::array<uint8_t, kSlots> cell{};
    uint64_t status = 0;
    uint64_t salt = 0;
    bool operator==(const Packed&) const = default;
  };
  Packed pack() const;
  State unpack(const Packed& p) const;

  /// The position carried along by symmetry k, in the context image(k).
  State transformed(int k) const;
  /// transformed(k).hash() without building the image: the solvers'
  /// canonical form (solver/core.h Canonicalizer) compares the images by
  /// hash and builds only the one it keeps.
  uint64_t transformed_hash(int k) const;
  /// Whether symmetry k keeps the edge colouring (its image is a position
  /// of this game, not of the game with the colouring mapped).
  bool maps_to_same_game(int k) const { return &ctx_->image(k) == ctx_.p; }
  Move map_move(int k, const Move& m) const {
    if (!m.is_placement()) return m;
    return {static_cast<int16_t>(geo().map_site(k, m.site)),
            static_cast<uint8_t>(map_pattern(k, m.pattern))};
  }

  /// Test set-up: puts a piece from `owner`'s set on a cell without checking
  /// legality (replacing any piece there); hash and constraints stay
  /// consistent. The first piece put also records `owner` as the last placer
  /// (pieces on the board imply one); set_status overrides it.
  void put(int site, Color owner, int pattern);
  void set_to_move(Color seat);
  /// Test set-up: passes in a row, last placer (seat) and the swap flag.
  void set_status(int passes, std::optional<Color> last_placer, bool swapped);

 private:
  /// Calls f(site, wedge, colour, wedges, extent) for every group, in order
  /// of its representative (its lowest wedge): score() and scores().
  template <class F>
  void for_each_group(F&& f) const;
  void place(int site, Color owner, int pattern);
  void remove(int site);
  uint64_t status_hash() const;

  /// The context, compared by what it holds (Context::same_game), so that
  /// positions of two games made alike compare equal; the same object is
  /// the fast case.
  struct ContextPtr {
    const Context<W>* p;
    const Context<W>* operator->() const { return p; }
    const Context<W>& operator*() const { return *p; }
    bool operator==(const ContextPtr& o) const { return p->same_game(*o.p); }
  };
  ContextPtr ctx_;
  std::array<BB, 2> placed_{};  ///< by colour of the set
  std::array<uint64_t, 2> used_{};
  std::array<uint8_t, kSlots> pattern_{};
  std::array<uint16_t, kSlots> cons_{};
  uint64_t hash_ = 0;
  Color to_move_ = Color::kBlack;
  bool swapped_ = false;
  int8_t passes_ = 0;
  int8_t last_placer_ = -1;
};

}  // namespace loom::migong
