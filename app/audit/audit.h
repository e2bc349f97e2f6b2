// `loom audit GAME`: one report telling a game designer where the rules have
// holes (CONVENTIONS.md "Rule audits"). For each rule set it gathers what the
// toolkit proves on a small board (termination, drawlessness / decisiveness,
// the value under perfect play, the Z3 rule questions, a position where the
// rule set differs from the default rules) and what seeded playouts measure
// on the recommended board, then states a verdict in plain words. Every part
// runs under the time budget; a part that does not finish is null with a note.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace loom::audit {

struct AuditArgs {
  std::string game;
  std::optional<int> size;         ///< board for the proofs (default: 2)
  std::optional<int> play_size;    ///< board for the playouts (default: the game's)
  std::vector<std::string> rules;  ///< the base rule set
  bool variants = false;           ///< also every named variant, one at a time
  std::string out_dir;             ///< report.html and report.json go here
  bool json = false;               ///< print report.json's object as the last line
  double seconds = 600;            ///< budget for the whole audit
  int games = 200;                 ///< playouts per policy
  uint64_t seed = 1;
  uint64_t max_positions = 20'000'000;  ///< exhaustive checks stop beyond this
  uint64_t max_nodes = 20'000'000;      ///< the solver stops beyond this
  bool queries = true;                  ///< run the Z3 rule questions
  int threads = 1;                      ///< the solve's and drawless check's threads
  std::ostream* tty = nullptr;          ///< progress line (a terminal) or null
};

/// Runs the audit and returns the report object (also written to
/// out_dir/report.json, with out_dir/report.html). Throws InputError for bad
/// arguments (unknown game, size, rule; an out_dir that cannot be written).
nlohmann::json run_audit(const AuditArgs& args, std::ostream& out);

}  // namespace loom::audit
