// Rendering of solver results for `loom solve` and `loom verify --property`:
// the readable summary and the one-line JSON object (CONVENTIONS.md).
#pragma once

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "solver/driver.h"

namespace loom {

/// What was solved: game, side, every rule option in force, the record.
struct JobInfo {
  std::string game;
  std::optional<int> size;  ///< none for games without a size
  std::vector<std::pair<std::string, std::string>> rules;
  std::string setup;   ///< fiodar pie setup ("" if none)
  std::string record;  ///< normalised (single spaces)
  std::string to_move;
  /// Migong's edge colouring when read from --edges: the file and the
  /// colouring's digest (both "" = the built-in default). Named in the
  /// headline and the JSON: results under another colouring are other results.
  std::string edges_file, edges_digest;
  /// Names the --edges file, if one was given, with its colouring's digest.
  void use_edges(const std::optional<std::string>& file, const std::string& digest) {
    if (file) {
      edges_file = *file;
      edges_digest = digest;
    }
  }
  bool pv = true;          ///< a principal variation was asked for (no --no-pv)
  bool pie_table = false;  ///< annotate openings with the 1-move pie decision
  /// The game is played with its pie rule (Migong pie=on): values name
  /// seats, as a swap gives the first player Yellow (docs/rules.md).
  bool seats() const;
  bool pie_setups = false;  ///< the openings are 2-stone pie set-ups (fiodar --pie)
  /// The job's identity for checkpoints.
  std::string signature(const std::string& method) const;
  void to_json(nlohmann::json& j) const;
  std::string headline() const;
};

/// The sides as the readable text names them: Migong's are Blue and Yellow
/// (the JSON keeps "black" and "white", CONVENTIONS.md); with `seats` (the
/// game's pie rule is on) the players, whose colours a swap exchanges.
inline std::string side_word(const std::string& game, bool black, bool seats = false) {
  if (seats) return black ? "first player" : "second player";
  if (game == "migong") return black ? "Blue" : "Yellow";
  return black ? "black" : "white";
}

/// Is a pie rule among these rules in force on (Migong's pie=on: the swap is
/// a move of the game, so values already include it)?
inline bool pie_rule_on(const std::vector<std::pair<std::string, std::string>>& rules) {
  return std::find(rules.begin(), rules.end(), std::pair<std::string, std::string>("pie", "on")) !=
         rules.end();
}
/// The same for rules as a report's JSON object ({"pie": "on", ...}).
inline bool pie_rule_on(const nlohmann::json& rules) {
  return rules.value("pie", "") == "on";
}

/// Builds the JobInfo for validated arguments (rules in force with defaults).
JobInfo job_info(const std::string& game, std::optional<int> size,
                 const std::vector<std::string>& rules, const std::string& setup,
                 const std::string& record, Color to_move);

nlohmann::json value_json(const solver::Value& v);
/// The game's pie rule is one move (the second player may take over the
/// first stone): every game but Fiodar, whose pie is the 2-stone set-up.
inline bool one_move_pie(const std::string& game) {
  return game != "fiodar";
}
/// "swap" / "keep" / "either" for a 1-move pie opening whose mover was `first`.
std::string pie_decision(const solver::Value& v, Color first);

void print_solve(const JobInfo& job, const solver::SolveReport& r, bool json, std::ostream& out);
void print_property(const JobInfo& job, const solver::PropertyResult& r, bool json,
                    std::ostream& out);

}  // namespace loom
