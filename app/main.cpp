#include <iostream>

#include "app/cli.h"
#include "app/ranks.h"
#ifdef LOOM_HAVE_MPI
#include "solver/mpi/mpi_exchange.h"
#endif

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
#ifdef LOOM_HAVE_MPI
  // Under mpirun: one rank of a distributed job (app/ranks.h).
  loom::solver::MpiSession mpi(&argc, &argv);
  if (auto* ex = mpi.exchange()) return loom::run_rank(args, *ex);
#endif
  return loom::run_loom(args, std::cout, std::cerr);
}
