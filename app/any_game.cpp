#include "app/any_game.h"

namespace loom {

namespace detail {
std::string printable(std::string_view token) {
  return clip_token(token);
}
}  // namespace detail

void AnyGame::play_record(std::string_view record) {
  int index = 0;
  for (auto tok : detail::split_ws(record)) play(tok, ++index);
}

void AnyGame::set_position(std::string_view) {
  throw InputError("--position is not used by " + game_name() + " (use --record)");
}

void AnyGame::set_dice(std::string_view) {
  throw InputError("--dice is not used by " + game_name());
}

std::string AnyGame::score_report() const {
  throw InputError("loom score is not available for " + game_name());
}

solver::SolveReport AnyGame::solve(const solver::SolveOptions&) const {
  throw InputError("loom solve is not available for " + game_name());
}

solver::SolveReport AnyGame::solve_pie(const solver::SolveOptions&) const {
  throw InputError("--pie: " + game_name() +
                   " has no set-up pie table (fiodar only; for a 1-move pie the openings of "
                   "loom solve are the table)");
}

solver::PropertyResult AnyGame::check_property(const std::string&,
                                               const solver::PropertyOptions&) const {
  throw InputError("loom verify --property is not available for " + game_name());
}

}  // namespace loom
