#include "app/ranks.h"

#include <iostream>
#include <streambuf>

#include "app/cli.h"

namespace loom {

namespace {

solver::Exchange* g_exchange = nullptr;

/// Accepts and drops everything (the output of ranks other than 0).
class NullBuffer : public std::streambuf {
 protected:
  int overflow(int c) override { return c == traits_type::eof() ? 0 : c; }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

}  // namespace

solver::Exchange* process_exchange() {
  return g_exchange;
}

int run_rank(const std::vector<std::string>& args, solver::Exchange& ex) {
  g_exchange = &ex;
  NullBuffer nb;
  std::ostream null(&nb);
  std::ostream& out = ex.rank() == 0 ? std::cout : null;
  std::ostream& err = ex.rank() == 0 ? std::cerr : null;
  if (ex.size() > 1 && !args.empty() && args[0] != "solve" && args[0] != "--help" &&
      args[0] != "--version") {
    err << "loom: under mpirun with more than one rank only 'loom solve' runs (distributed); "
           "run '"
        << args[0].substr(0, 40) << "' as one process\n";
    g_exchange = nullptr;
    return 2;
  }
  int rc = run_loom(args, out, err);
  g_exchange = nullptr;
  return rc;
}

}  // namespace loom
