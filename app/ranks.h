// One rank of a distributed job (`mpirun -np K loom solve ...`): the same
// command on every rank, the exchange reachable by the solver, and output
// from rank 0 only.
#pragma once

#include <string>
#include <vector>

#include "solver/exchange.h"

namespace loom {

/// The exchange of this process's distributed job, or null.
solver::Exchange* process_exchange();

/// Runs the command as one rank of the job. With more than one rank only
/// `loom solve` is allowed; ranks other than 0 print nothing (every rank
/// makes the same decisions, so every rank returns the same status).
int run_rank(const std::vector<std::string>& args, solver::Exchange& ex);

}  // namespace loom
