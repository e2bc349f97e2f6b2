// Seeded playouts for `loom audit`: what a designer measures on the real
// board (first-player win rate, game length, how games end, branching
// factor). Generic over loom::Game; Long Nardy has its own loop over the
// turn generator. Deterministic for a seed: choices come from splitmix64
// (model/common/zobrist.h), never from <random>'s distributions.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/common/game.h"
#include "model/common/zobrist.h"
#include "solver/control.h"

namespace loom::audit {

enum class Policy {
  kRandom,  ///< a legal move uniformly at random
  kGreedy,  ///< an immediately winning move if any; else a move after which the
            ///< opponent has no immediately winning reply; else random
};
inline const char* policy_name(Policy p) {
  return p == Policy::kRandom ? "random" : "greedy";
}

/// What a batch of playouts measured. "First player" is the side to move at
/// the start (Black/Blue for the hex games, White for Long Nardy).
struct PlayoutStats {
  std::string policy;
  int max_plies = 0;    ///< a game still going after this many plies is cut off
  int games = 0;        ///< games played (fewer than asked if the budget ran out)
  int first_wins = 0;   ///< games won by the first player
  int second_wins = 0;  ///< games won by the second player
  int neutral = 0;      ///< games ended without a winner (a draw or a stall)
  int cut_off = 0;      ///< games stopped at max_plies (a loop, or very long play)
  /// Games by how they ended: "win" (a winner by the position alone), "win on
  /// points" (a winner after two passes: the score decides), "stall",
  /// "draw", "cut off"; Long Nardy: "oin", "mars", "draw".
  std::map<std::string, int> endings;
  std::vector<int> lengths;  ///< plies (Long Nardy: turns) of every finished game
  uint64_t decisions = 0;    ///< positions where a move was chosen
  uint64_t choices = 0;      ///< legal moves summed over those positions
  double seconds = 0;
  bool budget_hit = false;  ///< stopped early by the time budget

  double branching() const { return decisions ? double(choices) / double(decisions) : 0.0; }
};

/// Uniform integer in [0, n) from the top 32 bits of the next splitmix64 output.
inline uint32_t uniform_below(uint64_t& state, uint32_t n) {
  return static_cast<uint32_t>(((splitmix64(state) >> 32) * n) >> 32);
}

/// 95% Wilson score interval of k successes in n trials (n > 0).
inline std::pair<double, double> wilson95(int k, int n) {
  if (n <= 0) return {0.0, 1.0};
  const double z = 1.959963984540054, p = double(k) / n, z2n = z * z / n;
  const double centre = (p + z2n / 2) / (1 + z2n);
  const double half = z * std::sqrt(p * (1 - p) / n + z2n / (4.0 * n)) / (1 + z2n);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

/// {"mean", "min", "median", "p90", "max"} of game lengths; null if none.
inline nlohmann::json length_json(std::vector<int> v) {
  if (v.empty()) return nullptr;
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (int x : v) sum += x;
  auto q = [&](size_t num, size_t den) { return v[std::min(v.size() - 1, v.size() * num / den)]; };
  return {{"mean", sum / double(v.size())},
          {"min", v.front()},
          {"median", q(1, 2)},
          {"p90", q(9, 10)},
          {"max", v.back()}};
}

namespace detail {

/// A pass move (games without one have none).
template <class Move>
bool is_pass(const Move& m) {
  if constexpr (requires { m.is_pass(); })
    return m.is_pass();
  else
    return false;
}

/// The winner of a finished position, or -1 for an end without a winner.
inline int winner_of(const Outcome& o) {
  if (o.kind == Outcome::Kind::kBlackWins) return idx(Color::kBlack);
  if (o.kind == Outcome::Kind::kWhiteWins) return idx(Color::kWhite);
  return -1;
}

/// No choice: the time budget ran out while choosing.
inline constexpr size_t kNoPick = ~size_t{0};

/// Greedy choice among `ms` (non-empty) from s; scratch lists reused.
/// Returns kNoPick once out_of_time() holds (asked before each candidate:
/// one greedy ply tries every reply to every move, which takes seconds on
/// a big Migong board under a sanitizer).
template <Game S, class OutOfTime>
size_t greedy_pick(S& s, const std::vector<typename S::Move>& ms,
                   std::vector<typename S::Move>& replies, uint64_t& rng, OutOfTime out_of_time) {
  const int me = idx(s.to_move());
  std::vector<size_t> order(ms.size());
  for (size_t i = 0; i < ms.size(); ++i) order[i] = i;
  for (size_t i = ms.size(); i > 1; --i)
    std::swap(order[i - 1], order[uniform_below(rng, static_cast<uint32_t>(i))]);
  typename S::Undo u, u2;
  std::vector<size_t> safe;
  for (size_t i : order) {
    if (out_of_time()) return kNoPick;
    s.apply(ms[i], u);
    bool wins = false, unsafe = false;
    if (s.is_terminal()) {
      wins = winner_of(s.outcome()) == me;
    } else {
      s.legal_moves(replies);
      for (const auto& r : replies) {
        s.apply(r, u2);
        bool lost = s.is_terminal() && winner_of(s.outcome()) == (1 - me);
        s.undo(r, u2);
        if (lost) {
          unsafe = true;
          break;
        }
      }
    }
    s.undo(ms[i], u);
    if (wins) return i;
    if (!unsafe) safe.push_back(i);
  }
  return safe.empty() ? order[0] : safe[0];
}

}  // namespace detail

/// Plays `games` seeded games from `start` under `policy`, stopping early
/// (budget_hit) once `seconds` have passed (0: no limit): the clock is read
/// every ply and, in a greedy ply, before each candidate move; a game the
/// deadline falls in is left out of the figures (a greedy game on a big
/// board can take seconds). A win that follows two passes in a row is
/// counted under `pass_win` (the game's own name for it: a win on points,
/// on more stones).
template <Game S>
PlayoutStats run_playouts(const S& start, Policy policy, int games, uint64_t seed, int max_plies,
                          double seconds, const std::string& pass_win = "win after two passes") {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  auto out_of_time = [&] {
    return solver::stop_signal_received() || (seconds > 0 && elapsed() >= seconds);
  };
  PlayoutStats st;
  st.policy = policy_name(policy);
  st.max_plies = max_plies;
  const int first = idx(start.to_move());
  std::vector<typename S::Move> ms, replies;
  typename S::Undo u;
  for (int g = 0; g < games; ++g) {
    uint64_t rng = seed ^ (0x9e3779b97f4a7c15ULL * static_cast<uint64_t>(g + 1));
    S s = start;
    int ply = 0, passes = 0;
    uint64_t decisions = 0, choices = 0;  // added once the game is finished
    bool cut = false;
    while (true) {
      if (out_of_time()) {
        st.budget_hit = true;
        break;
      }
      s.legal_moves(ms);
      if (ms.empty()) break;
      if (ply == max_plies) {
        cut = true;
        break;
      }
      ++decisions;
      choices += ms.size();
      size_t i = policy == Policy::kRandom ? uniform_below(rng, static_cast<uint32_t>(ms.size()))
                                           : detail::greedy_pick(s, ms, replies, rng, out_of_time);
      if (i == detail::kNoPick) {
        st.budget_hit = true;
        break;
      }
      passes = detail::is_pass(ms[i]) ? passes + 1 : 0;
      s.apply(ms[i], u);
      ++ply;
    }
    if (st.budget_hit) break;
    ++st.games;
    st.decisions += decisions;
    st.choices += choices;
    if (cut) {
      ++st.cut_off;
      ++st.endings["cut off"];
      continue;
    }
    st.lengths.push_back(ply);
    const Outcome o = s.outcome();
    const int w = detail::winner_of(o);
    if (w < 0) {
      ++st.neutral;
      ++st.endings[o.kind == Outcome::Kind::kUnresolved ? "stall" : "draw"];
    } else {
      ++(w == first ? st.first_wins : st.second_wins);
      ++st.endings[passes >= 2 ? pass_win : std::string("win")];
    }
  }
  st.seconds = elapsed();
  return st;
}

}  // namespace loom::audit
