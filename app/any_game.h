// A type-erased game position for the command line: one interface over every
// game so that `loom` handles records, moves, perft and diagrams generically.
// Game-specific commands have default implementations that reject the request
// with an InputError (exit status 2).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "model/common/errors.h"
#include "model/common/game.h"
#include "model/common/rules.h"
#include "solver/driver.h"

namespace loom {

class AnyGame {
 public:
  virtual ~AnyGame() = default;

  virtual const std::string& game_name() const = 0;
  /// Legal move tokens of the current position, sorted in byte order; empty
  /// when the game is over.
  virtual std::vector<std::string> legal_tokens() const = 0;
  /// Plays one token. Throws InputError naming the token and its 1-based
  /// index in the record if it is malformed or illegal.
  virtual void play(std::string_view token, int index) = 0;
  /// Plays a whitespace-separated record from the current position.
  void play_record(std::string_view record);
  virtual uint64_t perft(int depth) const = 0;
  /// (token, perft after it at depth-1), sorted by token.
  virtual std::vector<std::pair<std::string, uint64_t>> divide(int depth) const = 0;
  /// A text drawing of the position with side to move and counts.
  virtual std::string show() const = 0;
  virtual Outcome outcome() const = 0;

  // Game-specific entry points; the defaults reject the request.
  virtual void set_position(std::string_view position);
  virtual void set_dice(std::string_view dice);
  virtual std::string score_report() const;

  // Exact solving (solver/driver.h). GameAdapter runs the generic solver on
  // its typed state; the defaults reject the request.
  virtual solver::SolveReport solve(const solver::SolveOptions& options) const;
  /// The pie table: every set-up the game's pie rule allows, solved (Fiodar's
  /// 2-stone set-ups). The default rejects the request.
  virtual solver::SolveReport solve_pie(const solver::SolveOptions& options) const;
  /// "termination" or "drawless", checked exhaustively from this position.
  virtual solver::PropertyResult check_property(const std::string& property,
                                                const solver::PropertyOptions& options) const;
};

namespace detail {
inline std::vector<std::string_view> split_ws(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    size_t j = i;
    while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}
std::string printable(std::string_view token);
}  // namespace detail

/// The generic adapter for a deterministic game state S. `keep` owns whatever
/// the state points to (its context); `draw` renders a position.
/// The bitboard width (in 64-bit words) of a game state `T<W>`; 0 for states
/// that are not templates on a width (Long Nardy).
template <class S>
struct StateWidth : std::integral_constant<int, 0> {};
template <template <int> class T, int W>
struct StateWidth<T<W>> : std::integral_constant<int, W> {};
/// The widths the solver is compiled for.
template <class S>
inline constexpr bool kSolvableWidth = StateWidth<S>::value <= 1;
/// The wider boards alpha-beta alone is compiled for (solve_position_dfs):
/// sides 5-7 (3 words: Fiodar's and Migong's recommended side 7) and 8-9
/// (5 words: Enfargar's side 9), for late positions of real games.
template <class S>
inline constexpr bool kDfsWidth = StateWidth<S>::value == 3 || StateWidth<S>::value == 5;

template <Game S>
class GameAdapter : public AnyGame {
 public:
  using Move = typename S::Move;
  GameAdapter(std::string name, std::shared_ptr<const void> keep, S state,
              std::function<std::string(const S&)> draw)
      : name_(std::move(name)),
        keep_(std::move(keep)),
        s_(std::move(state)),
        draw_(std::move(draw)) {}

  const std::string& game_name() const override { return name_; }
  const S& state() const { return s_; }
  S& state() { return s_; }

  std::vector<std::string> legal_tokens() const override {
    std::vector<Move> ms;
    s_.legal_moves(ms);
    std::vector<std::string> out;
    for (const auto& m : ms) out.push_back(s_.move_name(m));
    std::sort(out.begin(), out.end());
    return out;
  }

  void play(std::string_view token, int index) override {
    std::string where = "move " + std::to_string(index) + " '" + detail::printable(token) + "'";
    if (s_.is_terminal()) throw InputError(where + ": the game is already over");
    auto m = s_.parse_move(token);
    if (!m) throw InputError(where + ": malformed move token for " + name_);
    std::vector<Move> ms;
    s_.legal_moves(ms);
    if (!std::binary_search(ms.begin(), ms.end(), *m))
      throw InputError(where + ": illegal move in this position");
    typename S::Undo u;
    s_.apply(*m, u);
  }

  uint64_t perft(int depth) const override { return loom::perft(s_, depth); }

  std::vector<std::pair<std::string, uint64_t>> divide(int depth) const override {
    std::vector<std::pair<std::string, uint64_t>> out;
    for (const auto& [m, n] : loom::perft_divide(s_, depth)) out.emplace_back(s_.move_name(m), n);
    std::sort(out.begin(), out.end());
    return out;
  }

  std::string show() const override { return draw_(s_); }
  Outcome outcome() const override { return s_.outcome(); }

  solver::SolveReport solve(const solver::SolveOptions& options) const override {
    if constexpr (kSolvableWidth<S>)
      return solver::solve_position(s_, options);
    else if constexpr (kDfsWidth<S>)
      return solver::solve_position_dfs(s_, options);
    else
      throw_too_large();
  }
  solver::PropertyResult check_property(const std::string& property,
                                        const solver::PropertyOptions& options) const override {
    if constexpr (kSolvableWidth<S>)
      return solver::check_property(s_, property, options);
    else
      throw_too_large();
  }

 protected:
  /// Exhaustive work is out of reach beyond one-word boards (side 4, 37
  /// points); the solver is compiled for that width only, which also keeps
  /// the build small (it would otherwise be instantiated for every width).
  [[noreturn]] void throw_too_large() const {
    throw InputError(
        "exhaustive solving and property checks take boards of side 4 and below (loom solve "
        "--method dfs also sides 5 to 9, for late positions); this " +
        name_ + " board is larger");
  }

 protected:
  std::string name_;
  std::shared_ptr<const void> keep_;
  S s_;
  std::function<std::string(const S&)> draw_;
};

}  // namespace loom
