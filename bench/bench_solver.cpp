// Exact-solver throughput: positions solved per second and bytes per stored
// position, for retrograde analysis (Gadur as written: cycles, draws;
// Enfargar: packed positions, stalls) and alpha-beta with a transposition
// table (Gadur capture=merge-only; Fiodar, whose table keys carry the superko
// histories on the heap), the compact alpha-beta (Gadur capture=merge-only,
// 8-byte entries) and the superko alpha-beta (Fiodar, 16-byte entries).
//   bench_solver [full|dense|compact|superko|checks]
// The default run also times alpha-beta on Migong side 3 (2 M nodes from the
// start) beside Migong's perft, and `loom solve --method dfs` there (4 M
// nodes) on one thread and on two.
//     full:  also the hash retrograde on Gadur side 3 from the empty board
//            (about 3 CPU-minutes and 2 GB)
//     dense: only the dense-index retrograde, Gadur side 3 (as written and
//            merge-only) and Enfargar side 3 from the empty board on two
//            threads, then Gadur as written and Enfargar on one, each
//            beside `perft gadur --size 4 --depth 6` and its own game's perft
//            in the same run (the issue-15 targets), and the move
//            generation alone on a sample of the stored positions (the
//            ceiling it sets on positions per CPU second), and the tables'
//            memory traffic alone for the same sample (the other ceiling),
//            and the bytes a position of the final table (--save-table)
//     compact: only the compact alpha-beta on Gadur merge-only, side 3
//            (after 'c3 a1' and from the start) and side 4 (50 M nodes from
//            the start, 64-bit keys), each beside its perft rate
//     superko: only the superko alpha-beta on Fiodar (side 2, side 3 after
//            six stones, 20 M nodes from the side-3 start)
//     checks: only `loom verify --property`'s checks on side 3, by the hash
//            table and by the dense index (solver/dense_checks.h): Gadur
//            merge-only termination and drawless, Gadur as written and
//            Enfargar drawless, each beside its game's perft rate (about
//            5 minutes, 1.5 GB)
// Every solver figure is printed beside the same game's perft leaf rate
// measured in the same run.
#include <malloc.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <type_traits>

#include "bench/bench_util.h"
#include "model/enfargar/enfargar.h"
#include "model/fiodar/fiodar.h"
#include "model/gadur/gadur.h"
#include "model/migong/migong.h"
#include "solver/compact_dfs.h"
#include "solver/dense.h"
#include "solver/dense_table.h"
#include "solver/dfpn.h"
#include "solver/dfs.h"
#include "solver/driver.h"
#include "solver/retrograde.h"
#include "solver/superko_dfs.h"

using namespace loom;
using State = gadur::State<1>;

namespace {

template <class Ctx>
auto after(const Ctx& ctx, const std::string& record) {
  using S = std::remove_cvref_t<decltype(*ctx.sample)>;
  S s(&ctx.ctx);
  typename S::Undo u;
  size_t i = 0;
  while (i < record.size()) {
    size_t j = record.find(' ', i);
    if (j == std::string::npos) j = record.size();
    auto m = s.parse_move(record.substr(i, j - i));
    if (!m) throw std::runtime_error("bad token in bench record");
    std::vector<typename S::Move> legal;
    s.legal_moves(legal);
    if (std::find(legal.begin(), legal.end(), *m) == legal.end())
      throw std::runtime_error("illegal move in bench record: " + record.substr(i, j - i));
    s.apply(*m, u);
    i = j + 1;
  }
  return s;
}

/// A game context and (as a type tag) its state type.
template <class C, class S>
struct Ctx {
  C ctx;
  const S* sample = nullptr;
  template <class O>
  Ctx(int side, O opt) : ctx(side, opt) {}
};
using GadurCtx = Ctx<gadur::Context<1>, State>;
using EnfargarCtx = Ctx<enfargar::Context<1>, enfargar::State<1>>;
using FiodarCtx = Ctx<fiodar::Context<1>, fiodar::State<1>>;
/// Migong's contexts are made by Context::make (a family of images).
struct MigongCtx {
  std::shared_ptr<const migong::Context<1>> owner;
  const migong::Context<1>& ctx;
  const migong::State<1>* sample = nullptr;
  explicit MigongCtx(int side) : owner(migong::Context<1>::make(side)), ctx(*owner) {}
};

template <class C>
void retrograde(const char* what, const C& ctx, const std::string& record, int threads) {
  auto root = after(ctx, record);
  using S = decltype(root);
  solver::RunControl ctl;
  typename solver::Retrograde<S>::Config cfg;
  cfg.threads = threads;
  solver::Retrograde<S> r(root, cfg);
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

/// Alpha-beta from the position after `record`; max_nodes > 0 stops the
/// search there (throughput and table figures of an unfinished search).
template <class C>
void dfs(const char* what, const C& ctx, const std::string& record, uint64_t max_nodes = 0) {
  auto root = after(ctx, record);
  using S = decltype(root);
  solver::RunControl ctl;
  typename solver::DfsSolver<S>::Config cfg;
  cfg.max_nodes = max_nodes;
  solver::DfsSolver<S> d(root, cfg, ctl);
  std::string value = "unfinished";
  auto [unused, s] = bench::timed([&] {
    try {
      int32_t score = d.solve_black(root);  // before neutral_kind(): it records stalls
      value = solver::score_value(score, d.neutral_kind()).text();
    } catch (const solver::NodeLimit&) {
    }
    return 0;
  });
  (void)unused;
  bench::report(std::string(what) + ": nodes", d.nodes(), s, "nodes");
  std::printf("%-44s %14.1f bytes per stored position (%llu stored, value %s)\n",
              (std::string(what) + ": memory").c_str(), double(d.table_bytes()) / d.stored(),
              static_cast<unsigned long long>(d.stored()), value.c_str());
  std::fflush(stdout);
}

/// `loom solve --method dfs --max-nodes N` from the position after
/// `record` on one thread, then on two (--threads 2: an opening a thread,
/// a table each, one node budget): nodes a second each, and the ratio.
template <class C>
void dfs_threads(const char* what, const C& ctx, const std::string& record, uint64_t max_nodes) {
  auto root = after(ctx, record);
  double rate[2] = {0, 0};
  for (int threads : {1, 2}) {
    solver::SolveOptions o;
    o.method = solver::SolveOptions::Method::kDfs;
    o.max_nodes = max_nodes;
    o.table_mb = 1024;
    o.pv = false;
    o.search_threads = threads;
    auto [rep, s] = bench::timed([&] { return solver::solve_position(root, o); });
    rate[threads - 1] = double(rep.nodes) / s;
    bench::report(std::string(what) + ", " + std::to_string(threads) + " thr: nodes", rep.nodes, s,
                  "nodes");
  }
  std::printf("%-44s %14.2f times the one-thread node rate\n",
              (std::string(what) + ", 2 thr: speed-up").c_str(), rate[1] / rate[0]);
  std::fflush(stdout);
}

/// The superko method (board-keyed table, solver/superko_dfs.h) from the
/// position after `record`, stopped after max_nodes (0: to the end).
template <class C>
void superko(const char* what, const C& ctx, const std::string& record, uint64_t max_nodes,
             double perft) {
  auto root = after(ctx, record);
  using S = decltype(root);
  typename solver::SuperkoDfs<S>::Config cfg;
  cfg.table_bytes = uint64_t{512} << 20;
  cfg.max_nodes = max_nodes;
  solver::SuperkoDfs<S> d(root, cfg);
  std::string value = "unfinished";
  auto [unused, s] = bench::timed([&] {
    try {
      value = std::to_string(d.value(root)) + " half points (mover)";
    } catch (const solver::SuperkoNodeLimit&) {
    }
    return 0;
  });
  (void)unused;
  const auto& st = d.stats();
  bench::report(std::string(what) + ": nodes", st.nodes, s, "nodes");
  std::printf("%-44s %14.3f of the perft leaf rate\n", (std::string(what) + ": ratio").c_str(),
              double(st.nodes) / s / perft);
  std::printf("%-44s %14d bytes per entry (%llu stored, %llu hits, %llu with a partial keep; %s)\n",
              (std::string(what) + ": memory").c_str(), 16,
              static_cast<unsigned long long>(st.stored), static_cast<unsigned long long>(st.hits),
              static_cast<unsigned long long>(st.partial), value.c_str());
  std::fflush(stdout);
}

/// A boolean search with exact-key entries: the compact method (alpha-beta,
/// 8- or 16-byte entries, solver/compact_dfs.h) or df-pn (16-byte entries,
/// solver/dfpn.h). Does the side to move after `record` win?
template <template <class, class> class Engine, class Codec = solver::DenseCodec, class C>
void boolean_search(const char* what, const C& ctx, const std::string& record, uint64_t table_mb,
                    double perft, uint64_t max_nodes = 0) {
  auto root = after(ctx, record);
  using S = decltype(root);
  using E = Engine<S, Codec>;
  typename E::Config cfg;
  cfg.table_bytes = table_mb << 20;
  cfg.max_nodes = max_nodes;
  E d(root, cfg);
  std::string value = "unfinished";
  auto [unused, s] = bench::timed([&] {
    try {
      value = d.mover_wins(root) ? "the mover wins" : "the mover loses";
    } catch (const typename E::NodeLimit&) {
    }
    return 0;
  });
  (void)unused;
  bench::report(std::string(what) + ": nodes", d.nodes(), s, "nodes");
  std::printf("%-44s %14.3f of the perft leaf rate\n", (std::string(what) + ": ratio").c_str(),
              double(d.nodes()) / s / perft);
  std::printf("%-44s %14d bytes per entry (%llu stored in %llu MB; %s)\n",
              (std::string(what) + ": memory").c_str(), E::kEntryBytes,
              static_cast<unsigned long long>(d.stored()),
              static_cast<unsigned long long>(d.table_bytes() >> 20), value.c_str());
  std::fflush(stdout);
}

/// User + system CPU seconds of the process so far.
double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + 1e-6 * (u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

/// Perft leaf rate of the game from the position after `record` (the
/// reference figure printed beside each solver rate).
template <class C>
double perft_rate(const char* what, const C& ctx, const std::string& record, int depth) {
  auto root = after(ctx, record);
  auto [leaves, s] = bench::timed([&] { return perft(root, depth); });
  bench::report(std::string(what) + ": perft " + std::to_string(depth), leaves, s, "leaves");
  return s > 0 ? leaves / s : 0;
}

/// Dense-index retrograde from the position after `record`.
template <class C>
double dense_run(const char* what, const C& ctx, const std::string& record, int threads,
                 double perft_leaves_per_s) {
  auto root = after(ctx, record);
  using S = decltype(root);
  solver::RunControl ctl;
  typename solver::DenseRetrograde<S>::Config cfg;
  cfg.threads = threads;
  solver::DenseRetrograde<S> d(root, cfg);
  const double cpu0 = cpu_seconds();
  auto [unused, s] = bench::timed([&] {
    d.run(ctl);
    return 0;
  });
  (void)unused;
  const double cpu = cpu_seconds() - cpu0;
  std::string name = std::string(what) + " (" + std::to_string(threads) + " thr)";
  bench::report(name + ": dense", d.positions(), s, "positions");
  double rate = s > 0 ? d.positions() / s : 0;
  std::printf("%-44s %14.1f positions/s per thread; %.3f of the perft leaf rate\n",
              (name + ": per thread").c_str(), rate / threads,
              perft_leaves_per_s > 0 ? rate / perft_leaves_per_s : 0.0);
  std::printf("%-44s %14.1f positions per CPU second (%.2f CPU s; %.2f cores busy)\n",
              (name + ": per core").c_str(), cpu > 0 ? d.positions() / cpu : 0.0, cpu,
              s > 0 ? cpu / s : 0.0);
  std::printf("%-44s %14.2f bytes per stored position (%llu moves, value %s, %u layers)\n",
              (name + ": memory").c_str(), double(d.bytes()) / d.positions(),
              static_cast<unsigned long long>(d.moves()), d.lookup(root).first.text().c_str(),
              d.sweeps());
  // The final table as --save-table writes it (2-bit values, a byte of
  // plies, the keys as gaps), built in memory.
  {
    solver::DenseTable t;
    const auto [unused_t, ts] = bench::timed([&] {
      d.for_each_solved(
          [&](uint32_t key, uint8_t code, uint8_t plies) { t.add(key, code, plies); });
      return 0;
    });
    (void)unused_t;
    std::printf(
        "%-44s %14.2f bytes per stored position in the saved table (%.1f MB, built in %.2f s)\n",
        (name + ": final table").c_str(), double(t.bytes()) / d.positions(), t.bytes() / 1e6, ts);
  }
  // The move generation alone, on a uniform sample of the stored
  // positions: each has its children listed once (a game without retrograde
  // moves: twice, enumeration and settling), each decided one its parents.
  // Their time a position bounds the positions per CPU second from above;
  // the rest of the solver's time is the tables' memory.
  const auto some = d.sample(std::max<uint64_t>(1, d.positions() / 200'000));
  solver::DenseMoves<S> mv(root, true);
  typename solver::DenseMoves<S>::Scratch sc;
  const auto children = [&] {
    uint64_t k = 0;
    for (const S& x : some) {
      mv.children(x, sc);
      k += sc.kids.size();
    }
    return k;
  };
  const double tk = bench::timed(children).second;
  std::vector<S> decided;  // a draw is never propagated
  for (const S& x : some)
    if (d.lookup(x).second >= 0) decided.push_back(x);
  const auto parents = [&] {
    uint64_t k = 0;
    for (const S& x : decided) {
      mv.parents(x, sc);
      k += sc.ranks.size();
    }
    return k;
  };
  // A game without retrograde moves lists its children again to settle,
  // except where the enumeration's lists were kept (that share of them).
  const double again = d.moves() ? 1.0 - double(d.kept_moves()) / double(d.moves()) : 1.0;
  const double tp = solver::RetractableGame<S> ? bench::timed(parents).second
                    : again > 0                ? again * bench::timed(children).second
                                               : 0.0;
  const double ns = 1e9 / static_cast<double>(some.size());
  std::printf(
      "%-44s %14.2f M positions per CPU s at most (%.0f ns children, %.0f ns %s; %.0f %% "
      "decided)\n",
      (name + ": move generation").c_str(), 1e3 / ((tk + tp) * ns), tk * ns, tp * ns,
      solver::RetractableGame<S> ? "parents" : "children again where not kept",
      100.0 * decided.size() / some.size());
  if (!solver::RetractableGame<S>)
    std::printf("%-44s %14.1f %% of the successor lists kept from the enumeration\n",
                (name + ": kept lists").c_str(), 100.0 * (1.0 - again));
  // The tables' traffic alone for the same sample, keys listed beforehand:
  // the children's bitmap lines (enumeration), each position's own line
  // and byte (first bytes), the decided ones' parents' lines and bytes
  // (counter method: a layer entry carries its own value); a game without
  // retrograde moves reads its children's lines, then their lines and
  // bytes (settling), and its own. The other ceiling: memory at no move
  // cost.
  std::vector<uint32_t> lines, bytes;
  for (const S& x : some) {
    mv.children(x, sc);
    for (const auto& k : sc.kids)
      if (k.code == solver::DenseMoves<S>::kUnknown) {
        lines.push_back(k.key);
        if (!solver::RetractableGame<S>) bytes.push_back(k.key);
      }
    bytes.push_back(mv.key_of(x));
  }
  if constexpr (solver::RetractableGame<S>)
    for (const S& x : decided) {
      mv.parents(x, sc);
      bytes.insert(bytes.end(), sc.ranks.begin(), sc.ranks.end());
    }
  // Shuffled with a fixed seed: the solver meets them in no useful order.
  std::mt19937 rng(15);
  for (auto* v : {&lines, &bytes}) std::shuffle(v->begin(), v->end(), rng);
  const auto [probed, tt] =
      bench::timed([&] { return d.probe(lines, false) + d.probe(bytes, true); });
  std::printf(
      "%-44s %14.2f M positions per CPU s at most (%.0f ns a position: %.1f lines, %.1f lines "
      "and bytes; check %llu)\n",
      (name + ": table traffic").c_str(), 1e3 / (tt * ns), tt * ns,
      double(lines.size()) / some.size(), double(bytes.size()) / some.size(),
      static_cast<unsigned long long>(probed));
  std::printf("%-44s %14.2f M positions per CPU s (generation + traffic, against %.2f M run)\n",
              (name + ": both").c_str(), 1e3 / ((tk + tp + tt) * ns),
              cpu > 0 ? d.positions() / cpu / 1e6 : 0.0);
  std::fflush(stdout);
  return s;
}

/// dense_run(), then the freed heap handed back, so that the next run's
/// peak resident set does not include this one's leftovers.
template <class C>
double dense(const char* what, const C& ctx, const std::string& record, int threads,
             double perft_leaves_per_s) {
  const double s = dense_run(what, ctx, record, threads, perft_leaves_per_s);
  malloc_trim(0);
  return s;
}

/// A property check by the hash table and by the dense index from the
/// position after `record`, on `threads` threads (drawless; termination
/// runs on one), beside the game's perft rate.
template <class C>
void property_checks(const char* what, const C& ctx, const std::string& record,
                     const char* property, int threads, double perft_leaves_per_s) {
  auto root = after(ctx, record);
  const bool term = std::strcmp(property, "termination") == 0;
  double hash_s = 0;
  for (const bool dense : {false, true}) {
    solver::PropertyOptions o;
    o.threads = threads;
    o.method =
        dense ? solver::PropertyOptions::Method::kDense : solver::PropertyOptions::Method::kHash;
    auto [r, s] = bench::timed([&] { return solver::check_property(root, property, o); });
    if (!dense) hash_s = s;
    const std::string name = std::string(what) + " " + property + " " + r.method + " (" +
                             std::to_string(term ? 1 : threads) + " thr)";
    bench::report(name, r.positions, s, "positions");
    char faster[48] = "";
    if (dense && s > 0)
      std::snprintf(faster, sizeof faster, ", %.1fx faster than hash", hash_s / s);
    std::printf("%-44s %14.4f of perft's leaf rate; %s, %.0f bytes a position%s\n", "",
                s > 0 ? (double(r.positions) / s) / perft_leaves_per_s : 0.0,
                r.status == solver::PropertyResult::Status::kHolds ? "holds" : "fails",
                r.bytes ? double(r.bytes) / double(r.positions) : 0.0, faster);
    std::fflush(stdout);
  }
  malloc_trim(0);
}

/// The compact method on Gadur side 3 merge-only, after 'c3 a1' and from
/// the start, beside the perft rate.
void compact_side3() {
  const GadurCtx mo(3, gadur::Options{false, true});
  const double pm = perft_rate("gadur s3 m-o", mo, "", 6);
  using solver::CompactDfs, solver::Dfpn;
  boolean_search<CompactDfs>("gadur s3 m-o after 'c3 a1' compact", mo, "c3 a1", 512, pm);
  boolean_search<Dfpn>("gadur s3 m-o after 'c3 a1' dfpn", mo, "c3 a1", 512, pm);
  boolean_search<CompactDfs>("gadur s3 m-o from the start, compact", mo, "", 512, pm);
  boolean_search<Dfpn>("gadur s3 m-o from the start, dfpn", mo, "", 512, pm);
}

}  // namespace

int main(int argc, char** argv) {
  bool full = argc > 1 && std::strcmp(argv[1], "full") == 0;
  if (argc > 1 && std::strcmp(argv[1], "compact") == 0) {
    compact_side3();
    const GadurCtx mo4(4, gadur::Options{false, true});
    const double p4 = perft_rate("gadur s4 m-o", mo4, "", 5);
    boolean_search<solver::CompactDfs, solver::WideCodec>(
        "gadur s4 m-o from the start, compact 50M", mo4, "", 1024, p4, 50'000'000);
    boolean_search<solver::Dfpn, solver::WideCodec>("gadur s4 m-o from the start, dfpn 50M", mo4,
                                                    "", 1024, p4, 50'000'000);
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "superko") == 0) {
    const FiodarCtx fio2(2, fiodar::Options{}), fio3(3, fiodar::Options{});
    const double pf = perft_rate("fiodar s3", fio3, "", 5);
    superko("fiodar s2 from the start, superko", fio2, "", 0, pf);
    superko("fiodar s3 after 'c3 b2 b3 c2 d3 d2', superko", fio3, "c3 b2 b3 c2 d3 d2", 0, pf);
    superko("fiodar s3 from the start, superko 20M", fio3, "", 20'000'000, pf);
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "checks") == 0) {
    const GadurCtx aw(3, gadur::Options{}), mo(3, gadur::Options{false, true});
    const EnfargarCtx en(3, enfargar::Options{});
    const double pm = perft_rate("gadur s3 m-o", mo, "", 7);
    property_checks("gadur s3 m-o", mo, "", "termination", 1, pm);
    property_checks("gadur s3 m-o", mo, "", "drawless", 2, pm);
    const double pg = perft_rate("gadur s3", aw, "", 7);
    property_checks("gadur s3", aw, "", "drawless", 2, pg);
    const double pe = perft_rate("enfargar s3", en, "", 6);
    property_checks("enfargar s3", en, "", "drawless", 2, pe);
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "dense") == 0) {
    const gadur::Context<1> g4(4, gadur::Options{});
    gadur::State<1> s4(&g4);
    auto [leaves, ref] = bench::timed([&] { return perft(s4, 6); });
    bench::report("gadur s4 perft 6 (the target's yardstick)", leaves, ref, "leaves");
    std::printf("%-44s %14.1f s (3x perft gadur s4 depth 6)\n", "target wall time", 3 * ref);
    const GadurCtx aw(3, gadur::Options{}), mo(3, gadur::Options{false, true});
    const EnfargarCtx en(3, enfargar::Options{});
    double pg = perft_rate("gadur s3", aw, "", 7);
    double s1 = dense("gadur s3 as written", aw, "", 2, pg);
    double pm = perft_rate("gadur s3 m-o", mo, "", 7);
    double s2 = dense("gadur s3 merge-only", mo, "", 2, pm);
    double pe = perft_rate("enfargar s3", en, "", 6);
    double s3 = dense("enfargar s3", en, "", 2, pe);
    // One thread: the per-core rate without a second thread's contention.
    dense("gadur s3 as written", aw, "", 1, pg);
    dense("enfargar s3", en, "", 1, pe);
    std::printf(
        "wall time / perft gadur s4 d6: gadur %.2f, merge-only %.2f, enfargar %.2f "
        "(<= 3 meets the target)\n",
        s1 / ref, s2 / ref, s3 / ref);
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    std::printf("%-44s %14.1f MB\n", "peak resident set (whole run)", u.ru_maxrss / 1024.0);
    return 0;
  }
  {
    const GadurCtx aw(3, gadur::Options{});
    double pg = perft_rate("gadur s3", aw, "c3 a1 e5", 6);
    dense("gadur s3 after 'c3 a1 e5'", aw, "c3 a1 e5", 1, pg);
    dense("gadur s3 after 'c3 a1 e5'", aw, "c3 a1 e5", 2, pg);
    const EnfargarCtx en(3, enfargar::Options{});
    double pe = perft_rate("enfargar s3", en, "a1 b2 c3 d4", 6);
    dense("enfargar s3 after 'a1 b2 c3 d4'", en, "a1 b2 c3 d4", 2, pe);
  }
  const GadurCtx as_written(3, gadur::Options{}), merge_only(3, gadur::Options{false, true});
  retrograde("gadur s3 after 'c3 a1 e5' retrograde", as_written, "c3 a1 e5", 1);
  retrograde("gadur s3 after 'c3 a1 e5' retrograde", as_written, "c3 a1 e5", 2);
  retrograde("gadur s3 m-o after 'c3 a1' retrograde", merge_only, "c3 a1", 1);
  dfs("gadur s3 m-o after 'c3 a1' alpha-beta", merge_only, "c3 a1");
  compact_side3();
  const EnfargarCtx enf3(3, enfargar::Options{});
  retrograde("enfargar s3 after 'a1 b2 c3 d4' retrograde", enf3, "a1 b2 c3 d4", 1);
  dfs("enfargar s3 after 'a1 b2 c3 d4' alpha-beta", enf3, "a1 b2 c3 d4");
  {
    // Migong: a placement is a cell and a piece (about 330 moves at the
    // start of side 3), so perft counts the last ply in bulk; its nodes
    // one ply up (perft 3: 83,250 expanded, 17.8 M leaves) are the fairer
    // comparison for alpha-beta's nodes.
    const MigongCtx mg3(3);
    perft_rate("migong s3", mg3, "", 4);
    dfs("migong s3 from the start, 2M nodes", mg3, "", 2'000'000);
    dfs_threads("migong s3 solve --method dfs, 4M nodes", mg3, "", 4'000'000);
  }
  const FiodarCtx fio2(2, fiodar::Options{}), fio3(3, fiodar::Options{});
  dfs("fiodar s2 from the start, alpha-beta", fio2, "");
  dfs("fiodar s3 from the start, 2M nodes", fio3, "", 2'000'000);
  {
    const double pf = perft_rate("fiodar s3", fio3, "", 5);
    superko("fiodar s2 from the start, superko", fio2, "", 0, pf);
    superko("fiodar s3 from the start, superko 20M", fio3, "", 20'000'000, pf);
  }
  if (full) retrograde("gadur s3 from the start, retrograde", as_written, "", 2);
  return 0;
}
