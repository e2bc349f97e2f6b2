// Long Nardy on the command line. Not a deterministic game, so it implements
// AnyGame directly instead of through GameAdapter: the position comes from
// --position, the roll from --dice, and there are no move records.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/any_game.h"
#include "model/nardy/movegen.h"
#include "model/nardy/nardy.h"

namespace loom {

class NardyGame : public AnyGame {
 public:
  explicit NardyGame(nardy::Options opt);

  const std::string& game_name() const override;
  /// CONVENTIONS.md: one line per distinct resulting position, "POSITION TURN",
  /// sorted in byte order; a forfeited turn is "POSITION " (empty turn). Needs
  /// the roll (set_dice); empty when the game is over.
  std::vector<std::string> legal_tokens() const override;
  /// Always an InputError: a nardy record would need the rolls.
  void play(std::string_view token, int index) override;
  uint64_t perft(int depth) const override;
  /// (roll name, perft summed over that roll's positions at depth-1) for the 21 rolls.
  std::vector<std::pair<std::string, uint64_t>> divide(int depth) const override;
  std::string show() const override;
  Outcome outcome() const override;
  void set_position(std::string_view position) override;
  void set_dice(std::string_view dice) override;
  std::string score_report() const override;
  /// loom solve / verify --property: always an InputError (dice game).
  solver::SolveReport solve(const solver::SolveOptions& options) const override;
  solver::PropertyResult check_property(const std::string& property,
                                        const solver::PropertyOptions& options) const override;

  const nardy::Position& position() const { return pos_; }
  const nardy::Options& options() const { return opt_; }
  /// The lines of legal_tokens() for an explicit roll.
  std::vector<std::string> turn_lines(nardy::Roll roll) const;

 private:
  nardy::Options opt_;
  nardy::Position pos_;
  std::optional<nardy::Roll> roll_;
};

/// The board as text: points 13..24 above 12..1, counts with W/B, then both
/// sides' counts and pips and the side to move or the result.
std::string draw_nardy(const nardy::Position& p, const nardy::Options& opt);

}  // namespace loom
