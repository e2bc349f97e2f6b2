#include "app/audit/nardy_playouts.h"

#include <algorithm>
#include <chrono>

#include "model/nardy/movegen.h"
#include "solver/control.h"

namespace loom::audit {

nlohmann::json nardy_playouts(const nardy::Position& start, const nardy::Options& opt,
                              Policy policy, int games, uint64_t seed, double seconds) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  const int max_turns = 2000;
  nardy::TurnGenerator gen(opt);
  std::vector<nardy::Position> kids;
  int played = 0, white = 0, black = 0, draws = 0, mars = 0, cut = 0;
  std::vector<int> lengths;
  uint64_t decisions = 0, choices = 0;
  bool budget_hit = false;
  const Color first = start.to_move();
  for (int g = 0; g < games; ++g) {
    if (solver::stop_signal_received() || (seconds > 0 && elapsed() >= seconds)) {
      budget_hit = true;
      break;
    }
    uint64_t rng = seed ^ (0x9e3779b97f4a7c15ULL * static_cast<uint64_t>(g + 1));
    nardy::Position p = start;
    int turn = 0;
    bool stopped = false;
    while (!nardy::result(p, opt).over()) {
      if (turn == max_turns) {
        stopped = true;
        break;
      }
      int a = 1 + static_cast<int>(uniform_below(rng, 6)),
          b = 1 + static_cast<int>(uniform_below(rng, 6));
      nardy::Roll roll{static_cast<uint8_t>(std::max(a, b)), static_cast<uint8_t>(std::min(a, b))};
      gen.positions(p, roll, kids);
      // positions() lists in no particular order: sort for determinism.
      std::sort(kids.begin(), kids.end());
      ++decisions;
      choices += kids.size();
      size_t pick = uniform_below(rng, static_cast<uint32_t>(kids.size()));
      if (policy == Policy::kGreedy) {
        const Color me = p.to_move();
        int best = 1 << 30;
        std::vector<size_t> ties;
        for (size_t i = 0; i < kids.size(); ++i) {
          int pips = kids[i].pips(me);
          if (pips < best) {
            best = pips;
            ties.clear();
          }
          if (pips == best) ties.push_back(i);
        }
        pick = ties[uniform_below(rng, static_cast<uint32_t>(ties.size()))];
      }
      p = kids[pick];
      ++turn;
    }
    ++played;
    if (stopped) {
      ++cut;
      continue;
    }
    lengths.push_back(turn);
    nardy::Result r = nardy::result(p, opt);
    if (r.kind == nardy::Result::Kind::kDraw) ++draws;
    if (r.kind == nardy::Result::Kind::kWhiteWins) ++white;
    if (r.kind == nardy::Result::Kind::kBlackWins) ++black;
    if (r.points == 2) ++mars;
  }
  nlohmann::json j;
  j["policy"] = policy_name(policy);
  j["games"] = played;
  const int first_wins = first == Color::kWhite ? white : black;
  auto [lo, hi] = wilson95(first_wins, played);
  j["first_player"] = color_name(first);
  j["first_player_wins"] = first_wins;
  j["second_player_wins"] = first == Color::kWhite ? black : white;
  j["first_player_win_rate"] =
      played ? nlohmann::json(double(first_wins) / played) : nlohmann::json(nullptr);
  j["ci95"] = played ? nlohmann::json::array({lo, hi}) : nlohmann::json(nullptr);
  j["draws"] = draws;
  j["draw_rate"] = played ? nlohmann::json(double(draws) / played) : nlohmann::json(nullptr);
  auto [dlo, dhi] = wilson95(draws, played);
  j["draw_ci95"] = played ? nlohmann::json::array({dlo, dhi}) : nlohmann::json(nullptr);
  j["mars"] = mars;
  j["cut_off"] = cut;
  j["endings"] = {{"oin", white + black - mars}, {"mars", mars}, {"draw", draws}, {"cut off", cut}};
  j["length"] = length_json(lengths);
  if (!lengths.empty()) j["length"]["unit"] = "turns";
  j["branching"] =
      decisions ? nlohmann::json(double(choices) / double(decisions)) : nlohmann::json(nullptr);
  j["max_plies"] = max_turns;
  j["seconds"] = elapsed();
  if (budget_hit)
    j["note"] = "stopped early by the time budget after " + std::to_string(played) + " games";
  return j;
}

}  // namespace loom::audit
