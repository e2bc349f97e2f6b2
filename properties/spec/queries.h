// Questions a rule designer asks, answered by the Z3 specification
// (`loom verify GAME --size N --query NAME`). Each query is a search for a
// witness: SAT gives one (a position, a move, a roll), UNSAT means none
// exists on that board, which for a "proof" query is the proof.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "properties/spec/variants.h"

namespace loom::spec {

struct QueryInfo {
  std::string game;
  std::string name;     ///< short kebab-case
  std::string summary;  ///< one line: what a witness is
  bool proof = false;   ///< UNSAT is the interesting answer: it proves a claim
  std::string claim;    ///< for proofs: the statement proved when no witness exists
  bool sized = true;    ///< false for Long Nardy (fixed board)
  int default_size = 0, min_size = 0, max_size = 0;
};

/// Every query, grouped by game in the order fiodar, enfargar, gadur, migong, nardy.
const std::vector<QueryInfo>& spec_queries();
/// The query, or nullptr.
const QueryInfo* find_spec_query(const std::string& game, const std::string& name);

/// A hex board to draw: one character per site in HexBoard order.
struct HexPicture {
  int side = 0;
  std::vector<char> cells;
  std::string caption;  ///< printed above the drawing
};

struct QueryAnswer {
  bool witness = false;                                    ///< SAT: a witness exists (and is below)
  std::vector<HexPicture> pictures;                        ///< drawings of the witness, if any
  std::vector<std::string> lines;                          ///< the witness or the proof, in words
  std::vector<std::pair<std::string, std::string>> facts;  ///< key/value for --json
  /// Where the witness is a game line: the record from the start (tokens per
  /// docs/cli.md) and the move it ends with, if any; the command line
  /// replays them on the model when the game is built.
  std::optional<std::vector<std::string>> record;
  std::string move;
  double seconds = 0;  ///< solver time
};

/// A query that did not finish within its time limit.
struct QueryTimeout : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Runs a query on side `size` (ignored for Long Nardy) under `rules`, in at
/// most `time_limit` seconds (0: no limit) of solver time.
/// Throws std::invalid_argument for a size out of the query's range and
/// QueryTimeout when the limit passes before the query is answered (a
/// witness found in time whose shortest game line is not is still reported).
QueryAnswer run_spec_query(const QueryInfo& q, int size, const InForce& rules,
                           double time_limit = 0);

// Per-game entry points (queries_<game>.cpp).
QueryAnswer gadur_query(const std::string& name, int size, const GadurRules& rules);
QueryAnswer fiodar_query(const std::string& name, int size, const FiodarRules& rules);
QueryAnswer enfargar_query(const std::string& name, int size, const EnfargarRules& rules);
QueryAnswer migong_query(const std::string& name, int size, const MigongRules& rules);
QueryAnswer nardy_query(const std::string& name, const NardyRules& rules);

}  // namespace loom::spec
