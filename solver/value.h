// Game-theoretic values as the solvers report them (CONVENTIONS.md, `loom
// solve --json`): a winning colour, "draw" (neither side can force a win
// because play can go on for ever), "stall" (an end without a winner, e.g.
// Enfargar's unresolved end), or Black's score minus White's (Fiodar).
#pragma once

#include <cstdint>
#include <string>

#include "model/common/game.h"

namespace loom::solver {

struct Value {
  enum class Kind : uint8_t {
    kUnknown,  ///< not solved (a run stopped early)
    kBlack,    ///< Black (Migong: Blue) wins
    kWhite,    ///< White (Migong: Yellow) wins
    kDraw,     ///< neither can force a win: infinite play, or a drawn end the rules define
    kStall,    ///< an end without a winner (Enfargar "unresolved")
    kMargin,   ///< scored game: margin2 = Black minus White in half points
  };
  Kind kind = Kind::kUnknown;
  int32_t margin2 = 0;

  static Value of(Kind k) { return Value{k, 0}; }
  static Value margin(int32_t m2) { return Value{Kind::kMargin, m2}; }
  static Value win(Color c) { return of(c == Color::kBlack ? Kind::kBlack : Kind::kWhite); }
  bool known() const { return kind != Kind::kUnknown; }
  bool operator==(const Value&) const = default;

  /// "black", "white", "draw", "stall", "unknown", or the margin in points
  /// ("1.5", "-0.5").
  std::string text() const;
  /// Which colour the value favours (kBlack/kWhite for wins and margins of
  /// that sign), or nullopt-like kDraw for neutral values.
  Kind winner() const;
};

/// Margin in points as text: half points always shown with one decimal when odd.
std::string margin_text(int32_t margin2);

}  // namespace loom::solver
