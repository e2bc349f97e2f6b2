// Long Nardy (RULES.md section 6 and section 7; seed 004): the position, the
// rolls as chance outcomes, the rule options and the value of a finished game.
// The turn generator is in movegen.h.
//
// Points are numbered 1..24. White starts with 15 on 24 and moves 24 -> 1
// (home 1-6); Black starts with 15 on 12 and moves 12 -> 1, wraps to 24 and
// goes on to 13 (home 18-13). Each side's route index (0 = head, 18-23 =
// home, 24 = borne off) is route(c, p): White 24-p, Black (12-p) mod 24.
// Swapping colours and shifting every point by 12 maps the game onto itself
// (Position::mirrored).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/common/game.h"
#include "model/common/rules.h"

namespace loom::nardy {

inline constexpr int kPoints = 24;
inline constexpr int kCheckers = 15;  ///< per side (seed 004)
inline constexpr int kHome = 18;      ///< first home route index (RULES.md section 6)
inline constexpr int kOffRoute = 24;  ///< route index of a borne-off checker

/// Route index 0..23 of point p (1..24) for colour c.
constexpr int route_of(Color c, int point) {
  return c == Color::kWhite ? 24 - point : (12 - point + 24) % 24;
}
/// Point 1..24 at route index r (0..23) for colour c.
constexpr int point_of(Color c, int route) {
  return c == Color::kWhite ? 24 - route : (35 - route) % 24 + 1;
}

/// Rule options (RULES.md section 6 variants).
struct Options {
  bool block_end_of_turn = false;  ///< block=end-of-turn: only the turn's final position
  bool last_roll = false;          ///< end=last-roll: Black answers White's last turn
  /// checkers=K (1..15): checkers a side; every rule that says 15 reads K
  /// (first turn, bearing off, end, mars).
  int checkers = kCheckers;
  static std::vector<RuleSpec> specs();
  static Options from(const RuleSet& rules);
  /// "block=... end=... checkers=K" with every option, defaults included.
  std::string to_string() const;
};

/// One of the 21 distinct rolls. `hi >= lo`.
struct Roll {
  uint8_t hi = 1, lo = 1;
  bool is_double() const { return hi == lo; }
  /// Number of the 36 equally likely ordered outcomes giving this roll (1 or 2).
  int weight() const { return is_double() ? 1 : 2; }
  double probability() const { return weight() / 36.0; }
  /// Two digits, larger first: "65", "33".
  std::string name() const;
  /// "65", "56", "33" (order does not matter). nullopt if malformed.
  static std::optional<Roll> parse(std::string_view text);
  bool operator==(const Roll&) const = default;
};
/// The 21 rolls in byte order of their names ("11", "21", "22", ..., "66").
const std::array<Roll, 21>& all_rolls();

/// One step: a checker from `from` to `to` (points 1..24; to == 0: borne off).
struct Step {
  int8_t from = 0, to = 0;
  /// "24/18" or "5/off".
  std::string text() const;
  bool operator==(const Step&) const = default;
};

/// The steps of one turn in the order played (0 to 4 steps).
struct Turn {
  std::array<Step, 4> steps{};
  uint8_t size = 0;
  /// Steps separated by single spaces; "" for a turn without a step.
  std::string text() const;
  /// Parses a turn text as text() writes it: at most four steps `from/to`
  /// (points 1..24 without a leading 0, `to` also `off`) separated by single
  /// spaces, the empty text a turn without a step. nullopt if it is no turn
  /// at all (whether it is legal is for the move generator to say).
  static std::optional<Turn> parse(std::string_view text);
  bool operator==(const Turn&) const = default;
};

/// The board and the side to move. Borne-off counts are derived
/// (kCheckers minus the checkers on the board).
class Position {
 public:
  /// Both sides on their heads with `checkers` each, White to move (RULES.md
  /// section 6; checkers=K).
  static Position start(int checkers = kCheckers);
  /// Parses "S:c1,...,c24" (CONVENTIONS.md). Throws InputError if malformed
  /// or if a side has more than 15 checkers.
  static Position parse(std::string_view text);
  std::string to_string() const;

  Color to_move() const { return to_move_; }
  /// Signed count on point p (1..24): positive White, negative Black.
  int at(int point) const { return pts_[point - 1]; }
  /// Checkers of colour c on point p.
  int count(Color c, int point) const {
    int v = pts_[point - 1];
    return c == Color::kWhite ? (v > 0 ? v : 0) : (v < 0 ? -v : 0);
  }
  int on_board(Color c) const;
  /// Borne-off checkers of c when a side has `checkers` (checkers=K).
  int borne_off(Color c, int checkers = kCheckers) const { return checkers - on_board(c); }
  /// Sum over c's checkers of the distance to bearing off (route 24 - r).
  int pips(Color c) const;
  /// All 15 (checkers=K: all K) of the side to move on its head (RULES.md
  /// section 7).
  bool first_turn(int checkers = kCheckers) const;

  /// Colours swapped and every point shifted by 12; the side to move swaps too.
  Position mirrored() const;
  /// The same board with `c` to move.
  Position with_to_move(Color c) const;
  /// Sets the signed count of point p (tests and tools).
  void set(int point, int signed_count) { pts_[point - 1] = static_cast<int8_t>(signed_count); }
  void set_to_move(Color c) { to_move_ = c; }

  /// Zobrist hash of board and side to move (deterministic across runs).
  uint64_t hash() const;
  /// "" if the counts are in range (at most 15 per side), else why not.
  std::string check_invariants() const;

  const std::array<int8_t, kPoints>& points() const { return pts_; }
  bool operator==(const Position&) const = default;
  auto operator<=>(const Position&) const = default;

 private:
  std::array<int8_t, kPoints> pts_{};
  Color to_move_ = Color::kWhite;
};

/// The value of a position (RULES.md section 6 "End").
struct Result {
  enum class Kind : uint8_t { kOngoing, kWhiteWins, kBlackWins, kDraw };
  Kind kind = Kind::kOngoing;
  /// For a win: 1 (oin) or 2 (mars: the loser has borne off none). 0 otherwise.
  int points = 0;

  bool over() const { return kind != Kind::kOngoing; }
  /// The winner's points for the winner, minus them for the loser, 0 for a draw.
  int value(Color c) const;
  Outcome outcome() const;
  /// "white wins 2 points (mars)", "draw", "ongoing".
  std::string text() const;
  bool operator==(const Result&) const = default;
};

/// Value of `p` under `opt`: a side with no checker on the board has won
/// (under end=last-roll White's win waits for Black's last turn, and Black
/// bearing off all 15 on it draws). Terminal positions are those where
/// result().over(); they have no turns.
Result result(const Position& p, const Options& opt);

/// "" if `p` can stand in a game under `opt`, else why not: no side has more
/// than opt.checkers on the board, and both sides with every checker off is
/// only the end=last-roll draw (White to move).
std::string check_playable(const Position& p, const Options& opt);

}  // namespace loom::nardy
