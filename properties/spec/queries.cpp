#include "properties/spec/queries.h"

#include "properties/spec/query_util.h"

#include <chrono>
#include <stdexcept>

namespace loom::spec {

const std::vector<QueryInfo>& spec_queries() {
  static const std::vector<QueryInfo> all = {
      {"fiodar", "legal-by-removal",
       "a placement that is legal only because the enemy weave is removed first", false, "", true,
       3, 2, 4},
      {"fiodar", "cut-without-full-thread",
       "a weave cut on every stone although no single thread runs its full length", false, "", true,
       4, 2, 4},
      {"enfargar", "no-placement-both",
       "a position with an empty point left where neither player has a legal placement while "
       "both colours remain",
       false, "", true, 2, 2, 4},
      {"enfargar", "end-clause-redundant",
       "a placement whose new stone has a lifeline, rejected only by the end-of-turn clause", true,
       "with every stone on a lifeline at the start of the turn, the clause \"every friendly "
       "stone has a lifeline\" never rejects a placement whose new stone has one: it is redundant",
       true, 2, 2, 3},
      {"gadur", "merge-capture-two", "a merge placement that captures two or more groups", false,
       "", true, 3, 2, 4},
      {"gadur", "no-legal-placement",
       "a position with an empty cell where the player to move has no legal placement (and wins)",
       false, "", true, 3, 2, 4},
      {"migong", "scores-never-tie", "group counts giving both players the same nonzero score",
       true, "two nonzero scores never tie, for any group counts up to the board's bound", true, 3,
       2, 7},
      {"migong", "unfillable-cell",
       "a cell that no piece of one player's set can ever fill on the default edges", false, "",
       true, 3, 2, 7},
      {"nardy", "larger-die-decides",
       "a roll where only one die can be played and the larger-die rule decides", false, "", false,
       0, 0, 0},
      {"nardy", "block-one-ahead",
       "a 6-block that is legal only because one opposing checker is ahead of it", false, "", false,
       0, 0, 0},
  };
  return all;
}

const QueryInfo* find_spec_query(const std::string& game, const std::string& name) {
  for (const auto& q : spec_queries())
    if (q.game == game && q.name == name) return &q;
  return nullptr;
}

namespace {

QueryAnswer run_query(const QueryInfo& q, int size, const InForce& rules) {
  if (q.game == "gadur") return gadur_query(q.name, size, GadurRules::from(rules));
  if (q.game == "fiodar") return fiodar_query(q.name, size, FiodarRules::from(rules));
  if (q.game == "enfargar") return enfargar_query(q.name, size, EnfargarRules::from(rules));
  if (q.game == "migong") return migong_query(q.name, size, MigongRules::from(rules));
  if (q.game == "nardy") return nardy_query(q.name, NardyRules::from(rules));
  throw std::invalid_argument("no queries for " + q.game);
}

}  // namespace

QueryAnswer run_spec_query(const QueryInfo& q, int size, const InForce& rules, double time_limit) {
  if (q.sized && (size < q.min_size || size > q.max_size))
    throw std::invalid_argument("query " + q.name + " needs side " + std::to_string(q.min_size) +
                                ".." + std::to_string(q.max_size) + ", got " +
                                std::to_string(size));
  QueryDeadline deadline(time_limit);
  return run_query(q, size, rules);
}

}  // namespace loom::spec
