#include "solver/nardy/fewcheckers.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

#include "model/common/errors.h"

namespace loom::nardy::exact {

namespace {

constexpr int kSlots = 25;  // route 0..23, 24 = borne off

uint64_t binom(int n, int k) {
  if (k < 0 || n < k) return 0;
  uint64_t r = 1;
  for (int i = 1; i <= k; ++i) r = r * static_cast<uint64_t>(n - k + i) / static_cast<uint64_t>(i);
  return r;
}

/// A side: its K checkers' route indices, ascending (24 = off).
using Config = std::array<uint8_t, FewCheckers::kMaxK>;

/// Colex rank of the multiset (x_j = r_j + j strictly increasing).
uint32_t config_rank(const Config& c, int k) {
  k = std::clamp(k, 0, FewCheckers::kMaxK);
  uint64_t r = 0;
  for (int j = 0; j < k; ++j) r += binom(c[static_cast<size_t>(j)] + j, j + 1);
  return static_cast<uint32_t>(r);
}

/// Colour c's config in p (c's route frame); nullopt if c has more than k.
std::optional<uint32_t> config_of(const Position& p, Color c, int k) {
  if (k < 1 || k > FewCheckers::kMaxK) return std::nullopt;
  Config x{};
  int n = 0;
  for (int r = 0; r < kPoints; ++r) {
    int m = p.count(c, point_of(c, r));
    for (int i = 0; i < m; ++i) {
      if (n == k) return std::nullopt;
      x[static_cast<size_t>(n++)] = static_cast<uint8_t>(r);
    }
  }
  while (n < k) x[static_cast<size_t>(n++)] = 24;
  return config_rank(x, k);
}

struct Configs {
  int k = 0;
  std::vector<Config> list;
  std::vector<int> pips;
  std::vector<uint8_t> full;  ///< none borne off
  std::vector<uint8_t> done;  ///< all borne off

  explicit Configs(int k_) : k(std::clamp(k_, 1, FewCheckers::kMaxK)) {
    list.resize(binom(k + kSlots - 1, k));
    Config c{};
    enumerate(c, 0, 0);
    pips.resize(list.size());
    full.resize(list.size());
    done.resize(list.size());
    for (size_t i = 0; i < list.size(); ++i) {
      int p = 0, on = 0;
      for (int j = 0; j < k; ++j) {
        p += 24 - list[i][static_cast<size_t>(j)];
        on += list[i][static_cast<size_t>(j)] < 24;
      }
      pips[i] = p;
      full[i] = on == k;
      done[i] = on == 0;
    }
  }
  void enumerate(Config& c, int j, int lo) {
    if (j >= k || j >= FewCheckers::kMaxK) {
      list[rank(c)] = c;
      return;
    }
    for (int r = lo; r < kSlots; ++r) {
      c[static_cast<size_t>(j)] = static_cast<uint8_t>(r);
      enumerate(c, j + 1, r);
    }
  }
  uint32_t rank(const Config& c) const { return config_rank(c, k); }
  std::optional<uint32_t> of(const Position& p, Color c) const { return config_of(p, c, k); }
};

/// White = mover with config m, Black = opponent with config o, White to move.
Position make_position(const Config& m, const Config& o, int k) {
  k = std::clamp(k, 0, FewCheckers::kMaxK);
  Position p;
  for (int j = 0; j < k; ++j) {
    if (m[static_cast<size_t>(j)] < 24) {
      int pt = point_of(Color::kWhite, m[static_cast<size_t>(j)]);
      p.set(pt, p.at(pt) + 1);
    }
    if (o[static_cast<size_t>(j)] < 24) {
      int pt = point_of(Color::kBlack, o[static_cast<size_t>(j)]);
      p.set(pt, p.at(pt) - 1);
    }
  }
  p.set_to_move(Color::kWhite);
  return p;
}

bool legal_pair(const Config& m, const Config& o, int k) {
  k = std::clamp(k, 0, FewCheckers::kMaxK);
  for (int i = 0; i < k; ++i) {
    if (m[static_cast<size_t>(i)] >= 24) continue;
    int pm = point_of(Color::kWhite, m[static_cast<size_t>(i)]);
    for (int j = 0; j < k; ++j)
      if (o[static_cast<size_t>(j)] < 24 &&
          point_of(Color::kBlack, o[static_cast<size_t>(j)]) == pm)
        return false;
  }
  return true;
}

}  // namespace

FewCheckers FewCheckers::solve(const Options& opt, int threads) {
  const int k = opt.checkers;
  if (k < 1 || k > kMaxK)
    throw InputError(
        "Long Nardy is a dice game: the whole game is solved exactly for checkers=1.." +
        std::to_string(kMaxK) + " (checkers=" + std::to_string(k) +
        " has C(K+24,K)^2 states; see docs/nardy-exact.md)");
  if (opt.last_roll) throw InputError("the few-checker solver does not handle end=last-roll");
  auto t0 = std::chrono::steady_clock::now();
  FewCheckers f;
  f.opt_ = opt;
  const Configs C(k);
  const size_t n = C.list.size();
  f.configs_ = n;
  f.p_.assign(n * n, 0.0);
  f.e_.assign(n * n, 0.0);
  std::vector<uint8_t> legal(n * n, 0);
  int max_pips = 24 * k;
  std::vector<std::vector<uint32_t>> layer(static_cast<size_t>(2 * max_pips) + 1);
  for (size_t a = 0; a < n; ++a)
    for (size_t b = 0; b < n; ++b) {
      if (!legal_pair(C.list[a], C.list[b], k)) continue;
      if (C.done[a] && C.done[b]) continue;
      legal[a * n + b] = 1;
      ++f.states_;
      const size_t at = a * n + b;
      if (C.done[b]) {  // the opponent bore off all: the mover lost
        f.p_[at] = 0;
        f.e_[at] = -(C.full[a] ? 2.0 : 1.0);
      } else if (C.done[a]) {  // not a real turn: the mover has won
        f.p_[at] = 1;
        f.e_[at] = C.full[b] ? 2.0 : 1.0;
      } else {
        layer[static_cast<size_t>(C.pips[a] + C.pips[b])].push_back(static_cast<uint32_t>(at));
      }
    }
  // Per state of a layer: X (moving rolls' p), Y (their points), q (pass).
  std::vector<double> X, Y, Q;
  std::atomic<uint64_t> calls{0};
  for (auto& states : layer) {
    if (states.empty()) continue;
    X.assign(states.size(), 0);
    Y.assign(states.size(), 0);
    Q.assign(states.size(), 0);
    std::atomic<size_t> next{0};
    auto run = [&] {
      TurnGenerator gen(opt);
      std::vector<Position> kids;
      uint64_t my_calls = 0;
      for (;;) {
        size_t i0 = next.fetch_add(64);
        if (i0 >= states.size()) break;
        for (size_t i = i0; i < std::min(states.size(), i0 + 64); ++i) {
          const size_t a = states[i] / n, b = states[i] % n;
          Position pos = make_position(C.list[a], C.list[b], k);
          double x = 0, y = 0, q = 0;
          for (const Roll& r : all_rolls()) {
            gen.positions(pos, r, kids);
            ++my_calls;
            const double w = r.probability();
            double bp = -1, be = -3;
            bool pass = false;
            for (const Position& c : kids) {
              uint32_t a2 = *C.of(c, Color::kWhite);
              if (a2 == a) {  // the turn passed (no legal step)
                pass = true;
                break;
              }
              const size_t nx = b * n + a2;
              bp = std::max(bp, 1.0 - f.p_[nx]);
              be = std::max(be, -f.e_[nx]);
            }
            if (pass)
              q += w;
            else {
              x += w * bp;
              y += w * be;
            }
          }
          X[i] = x;
          Y[i] = y;
          Q[i] = q;
        }
      }
      calls += my_calls;
    };
    if (threads > 1 && states.size() > 256) {
      std::vector<std::thread> pool;
      for (int t = 1; t < threads; ++t) pool.emplace_back(run);
      run();
      for (auto& th : pool) th.join();
    } else {
      run();
    }
    // The partner (b, a) of (a, b) is in the same layer: find it by a
    // position lookup in this layer's list (sorted by state index).
    std::vector<std::pair<uint32_t, uint32_t>> where(states.size());
    for (size_t i = 0; i < states.size(); ++i) where[i] = {states[i], static_cast<uint32_t>(i)};
    std::sort(where.begin(), where.end());
    auto find = [&](size_t st) -> size_t {
      auto it = std::lower_bound(where.begin(), where.end(),
                                 std::make_pair(static_cast<uint32_t>(st), uint32_t{0}));
      return it->second;
    };
    for (size_t i = 0; i < states.size(); ++i) {
      const size_t a = states[i] / n, b = states[i] % n;
      const double q = Q[i];
      if (q == 0) {
        f.p_[states[i]] = X[i];
        f.e_[states[i]] = Y[i];
        continue;
      }
      ++f.pass_couples_;
      if (a == b) {  // its own partner: P = X + q (1 - P), E = Y - q E
        f.p_[states[i]] = (X[i] + q) / (1 + q);
        f.e_[states[i]] = Y[i] / (1 + q);
        continue;
      }
      const size_t j = find(b * n + a);
      const double q2 = Q[j];
      const double det = 1 - q * q2;
      if (det <= 1e-12) {  // both sides pass on every roll: the game never ends
        ++f.endless_;
        f.p_[states[i]] = 0;
        f.e_[states[i]] = 0;
        continue;
      }
      f.p_[states[i]] = (X[i] + q * (1 - X[j] - q2)) / det;
      f.e_[states[i]] = (Y[i] - q * Y[j]) / det;
    }
  }
  f.calls_ = calls;
  f.seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return f;
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
  return p_[*i];
}

std::optional<double> FewCheckers::points(const Position& p) const {
  auto i = index(p);
  if (!i) return std::nullopt;
  return e_[*i];
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
