// The few-checker whole-game values computed a second, independent way: the
// naive reference Long Nardy (naive_nardy.h, written from RULES.md and sharing
// no code with model/nardy) enumerates every state with K checkers a side and
// its turns, and plain value iteration (Gauss-Seidel sweeps until no value
// moves by more than 1e-15, no layers and no pass equations) finds the
// values. Every state's p_win and points must equal the few-checker table's
// (solver/nardy/fewcheckers.cpp: the model's turn generator in its mover-frame
// form, layers by pips, forced passes by a pair of linear equations).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "naive_nardy.h"
#include "solver/nardy/fewcheckers.h"

using namespace loom;
using namespace loom::nardy;
using namespace loom::nardy::exact;

namespace {

struct NaiveSolve {
  struct Next {
    uint32_t state;  ///< the child's index, or a terminal marker below
    double p, e;     ///< a terminal child's value for the player to move in it
  };
  static constexpr uint32_t kTerminal = UINT32_MAX;
  std::vector<naive_nardy::Pos> states;
  std::vector<int> pips;
  /// per state, per roll (21, in the order a <= b), its children.
  std::vector<std::vector<std::vector<Next>>> kids;
  std::vector<double> p, e;
  int sweeps = 0;
};

/// Every placement of k checkers of colour c (route indices 0..23, or off).
void placements(int k, int lo, std::vector<int>& routes, std::vector<std::vector<int>>& out) {
  if (static_cast<int>(routes.size()) == k) {
    out.push_back(routes);
    return;
  }
  for (int r = lo; r <= 24; ++r) {
    routes.push_back(r);
    placements(k, r, routes, out);
    routes.pop_back();
  }
}

NaiveSolve naive_solve(int k) {
  namespace nn = naive_nardy;
  nn::Rules rules;
  rules.checkers = k;
  nn::Generator gen(rules);
  std::vector<int> tmp;
  std::vector<std::vector<int>> sides;
  placements(k, 0, tmp, sides);
  NaiveSolve S;
  std::map<nn::Pos, uint32_t> index;
  for (char turn : {'W', 'B'})
    for (const auto& w : sides)
      for (const auto& b : sides) {
        nn::Pos s;
        s.turn = turn;
        bool ok = true;
        int pips = 0;
        for (int r : w)
          if (r < 24) s.pt[nn::point_at('W', r)] += 1, pips += 24 - r;
        for (int r : b) {
          if (r == 24) continue;
          pips += 24 - r;
          int& v = s.pt[nn::point_at('B', r)];
          if (v > 0) ok = false;
          v -= 1;
        }
        if (!ok || nn::value(s, rules).kind != "ongoing") continue;
        index.emplace(s, static_cast<uint32_t>(S.states.size()));
        S.states.push_back(s);
        S.pips.push_back(pips);
      }
  S.kids.resize(S.states.size());
  for (size_t i = 0; i < S.states.size(); ++i) {
    for (int a = 1; a <= 6; ++a)
      for (int b = a; b <= 6; ++b) {
        std::vector<NaiveSolve::Next> next;
        for (const auto& [child, text] : gen.turns(S.states[i], b, a)) {
          nn::Value v = nn::value(child, rules);
          if (v.kind == "ongoing") {
            next.push_back({index.at(child), 0, 0});
          } else {  // the mover just bore off its last checker: the child's mover lost
            next.push_back({NaiveSolve::kTerminal, 0.0, -static_cast<double>(v.points)});
          }
        }
        S.kids[i].push_back(std::move(next));
      }
  }
  // Gauss-Seidel, fewest pips first (any order converges; this one in few
  // sweeps), until a whole sweep moves no value by more than 1e-15.
  std::vector<uint32_t> order(S.states.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<uint32_t>(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t x, uint32_t y) { return S.pips[x] < S.pips[y]; });
  S.p.assign(S.states.size(), 0.0);
  S.e.assign(S.states.size(), 0.0);
  for (double change = 1; change > 1e-15 && S.sweeps < 200; ++S.sweeps) {
    change = 0;
    for (uint32_t i : order) {
      double np = 0, ne = 0;
      int ri = 0;
      for (int a = 1; a <= 6; ++a)
        for (int b = a; b <= 6; ++b, ++ri) {
          const double w = a == b ? 1.0 / 36 : 2.0 / 36;
          double bp = -1, be = -3;
          for (const auto& n : S.kids[i][static_cast<size_t>(ri)]) {
            const double cp = n.state == NaiveSolve::kTerminal ? n.p : S.p[n.state];
            const double ce = n.state == NaiveSolve::kTerminal ? n.e : S.e[n.state];
            bp = std::max(bp, 1 - cp);
            be = std::max(be, -ce);
          }
          np += w * bp;
          ne += w * be;
        }
      change = std::max({change, std::abs(np - S.p[i]), std::abs(ne - S.e[i])});
      S.p[i] = np;
      S.e[i] = ne;
    }
  }
  return S;
}

void check_against_naive(int k) {
  const NaiveSolve S = naive_solve(k);
  INFO("K = " << k << ", " << S.states.size() << " states, " << S.sweeps << " sweeps");
  REQUIRE(S.sweeps < 200);
  Options opt;
  opt.checkers = k;
  const FewCheckers f = FewCheckers::solve(opt, 2);
  // The table holds each state once, in the mover's frame, and counts the
  // 2 (n - 1) ended ones (a side with all n placements' "all off"): the naive
  // list has every unended state with either colour to move.
  const uint64_t n = k == 1 ? 25 : 325;  // C(K + 24, K)
  CHECK(S.states.size() == 2 * (f.states() - 2 * (n - 1)));
  double worst = 0;
  for (size_t i = 0; i < S.states.size(); ++i) {
    const Position pos = Position::parse(naive_nardy::to_string(S.states[i]));
    INFO(naive_nardy::to_string(S.states[i]));
    const double dp = std::abs(*f.p_win(pos) - S.p[i]), de = std::abs(*f.points(pos) - S.e[i]);
    worst = std::max({worst, dp, de});
    REQUIRE(dp < 1e-12);
    REQUIRE(de < 1e-12);
  }
  INFO("largest difference " << worst);
  // The start: White's value is the naive solve's, whichever way it is read.
  const naive_nardy::Pos start = [&] {
    naive_nardy::Pos s;
    s.pt[24] = k;
    s.pt[12] = -k;
    return s;
  }();
  auto it = std::find(S.states.begin(), S.states.end(), start);
  REQUIRE(it != S.states.end());
  const size_t at = static_cast<size_t>(it - S.states.begin());
  CHECK(std::abs(*f.p_win(Position::start(k)) - S.p[at]) < 1e-12);
}

}  // namespace

TEST_CASE("nardy exact: few-checker values equal value iteration over the naive reference, K = 1",
          "[nardy][exact][few][naive]") {
  check_against_naive(1);
}

// 44 s in Release, about 240 s under the sanitizers of the default suite
// (the naive generator's text turns): slow. K = 1 above stays in the default
// run; K = 2 was also matched to 1e-15 by an independent Python solver
// (docs/nardy-exact.md).
TEST_CASE("nardy exact: few-checker values equal value iteration over the naive reference, K = 2",
          "[nardy][exact][few][naive][.slow]") {
  check_against_naive(2);
}
