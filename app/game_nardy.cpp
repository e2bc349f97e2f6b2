// Long Nardy on the command line (CONVENTIONS.md: position string, step
// notation, moves/perft contract).
#include "app/game_nardy.h"

#include <algorithm>
#include <cstdio>

#include "app/registry.h"
#include "model/common/errors.h"

namespace loom {

NardyGame::NardyGame(nardy::Options opt) : opt_(opt), pos_(nardy::Position::start(opt.checkers)) {}

const std::string& NardyGame::game_name() const {
  static const std::string name = "nardy";
  return name;
}

std::vector<std::string> NardyGame::turn_lines(nardy::Roll roll) const {
  nardy::TurnGenerator gen(opt_);
  std::vector<nardy::Child> children;
  gen.turns(pos_, roll, children);
  std::vector<std::string> out;
  out.reserve(children.size());
  for (const auto& c : children) out.push_back(c.position.to_string() + " " + c.turn.text());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> NardyGame::legal_tokens() const {
  if (!roll_) throw InputError("moves nardy needs the roll: --dice XY (two digits 1-6, e.g. 65)");
  return turn_lines(*roll_);
}

void NardyGame::play(std::string_view token, int index) {
  throw InputError("move " + std::to_string(index) + " '" + detail::printable(token) +
                   "': nardy takes no --record (turns depend on the rolls); give the position "
                   "with --position");
}

uint64_t NardyGame::perft(int depth) const {
  return nardy::perft(pos_, depth, opt_);
}

std::vector<std::pair<std::string, uint64_t>> NardyGame::divide(int depth) const {
  std::vector<std::pair<std::string, uint64_t>> out;
  for (const auto& [roll, n] : nardy::perft_divide(pos_, depth, opt_))
    out.emplace_back(roll.name(), n);
  return out;
}

std::string NardyGame::show() const {
  return draw_nardy(pos_, opt_);
}

Outcome NardyGame::outcome() const {
  return nardy::result(pos_, opt_).outcome();
}

void NardyGame::set_position(std::string_view position) {
  nardy::Position p = nardy::Position::parse(position);
  std::string bad = nardy::check_playable(p, opt_);
  if (!bad.empty()) throw InputError("position '" + p.to_string() + "': " + bad);
  pos_ = p;
}

void NardyGame::set_dice(std::string_view dice) {
  auto r = nardy::Roll::parse(dice);
  if (!r)
    throw InputError("dice '" + detail::printable(dice) +
                     "': expected two digits 1-6 such as 65 or 33");
  roll_ = r;
}

std::string NardyGame::score_report() const {
  auto res = nardy::result(pos_, opt_);
  std::string out = "result: " + res.text() + "\n";
  for (Color c : {Color::kWhite, Color::kBlack})
    out += std::string(color_name(c)) + ": " + std::to_string(pos_.borne_off(c, opt_.checkers)) +
           " borne off, " + std::to_string(pos_.pips(c)) + " pips\n";
  return out;
}

std::string draw_nardy(const nardy::Position& p, const nardy::Options& opt) {
  auto cell = [&](int point) {
    char buf[16];
    int v = p.at(point);
    if (v == 0)
      std::snprintf(buf, sizeof buf, "%4s", ".");
    else
      std::snprintf(buf, sizeof buf, "%3d%c", v > 0 ? v : -v, v > 0 ? 'W' : 'B');
    return std::string(buf);
  };
  auto label = [](int point) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%4d", point);
    return std::string(buf);
  };
  std::string top_l, top_c, bot_c, bot_l;
  for (int i = 0; i < 12; ++i) {
    if (i == 6) {
      for (auto* s : {&top_l, &top_c, &bot_c, &bot_l}) *s += " |";
    }
    top_l += label(13 + i);
    top_c += cell(13 + i);
    bot_c += cell(12 - i);
    bot_l += label(12 - i);
  }
  std::string out = top_l + "\n" + top_c + "\n" + bot_c + "\n" + bot_l + "\n";
  for (Color c : {Color::kWhite, Color::kBlack}) {
    out += c == Color::kWhite ? "White (W): " : "Black (B): ";
    out += std::to_string(p.on_board(c)) + " on the board, " +
           std::to_string(p.borne_off(c, opt.checkers)) + " borne off, " +
           std::to_string(p.pips(c)) + " pips; ";
    out +=
        c == Color::kWhite ? "moves 24 -> 1, home 1-6\n" : "moves 12 -> 1, 24 -> 13, home 18-13\n";
  }
  auto res = nardy::result(p, opt);
  if (res.over()) {
    out += "game over: " + res.text() + "\n";
  } else {
    out += std::string(color_name(p.to_move())) + " to move";
    if (p.first_turn(opt.checkers)) out += " (first turn)";
    if (opt.last_roll && p.on_board(Color::kWhite) == 0) out += " (last roll: end=last-roll)";
    out += "\n";
  }
  return out;
}

GameInfo nardy_info() {
  GameInfo g;
  g.name = "nardy";
  g.title = "Long Nardy: race game with dice, head, 6-block and bear-off rules (fixed board)";
  g.has_size = false;
  g.rule_specs = &nardy::Options::specs;
  g.make = [](int, const RuleSet& rules, const StartOptions&) -> std::unique_ptr<AnyGame> {
    return std::make_unique<NardyGame>(nardy::Options::from(rules));
  };
  return g;
}

namespace {
[[noreturn]] void not_deterministic(const char* what) {
  throw InputError(std::string(what) +
                   " is not available for nardy: Long Nardy is a dice game, not a deterministic "
                   "game (the exact solver handles fiodar, enfargar, gadur and migong)");
}
}  // namespace

solver::SolveReport NardyGame::solve(const solver::SolveOptions&) const {
  not_deterministic("loom solve");
}

solver::PropertyResult NardyGame::check_property(const std::string&,
                                                 const solver::PropertyOptions&) const {
  not_deterministic("loom verify --property");
}

}  // namespace loom
