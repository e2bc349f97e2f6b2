// Worker threads that are always joined.
#pragma once

#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "model/common/errors.h"

namespace loom::solver {

/// Threads started together and joined however the scope is left. A
/// thread that cannot start (the system's limit on threads or address
/// space) is reported as an InputError naming --threads, after the threads
/// already started have been joined: their work must end without help from
/// the caller (start_each() sets the stop flag they watch first). A
/// std::thread destroyed unjoined would end the program (std::terminate).
class ThreadGroup {
 public:
  ThreadGroup() = default;
  ThreadGroup(const ThreadGroup&) = delete;
  ThreadGroup& operator=(const ThreadGroup&) = delete;
  ~ThreadGroup() { join(); }

  template <class F, class... A>
  void start(F&& f, A&&... a) {
    try {
      threads_.emplace_back(std::forward<F>(f), std::forward<A>(a)...);
    } catch (const std::system_error& e) {
      throw InputError("could not start a worker thread (" + std::string(e.what()) + "; " +
                       std::to_string(threads_.size()) + " started): try fewer --threads");
    }
  }
  /// start(f, t) for every t in [first, last); if one cannot start,
  /// stop() tells the running ones to end before the error goes on.
  template <class F, class Stop>
  void start_each(int first, int last, const F& f, Stop&& stop) {
    try {
      for (int t = first; t < last; ++t) start(f, t);
    } catch (...) {
      stop();
      throw;
    }
  }
  void join() {
    for (auto& t : threads_)
      if (t.joinable()) t.join();
    threads_.clear();
  }

 private:
  std::vector<std::thread> threads_;
};

}  // namespace loom::solver
