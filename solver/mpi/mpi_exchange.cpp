#include "solver/mpi/mpi_exchange.h"

#include <mpi.h>

#include <cstdlib>
#include <limits>
#include <stdexcept>

namespace loom::solver {

namespace {

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

int as_count(uint64_t n) {
  if (n > static_cast<uint64_t>(std::numeric_limits<int>::max()))
    throw std::length_error("MPI: a message of more than 2^31 words");
  return static_cast<int>(n);
}

class MpiExchange final : public Exchange {
 public:
  MpiExchange() {
    check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }

  void all_to_all(const std::vector<std::vector<uint64_t>>& send, std::vector<uint64_t>& recv,
                  std::vector<uint64_t>& from) override {
    const size_t k = static_cast<size_t>(size_);
    if (send.size() != k) throw std::logic_error("all_to_all: one buffer per rank");
    std::vector<int> scount(k), sdispl(k), rcount(k), rdispl(k);
    std::vector<uint64_t> flat;
    uint64_t total = 0;
    for (size_t r = 0; r < k; ++r) total += send[r].size();
    flat.reserve(total);
    for (size_t r = 0; r < k; ++r) {
      sdispl[r] = as_count(flat.size());
      scount[r] = as_count(send[r].size());
      flat.insert(flat.end(), send[r].begin(), send[r].end());
      if (static_cast<int>(r) != rank_) {
        ++messages_;
        bytes_ += send[r].size() * 8;
      }
    }
    check(MPI_Alltoall(scount.data(), 1, MPI_INT, rcount.data(), 1, MPI_INT, MPI_COMM_WORLD),
          "MPI_Alltoall");
    uint64_t rtotal = 0;
    from.assign(k + 1, 0);
    for (size_t r = 0; r < k; ++r) {
      rdispl[r] = as_count(rtotal);
      from[r] = rtotal;
      rtotal += static_cast<uint64_t>(rcount[r]);
    }
    from[k] = rtotal;
    as_count(rtotal);
    recv.resize(rtotal);
    check(MPI_Alltoallv(flat.data(), scount.data(), sdispl.data(), MPI_UINT64_T, recv.data(),
                        rcount.data(), rdispl.data(), MPI_UINT64_T, MPI_COMM_WORLD),
          "MPI_Alltoallv");
  }
  void sum(std::vector<uint64_t>& v) override { reduce(v, MPI_SUM); }
  void max(std::vector<uint64_t>& v) override { reduce(v, MPI_MAX); }
  void broadcast(std::string& s, int root) override {
    uint64_t n = s.size();
    broadcast(n, root);
    s.resize(n);
    check(MPI_Bcast(s.data(), as_count(n), MPI_CHAR, root, MPI_COMM_WORLD), "MPI_Bcast");
  }
  void broadcast(uint64_t& v, int root) override {
    check(MPI_Bcast(&v, 1, MPI_UINT64_T, root, MPI_COMM_WORLD), "MPI_Bcast");
  }

 private:
  void reduce(std::vector<uint64_t>& v, MPI_Op op) {
    check(
        MPI_Allreduce(MPI_IN_PLACE, v.data(), as_count(v.size()), MPI_UINT64_T, op, MPI_COMM_WORLD),
        "MPI_Allreduce");
  }
  int rank_ = 0, size_ = 1;
};

}  // namespace

bool started_by_mpirun() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(v)) return true;
  return false;
}

MpiSession::MpiSession(int* argc, char*** argv) {
  if (!started_by_mpirun()) return;
  check(MPI_Init(argc, argv), "MPI_Init");
  ex_ = std::make_unique<MpiExchange>();
}

MpiSession::~MpiSession() {
  if (ex_) {
    ex_.reset();
    MPI_Finalize();
  }
}

void MpiSession::abort(int status) {
  MPI_Abort(MPI_COMM_WORLD, status);
  std::exit(status);
}

}  // namespace loom::solver
