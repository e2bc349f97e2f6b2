// loom play GAME [--seed S]: one whole random game, printed as a readable
// record. Deterministic for a seed on every platform: the rolls and choices
// come from splitmix64 (model/common/zobrist.h), never from <random>'s
// distributions, whose output differs between standard libraries.
#include <algorithm>

#include "app/command.h"
#include "app/game_nardy.h"
#include "app/int_option.h"
#include "app/solve_output.h"
#include "app/typed_game.h"
#include "model/common/errors.h"
#include "model/common/zobrist.h"

namespace loom {

namespace {

/// Uniform integer in [0, n) from the top 32 bits of the next splitmix64 output.
uint32_t uniform(uint64_t& state, uint32_t n) {
  return static_cast<uint32_t>(((splitmix64(state) >> 32) * n) >> 32);
}

void play_nardy(const NardyGame& g, uint64_t seed, int max_turns, bool positions,
                std::ostream& out) {
  const nardy::Options& opt = g.options();
  nardy::Position p = g.position();
  nardy::TurnGenerator gen(opt);
  std::vector<nardy::Child> children;
  uint64_t state = seed;
  out << "nardy " << opt.to_string() << ", seed " << seed << "\n";
  out << "start: " << p.to_string() << "\n";
  int turn = 0;
  while (!nardy::result(p, opt).over()) {
    if (turn == max_turns) {
      out << "stopped after " << turn << " turns without an end (--max-turns)\n";
      out << "final: " << p.to_string() << "\n";
      return;
    }
    int a = 1 + static_cast<int>(uniform(state, 6)), b = 1 + static_cast<int>(uniform(state, 6));
    nardy::Roll roll{static_cast<uint8_t>(std::max(a, b)), static_cast<uint8_t>(std::min(a, b))};
    gen.turns(p, roll, children);
    std::sort(children.begin(), children.end(), [](const auto& x, const auto& y) {
      return x.position.to_string() + " " + x.turn.text() <
             y.position.to_string() + " " + y.turn.text();
    });
    const auto& pick = children[uniform(state, static_cast<uint32_t>(children.size()))];
    std::string text = pick.turn.size ? pick.turn.text() : "(no legal step)";
    out << ++turn << ". " << color_name(p.to_move()) << " " << roll.name() << ": " << text << "\n";
    p = pick.position;
    if (positions) out << "   " << p.to_string() << "\n";
  }
  out << "result: " << nardy::result(p, opt).text() << " after " << turn << " turns\n";
  out << "final: " << p.to_string() << "\n";
}

void play_generic(AnyGame& g, const GameArgs& ga, uint64_t seed, int max_turns, std::ostream& out) {
  uint64_t state = seed;
  // The whole job (size, rules, set-up, record): the printed game replays
  // from it, its moves numbered on from the record's.
  Color mover = Color::kBlack;
  visit_state(g, [&](const auto& s) {
    if constexpr (requires { s.to_move(); }) mover = s.to_move();
  });
  const std::string setup = ga.given("--setup") && ga.start.setup ? *ga.start.setup : "";
  const std::optional<int> size = ga.given("--size") ? std::optional<int>(ga.size) : std::nullopt;
  JobInfo job = job_info(ga.game, size, ga.rules, setup, ga.record, mover);
  job.use_edges(ga.start.edges_file, edges_digest(g));
  out << job.headline() << ", seed " << seed << "\n";
  int ply = static_cast<int>(detail::split_ws(ga.record).size()), played = 0;
  while (true) {
    auto tokens = g.legal_tokens();
    if (tokens.empty()) break;
    if (played == max_turns) {
      out << "stopped after " << played << " moves without an end (--max-turns)\n";
      return;
    }
    const auto& t = tokens[uniform(state, static_cast<uint32_t>(tokens.size()))];
    g.play(t, ++ply);
    ++played;
    out << ply << ". " << t << "\n";
  }
  std::string result = outcome_name(g.outcome().kind);
  visit_state(g, [&](const auto& s) {
    // Migong's sides are Blue and Yellow (RULES.md section 5); the outcome
    // names seats, and a pie swap gives each seat the other colour.
    if constexpr (requires {
                    s.colour_of(Color::kBlack);
                    s.swapped();
                  }) {
      if (result != "black" && result != "white") return;
      const Color seat = result == "black" ? Color::kBlack : Color::kWhite;
      result = s.colour_of(seat) == Color::kBlack ? "Blue" : "Yellow";
      if (s.swapped())
        result += seat == Color::kBlack ? " (the first player)" : " (the second player)";
    }
  });
  out << "result: " << result << " after " << played << " moves\n";
}

}  // namespace

std::vector<CommandSpec> play_commands() {
  std::vector<CommandSpec> cmds;
  cmds.push_back({"play", "play one whole random game and print every roll, move and the result",
                  [](CLI::App* cmd) {
                    auto ga = std::make_shared<GameArgs>();
                    ga->add_to(cmd);
                    auto seed = std::make_shared<uint64_t>(1);
                    auto max_turns = std::make_shared<int>(10000);
                    auto positions = std::make_shared<bool>(false);
                    add_int_option(cmd, "--seed", *seed,
                                   "random seed (default 1); the same seed, the same game",
                                   uint64_t{0}, std::numeric_limits<uint64_t>::max());
                    add_int_option(cmd, "--max-turns", *max_turns,
                                   "stop after this many turns (default 10000)", 0, 1000000000);
                    cmd->add_flag("--positions", *positions,
                                  "nardy: print the position string after every turn");
                    return Action([=](std::ostream& out, std::ostream&) {
                      if (*max_turns < 0) throw InputError("--max-turns must be >= 0");
                      auto g = ga->build();
                      if (auto* n = dynamic_cast<NardyGame*>(g.get()))
                        play_nardy(*n, *seed, *max_turns, *positions, out);
                      else if (*positions)
                        throw InputError("--positions is not used by " + ga->game +
                                         " (it prints Long Nardy's position strings)");
                      else
                        play_generic(*g, *ga, *seed, *max_turns, out);
                    });
                  }});
  return cmds;
}

}  // namespace loom
