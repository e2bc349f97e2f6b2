// loom verify --property: exhaustive invariant checks by the solver
// (solver/graph_checks.h) over the positions reachable from the start.
#include <unistd.h>

#include <iostream>

#include "app/registry.h"
#include "app/solve_output.h"
#include "app/threads.h"
#include "app/verify.h"
#include "model/common/errors.h"

namespace loom {

void run_property_check(const VerifyArgs& args, std::ostream& out, std::ostream& err) {
  // "decisive" is the audit's name for drawless in the scored games
  // (every end has a winner): accepted for every game.
  const std::string property = args.property == "decisive" ? "drawless" : args.property;
  if (property != "termination" && property != "drawless")
    throw InputError("unknown property '" + detail::printable(args.property) +
                     "' (known: termination, drawless or its other name decisive)");
  auto g = make_game(args.game, args.size, args.rules);
  solver::PropertyOptions o;
  o.max_positions = args.max_positions;
  o.threads = args.threads > 0 ? args.threads : default_threads();
  o.tty = (&err == &std::cerr && ::isatty(STDERR_FILENO)) ? &err : nullptr;
  using M = solver::PropertyOptions::Method;
  if (args.method == "auto")
    o.method = M::kAuto;
  else if (args.method == "hash")
    o.method = M::kHash;
  else if (args.method == "dense")
    o.method = M::kDense;
  else
    throw InputError("unknown --method '" + detail::printable(args.method) +
                     "' (known: auto, hash, dense)");
  solver::PropertyResult r = g->check_property(property, o);
  JobInfo job = job_info(args.game, args.size, args.rules, "", "", Color::kBlack);
  print_property(job, r, args.json, out);
}

}  // namespace loom
