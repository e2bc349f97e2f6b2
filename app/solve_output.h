// Rendering of solver results for `loom solve` and `loom verify --property`:
// the readable summary and the one-line JSON object (CONVENTIONS.md).
#pragma once

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
  bool pie_table = false;   ///< annotate openings with the 1-move pie decision
  bool pie_setups = false;  ///< the openings are 2-stone pie set-ups (fiodar --pie)
  /// The job's identity for checkpoints.
  std::string signature(const std::string& method) const;
  void to_json(nlohmann::json& j) const;
  std::string headline() const;
};

/// The sides as the readable text names them: Migong's are Blue and Yellow
/// (the JSON keeps "black" and "white", CONVENTIONS.md).
inline std::string side_word(const std::string& game, bool black) {
  if (game == "migong") return black ? "Blue" : "Yellow";
  return black ? "black" : "white";
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
