// `loom verify GAME --size N (--property NAME | --query NAME | --list-queries)`.
// Two independent back ends share the command: exhaustive invariant checks by
// the solver (verify_property.cpp, --property) and questions answered by the
// Z3 specification (verify_query.cpp, --query / --list-queries).
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace loom {

struct VerifyArgs {
  std::string game;
  std::optional<int> size;
  std::vector<std::string> rules;
  std::string property;  ///< --property (termination, drawless, ...)
  std::string query;     ///< --query
  bool list_queries = false;
  bool json = false;
  double seconds = 0;           ///< --seconds: the query's time limit (0: none)
  uint64_t max_positions = 0;   ///< --property: stop after this many positions (0: none)
  int threads = 0;              ///< --property drawless: worker threads (0: cores, <= 8)
  std::string method = "auto";  ///< --property: auto, hash or dense
};

/// Runs an exhaustive property check; throws InputError for an unknown property.
void run_property_check(const VerifyArgs& args, std::ostream& out, std::ostream& err);
/// Answers a named query with the Z3 specification; throws InputError if unknown.
void run_query(const VerifyArgs& args, std::ostream& out, std::ostream& err);
/// Lists the queries available for a game (all games if args.game is empty).
void list_queries(const VerifyArgs& args, std::ostream& out);

}  // namespace loom
