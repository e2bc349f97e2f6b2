#include "app/cli.h"

#include <CLI/CLI.hpp>
#include <chrono>
#include <exception>
#include <iomanip>
#include <sstream>

#include "app/registry.h"
#include "model/common/errors.h"

namespace loom {

namespace {

/// Options shared by the commands that take a game and a position.
struct GameArgs {
  std::string game;
  int size = 0;
  std::vector<std::string> rules;
  std::string record;
  std::string position;
  std::string dice;
  bool has_record = false, has_position = false, has_dice = false;

  void add_to(CLI::App* cmd, bool with_dice) {
    cmd->add_option("game", game, "fiodar, enfargar, gadur, migong or nardy")->required();
    cmd->add_option("--size", size, "board side (default: the game's recommended side)");
    cmd->add_option("--rule", rules, "rule variant NAME=VALUE (repeatable; see `loom rules GAME`)")
        ->take_all()
        ->allow_extra_args(false);
    cmd->add_option("--record", record, "move tokens from the start, separated by spaces");
    cmd->add_option("--position", position, "nardy: position string S:c1,...,c24");
    if (with_dice) cmd->add_option("--dice", dice, "nardy: the roll, two digits such as 65");
  }

  /// Builds the game and plays the record (or sets the position).
  std::unique_ptr<AnyGame> build(CLI::App* cmd) const {
    auto g = make_game(game, cmd->count("--size") ? std::optional<int>(size) : std::nullopt, rules);
    if (cmd->count("--position")) g->set_position(position);
    if (cmd->get_option_no_throw("--dice") && cmd->count("--dice")) g->set_dice(dice);
    if (cmd->count("--record")) g->play_record(record);
    return g;
  }
};

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

}  // namespace

int run_loom(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{
      "loom: executable rules, exact solving and puzzles for Fiodar, Enfargar, Gadur, Migong "
      "and Long Nardy.\nMove tokens, records and outputs follow docs/cli.md.",
      "loom"};
  app.require_subcommand(1);
  app.fallthrough(false);

  GameArgs ga;
  int depth = -1;
  bool divide = false;

  auto* moves = app.add_subcommand("moves", "print the legal moves of a position, sorted");
  ga.add_to(moves, true);
  auto* perft = app.add_subcommand("perft", "count the leaf nodes of the move tree at a depth");
  ga.add_to(perft, false);
  perft->add_option("--depth", depth, "search depth (plies)")->required();
  perft->add_flag("--divide", divide, "also print each move's subtotal");
  auto* show = app.add_subcommand("show", "draw the position reached by a record");
  ga.add_to(show, false);
  auto* rules_cmd = app.add_subcommand("rules", "list a game's rule options and sizes");
  std::string rules_game;
  rules_cmd->add_option("game", rules_game, "game name")->required();
  auto* score = app.add_subcommand("score", "score the position reached by a record");
  ga.add_to(score, false);

  std::vector<std::string> argv_store = {"loom"};
  argv_store.insert(argv_store.end(), args.begin(), args.end());
  std::vector<const char*> argv;
  for (auto& a : argv_store) argv.push_back(a.c_str());

  try {
    try {
      app.parse(static_cast<int>(argv.size()), argv.data());
    } catch (const CLI::CallForHelp&) {
      out << app.help();
      return 0;
    } catch (const CLI::CallForAllHelp&) {
      out << app.help("", CLI::AppFormatMode::All);
      return 0;
    } catch (const CLI::ParseError& e) {
      std::string msg = one_line(e.what());
      if (args.empty())
        msg = "a command is required (moves, perft, show, rules, score); try --help";
      err << "loom: " << msg << "\n";
      return 2;
    }

    if (*moves) {
      auto g = ga.build(moves);
      for (const auto& t : g->legal_tokens()) out << t << "\n";
    } else if (*perft) {
      if (depth < 0) throw InputError("--depth must be >= 0");
      auto g = ga.build(perft);
      if (divide) {
        uint64_t total = 0;
        for (const auto& [tok, n] : g->divide(depth)) {
          out << tok << " " << n << "\n";
          total += n;
        }
        out << (depth == 0 ? 1 : total) << "\n";
      } else {
        out << g->perft(depth) << "\n";
      }
    } else if (*show) {
      auto g = ga.build(show);
      out << g->show();
    } else if (*rules_cmd) {
      const GameInfo& gi = find_game(rules_game);
      out << gi.title << "\n";
      if (gi.has_size)
        out << "size: " << gi.min_size << ".." << gi.max_size << " (default " << gi.default_size
            << ")\n";
      for (const auto& spec : gi.rule_specs()) {
        out << "--rule " << spec.key << "=";
        for (size_t i = 0; i < spec.values.size(); ++i)
          out << (i ? "|" : "") << spec.values[i] << (i == 0 ? " (default)" : "");
        out << "\n    " << spec.help << "\n";
      }
    } else if (*score) {
      auto g = ga.build(score);
      out << g->score_report();
    }
    return 0;
  } catch (const InputError& e) {
    err << "loom: " << one_line(e.what()) << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    err << "loom: out of memory\n";
    return 2;
  } catch (const std::exception& e) {
    err << "loom: internal error: " << one_line(e.what()) << "\n";
    return 1;
  }
}

}  // namespace loom
