// solver::Exchange over MPI (OpenMPI from Debian; built only when CMake
// finds MPI: LOOM_HAVE_MPI). One MpiSession per process: it initialises
// MPI when the process was started by mpirun, and finalises it at exit.
#pragma once

#include <memory>

#include "solver/exchange.h"

namespace loom::solver {

class MpiSession {
 public:
  /// Initialises MPI if this process was started by mpirun (its
  /// environment says so); otherwise nothing happens and exchange() is null.
  MpiSession(int* argc, char*** argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  /// The world communicator's exchange, or null when not under mpirun.
  Exchange* exchange() { return ex_.get(); }
  /// Ends every rank of the job with this exit status (a rank that cannot
  /// go on while the others wait in a collective).
  [[noreturn]] static void abort(int status);

 private:
  std::unique_ptr<Exchange> ex_;
};

/// Was this process started by mpirun (OpenMPI, MPICH or Slurm's PMI)?
bool started_by_mpirun();

}  // namespace loom::solver
