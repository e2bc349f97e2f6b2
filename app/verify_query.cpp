// `loom verify GAME --query NAME` and `--list-queries`: questions answered by
// the independent Z3 specification (properties/spec/queries.h). The spec
// returns its witnesses as data; this file draws them (hex boards with the
// model's diagram code, which is drawing only) and prints timings.
#include <chrono>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "app/registry.h"
#include "app/verify.h"
#include "model/common/diagram.h"
#include "model/common/errors.h"
#include "model/common/hex.h"
#include "properties/spec/hex_spec.h"
#include "properties/spec/queries.h"

namespace loom {

namespace {

/// Every game name loom knows, built or not (queries need only RULES.md).
void require_known_game(const std::string& name) {
  std::string known;
  for (const auto& g : all_games()) {
    if (g.name == name) return;
    known += (known.empty() ? "" : ", ") + g.name;
  }
  throw InputError("unknown game '" + detail::printable(name) + "' (known: " + known + ")");
}

/// The rule options in force: validated against the model's option table
/// when the game is built (the public contract), else the spec's own table.
RuleSet rules_for(const std::string& game, const std::vector<std::string>& assignments) {
  std::vector<RuleSpec> table;
  for (const auto& g : all_games())
    if (g.name == game && g.available && g.rule_specs) table = g.rule_specs();
  if (table.empty()) table = spec::spec_rule_table(game);
  RuleSet rs(table);
  rs.set_all(assignments);
  return rs;
}

std::string draw(const spec::HexPicture& p) {
  const HexGeometry& g = HexGeometry::get(p.side);
  spec::HexBoard b(p.side);
  return hex_diagram(g, [&](int site) { return p.cells[b.parse(g.name(site))]; });
}

std::string range_text(const spec::QueryInfo& q) {
  if (!q.sized) return "fixed board";
  return "sides " + std::to_string(q.min_size) + ".." + std::to_string(q.max_size) + ", default " +
         std::to_string(q.default_size);
}

/// Replays a witness line on the model (when the game is built): an
/// independent confirmation that the record is legal play and the final move
/// legal there.
std::string model_replay(const std::string& game, int size, const std::vector<std::string>& rules,
                         const std::vector<std::string>& record, const std::string& move) {
  const GameInfo* info = nullptr;
  for (const auto& g : all_games())
    if (g.name == game && g.available) info = &g;
  if (!info) return "model check: the " + game + " model is not in this build";
  std::string text;
  for (const auto& t : record) text += (text.empty() ? "" : " ") + t;
  try {
    auto g = make_game(game, size, rules);
    g->play_record(text);
    std::string msg = "model check: the model plays the record";
    if (!move.empty()) {
      g->play(move, static_cast<int>(record.size()) + 1);
      msg += " and then " + move;
    }
    return msg + " (legal)";
  } catch (const InputError& e) {
    return std::string("model check: THE MODEL DISAGREES: ") + e.what();
  }
}

}  // namespace

void list_queries(const VerifyArgs& args, std::ostream& out) {
  if (!args.game.empty()) require_known_game(args.game);
  for (const auto& q : spec::spec_queries()) {
    if (!args.game.empty() && q.game != args.game) continue;
    out << q.game << " " << q.name << ": "
        << (q.proof ? "proves (UNSAT) or refutes (SAT): " + q.claim : q.summary) << " ("
        << range_text(q) << ")\n";
  }
}

void run_query(const VerifyArgs& args, std::ostream& out, std::ostream&) {
  require_known_game(args.game);
  const spec::QueryInfo* q = spec::find_spec_query(args.game, args.query);
  if (!q) {
    std::string known;
    for (const auto& k : spec::spec_queries())
      if (k.game == args.game) known += (known.empty() ? "" : ", ") + k.name;
    throw InputError("unknown query '" + detail::printable(args.query) + "' for " + args.game +
                     " (known: " + known + ")");
  }
  int size = 0;
  if (q->sized) {
    size = args.size.value_or(q->default_size);
    if (size < q->min_size || size > q->max_size)
      throw InputError("query " + q->name + " runs on sides " + std::to_string(q->min_size) + ".." +
                       std::to_string(q->max_size) + ", got " + std::to_string(size));
  } else if (args.size) {
    throw InputError(args.game + " has a fixed board: --size is not used");
  }
  RuleSet rules = rules_for(args.game, args.rules);
  const auto t0 = std::chrono::steady_clock::now();
  spec::QueryAnswer a;
  bool answered = true;
  try {
    a = spec::run_spec_query(*q, size, rules.in_force(), args.seconds);
  } catch (const spec::QueryTimeout&) {
    answered = false;
    a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

  const std::string where = q->sized ? " on side " + std::to_string(size) : "";
  out << args.game << " " << q->name << where << " (rules: " << rules.to_string() << ")\n";
  if (q->proof)
    out << "claim: " << q->claim << "\ncounterexample sought: " << q->summary << "\n";
  else
    out << "question: " << q->summary << "\n";
  if (!answered) {
    std::ostringstream limit;
    limit << args.seconds;
    out << "not answered within --seconds " << limit.str()
        << " (Z3 gave no answer in time; run with more, or without --seconds)\n";
  } else if (a.witness) {
    out << (q->proof ? "counterexample found (SAT):\n" : "witness found (SAT):\n");
    for (const auto& p : a.pictures) out << p.caption << "\n" << draw(p);
  } else {
    out << "none exists" << where << " (UNSAT)\n";
    if (q->proof) out << "proved" << where << ": " << q->claim << "\n";
  }
  for (const auto& line : a.lines) out << line << "\n";
  if (a.record) out << model_replay(args.game, size, args.rules, *a.record, a.move) << "\n";
  std::ostringstream secs;
  secs << std::fixed << std::setprecision(2) << a.seconds;
  out << "time: " << secs.str() << " s\n";
  if (args.json) {
    nlohmann::json j;
    j["game"] = args.game;
    j["query"] = q->name;
    if (q->sized) j["size"] = size;
    nlohmann::json r = nlohmann::json::object();
    for (const auto& [k, v] : rules.in_force()) r[k] = v;
    j["rules"] = r;
    j["result"] = !answered ? "unknown" : a.witness ? "sat" : "unsat";
    if (q->proof) j["proved"] = answered ? nlohmann::json(!a.witness) : nlohmann::json(nullptr);
    nlohmann::json facts = nlohmann::json::object();
    for (const auto& [k, v] : a.facts) facts[k] = v;
    j["witness"] = facts;
    j["seconds"] = a.seconds;
    out << j.dump() << "\n";
  }
}

}  // namespace loom
