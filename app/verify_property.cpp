// loom verify --property: exhaustive invariant checks by the solver
// (solver/graph_checks.h) over the positions reachable from the start.
#include <unistd.h>

#include <iostream>

#include "app/registry.h"
#include "app/solve_output.h"
#include "app/verify.h"
#include "model/common/errors.h"

namespace loom {

void run_property_check(const VerifyArgs& args, std::ostream& out, std::ostream& err) {
  if (args.property != "termination" && args.property != "drawless")
    throw InputError("unknown property '" + detail::printable(args.property) +
                     "' (known: termination, drawless)");
  auto g = make_game(args.game, args.size, args.rules);
  solver::PropertyOptions o;
  o.tty = (&err == &std::cerr && ::isatty(STDERR_FILENO)) ? &err : nullptr;
  solver::PropertyResult r = g->check_property(args.property, o);
  JobInfo job = job_info(args.game, args.size, args.rules, "", "", Color::kBlack);
  print_property(job, r, args.json, out);
}

}  // namespace loom
