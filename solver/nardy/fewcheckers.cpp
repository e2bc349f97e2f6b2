#include "solver/nardy/fewcheckers.h"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <thread>

#include "model/common/errors.h"
#include "model/common/files.h"
#include "solver/checkpoint.h"
#include "solver/control.h"
#include "solver/core.h"
#include "solver/nardy/table_file.h"
#include "solver/threads.h"

namespace loom::nardy::exact {

namespace few_detail {

constexpr int kSlots = 25;  // route 0..23, 24 = borne off

uint64_t binom(int n, int k) {
  if (k < 0 || n < k) return 0;
  uint64_t r = 1;
  for (int i = 1; i <= k; ++i) r = r * static_cast<uint64_t>(n - k + i) / static_cast<uint64_t>(i);
  return r;
}

/// binom(r + j, j + 1) for route r (0..24) and slot j (0..kMaxK-1): the colex
/// rank of a multiset of route indices r_0 <= r_1 <= ... is the sum over j.
struct RankTable {
  uint32_t t[kSlots][FewCheckers::kMaxK] = {};
  RankTable() {
    for (int r = 0; r < kSlots; ++r)
      for (int j = 0; j < FewCheckers::kMaxK; ++j)
        t[r][j] = static_cast<uint32_t>(binom(r + j, j + 1));
  }
};
const RankTable kRank;

/// Colex rank of a side given by its route counts (K minus the checkers
/// counted are borne off). Counts are at most kMaxK < 8, so the occupied
/// routes are found eight at a time from the low three bits of each byte.
uint32_t routes_rank(const Routes& c, int k) {
  uint64_t w[3];
  std::memcpy(w, c.data(), sizeof w);
  uint32_t r = 0;
  int j = 0;
  for (int word = 0; word < 3; ++word) {
    for (uint64_t m = (w[word] | w[word] >> 1 | w[word] >> 2) & 0x0101010101010101ull; m;
         m &= m - 1) {
      const int i = word * 8 + std::countr_zero(m) / 8;
      for (int x = c[static_cast<size_t>(i)]; x > 0 && j < k; --x) r += kRank.t[i][j++];
    }
  }
  for (; j < k; ++j) r += kRank.t[24][j];
  return r;
}

/// Colour c's config in p (c's route frame); nullopt if c has more than k.
std::optional<uint32_t> config_of(const Position& p, Color c, int k) {
  if (k < 1 || k > FewCheckers::kMaxK) return std::nullopt;
  Routes x{};
  int n = 0;
  for (int r = 0; r < kPoints; ++r) {
    int m = p.count(c, point_of(c, r));
    n += m;
    x[static_cast<size_t>(r)] = static_cast<uint8_t>(m);
  }
  if (n > k) return std::nullopt;
  return routes_rank(x, k);
}

/// Every placement of K checkers (route 0..23, 24 = off) of one side, by
/// colex rank, with what the solver reads of it.
struct Configs {
  int k = 0;
  std::vector<Routes> routes;    ///< counts by route index (own frame)
  std::vector<int> pips;         ///< pips to bear off all
  std::vector<uint8_t> on;       ///< checkers on the board
  std::vector<uint32_t> own;     ///< route indices it holds (own frame)
  std::vector<uint32_t> as_opp;  ///< the points it holds as Black, in White's route frame
  std::vector<std::vector<uint32_t>> by_pips;  ///< ranks by pips

  explicit Configs(int k_) : k(std::clamp(k_, 1, FewCheckers::kMaxK)) {
    const size_t n = binom(k + kSlots - 1, k);
    routes.resize(n);
    pips.resize(n);
    on.resize(n);
    own.resize(n);
    as_opp.resize(n);
    by_pips.resize(static_cast<size_t>(24 * k) + 1);
    std::array<int, FewCheckers::kMaxK> x{};
    enumerate(x, 0, 0);
  }
  void enumerate(std::array<int, FewCheckers::kMaxK>& x, int j, int lo) {
    if (j >= k || j >= FewCheckers::kMaxK) {
      Routes c{};
      int p = 0, m = 0;
      uint32_t o = 0, q = 0;
      for (int i = 0; i < k && i < FewCheckers::kMaxK; ++i) {
        const int r = x[static_cast<size_t>(i)];
        p += 24 - r;
        if (r == 24) continue;
        ++c[static_cast<size_t>(r)];
        ++m;
        o |= 1u << r;
        q |= 1u << (24 - point_of(Color::kBlack, r));  // White's route of that point
      }
      const uint32_t i = routes_rank(c, k);
      routes[i] = c;
      pips[i] = p;
      on[i] = static_cast<uint8_t>(m);
      own[i] = o;
      as_opp[i] = q;
      by_pips[static_cast<size_t>(p)].push_back(i);
      return;
    }
    for (int r = lo; r < kSlots; ++r) {
      x[static_cast<size_t>(j)] = r;
      enumerate(x, j + 1, r);
    }
  }
};

constexpr char kMagic[8] = {'L', 'O', 'O', 'M', 'N', 'F', 'W', '1'};
constexpr char kChunkMagic[8] = {'L', 'O', 'O', 'M', 'N', 'F', 'C', '1'};
constexpr uint32_t kFormatVersion = 1;
/// The rules a table is valid for (checked on load). The block rule needs
/// six points of one side, so neither block value matters for K <= 4.
constexpr char kRules[48] = "long-nardy whole game, first-off, checkers=K";

/// Counters of a solve (also kept per chunk, so a resumed solve reports the
/// same figures as an uninterrupted one).
struct alignas(64) Counts {  // one a thread while a layer runs: lines of its own
  uint64_t states = 0;       ///< non-terminal states evaluated
  uint64_t passes = 0;       ///< of them with a forced-pass roll
  uint64_t endless = 0;
  uint64_t calls = 0;  ///< generator calls (one per state and roll)
  Counts& operator+=(const Counts& o) {
    states += o.states;
    passes += o.passes;
    endless += o.endless;
    calls += o.calls;
    return *this;
  }
};

struct FileHeader {
  char magic[8];
  uint32_t version;
  uint32_t k;
  uint64_t configs;
  uint64_t payload_bytes;
  uint64_t checksum;
  uint64_t states, passes, endless, calls;  ///< Counts of the whole solve (states: legal pairs)
  double seconds;                           ///< solve time (all runs of a resumed solve)
  char rules[48];
};
static_assert(sizeof(FileHeader) == 128);

struct ChunkHeader {
  char magic[8];
  uint32_t version;
  uint32_t k;
  uint32_t l0, l1;  ///< layers [l0, l1)
  uint64_t values;  ///< states stored (the layers' states in solve order)
  uint64_t passes, endless, calls;
  double seconds;
  uint64_t checksum;
};
static_assert(sizeof(ChunkHeader) == 72);

/// Non-terminal states per chunk file (a group of whole layers of at least
/// this many): 4 Mi states, 64 MiB.
constexpr uint64_t kChunkStates = uint64_t{1} << 22;

}  // namespace few_detail
using namespace few_detail;

/// The solve, layer by layer (total pips). A layer's states are taken
/// opponent by opponent (b ascending, then a by rank), so every child
/// (b, a') of (a, b) lies in row b, which stays in cache while b's states
/// are done; the same order lists a layer's values in a chunk file.
struct FewCheckersSolver {
  FewCheckers& f;
  const Configs C;
  const int k;
  const size_t n;
  const int threads;
  const Options opt;
  int layers() const { return 2 * 24 * k + 1; }

  std::vector<uint64_t> per_layer;  ///< unended states per layer (init())
  uint64_t open_states = 0;         ///< their sum

  /// Sets f up for the rule set (options, placements, the ended states'
  /// values) and counts the states to solve.
  FewCheckersSolver(FewCheckers& f_, const Options& o, int threads_)
      : f(f_),
        C(o.checkers),
        k(o.checkers),
        n(C.routes.size()),
        threads(std::max(1, threads_)),
        opt(o) {
    f.opt_ = o;
    f.configs_ = n;
    per_layer = init();
    for (uint64_t x : per_layer) open_states += x;
  }

  bool open(size_t a, size_t b) const { return C.on[a] && C.on[b] && !(C.own[a] & C.as_opp[b]); }
  /// Sets the terminal states' values; returns the non-terminal count per layer.
  std::vector<uint64_t> init() {
    f.v_.assign(n * n, FewCheckers::Value{});
    std::vector<uint64_t> per_layer(static_cast<size_t>(layers()), 0);
    for (size_t a = 0; a < n; ++a)
      for (size_t b = 0; b < n; ++b) {
        if (C.own[a] & C.as_opp[b]) continue;  // a point holding both colours
        if (C.on[a] == 0 && C.on[b] == 0) continue;
        ++f.states_;
        FewCheckers::Value& v = f.v_[a * n + b];
        if (C.on[b] == 0)  // the opponent bore off all: the mover lost
          v = {0.0, -(C.on[a] == k ? 2.0 : 1.0)};
        else if (C.on[a] == 0)  // not a real turn: the mover has won
          v = {1.0, C.on[b] == k ? 2.0 : 1.0};
        else
          ++per_layer[static_cast<size_t>(C.pips[a] + C.pips[b])];
      }
    return per_layer;
  }
  /// Calls fn(state index) for layer L's non-terminal states in solve order.
  template <class Fn>
  void for_each(int L, Fn&& fn) const {
    for (size_t b = 0; b < n; ++b) {
      const int need = L - C.pips[b];
      if (need < 0 || need > 24 * k) continue;
      for (uint32_t a : C.by_pips[static_cast<size_t>(need)])
        if (open(a, b)) fn(a * n + b);
    }
  }

  /// Evaluates layer L (every lower layer final).
  Counts layer(int L) {
    struct Pass {
      uint64_t state;
      double x, y, q;
    };
    std::atomic<size_t> next{0};
    std::vector<solver::OwnLines<std::vector<Pass>>> passes(static_cast<size_t>(threads));
    std::vector<Counts> counts(static_cast<size_t>(threads));
    auto run = [&](size_t t) {
      TurnGenerator gen(opt);
      std::vector<Routes> kids;
      std::array<uint32_t, 22> begin{};
      const auto& rolls = all_rolls();
      Counts& my = counts[t];
      for (;;) {
        const size_t b0 = next.fetch_add(16);
        if (b0 >= n) break;
        for (size_t b = b0; b < std::min(n, b0 + 16); ++b) {
          const int need = L - C.pips[b];
          if (need < 0 || need > 24 * k || C.on[b] == 0) continue;
          const FewCheckers::Value* row = &f.v_[b * n];
          for (uint32_t a : C.by_pips[static_cast<size_t>(need)]) {
            if (!open(a, b)) continue;
            ++my.states;
            gen.routes(Color::kWhite, C.routes[a], C.as_opp[b], C.on[b], kids, begin);
            my.calls += rolls.size();
            double x = 0, y = 0, q = 0;
            for (size_t ri = 0; ri < rolls.size(); ++ri) {
              const double w = rolls[ri].probability();
              const uint32_t k0 = begin[ri], k1 = begin[ri + 1];
              if (k1 == k0 + 1 && kids[k0] == C.routes[a]) {  // no legal step: a pass
                q += w;
                continue;
              }
              double bp = -1, be = -3;
              for (uint32_t c = k0; c < k1; ++c) {
                const FewCheckers::Value& v = row[routes_rank(kids[c], k)];
                bp = std::max(bp, 1.0 - v.p);
                be = std::max(be, -v.e);
              }
              x += w * bp;
              y += w * be;
            }
            if (q == 0)
              f.v_[a * n + b] = {x, y};
            else
              passes[t].push_back({a * n + b, x, y, q});
          }
        }
      }
    };
    if (threads > 1) {
      loom::solver::ThreadGroup pool;
      for (int t = 1; t < threads; ++t) pool.start(run, static_cast<size_t>(t));
      run(0);
      pool.join();
    } else {
      run(0);
    }
    Counts total;
    for (const Counts& c : counts) total += c;
    // Forced passes: the partner (b, a) is in this layer. Its X and q are in
    // the pass list, or it has no pass and its value is already final.
    std::vector<Pass> all;
    for (auto& v : passes) all.insert(all.end(), v.begin(), v.end());
    std::sort(all.begin(), all.end(),
              [](const Pass& x, const Pass& y) { return x.state < y.state; });
    std::vector<FewCheckers::Value> solved(all.size());
    for (size_t i = 0; i < all.size(); ++i) {
      const size_t a = all[i].state / n, b = all[i].state % n;
      const double q = all[i].q;
      if (a == b) {  // its own partner: P = X + q (1 - P), E = Y - q E
        solved[i] = {(all[i].x + q) / (1 + q), all[i].y / (1 + q)};
        continue;
      }
      const uint64_t j = b * n + a;
      auto it = std::lower_bound(all.begin(), all.end(), j,
                                 [](const Pass& x, uint64_t st) { return x.state < st; });
      double x2 = f.v_[j].p, y2 = f.v_[j].e, q2 = 0;
      if (it != all.end() && it->state == j) {
        x2 = it->x;
        y2 = it->y;
        q2 = it->q;
      }
      const double det = 1 - q * q2;
      if (det <= 1e-12) {  // both sides pass on every roll: the game never ends
        ++total.endless;
        solved[i] = {0.0, 0.0};
        continue;
      }
      solved[i] = {(all[i].x + q * (1 - x2 - q2)) / det, (all[i].y - q * y2) / det};
    }
    for (size_t i = 0; i < all.size(); ++i) f.v_[all[i].state] = solved[i];
    total.passes = all.size();
    return total;
  }

  void finish(const Counts& c, double seconds) {
    f.pass_couples_ = c.passes;
    f.endless_ = c.endless;
    f.calls_ = c.calls;
    f.seconds_ = seconds;
  }
};

namespace {

void check_solvable(const Options& opt) {
  const int k = opt.checkers;
  if (k < 1 || k > FewCheckers::kMaxK)
    throw InputError(
        "Long Nardy is a dice game: the whole game is solved exactly for checkers=1.." +
        std::to_string(FewCheckers::kMaxK) + " (checkers=" + std::to_string(k) +
        " has C(K+24,K)^2 states; see docs/nardy-exact.md)");
  if (opt.last_roll) throw InputError("the few-checker solver does not handle end=last-roll");
}

}  // namespace

FewCheckers FewCheckers::solve(const Options& opt, int threads) {
  check_solvable(opt);
  auto t0 = std::chrono::steady_clock::now();
  FewCheckers f;
  FewCheckersSolver S(f, opt, threads);
  Counts total;
  for (int L = 0; L < S.layers(); ++L)
    if (S.per_layer[static_cast<size_t>(L)]) total += S.layer(L);
  S.finish(total, seconds_since(t0));
  return f;
}

std::string FewCheckers::file_name(const std::string& dir, int k) {
  return (std::filesystem::path(dir) / ("nardy-few-k" + std::to_string(k) + ".bin")).string();
}

void FewCheckers::save(const std::string& file) const {
  FileHeader h{};
  std::memcpy(h.magic, kMagic, 8);
  h.version = kFormatVersion;
  h.k = static_cast<uint32_t>(opt_.checkers);
  h.configs = configs_;
  h.payload_bytes = v_.size() * sizeof(Value);
  h.checksum = checksum(v_.data(), h.payload_bytes);
  h.states = states_;
  h.passes = pass_couples_;
  h.endless = endless_;
  h.calls = calls_;
  h.seconds = seconds_;
  std::memcpy(h.rules, kRules, sizeof kRules);
  write_file(file, &h, sizeof h, {{v_.data(), h.payload_bytes}});
}

std::optional<FewCheckers> FewCheckers::load(const std::string& file, const Options& opt,
                                             std::string* why) {
  auto fail = [&](const std::string& w) -> std::optional<FewCheckers> {
    if (why) *why = file + ": " + w;
    return std::nullopt;
  };
  check_solvable(opt);
  FewCheckers f;
  f.opt_ = opt;
  f.configs_ = binom(opt.checkers + kSlots - 1, opt.checkers);
  FileHeader h{};
  const size_t bytes = f.configs_ * f.configs_ * sizeof(Value);
  {
    // Nothing is allocated (6.5 GB for K = 4) for a file that is missing,
    // is not a regular file (refused with one line) or has the wrong
    // length: such files were found only after the table was zero-filled.
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0 && errno == ENOENT) return fail("missing");
    RegularFile in(file, "few-checker table");
    if (in.size() != sizeof h + bytes) return fail("wrong size or truncated");
  }
  f.v_.resize(f.configs_ * f.configs_);
  // Missing or the wrong length: no payload is read.
  switch (read_chunk(file, "few-checker table", &h, sizeof h, {{f.v_.data(), bytes}})) {
    case ChunkRead::kMissing:
      return fail("missing");
    case ChunkRead::kBad:
      return fail("wrong size or truncated");
    case ChunkRead::kRead:
      break;
  }
  if (std::memcmp(h.magic, kMagic, 8) != 0) return fail("not a Loom few-checker table");
  if (h.version != kFormatVersion) return fail("format version " + std::to_string(h.version));
  if (std::memcmp(h.rules, kRules, sizeof kRules) != 0) return fail("other rules");
  if (h.k != static_cast<uint32_t>(opt.checkers))
    return fail("built for checkers=" + std::to_string(h.k));
  if (h.configs != f.configs_ || h.payload_bytes != bytes) return fail("wrong size");
  if (checksum(f.v_.data(), bytes) != h.checksum) return fail("checksum mismatch");
  f.states_ = h.states;
  f.pass_couples_ = h.passes;
  f.endless_ = h.endless;
  f.calls_ = h.calls;
  f.seconds_ = h.seconds;
  return f;
}

std::optional<FewCheckers> FewCheckers::solve_resumable(const Options& opt, const std::string& dir,
                                                        int threads, std::ostream* log,
                                                        std::ostream* tty, int stop_after_chunks,
                                                        uint64_t chunk_states) {
  check_solvable(opt);
  if (chunk_states == 0) chunk_states = kChunkStates;
  namespace fs = std::filesystem;
  const int k = opt.checkers;
  // The finished table is written as FILE.tmp, then renamed: something
  // there that is not a regular file is refused now, before the solver is
  // set up (for K = 4 that alone takes half a minute and gigabytes).
  check_writable(file_name(dir, k) + ".tmp", "few-checker table");
  // The progress line (a terminal only) as every command's: fitted to the
  // terminal, erased at the end; a signal ends the run at once (the
  // finished chunks are on disk), erasing the line first.
  solver::RunControl::Config line_cfg;
  line_cfg.tty = tty;
  solver::RunControl line(line_cfg);
  FewCheckers f;
  FewCheckersSolver S(f, opt, threads);
  const auto& per_layer = S.per_layer;
  const uint64_t open = S.open_states;
  const fs::path part = fs::path(file_name(dir, k) + ".part");
  make_directory(part.string(), "chunk directory");
  std::vector<Value> buf;
  Counts total;
  double seconds = 0;  // solve time of the chunks (also those of earlier runs)
  int written = 0, resumed = 0;
  // The progress line (a terminal only), redrawn after each layer.
  auto show = [&](uint64_t done) {
    if (!tty) return;
    char text[160];
    std::snprintf(text, sizeof text,
                  "few-checkers K=%d: %5.1f%% of %llu states (%d chunks resumed)", k,
                  100.0 * static_cast<double>(done) / static_cast<double>(open),
                  static_cast<unsigned long long>(open), resumed);
    line.status(text);
  };
  for (int l0 = 0; l0 < S.layers();) {
    int l1 = l0;
    uint64_t values = 0;
    while (l1 < S.layers() && values < chunk_states) values += per_layer[static_cast<size_t>(l1++)];
    char name[32];
    std::snprintf(name, sizeof name, "chunk-%03d.bin", l0);
    const std::string chunk = (part / name).string();
    ChunkHeader h{};
    buf.resize(values);
    const ChunkRead got = read_chunk(chunk, "few-checker chunk", &h, sizeof h,
                                     {{buf.data(), values * sizeof(Value)}});
    bool loaded = false;
    if (got != ChunkRead::kMissing) {
      const bool ok = got == ChunkRead::kRead && std::memcmp(h.magic, kChunkMagic, 8) == 0 &&
                      h.version == kFormatVersion && h.k == static_cast<uint32_t>(k) &&
                      h.l0 == static_cast<uint32_t>(l0) && h.l1 == static_cast<uint32_t>(l1) &&
                      h.values == values &&
                      checksum(buf.data(), values * sizeof(Value)) == h.checksum;
      if (ok) {
        size_t i = 0;
        for (int L = l0; L < l1; ++L) S.for_each(L, [&](uint64_t st) { f.v_[st] = buf[i++]; });
        total += Counts{values, h.passes, h.endless, h.calls};
        seconds += h.seconds;
        loaded = true;
        ++resumed;
      } else if (log) {
        *log << "loom: few-checker chunk " << chunk << " is corrupt; rebuilding it\n";
      }
    }
    if (!loaded) {
      auto c0 = std::chrono::steady_clock::now();
      Counts c;
      for (int L = l0; L < l1; ++L)
        if (per_layer[static_cast<size_t>(L)]) {
          c += S.layer(L);
          show(total.states + c.states);
        }
      buf.clear();
      for (int L = l0; L < l1; ++L) S.for_each(L, [&](uint64_t st) { buf.push_back(f.v_[st]); });
      h = ChunkHeader{};
      std::memcpy(h.magic, kChunkMagic, 8);
      h.version = kFormatVersion;
      h.k = static_cast<uint32_t>(k);
      h.l0 = static_cast<uint32_t>(l0);
      h.l1 = static_cast<uint32_t>(l1);
      h.values = values;
      h.passes = c.passes;
      h.endless = c.endless;
      h.calls = c.calls;
      h.seconds = seconds_since(c0);
      h.checksum = checksum(buf.data(), values * sizeof(Value));
      write_file(chunk, &h, sizeof h, {{buf.data(), values * sizeof(Value)}});
      total += c;
      seconds += h.seconds;
      ++written;
      if (stop_after_chunks > 0 && written >= stop_after_chunks) return std::nullopt;
    }
    show(total.states);
    l0 = l1;
  }
  line.clear_status();
  S.finish(total, seconds);
  f.save(file_name(dir, k));
  std::error_code ec;
  fs::remove_all(part, ec);
  return f;
}

FewCheckers FewCheckers::cached(const Options& opt, const std::string& dir, std::ostream* log,
                                std::ostream* tty, int threads, int stop_after_chunks) {
  check_solvable(opt);
  std::string why;
  auto f = load(file_name(dir, opt.checkers), opt, &why);
  if (f) return std::move(*f);
  // One solve at a time: a run that finds another solving the table waits
  // for it and loads what it wrote.
  make_directory(dir, "table directory");
  solver::CheckpointLock solving(file_name(dir, opt.checkers), "few-checker table",
                                 solver::CheckpointLock::Busy::kWait, log);
  f = load(file_name(dir, opt.checkers), opt, &why);
  if (f) return std::move(*f);
  // (load() refused anything at the path that is not a regular file.)
  std::error_code ec;
  if (std::filesystem::exists(file_name(dir, opt.checkers), ec) && log)
    *log << "loom: " << why << "; solving again\n";
  f = solve_resumable(opt, dir, threads, log, tty, stop_after_chunks);
  if (!f) throw Interrupted("few-checker solve stopped (--stop-after); run again to resume");
  return std::move(*f);
}

std::optional<size_t> FewCheckers::index(const Position& p) const {
  std::string bad = check_playable(p, opt_);
  if (!bad.empty()) throw InputError("position " + p.to_string() + ": " + bad);
  if (result(p, opt_).over()) return std::nullopt;
  auto a = config_of(p, p.to_move(), opt_.checkers);
  auto b = config_of(p, other(p.to_move()), opt_.checkers);
  return size_t{*a} * configs_ + *b;
}

std::optional<double> FewCheckers::p_win(const Position& p) const {
  auto i = index(p);
  if (!i) return std::nullopt;
  return v_[*i].p;
}

std::optional<double> FewCheckers::points(const Position& p) const {
  auto i = index(p);
  if (!i) return std::nullopt;
  return v_[*i].e;
}

std::pair<double, double> FewCheckers::after_turn(const Position& child, Color mover) const {
  Result res = result(child, opt_);
  if (res.over()) return {res.value(mover) > 0 ? 1.0 : 0.0, static_cast<double>(res.value(mover))};
  return {1 - *p_win(child), -*points(child)};
}

std::vector<OpeningPlay> FewCheckers::openings() const {
  std::vector<OpeningPlay> out;
  TurnGenerator gen(opt_);
  std::vector<Child> kids;
  const Position start = Position::start(opt_.checkers);
  for (const Roll& r : all_rolls()) {
    gen.turns(start, r, kids);
    std::sort(kids.begin(), kids.end(),
              [](const Child& x, const Child& y) { return x.turn.text() < y.turn.text(); });
    OpeningPlay o;
    o.roll = r;
    o.distinct = static_cast<int>(kids.size());
    o.p_win = -1;
    o.points = -3;
    for (const Child& c : kids) {
      auto [pw, pt] = after_turn(c.position, Color::kWhite);
      if (pw > o.p_win + 1e-12) {
        o.p_win = pw;
        o.turn = c.turn;
      }
      if (pt > o.points + 1e-12) {
        o.points = pt;
        o.points_turn = c.turn;
      }
    }
    out.push_back(o);
  }
  return out;
}

}  // namespace loom::nardy::exact
