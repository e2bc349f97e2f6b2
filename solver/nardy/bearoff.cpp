#include "solver/nardy/bearoff.h"

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include "model/common/errors.h"
#include "model/common/files.h"
#include "solver/checkpoint.h"
#include "solver/control.h"
#include "solver/nardy/table_file.h"
#include "solver/threads.h"

namespace loom::nardy::exact {

namespace fs = std::filesystem;

namespace {

/// C(n, k) for n < 32, k <= 6.
constexpr auto kBinom = [] {
  std::array<std::array<uint32_t, 7>, 32> t{};
  for (int n = 0; n < 32; ++n) {
    t[n][0] = 1;
    for (int k = 1; k <= 6; ++k) t[n][k] = n == 0 ? 0 : t[n - 1][k - 1] + t[n - 1][k];
  }
  return t;
}();

}  // namespace

uint32_t home_count(int n) {
  return kBinom[static_cast<size_t>(n + 6)][6];
}

uint32_t home_index(const Home& h) {
  uint32_t idx = 0;
  int x = -1;
  for (int i = 0; i < kHomePoints; ++i) {
    x += h[static_cast<size_t>(i)] + 1;
    idx += kBinom[static_cast<size_t>(x)][static_cast<size_t>(i + 1)];
  }
  return idx;
}

Home home_at(uint32_t index) {
  // Colex unranking: the largest x with C(x, k) <= rest, for k = 6..1.
  std::array<int, kHomePoints> x{};
  uint32_t rest = index;
  for (int k = kHomePoints; k >= 1; --k) {
    int v = k - 1;
    while (kBinom[static_cast<size_t>(v + 1)][static_cast<size_t>(k)] <= rest) ++v;
    x[static_cast<size_t>(k - 1)] = v;
    rest -= kBinom[static_cast<size_t>(v)][static_cast<size_t>(k)];
  }
  Home h{};
  int prev = -1;
  for (int i = 0; i < kHomePoints; ++i) {
    h[static_cast<size_t>(i)] = static_cast<uint8_t>(x[static_cast<size_t>(i)] - prev - 1);
    prev = x[static_cast<size_t>(i)];
  }
  return h;
}

int home_checkers(const Home& h) {
  int n = 0;
  for (uint8_t c : h) n += c;
  return n;
}

int home_pips(const Home& h) {
  int n = 0;
  for (int d = 1; d <= kHomePoints; ++d) n += d * h[static_cast<size_t>(d - 1)];
  return n;
}

std::optional<Home> home_of(const Position& p, Color c) {
  Home h{};
  for (int point = 1; point <= kPoints; ++point) {
    int n = p.count(c, point);
    if (!n) continue;
    int dist = kOffRoute - route_of(c, point);
    if (dist > kHomePoints) return std::nullopt;
    h[static_cast<size_t>(dist - 1)] = static_cast<uint8_t>(n);
  }
  return h;
}

Position home_position(const Home& white, const Home& black, Color to_move) {
  Position p;
  for (int d = 1; d <= kHomePoints; ++d) {
    if (white[static_cast<size_t>(d - 1)]) p.set(d, white[static_cast<size_t>(d - 1)]);
    if (black[static_cast<size_t>(d - 1)]) p.set(12 + d, -black[static_cast<size_t>(d - 1)]);
  }
  p.set_to_move(to_move);
  return p;
}

std::optional<std::pair<Home, Home>> bearoff_homes(const Position& p) {
  auto me = home_of(p, p.to_move());
  auto them = home_of(p, other(p.to_move()));
  if (!me || !them) return std::nullopt;
  return std::make_pair(*me, *them);
}

// ---- Successors ----

Successors::Successors() {
  auto t0 = std::chrono::steady_clock::now();
  // White's home on points 1-6; one Black checker on 13 (Black's 1 point).
  // Within home the moves of a side do not depend on the other side: the
  // landing points 1-6 never hold a Black checker, the head rule concerns
  // point 24 only, and a White run of 6 (points 1-6 are Black's route
  // 6..11) always has Black's home checkers further along (route 18-23),
  // so the block rule never forbids a step. The test "successors do not
  // depend on the opponent's home" checks this against other Black homes.
  const Home lone_black = {1, 0, 0, 0, 0, 0};
  std::vector<std::vector<uint16_t>> lists(size_t{kHomePositions} * kRolls);
  auto work = [&](uint32_t from, uint32_t to) {
    TurnGenerator gen;
    std::vector<Position> out;
    for (uint32_t i = from; i < to; ++i) {
      if (i == 0) continue;  // nothing to move: the game is over
      Position p = home_position(home_at(i), lone_black, Color::kWhite);
      for (int r = 0; r < kRolls; ++r) {
        gen.positions(p, all_rolls()[static_cast<size_t>(r)], out);
        auto& l = lists[size_t{i} * kRolls + static_cast<size_t>(r)];
        for (const Position& q : out) {
          auto h = home_of(q, Color::kWhite);
          if (!h) throw std::logic_error("bear-off successor left home");
          l.push_back(static_cast<uint16_t>(home_index(*h)));
        }
        std::sort(l.begin(), l.end());
        l.erase(std::unique(l.begin(), l.end()), l.end());
      }
    }
  };
  {
    loom::solver::ThreadGroup other_half;
    other_half.start(work, kHomePositions / 2, kHomePositions);
    work(0, kHomePositions / 2);
  }
  start_.resize(lists.size() + 1);
  size_t total = 0;
  for (size_t k = 0; k < lists.size(); ++k) {
    start_[k] = static_cast<uint32_t>(total);
    total += lists[k].size();
  }
  start_[lists.size()] = static_cast<uint32_t>(total);
  list_.reserve(total);
  for (const auto& l : lists) list_.insert(list_.end(), l.begin(), l.end());
  seconds_ = seconds_since(t0);
}

const Successors& Successors::get() {
  static const Successors s;
  return s;
}

// ---- One-sided ----

namespace {
/// Homes in increasing pips (then index): every successor comes first.
const std::vector<uint32_t>& by_pips() {
  static const std::vector<uint32_t> order = [] {
    std::vector<uint32_t> o(kHomePositions);
    for (uint32_t i = 0; i < kHomePositions; ++i) o[i] = i;
    std::vector<int> pips(kHomePositions);
    for (uint32_t i = 0; i < kHomePositions; ++i) pips[i] = home_pips(home_at(i));
    std::stable_sort(o.begin(), o.end(), [&](uint32_t a, uint32_t b) { return pips[a] < pips[b]; });
    return o;
  }();
  return order;
}
}  // namespace

OneSided::OneSided() {
  auto t0 = std::chrono::steady_clock::now();
  const Successors& s = Successors::get();
  all_.assign(size_t{kHomePositions} * kMaxTurns, 0.f);
  first_.assign(size_t{kHomePositions} * kMaxTurns, 0.f);
  mean_all_.assign(kHomePositions, 0.0);
  mean_first_.assign(kHomePositions, 0.0);
  std::vector<int> count(kHomePositions);
  for (uint32_t i = 0; i < kHomePositions; ++i) count[i] = home_checkers(home_at(i));
  std::vector<double> acc_all(kMaxTurns), acc_first(kMaxTurns);
  all_[0] = 1.f;    // the empty home: done in 0 turns
  first_[0] = 1.f;  // (no checker to bear off: counted as done)
  for (uint32_t a : by_pips()) {
    if (a == 0) continue;
    std::fill(acc_all.begin(), acc_all.end(), 0.0);
    std::fill(acc_first.begin(), acc_first.end(), 0.0);
    double m_all = 1, m_first = 1;
    for (int r = 0; r < kRolls; ++r) {
      const double w = roll_weight(r) / 36.0;
      auto succ = s.of(a, r);
      uint32_t best = succ[0], best_first = succ[0];
      bool off = false;
      for (uint16_t x : succ) {
        if (mean_all_[x] < mean_all_[best]) best = x;
        if (count[x] < count[a]) off = true;
        if (mean_first_[x] < mean_first_[best_first]) best_first = x;
      }
      m_all += w * mean_all_[best];
      const float* d = all_.data() + size_t{best} * kMaxTurns;
      for (int t = 1; t < kMaxTurns; ++t) acc_all[t] += w * d[t - 1];
      if (off) {
        acc_first[1] += w;
      } else {
        m_first += w * mean_first_[best_first];
        const float* f = first_.data() + size_t{best_first} * kMaxTurns;
        for (int t = 1; t < kMaxTurns; ++t) acc_first[t] += w * f[t - 1];
      }
    }
    float* d = all_.data() + size_t{a} * kMaxTurns;
    float* f = first_.data() + size_t{a} * kMaxTurns;
    for (int t = 0; t < kMaxTurns; ++t) {
      d[t] = static_cast<float>(acc_all[t]);
      f[t] = static_cast<float>(acc_first[t]);
    }
    if (d[kMaxTurns - 1] != 0.f) throw std::logic_error("bear-off longer than kMaxTurns");
    mean_all_[a] = m_all;
    mean_first_[a] = m_first;
  }
  seconds_ = seconds_since(t0);
}

const OneSided& OneSided::get() {
  static const OneSided o;
  return o;
}

uint32_t OneSided::best_race_move(uint32_t home, int roll) const {
  auto succ = Successors::get().of(home, roll);
  uint32_t best = succ[0];
  for (uint16_t x : succ)
    if (mean_all_[x] < mean_all_[best]) best = x;
  return best;
}

// ---- Two-sided ----

namespace detail {

/// The pairs of one database in evaluation order: layer s = pips(a) +
/// pips(b); within a layer, b in by_pips() order, then a in by_pips() order
/// among the homes with pips s - pips(b).
struct Layout {
  int n = 0;
  uint32_t size = 0;
  int max_pips = 0;
  std::vector<uint32_t> order;       ///< the homes of this N in by_pips() order
  std::vector<uint32_t> bucket;      ///< bucket[p]..bucket[p+1]: order[] with pips p
  std::vector<int> pips;             ///< per home
  std::vector<uint64_t> layer_size;  ///< pairs per layer

  explicit Layout(int n_) : n(n_), size(home_count(n_)), max_pips(6 * n_) {
    for (uint32_t h : by_pips())
      if (h < size) order.push_back(h);
    pips.resize(size);
    for (uint32_t i = 0; i < size; ++i) pips[i] = home_pips(home_at(i));
    bucket.assign(static_cast<size_t>(max_pips) + 2, 0);
    for (uint32_t h : order) ++bucket[static_cast<size_t>(pips[h]) + 1];
    for (int p = 0; p <= max_pips; ++p)
      bucket[static_cast<size_t>(p) + 1] += bucket[static_cast<size_t>(p)];
    layer_size.assign(static_cast<size_t>(2 * max_pips) + 1, 0);
    for (int pa = 0; pa <= max_pips; ++pa)
      for (int pb = 0; pb <= max_pips; ++pb)
        layer_size[static_cast<size_t>(pa + pb)] +=
            uint64_t{bucket[static_cast<size_t>(pa) + 1] - bucket[static_cast<size_t>(pa)]} *
            (bucket[static_cast<size_t>(pb) + 1] - bucket[static_cast<size_t>(pb)]);
  }
  int layers() const { return 2 * max_pips + 1; }
  /// Calls f(a, b) for every pair of layer s in evaluation order.
  template <class F>
  void for_each(int s, F&& f) const {
    for (uint32_t b : order) {
      int pa = s - pips[b];
      if (pa < 0) break;
      if (pa > max_pips) continue;
      for (uint32_t k = bucket[static_cast<size_t>(pa)]; k < bucket[static_cast<size_t>(pa) + 1];
           ++k)
        f(order[k], b);
    }
  }
};

}  // namespace detail
using detail::Layout;

namespace {

constexpr char kMagic[8] = {'L', 'O', 'O', 'M', 'N', 'B', 'O', '2'};
constexpr char kChunkMagic[8] = {'L', 'O', 'O', 'M', 'N', 'B', 'C', '2'};
/// Version 1: fixed-point values (N > kExactMax); version 2: doubles.
constexpr uint32_t kFormatVersion = 1;
constexpr uint32_t kExactVersion = 2;
uint32_t version_for(int n) {
  return TwoSided::exact_for(n) ? kExactVersion : kFormatVersion;
}
/// The rules the table is valid for (checked on load).
constexpr char kRules[48] = "long-nardy bear-off; mars at checkers=N";

struct FileHeader {
  char magic[8];
  uint32_t version;
  uint32_t n;
  uint32_t size;
  uint32_t reserved;
  uint64_t payload_bytes;
  uint64_t checksum;
  char rules[48];
};
static_assert(sizeof(FileHeader) == 88);

struct ChunkHeader {
  char magic[8];
  uint32_t version;
  uint32_t n;
  uint32_t s0, s1;  ///< layers [s0, s1)
  uint64_t pairs;
  uint64_t checksum;
};
static_assert(sizeof(ChunkHeader) == 40);

/// Pairs per chunk file (a group of whole layers of at least this many).
constexpr uint64_t kChunkPairs = uint64_t{1} << 22;

}  // namespace

namespace {
/// The two-sided equations of docs/nardy-exact.md in doubles for the pair
/// (a, b): `full(h)` says whether home h has all N on the board (a loss
/// against it is a mars), `read(x)` gives the values of (b, x), the
/// opponent to move once the mover has left home x. The table of doubles
/// and BearoffRecursion both evaluate every pair here, in this order.
template <class Full, class Read>
PairValue pair_equation(uint32_t a, uint32_t b, const Full& full, const Read& read) {
  if (a == 0)  // the mover has none left: it has won (not a real turn)
    return {b == 0 ? 0.0 : 1.0, b == 0 ? 0.0 : (full(b) ? 2.0 : 1.0)};
  if (b == 0) return {0.0, full(a) ? -2.0 : -1.0};  // the opponent has borne off all
  const Successors& S = Successors::get();
  double ps = 0, es = 0;
  for (int r = 0; r < kRolls; ++r) {
    double bp = 0, be = -2;
    for (uint16_t x : S.of(a, r)) {
      // x == 0 reads (b, 0): P 0, E -win.
      const PairValue v = read(x);
      bp = std::max(bp, 1 - v.p);
      be = std::max(be, -v.e);
    }
    const int w = roll_weight(r);
    ps += w * bp;
    es += w * be;
  }
  return {ps / 36, es / 36};
}
}  // namespace

struct TwoSidedBuilder {
  TwoSided& t;
  const Layout& L;
  const Successors& S = Successors::get();
  std::vector<uint8_t> full;  ///< per home: all N on the board (mars against it)

  TwoSidedBuilder(TwoSided& table, const Layout& layout) : t(table), L(layout) {
    full.resize(L.size);
    for (uint32_t i = 0; i < L.size; ++i) full[i] = home_checkers(home_at(i)) == L.n;
  }

  void pair(uint32_t a, uint32_t b) {
    if (t.exact())
      pair_exact(a, b);
    else
      pair_fixed(a, b);
  }

  /// The doubles: the equations of docs/nardy-exact.md as written.
  void pair_exact(uint32_t a, uint32_t b) {
    const double* prow = t.pd_.data() + size_t{b} * t.size_;
    const double* erow = t.ed_.data() + size_t{b} * t.size_;
    const PairValue v = pair_equation(
        a, b, [&](uint32_t h) { return full[h] != 0; },
        [&](uint32_t x) {
          return PairValue{prow[x], erow[x]};
        });
    const size_t at = size_t{a} * t.size_ + b;
    t.pd_[at] = v.p;
    t.ed_[at] = v.e;
  }

  /// Fixed point: in integers, each stored value rounded to nearest.
  void pair_fixed(uint32_t a, uint32_t b) {
    const size_t at = size_t{a} * t.size_ + b;
    const int ke = static_cast<int>(TwoSided::kEScale);
    if (a == 0) {  // the mover has none left: it has won (not a real turn)
      t.p_[at] = b == 0 ? 0 : 65535;
      t.e_[at] = static_cast<int16_t>(b == 0 ? 0 : (full[b] ? 2 : 1) * ke);
      return;
    }
    if (b == 0) {  // the opponent has borne off all: the mover lost
      t.p_[at] = 0;
      t.e_[at] = static_cast<int16_t>(-(full[a] ? 2 : 1) * ke);
      return;
    }
    const uint16_t* prow = t.p_.data() + size_t{b} * t.size_;
    const int16_t* erow = t.e_.data() + size_t{b} * t.size_;
    uint32_t ps = 0;
    int32_t es = 0;
    for (int r = 0; r < kRolls; ++r) {
      auto succ = S.of(a, r);
      uint32_t bp = 0;
      int32_t be = -65536;
      for (uint16_t x : succ) {
        bp = std::max<uint32_t>(bp, 65535u - prow[x]);
        be = std::max<int32_t>(be, -erow[x]);
      }
      const int w = roll_weight(r);
      ps += static_cast<uint32_t>(w) * bp;
      es += w * be;
    }
    t.p_[at] = static_cast<uint16_t>((ps + 18) / 36);
    t.e_[at] = static_cast<int16_t>(std::lround(es / 36.0));
  }

  /// Evaluates layer s with `threads` threads (b split in blocks).
  void layer(int s, int threads) {
    const auto& order = L.order;
    std::atomic<size_t> next{0};
    auto run = [&] {
      constexpr size_t kBlock = 32;
      for (;;) {
        size_t k0 = next.fetch_add(kBlock);
        if (k0 >= order.size()) return;
        size_t k1 = std::min(order.size(), k0 + kBlock);
        for (size_t k = k0; k < k1; ++k) {
          uint32_t b = order[k];
          int pa = s - L.pips[b];
          if (pa < 0) return;  // pips only grow along order
          if (pa > L.max_pips) continue;
          for (uint32_t j = L.bucket[static_cast<size_t>(pa)];
               j < L.bucket[static_cast<size_t>(pa) + 1]; ++j)
            pair(order[j], b);
        }
      }
    };
    if (threads <= 1 || L.layer_size[static_cast<size_t>(s)] < 4096) {
      run();
      return;
    }
    loom::solver::ThreadGroup pool;
    for (int i = 1; i < threads; ++i) pool.start(run);
    run();
    pool.join();
  }
};

TwoSided TwoSided::build(int n, int threads, const Progress& progress) {
  if (n < 1 || n > kMaxHomeCheckers) throw InputError("bear-off database N must be 1..15");
  Layout L(n);
  TwoSided t;
  t.allocate(n);
  TwoSidedBuilder b(t, L);
  uint64_t done = 0;
  for (int s = 0; s < L.layers(); ++s) {
    b.layer(s, threads);
    done += L.layer_size[static_cast<size_t>(s)];
    if (progress) progress(done, t.pairs());
  }
  return t;
}

void TwoSided::allocate(int n) {
  n_ = n;
  size_ = home_count(n);
  if (exact_for(n)) {
    pd_.assign(pairs(), 0);
    ed_.assign(pairs(), 0);
  } else {
    p_.assign(pairs(), 0);
    e_.assign(pairs(), 0);
  }
}

unsigned char* TwoSided::p_bytes() {
  return exact() ? reinterpret_cast<unsigned char*>(pd_.data())
                 : reinterpret_cast<unsigned char*>(p_.data());
}
unsigned char* TwoSided::e_bytes() {
  return exact() ? reinterpret_cast<unsigned char*>(ed_.data())
                 : reinterpret_cast<unsigned char*>(e_.data());
}
const unsigned char* TwoSided::p_bytes() const {
  return const_cast<TwoSided*>(this)->p_bytes();
}
const unsigned char* TwoSided::e_bytes() const {
  return const_cast<TwoSided*>(this)->e_bytes();
}

std::string TwoSided::file_name(const std::string& dir, int n) {
  return (fs::path(dir) / ("nardy-bearoff-n" + std::to_string(n) + ".bin")).string();
}

void TwoSided::save(const std::string& file) const {
  FileHeader h{};
  std::memcpy(h.magic, kMagic, 8);
  h.version = version_for(n_);
  h.n = static_cast<uint32_t>(n_);
  h.size = size_;
  const size_t half = pairs() * value_bytes(n_);
  h.payload_bytes = 2 * half;
  h.checksum = checksum(e_bytes(), half, checksum(p_bytes(), half));
  std::memcpy(h.rules, kRules, sizeof kRules);
  write_file(file, &h, sizeof h, {{p_bytes(), half}, {e_bytes(), half}});
}

std::optional<TwoSided> TwoSided::load(const std::string& file, int n, std::string* why) {
  auto fail = [&](const std::string& w) -> std::optional<TwoSided> {
    if (why) *why = file + ": " + w;
    return std::nullopt;
  };
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0 && errno == ENOENT) return fail("missing");
  // Anything there that is not a regular file is refused with one line
  // (InputError, exit 2), never read nor rebuilt: a FIFO would block the
  // reader, and a directory could not be replaced by the rebuilt file (as
  // for the few-checker tables and the chunk files).
  RegularFile in(file, "bear-off database");
  FileHeader h{};
  if (std::fread(&h, sizeof h, 1, in.get()) != 1) return fail("truncated header");
  if (std::memcmp(h.magic, kMagic, 8) != 0) return fail("not a Loom bear-off database");
  if (h.version != version_for(n)) return fail("format version " + std::to_string(h.version));
  if (std::memcmp(h.rules, kRules, sizeof kRules) != 0) return fail("other rules");
  // Every header byte is checked: a file is accepted only as save() wrote it.
  if (h.reserved != 0) return fail("reserved header field is not zero");
  if (h.n != static_cast<uint32_t>(n)) return fail("built for N=" + std::to_string(h.n));
  const uint64_t half = uint64_t{home_count(n)} * home_count(n) * value_bytes(n);
  if (h.size != home_count(n) || h.payload_bytes != 2 * half) return fail("wrong size");
  TwoSided t;
  t.allocate(n);
  if (std::fread(t.p_bytes(), half, 1, in.get()) != 1 ||
      std::fread(t.e_bytes(), half, 1, in.get()) != 1)
    return fail("truncated payload");
  if (std::fgetc(in.get()) != EOF) return fail("trailing bytes");
  if (checksum(t.e_bytes(), half, checksum(t.p_bytes(), half)) != h.checksum)
    return fail("checksum mismatch");
  if (t.exact()) {
    // A double table is read as written or not at all: every value a
    // winning chance in [0, 1] and points in [-2, 2] (a NaN fails too).
    for (size_t i = 0; i < t.pd_.size(); ++i)
      if (!(t.pd_[i] >= 0 && t.pd_[i] <= 1 && t.ed_[i] >= -2 && t.ed_[i] <= 2))
        return fail("a value out of range");
  }
  return t;
}

std::optional<TwoSided> TwoSided::build_resumable(int n, const std::string& dir, int threads,
                                                  std::ostream* log, std::ostream* tty,
                                                  int stop_after_chunks, uint64_t chunk_pairs) {
  if (chunk_pairs == 0) chunk_pairs = kChunkPairs;
  if (n < 1 || n > kMaxHomeCheckers) throw InputError("bear-off database N must be 1..15");
  Layout L(n);
  // The finished table is written as FILE.tmp, then renamed: something
  // there that is not a regular file is refused now, before the tables
  // are allocated and built.
  check_writable(file_name(dir, n) + ".tmp", "bear-off database");
  // The progress line (a terminal only) as every command's: fitted to the
  // terminal, erased at the end; a signal ends the run at once (the
  // finished chunks are on disk), erasing the line first.
  solver::RunControl::Config line_cfg;
  line_cfg.tty = tty;
  solver::RunControl line(line_cfg);
  TwoSided t;
  t.allocate(n);
  TwoSidedBuilder B(t, L);
  const fs::path part = fs::path(file_name(dir, n) + ".part");
  make_directory(part.string(), "chunk directory");
  // A chunk holds its layers' values in evaluation order, P then E, each
  // value as the table stores it (value_bytes(n)).
  const size_t vb = value_bytes(n);
  std::vector<unsigned char> pbuf, ebuf;
  int written = 0, resumed = 0;
  uint64_t done = 0;
  for (int s0 = 0; s0 < L.layers();) {
    int s1 = s0;
    uint64_t pairs = 0;
    while (s1 < L.layers() && pairs < chunk_pairs) pairs += L.layer_size[static_cast<size_t>(s1++)];
    char name[32];
    std::snprintf(name, sizeof name, "chunk-%03d.bin", s0);
    const std::string chunk = (part / name).string();
    const size_t bytes = pairs * vb;
    bool loaded = false;
    ChunkHeader h{};
    pbuf.resize(bytes);
    ebuf.resize(bytes);
    const ChunkRead got = read_chunk(chunk, "bear-off chunk", &h, sizeof h,
                                     {{pbuf.data(), bytes}, {ebuf.data(), bytes}});
    if (got != ChunkRead::kMissing) {
      bool ok = got == ChunkRead::kRead && std::memcmp(h.magic, kChunkMagic, 8) == 0 &&
                h.version == version_for(n) && h.n == static_cast<uint32_t>(n) &&
                h.s0 == static_cast<uint32_t>(s0) && h.s1 == static_cast<uint32_t>(s1) &&
                h.pairs == pairs &&
                checksum(ebuf.data(), bytes, checksum(pbuf.data(), bytes)) == h.checksum;
      if (ok) {
        size_t k = 0;
        unsigned char* const tp = t.p_bytes();
        unsigned char* const te = t.e_bytes();
        for (int s = s0; s < s1; ++s)
          L.for_each(s, [&](uint32_t a, uint32_t b) {
            const size_t at = (size_t{a} * t.size_ + b) * vb;
            std::memcpy(tp + at, pbuf.data() + k * vb, vb);
            std::memcpy(te + at, ebuf.data() + k * vb, vb);
            ++k;
          });
        loaded = true;
        ++resumed;
      } else if (log) {
        *log << "loom: bear-off chunk " << chunk << " is corrupt; rebuilding it\n";
      }
    }
    if (!loaded) {
      for (int s = s0; s < s1; ++s) B.layer(s, threads);
      size_t k = 0;
      const unsigned char* const tp = t.p_bytes();
      const unsigned char* const te = t.e_bytes();
      for (int s = s0; s < s1; ++s)
        L.for_each(s, [&](uint32_t a, uint32_t b) {
          const size_t at = (size_t{a} * t.size_ + b) * vb;
          std::memcpy(pbuf.data() + k * vb, tp + at, vb);
          std::memcpy(ebuf.data() + k * vb, te + at, vb);
          ++k;
        });
      ChunkHeader h{};
      std::memcpy(h.magic, kChunkMagic, 8);
      h.version = version_for(n);
      h.n = static_cast<uint32_t>(n);
      h.s0 = static_cast<uint32_t>(s0);
      h.s1 = static_cast<uint32_t>(s1);
      h.pairs = pairs;
      h.checksum = checksum(ebuf.data(), bytes, checksum(pbuf.data(), bytes));
      write_file(chunk, &h, sizeof h, {{pbuf.data(), bytes}, {ebuf.data(), bytes}});
      ++written;
      if (stop_after_chunks > 0 && written >= stop_after_chunks) return std::nullopt;
    }
    done += pairs;
    if (tty) {
      char text[160];
      std::snprintf(text, sizeof text, "bear-off N=%d: %5.1f%% of %llu pairs (%d chunks resumed)",
                    n, 100.0 * static_cast<double>(done) / static_cast<double>(t.pairs()),
                    static_cast<unsigned long long>(t.pairs()), resumed);
      line.status(text);
    }
    s0 = s1;
  }
  line.clear_status();
  t.save(file_name(dir, n));
  std::error_code ec;
  fs::remove_all(part, ec);
  return t;
}

std::string default_cache_dir() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return (fs::path(x) / "loom").string();
  if (const char* h = std::getenv("HOME"); h && *h)
    return (fs::path(h) / ".cache" / "loom").string();
  return "loom-cache";
}

namespace {
/// Bytes as decimal gigabytes, one digit after the point.
std::string gb(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(bytes) / 1e9);
  return buf;
}
}  // namespace

const TwoSided& TwoSided::cached(int n, const std::string& dir, std::ostream* log,
                                 std::ostream* tty, int threads, int stop_after_chunks) {
  static std::mutex mu;
  static std::map<std::pair<int, std::string>, std::unique_ptr<TwoSided>> cache;
  std::lock_guard lock(mu);
  auto& slot = cache[{n, dir}];
  if (slot) return *slot;
  if (threads <= 0) threads = std::max(1u, std::min(2u, std::thread::hardware_concurrency()));
  std::string why;
  auto t = load(file_name(dir, n), n, &why);
  // One build at a time: a run that finds another building the table waits
  // for it and loads what it wrote.
  std::optional<solver::CheckpointLock> building;
  if (!t) {
    make_directory(dir, "database directory");
    building.emplace(file_name(dir, n), "bear-off database", solver::CheckpointLock::Busy::kWait,
                     log);
    t = load(file_name(dir, n), n, &why);
  }
  if (!t) {
    std::error_code ec;
    if (fs::exists(file_name(dir, n), ec) && log) *log << "loom: " << why << "; rebuilding\n";
    // A large build says so before it starts, terminal or not: N = 15 takes
    // about 40 CPU minutes and 11.8 GB (the progress line is for terminals).
    const uint32_t homes = Layout(n).size;
    const uint64_t bytes = uint64_t{homes} * homes * 2 * value_bytes(n);
    if (log && bytes >= (uint64_t{256} << 20))
      *log << "loom: building the bear-off database for " << n << " checkers a side in "
           << file_name(dir, n) << " (" << gb(bytes)
           << " GB in memory and on disk); an interrupted build resumes from its finished "
              "chunks\n";
    t = build_resumable(n, dir, threads, log, tty, stop_after_chunks);
    if (!t) throw Interrupted("bear-off build stopped (--stop-after); run again to resume");
  }
  slot = std::make_unique<TwoSided>(std::move(*t));
  return *slot;
}

namespace {
/// Every distinct result of `roll` from the bear-off position p (the
/// opponent's home `opp`), ranked by `opp_value(opp, a)`: the opponent's
/// winning chance, the opponent to move, the mover's home now a.
template <class F>
std::vector<RankedTurn> rank_by(const Position& p, Roll roll, const Options& opt, uint32_t opp,
                                F&& opp_value) {
  TurnGenerator gen(opt);
  std::vector<Child> kids;
  gen.turns(p, roll, kids);
  std::vector<RankedTurn> out;
  for (const Child& c : kids) {
    auto mine = home_of(c.position, p.to_move());
    if (!mine) throw std::logic_error("bear-off turn left home");
    out.push_back({c.position, c.turn, 1.0 - opp_value(opp, home_index(*mine))});
  }
  std::sort(out.begin(), out.end(), [](const RankedTurn& x, const RankedTurn& y) {
    if (x.p_win != y.p_win) return x.p_win > y.p_win;
    return x.position.to_string() < y.position.to_string();
  });
  return out;
}
}  // namespace

std::vector<RankedTurn> rank_roll(const Position& p, Roll roll, const TwoSided& db,
                                  const Options& opt) {
  auto homes = bearoff_homes(p);
  if (!homes || home_checkers(homes->first) > db.n() || home_checkers(homes->second) > db.n())
    throw InputError("position " + p.to_string() +
                     " is not in the bear-off database (N=" + std::to_string(db.n()) + ")");
  return rank_by(p, roll, opt, home_index(homes->second),
                 [&](uint32_t o, uint32_t a) { return db.p_win(o, a); });
}

std::vector<RankedTurn> rank_roll(const Position& p, Roll roll, BearoffRecursion& rec,
                                  const Options& opt) {
  auto homes = bearoff_homes(p);
  if (!homes) throw InputError("position " + p.to_string() + " is not a bear-off position");
  return rank_by(p, roll, opt, home_index(homes->second),
                 [&](uint32_t o, uint32_t a) { return rec.p_win(o, a); });
}

BearoffRecursion::BearoffRecursion(int n, uint32_t a, uint32_t b, uint32_t max_homes) : n_(n) {
  // U: every home a or b can become (a turn's results stay in U).
  const Successors& S = Successors::get();
  index_.assign(kHomePositions, -1);
  std::vector<uint32_t> todo;
  const auto add = [&](uint32_t h) {
    if (index_[h] >= 0) return true;
    if (homes_.size() >= max_homes) return false;
    index_[h] = static_cast<int32_t>(homes_.size());
    homes_.push_back(h);
    todo.push_back(h);
    return true;
  };
  bool fits = add(a) && add(b);
  while (fits && !todo.empty()) {
    const uint32_t h = todo.back();
    todo.pop_back();
    for (int r = 0; r < kRolls && fits; ++r)
      for (uint16_t x : S.of(h, r))
        if (!add(x)) {
          fits = false;
          break;
        }
  }
  if (!fits) {
    homes_.clear();
    index_.clear();
    return;
  }
  memo_.resize(homes_.size() * homes_.size());
  ok_ = true;
}

uint64_t BearoffRecursion::pairs() const {
  return static_cast<uint64_t>(
      std::count_if(memo_.begin(), memo_.end(), [](const PairValue& v) { return v.p >= 0; }));
}

uint32_t BearoffRecursion::local(uint32_t home) const {
  if (!ok_ || home >= index_.size() || index_[home] < 0)
    throw std::logic_error("bear-off recursion: a home outside its reach");
  return static_cast<uint32_t>(index_[home]);
}

PairValue BearoffRecursion::value(uint32_t x, uint32_t y) {
  PairValue& m = memo_[size_t{x} * homes_.size() + y];  // the memo never grows
  if (m.p < 0)
    m = pair_equation(
        homes_[x], homes_[y], [&](uint32_t h) { return home_checkers(home_at(h)) == n_; },
        [&](uint32_t h) { return value(y, static_cast<uint32_t>(index_[h])); });
  return m;
}

}  // namespace loom::nardy::exact
