#include "app/solve_output.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "app/registry.h"
#include "model/common/errors.h"

namespace loom {

namespace {

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
  return out;
}

std::string mem_text(uint64_t bytes) {
  char buf[32];
  if (bytes >= (uint64_t{1} << 30))
    std::snprintf(buf, sizeof buf, "%.2f GB", bytes / double(uint64_t{1} << 30));
  else
    std::snprintf(buf, sizeof buf, "%.1f MB", bytes / double(1 << 20));
  return buf;
}

/// A value as a word of the readable text (Value::text() with the game's
/// side names).
std::string value_word(const JobInfo& job, const solver::Value& v) {
  if (v.kind == solver::Value::Kind::kBlack) return side_word(job.game, true, job.seats());
  if (v.kind == solver::Value::Kind::kWhite) return side_word(job.game, false, job.seats());
  return v.text();
}

std::string value_sentence(const JobInfo& job, const solver::Value& v, int plies) {
  using K = solver::Value::Kind;
  std::string p =
      plies >= 0 ? " (game ends in " + std::to_string(plies) + " plies with best play)" : "";
  switch (v.kind) {
    case K::kBlack:
    case K::kWhite:
      return value_word(job, v) + " wins" + p;
    case K::kDraw:
      return plies >= 0 ? "draw (a drawn end is forced)"
                        : "draw: neither side can force a win; play can go on for ever";
    case K::kStall:
      return "stall: best play reaches an end without a winner" + p;
    case K::kMargin:
      return v.text() + " (Black's score minus White's)" + p;
    case K::kUnknown:
      break;
  }
  return "unknown (not solved)";
}

/// Fiodar pie: the colour the chooser takes after a set-up.
std::string pie_colour(const solver::Value& v) {
  auto w = v.winner();
  return w == solver::Value::Kind::kBlack   ? "black"
         : w == solver::Value::Kind::kWhite ? "white"
                                            : "either";
}

}  // namespace

std::string JobInfo::signature(const std::string& method) const {
  std::string s = "loom solve; game=" + game;
  if (size) s += "; size=" + std::to_string(*size);
  s += "; rules=";
  for (const auto& [k, v] : rules) s += k + "=" + v + " ";
  s += "; setup=" + setup + "; record=" + record + "; method=" + method;
  return s;
}

void JobInfo::to_json(nlohmann::json& j) const {
  j["game"] = game;
  if (size)
    j["size"] = *size;
  else
    j["size"] = nullptr;
  nlohmann::json r = nlohmann::json::object();
  for (const auto& [k, v] : rules) r[k] = v;
  j["rules"] = r;
  if (!setup.empty()) j["setup"] = setup;
  if (!edges_file.empty()) j["edges"] = {{"file", edges_file}, {"digest", edges_digest}};
  j["record"] = record;
  j["to_move"] = to_move;
}

bool JobInfo::seats() const {
  return pie_rule_on(rules);
}

std::string JobInfo::headline() const {
  std::string s = game;
  if (size) s += " side " + std::to_string(*size);
  std::string rs;
  for (const auto& [k, v] : rules) rs += (rs.empty() ? "" : " ") + k + "=" + v;
  if (!rs.empty()) s += " (" + rs + ")";
  if (!edges_file.empty())
    s += ", edges from '" + clip_token(edges_file, 80) + "' (digest " + edges_digest + ")";
  if (!setup.empty()) s += ", setup \"" + setup + "\"";
  s += record.empty() ? ", from the start" : ", after \"" + record + "\"";
  s += ", " + (to_move.empty() ? to_move : side_word(game, to_move == "black", seats())) +
       " to move";
  return s;
}

JobInfo job_info(const std::string& game, std::optional<int> size,
                 const std::vector<std::string>& rules, const std::string& setup,
                 const std::string& record, Color to_move) {
  const GameInfo& g = find_game(game);
  JobInfo j;
  j.game = g.name;
  if (g.has_size) j.size = size.value_or(g.default_size);
  RuleSet rs(g.rule_specs());
  rs.set_all(rules);
  j.rules = rs.in_force();
  j.setup = setup;
  for (auto t : detail::split_ws(record))
    j.record += (j.record.empty() ? "" : " ") + std::string(t);
  j.to_move = color_name(to_move);
  return j;
}

nlohmann::json value_json(const solver::Value& v) {
  if (v.kind == solver::Value::Kind::kMargin) return v.margin2 / 2.0;
  if (v.kind == solver::Value::Kind::kUnknown) return nullptr;
  return v.text();
}

std::string pie_decision(const solver::Value& v, Color first) {
  auto w = v.winner();
  if (w == solver::Value::Kind::kUnknown) return "unknown";
  if (w == solver::Value::Kind::kDraw) return "either";
  bool first_wins = (w == solver::Value::Kind::kBlack) == (first == Color::kBlack);
  return first_wins ? "swap" : "keep";
}

void print_solve(const JobInfo& job, const solver::SolveReport& r, bool json, std::ostream& out) {
  Color first = job.to_move == "white" ? Color::kWhite : Color::kBlack;
  out << job.headline() << "\n";
  if (!r.complete) {
    if (r.value.known())
      out << "value: " << value_sentence(job, r.value, r.plies) << " (proven, though not every "
          << (job.pie_setups ? "set-up" : "opening") << " is solved)\n";
    out << (r.value.known() ? "incomplete: " : "not solved: ") << r.note << "\n";
  } else {
    if (job.pie_setups) {
      out << "pie: the setter should place " << r.pie_setup << " (black white); the chooser then "
          << "takes "
          << side_word(job.game, r.value.winner() == solver::Value::Kind::kBlack, job.seats())
          << " and wins by " << solver::margin_text(std::abs(r.value.margin2)) << "\n";
      out << "value: " << value_sentence(job, r.value, r.plies) << " after that set-up\n";
    } else {
      out << "value: " << value_sentence(job, r.value, r.plies) << "\n";
    }
    // Value-only bounds, or a line not worked out within --max-nodes.
    if (!r.note.empty()) out << r.note << "\n";
  }
  if (job.pie_setups && !r.openings.empty()) {
    out << "pie set-ups (\"BLACK WHITE\", up to symmetry; x = how many set-ups it stands for; "
           "value: Black's margin with Black to move; pie: the colour the chooser takes):\n";
    for (const auto& o : r.openings) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "  %-8s x%-3d %-8s  pie: %s", o.move.c_str(), o.count,
                    o.value.text().c_str(), pie_colour(o.value).c_str());
      out << buf << "\n";
    }
  } else if (!r.openings.empty()) {
    out << "openings (each first move up to symmetry; x = how many moves it stands for; value "
           "after it"
        << (job.pie_table ? "; pie: what the second player should do" : "") << "):\n";
    for (const auto& o : r.openings) {
      char buf[96];
      const std::string v = o.bound_dir
                                ? (o.bound_dir < 0 ? "<= " : ">= ") + solver::margin_text(o.bound2)
                                : value_word(job, o.value);
      std::snprintf(buf, sizeof buf, "  %-8s x%-3d %-*s", o.move.c_str(), o.count,
                    job.seats() ? 13 : 8, v.c_str());
      out << buf;
      if (o.plies >= 0) out << " (" << o.plies << " plies)";
      if (job.pie_table) {
        std::string d = pie_decision(o.value, first);
        out << "  pie: "
            << (d == "swap"     ? "swap (take over the first player's side)"
                : d == "keep"   ? "keep (do not swap)"
                : d == "either" ? "either (neither colour can force a win)"
                                : "unknown");
      }
      out << "\n";
    }
    if (job.seats() && job.record.empty() && job.setup.empty())
      out << "pie=on: each value is after the second player's best reply, a swap included; "
             "the pie column of the same solve with --rule pie=off says when to swap\n";
  }
  if (!r.pv.empty())
    out << "principal variation: " << join(r.pv)
        << (r.pv_repeats ? "  (a position repeats: play can go on for ever)" : "") << "\n";
  else if (job.pv && r.complete && !r.openings.empty() &&
           (r.method == "compact" || r.method == "dfpn" || r.method == "superko"))
    out << "principal variation: none (--method " << r.method
        << " proves values only; --method dfs gives a line)\n";
  // "up to 12 symmetries"; the word alone where none is used.
  const std::string sym = r.symmetries == 1
                              ? std::string("no symmetry")
                              : "up to " + std::to_string(r.symmetries) + " symmetries";
  out << r.method << ": ";
  if (r.method == "retrograde" || r.method == "dense") {
    out << solver::with_commas(r.positions) << " positions (" << sym << "), "
        << solver::with_commas(r.moves) << " moves, " << solver::with_commas(r.terminals)
        << (r.method == "dense" ? " moves to an end, " : " ends, ") << r.sweeps
        << (r.method == "dense" ? " layers" : " sweeps");
  } else {
    out << solver::with_commas(r.nodes) << (r.nodes == 1 ? " node" : " nodes") << " searched"
        << (r.resumed ? " in this run (" + solver::with_commas(r.nodes_total) + " in all runs)"
                      : "")
        << ", " << solver::with_commas(r.positions) << " positions stored (" << sym << ")";
  }
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.2f", r.seconds);
  out << ", " << mem_text(r.bytes)
      << (r.tables > 1 ? " in " + std::to_string(r.tables) + " tables" : "") << ", " << secs << " s"
      << (r.resumed ? " in this run (resumed from a checkpoint)" : "") << "\n";
  if (r.table_check) {
    char cs[32];
    std::snprintf(cs, sizeof cs, "%.2f", r.table_check->seconds);
    out << "table check: all " << solver::with_commas(r.table_check->positions)
        << " positions agree with their successors by the rules ("
        << solver::with_commas(r.table_check->moves) << " moves), " << cs << " s\n";
  }
  if (r.ranks.size() > 1) {
    out << "ranks: " << r.ranks.size() << " (positions, handled, messages, sent, memory):";
    for (size_t i = 0; i < r.ranks.size(); ++i) {
      const auto& k = r.ranks[i];
      out << (i ? "; " : " ") << i << ": " << solver::with_commas(k.positions) << ", "
          << solver::with_commas(k.handled) << ", " << solver::with_commas(k.messages) << ", "
          << mem_text(k.bytes_sent) << ", " << mem_text(k.bytes);
    }
    out << "\n";
  }
  const auto& rp = r.replay;
  if (rp.done || !rp.note.empty()) {
    out << "replay (second proof, whole histories): ";
    if (rp.done)
      out << "Black's margin >= " << r.value.text() << (rp.at_least ? " proved" : " NOT proved")
          << ", <= " << r.value.text() << (rp.at_most ? " proved" : " NOT proved");
    else
      out << rp.note;
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.2f", rp.seconds);
    out << "; " << solver::with_commas(rp.nodes) << " proof nodes, "
        << solver::with_commas(rp.leaves) << " games scored, " << solver::with_commas(rp.hits)
        << " reused, " << solver::with_commas(rp.stored) << " stored ("
        << solver::with_commas(rp.sets) << " R_K sets, " << solver::with_commas(rp.dropped)
        << " not stored), " << solver::with_commas(rp.oracle_nodes) << " oracle nodes, " << secs
        << " s\n";
  }
  if (json) {
    nlohmann::json j;
    job.to_json(j);
    if (rp.done || !rp.note.empty()) {
      nlohmann::json x{{"done", rp.done},       {"at_least", rp.at_least},
                       {"at_most", rp.at_most}, {"nodes", rp.nodes},
                       {"leaves", rp.leaves},   {"hits", rp.hits},
                       {"stored", rp.stored},   {"sets", rp.sets},
                       {"dropped", rp.dropped}, {"oracle_nodes", rp.oracle_nodes},
                       {"seconds", rp.seconds}};
      if (!rp.note.empty()) x["note"] = rp.note;
      j["replay"] = x;
    }
    j["value"] = value_json(r.value);
    j["complete"] = r.complete;
    if (r.plies >= 0) j["plies"] = r.plies;
    nlohmann::json ops = nlohmann::json::array();
    for (const auto& o : r.openings) {
      nlohmann::json e{{"move", o.move}, {"value", value_json(o.value)}, {"count", o.count}};
      if (o.plies >= 0) e["plies"] = o.plies;
      if (o.bound_dir) e[o.bound_dir < 0 ? "at_most" : "at_least"] = o.bound2 / 2.0;
      if (job.pie_table) e["pie"] = pie_decision(o.value, first);
      if (job.pie_setups) e["pie"] = pie_colour(o.value);
      ops.push_back(e);
    }
    j["openings"] = ops;
    if (job.pie_setups) j["pie_setup"] = r.pie_setup;
    j["pv"] = r.pv;
    j["pv_repeats"] = r.pv_repeats;
    j["nodes"] = r.nodes;
    if (r.method == "dfs" || r.method == "compact" || r.method == "dfpn" || r.method == "superko")
      j["nodes_total"] = r.nodes_total;
    j["positions"] = r.positions;
    if (r.method == "retrograde" || r.method == "dense") {
      // Dense stores no ends: it counts the moves into one, and layers,
      // under keys of their own (no script reads one count as the other).
      const bool dense = r.method == "dense";
      j["moves"] = r.moves;
      j[dense ? "moves_to_ends" : "ends"] = r.terminals;
      j[dense ? "layers" : "sweeps"] = r.sweeps;
    }
    j["seconds"] = r.seconds;
    j["method"] = r.method;
    j["symmetries"] = r.symmetries;
    j["bytes"] = r.bytes;
    if (r.tables > 0) j["tables"] = r.tables;
    j["resumed"] = r.resumed;
    if (!r.ranks.empty()) {
      nlohmann::json rk = nlohmann::json::array();
      for (const auto& k : r.ranks)
        rk.push_back({{"positions", k.positions},
                      {"handled", k.handled},
                      {"messages", k.messages},
                      {"bytes_sent", k.bytes_sent},
                      {"bytes", k.bytes}});
      j["ranks"] = rk;
    }
    if (!r.note.empty()) j["note"] = r.note;
    if (!r.table.empty()) j["table"] = r.table;
    if (r.table_check)
      j["table_check"] = {{"positions", r.table_check->positions},
                          {"moves", r.table_check->moves},
                          {"seconds", r.table_check->seconds}};
    out << j.dump() << "\n";
  }
}

void print_property(const JobInfo& job, const solver::PropertyResult& r, bool json,
                    std::ostream& out) {
  using St = solver::PropertyResult::Status;
  std::string head = job.headline();
  out << r.property << ": "
      << (r.status == St::kHolds   ? "holds"
          : r.status == St::kFails ? "FAILS"
                                   : "not decided")
      << " for " << head << "\n";
  std::string size_arg = job.size ? " --size " + std::to_string(*job.size) : "";
  std::string rule_args;
  for (const auto& [k, v] : job.rules) rule_args += " --rule " + k + "=" + v;
  if (r.property == "termination") {
    if (r.status == St::kHolds)
      out << "  every line of play ends: the reachable position graph has no cycle\n";
    if (r.status == St::kFails) {
      std::string pre = join(r.record), cyc = join(r.cycle);
      out << "  play can go on for ever: after \"" << pre << "\" the moves \"" << cyc
          << "\" return to the same position\n";
      out << "  check: loom show " << job.game << size_arg << rule_args << " --record \"" << pre
          << (pre.empty() ? "" : " ") << cyc << "\"  equals  --record \"" << pre << "\"\n";
    }
  } else {
    if (r.status == St::kHolds) out << "  every reachable end has a winner\n";
    if (r.status == St::kFails) {
      std::string rec = join(r.record);
      out << "  a shortest record reaching an end without a winner (" << r.outcome << "): \"" << rec
          << "\"\n";
      out << "  check: loom show " << job.game << size_arg << rule_args << " --record \"" << rec
          << "\"\n";
    }
  }
  if (!r.note.empty()) out << "  " << r.note << "\n";
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.2f", r.seconds);
  if (r.method == "dense") {
    char mib[32];
    std::snprintf(mib, sizeof mib, "%.1f", static_cast<double>(r.bytes) / 1048576.0);
    out << "  dense index: " << solver::with_commas(r.positions)
        << " positions (up to symmetry; ends not stored), " << solver::with_commas(r.moves)
        << " distinct successors, " << mib << " MiB, " << secs << " s\n";
  } else {
    out << "  " << solver::with_commas(r.positions) << " positions (up to symmetry), "
        << solver::with_commas(r.moves) << " moves examined, " << secs << " s\n";
  }
  if (json) {
    nlohmann::json j;
    job.to_json(j);
    j["property"] = r.property;
    j["method"] = r.method;
    if (r.status == St::kIncomplete)
      j["holds"] = nullptr;
    else
      j["holds"] = r.status == St::kHolds;
    j["positions"] = r.positions;
    j["moves"] = r.moves;
    j["seconds"] = r.seconds;
    if (r.status == St::kFails) {
      j["record"] = join(r.record);
      if (r.property == "termination") j["cycle"] = join(r.cycle);
      if (!r.outcome.empty()) j["outcome"] = r.outcome;
    }
    if (!r.note.empty()) j["note"] = r.note;
    out << j.dump() << "\n";
  }
}

}  // namespace loom
