// Exact-solver throughput: positions solved per second and bytes per stored
// position, for retrograde analysis (Gadur as written: cycles, draws) and
// alpha-beta with a transposition table (Gadur capture=merge-only).
//   bench_solver [full]   ("full": also Gadur side 3 from the empty board,
//                          about 3 CPU-minutes and 2 GB)
#include <cstdio>
#include <cstring>
#include <string>

#include "bench/bench_util.h"
#include "model/gadur/gadur.h"
#include "solver/dfs.h"
#include "solver/retrograde.h"

using namespace loom;
using State = gadur::State<1>;

namespace {

State after(const gadur::Context<1>& ctx, const std::string& record) {
  State s(&ctx);
  State::Undo u;
  size_t i = 0;
  while (i < record.size()) {
    size_t j = record.find(' ', i);
    if (j == std::string::npos) j = record.size();
    auto m = s.parse_move(record.substr(i, j - i));
    if (!m) throw std::runtime_error("bad token in bench record");
    s.apply(*m, u);
    i = j + 1;
  }
  return s;
}

void retrograde(const char* what, int side, gadur::Options opt, const std::string& record,
                int threads) {
  gadur::Context<1> ctx(side, opt);
  State root = after(ctx, record);
  solver::RunControl ctl;
  solver::Retrograde<State>::Config cfg;
  cfg.threads = threads;
  solver::Retrograde<State> r(root, cfg);
  auto [ok, s1] = bench::timed([&] { return r.enumerate(ctl, [] {}); });
  auto [unused, s2] = bench::timed([&] {
    r.solve(ctl, [] {});
    return 0;
  });
  (void)unused;
  if (!ok) std::printf("(enumeration stopped early)\n");
  std::string name = std::string(what) + " (" + std::to_string(threads) + " thr)";
  bench::report(name + ": enumerate", r.positions(), s1, "positions");
  bench::report(name + ": sweeps (" + std::to_string(r.sweeps()) + ")", r.positions(), s2,
                "positions");
  bench::report(name + ": total", r.positions(), s1 + s2, "positions");
  std::printf("%-44s %14.1f bytes per stored position (%llu moves stored, value %s)\n",
              (name + ": memory").c_str(), double(r.bytes()) / r.positions(),
              static_cast<unsigned long long>(r.moves()), r.value_of(root).text().c_str());
  std::fflush(stdout);
}

void dfs(const char* what, int side, gadur::Options opt, const std::string& record) {
  gadur::Context<1> ctx(side, opt);
  State root = after(ctx, record);
  solver::RunControl ctl;
  solver::DfsSolver<State> d(root, {}, ctl);
  auto [score, s] = bench::timed([&] { return d.solve_black(root); });
  bench::report(std::string(what) + ": nodes", d.nodes(), s, "nodes");
  std::printf("%-44s %14.1f bytes per stored position (%llu stored, value %s)\n",
              (std::string(what) + ": memory").c_str(), double(d.table_bytes()) / d.stored(),
              static_cast<unsigned long long>(d.stored()),
              solver::score_value(score, d.neutral_kind()).text().c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  bool full = argc > 1 && std::strcmp(argv[1], "full") == 0;
  const gadur::Options as_written{}, merge_only{false, true};
  retrograde("gadur s3 after 'c3 a1 b2' retrograde", 3, as_written, "c3 a1 b2", 1);
  retrograde("gadur s3 after 'c3 a1 b2' retrograde", 3, as_written, "c3 a1 b2", 2);
  retrograde("gadur s3 m-o after 'c3 a1' retrograde", 3, merge_only, "c3 a1", 1);
  dfs("gadur s3 m-o after 'c3 a1' alpha-beta", 3, merge_only, "c3 a1");
  if (full) retrograde("gadur s3 from the start, retrograde", 3, as_written, "", 2);
  return 0;
}
