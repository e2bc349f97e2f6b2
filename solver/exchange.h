// The collective operations a partitioned solver needs (solver/
// distributed_dense.h), behind a small interface: the MPI implementation is
// in solver/mpi/ (built only when MPI is installed); LocalExchange is the
// one-process case. Every call is collective: every rank makes the same
// calls in the same order.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/common/errors.h"

namespace loom::solver {

/// One rank's figures in a partitioned run, for the report.
struct RankStats {
  uint64_t positions = 0;  ///< stored positions it owns
  uint64_t handled = 0;    ///< positions expanded, retracted or settled in this run
  uint64_t messages = 0;   ///< messages it sent to other ranks
  uint64_t bytes_sent = 0;
  uint64_t bytes = 0;  ///< memory of its tables
};

class Exchange {
 public:
  virtual ~Exchange() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// send[r] goes to rank r. recv gets what every rank sent here, in rank
  /// order; from[r] is where rank r's part starts (from[size()] = end).
  virtual void all_to_all(const std::vector<std::vector<uint64_t>>& send,
                          std::vector<uint64_t>& recv, std::vector<uint64_t>& from) = 0;
  /// Element-wise sum / max over the ranks, in place (every rank gets it).
  virtual void sum(std::vector<uint64_t>& v) = 0;
  virtual void max(std::vector<uint64_t>& v) = 0;
  /// Rank `root`'s string, on every rank.
  virtual void broadcast(std::string& s, int root) = 0;
  virtual void broadcast(uint64_t& v, int root) = 0;

  uint64_t sum(uint64_t x) {
    std::vector<uint64_t> v{x};
    sum(v);
    return v[0];
  }
  uint64_t max(uint64_t x) {
    std::vector<uint64_t> v{x};
    max(v);
    return v[0];
  }

  /// Traffic sent from this rank to others: messages and bytes.
  uint64_t messages() const { return messages_; }
  uint64_t bytes_sent() const { return bytes_; }

 protected:
  uint64_t messages_ = 0, bytes_ = 0;
};

/// One process: every collective is the identity.
class LocalExchange final : public Exchange {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void all_to_all(const std::vector<std::vector<uint64_t>>& send, std::vector<uint64_t>& recv,
                  std::vector<uint64_t>& from) override {
    recv = send.at(0);
    from = {0, recv.size()};
  }
  void sum(std::vector<uint64_t>&) override {}
  void max(std::vector<uint64_t>&) override {}
  void broadcast(std::string&, int) override {}
  void broadcast(uint64_t&, int) override {}
};

/// Runs f on this rank; if it failed on any rank, every rank throws the
/// failure of the lowest failing rank (an InputError stays one), so that no
/// rank is left waiting in a collective the failed one never makes.
/// Collective.
template <class F>
void on_every_rank(Exchange& ex, F&& f) {
  std::string err;
  uint64_t kind = 0;  // 1 input error, 2 other
  try {
    f();
  } catch (const InputError& e) {
    err = e.what();
    kind = 1;
  } catch (const std::exception& e) {
    err = e.what();
    kind = 2;
  }
  const auto k = static_cast<uint64_t>(ex.size());
  std::vector<uint64_t> v{kind ? k - static_cast<uint64_t>(ex.rank()) : 0};
  ex.max(v);
  if (v[0] == 0) return;
  const int src = static_cast<int>(k - v[0]);
  ex.broadcast(err, src);
  ex.broadcast(kind, src);
  if (kind == 1) throw InputError(err);
  throw std::runtime_error(err);
}

}  // namespace loom::solver
