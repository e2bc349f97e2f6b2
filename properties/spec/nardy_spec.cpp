#include "properties/spec/nardy_spec.h"

#include <algorithm>
#include <stdexcept>

namespace loom::spec {

int nardy_route(bool white, int p) {
  return white ? 24 - p : ((12 - p) % 24 + 24) % 24;
}

int nardy_point(bool white, int t) {
  if (white) return 24 - t;
  return t <= 11 ? 12 - t : 36 - t;
}

namespace {

z3::expr sum_of(const Encoder& e, const Exprs& xs) {
  z3::expr s = e.num(0);
  for (const auto& x : xs) s = s + x;
  return s;
}

}  // namespace

NardyPosition fresh_nardy_position(Encoder& e, const std::string& name, int checkers) {
  NardyPosition p{e.integers(name + "_w", 24), e.integers(name + "_b", 24)};
  for (int i = 0; i < 24; ++i) {
    e.require(p.white[i] >= 0 && p.black[i] >= 0);
    e.require(p.white[i] == 0 || p.black[i] == 0);
  }
  for (bool w : {true, false}) {
    e.require(sum_of(e, p.side(w)) <= checkers);
    Exprs outside;
    for (int pt = 1; pt <= 24; ++pt)
      if (nardy_route(w, pt) < 18) outside.push_back(p.side(w)[pt - 1] == 0);
    e.require(z3::implies(nardy_borne_off(e, p, w, checkers) > 0, e.all(outside)));
  }
  return p;
}

z3::expr nardy_equals(const Encoder& e, const NardyPosition& p, const NardyBoard& b) {
  Exprs eq;
  for (int i = 0; i < 24; ++i) {
    eq.push_back(p.white[i] == e.num(std::max(b[i], 0)));
    eq.push_back(p.black[i] == e.num(std::max(-b[i], 0)));
  }
  return e.all(eq);
}

NardyBoard read_nardy(const z3::model& m, const NardyPosition& p) {
  NardyBoard b(24);
  for (int i = 0; i < 24; ++i) b[i] = int_of(m, p.white[i]) - int_of(m, p.black[i]);
  return b;
}

z3::expr nardy_borne_off(const Encoder& e, const NardyPosition& p, bool white, int checkers) {
  return e.num(checkers) - sum_of(e, p.side(white));
}

z3::expr nardy_block_violation(const Encoder& e, const NardyPosition& p, bool white, int checkers) {
  const Exprs& mine = p.side(white);
  const Exprs& theirs = p.side(!white);
  // held[u]: the mover holds the point at index u of the OPPONENT's route.
  Exprs held;
  for (int u = 0; u < 24; ++u) held.push_back(mine[nardy_point(!white, u) - 1] >= 1);
  Exprs runs;
  for (int end = 5; end < 24; ++end) {
    Exprs run;
    for (int u = end - 5; u <= end; ++u) run.push_back(held[u]);
    if (end < 23) run.push_back(!held[end + 1]);  // the run ends here
    for (int u = end + 1; u < 24; ++u) run.push_back(theirs[nardy_point(!white, u) - 1] == 0);
    runs.push_back(e.all(run));
  }
  return nardy_borne_off(e, p, !white, checkers) == 0 && e.any(runs);
}

NardyStep encode_nardy_step(Encoder& e, const NardyRules& rules, bool white, int die,
                            const NardyPosition& before, const z3::expr& head_left,
                            const z3::expr& head_limit, int from) {
  const Exprs& mine = before.side(white);
  const Exprs& theirs = before.side(!white);
  Exprs fr;
  if (from >= 1) {
    for (int p = 1; p <= 24; ++p) fr.push_back(e.ctx().bool_val(p == from));
  } else {
    fr = e.booleans(white ? "ln_wfrom" : "ln_bfrom", 24);
    e.require(e.exactly_one(fr));
  }
  // Bearing off is allowed only with every checker home (before the step).
  Exprs outside;
  for (int p = 1; p <= 24; ++p)
    if (nardy_route(white, p) < 18) outside.push_back(mine[p - 1] == 0);
  z3::expr all_home = e.all(outside);

  Exprs ok_from, head_from, off_from;
  std::vector<Exprs> arrive(24);
  for (int p = 1; p <= 24; ++p) {
    const int t = nardy_route(white, p) + die;
    Exprs ok{mine[p - 1] >= 1};
    if (t <= 23) {
      const int q = nardy_point(white, t);
      ok.push_back(theirs[q - 1] == 0);  // no landing on an opposing checker
      arrive[q - 1].push_back(fr[p - 1]);
      off_from.push_back(e.no());
    } else {
      ok.push_back(all_home);
      if (t > 24) {  // a larger die: only from the farthest occupied point
        Exprs farther;
        for (int x = 1; x <= 24; ++x)
          if (nardy_route(white, x) < nardy_route(white, p)) farther.push_back(mine[x - 1] == 0);
        ok.push_back(e.all(farther));
      }
      off_from.push_back(fr[p - 1]);
    }
    const bool head = nardy_route(white, p) == 0;
    if (head) ok.push_back(head_left < head_limit);
    head_from.push_back(head ? fr[p - 1] : e.no());
    ok_from.push_back(z3::implies(fr[p - 1], e.all(ok)));
  }
  NardyPosition after;
  for (int i = 0; i < 24; ++i) {
    z3::expr m = mine[i] - z3::ite(fr[i], e.num(1), e.num(0));
    for (const auto& a : arrive[i]) m = m + z3::ite(a, e.num(1), e.num(0));
    (white ? after.white : after.black).push_back(m);
    (white ? after.black : after.white).push_back(theirs[i]);
  }
  z3::expr legal = e.all(ok_from);
  if (!rules.block_end_of_turn)
    legal = legal && !nardy_block_violation(e, after, white, rules.checkers);
  return NardyStep{after, fr, legal, e.any(head_from), e.any(off_from)};
}

NardySequence encode_nardy_sequence(Encoder& e, const NardyRules& rules, bool white,
                                    std::pair<int, int> roll, const std::vector<int>& dice,
                                    const NardyPosition& before, const std::vector<int>& froms) {
  // The first-turn exception: all 15 (checkers=K: all K) on the head, and
  // 6-6, 4-4 or 3-3.
  const int head_point = nardy_point(white, 0);
  const bool special =
      roll.first == roll.second && (roll.first == 6 || roll.first == 4 || roll.first == 3);
  z3::expr limit =
      special ? z3::ite(before.side(white)[head_point - 1] == rules.checkers, e.num(2), e.num(1))
              : e.num(1);
  NardySequence seq{{}, before, e.yes()};
  z3::expr head_left = e.num(0);
  Exprs legal;
  for (size_t k = 0; k < dice.size(); ++k) {
    int from = k < froms.size() ? froms[k] : -1;
    NardyStep s = encode_nardy_step(e, rules, white, dice[k], seq.final, head_left, limit, from);
    head_left = head_left + z3::ite(s.from_head, e.num(1), e.num(0));
    legal.push_back(s.legal);
    seq.final = s.after;
    seq.steps.push_back(s);
  }
  if (rules.block_end_of_turn)
    legal.push_back(!nardy_block_violation(e, seq.final, white, rules.checkers));
  seq.legal = e.all(legal);
  return seq;
}

std::vector<std::vector<int>> nardy_orders(std::pair<int, int> roll, int count) {
  auto [a, b] = roll;
  if (a == b) return {std::vector<int>(count, a)};
  if (count == 2) return {{a, b}, {b, a}};
  if (count == 1) return {{a}, {b}};
  return {{}};
}

NardyPosition nardy_constant(const Encoder& e, const NardyBoard& b) {
  NardyPosition p;
  for (int i = 0; i < 24; ++i) {
    p.white.push_back(e.num(std::max(b[i], 0)));
    p.black.push_back(e.num(std::max(-b[i], 0)));
  }
  return p;
}

NardyOrders nardy_allowed_orders(const NardyRules& rules, bool white, const NardyBoard& board,
                                 std::pair<int, int> roll) {
  if (board.size() != 24) throw std::invalid_argument("nardy board needs 24 points");
  z3::context c;
  NardyOrders out;
  // Whether some sequence of these dice, in this order, is legal.
  auto playable = [&](const std::vector<int>& dice) {
    Encoder e(c);
    NardySequence s = encode_nardy_sequence(e, rules, white, roll, dice, nardy_constant(e, board));
    z3::solver sv(c);
    sv.add(e.definitions());
    sv.add(s.legal);
    ++out.solver_checks;
    return sv.check() == z3::sat;
  };
  const int most = roll.first == roll.second ? 4 : 2;
  for (int count = most; count >= 1 && out.orders.empty(); --count) {
    for (const auto& order : nardy_orders(roll, count))
      if (playable(order)) out.orders.push_back(order);
    if (!out.orders.empty()) out.dice_played = count;
  }
  // Only one die of a non-double can be played: the larger, if it can be.
  if (out.dice_played == 1 && out.orders.size() == 2)
    out.orders = {{std::max(roll.first, roll.second)}};
  return out;
}

NardyTurnResult nardy_turn_results(const NardyRules& rules, bool white, const NardyBoard& board,
                                   std::pair<int, int> roll) {
  NardyOrders allowed = nardy_allowed_orders(rules, white, board, roll);
  NardyTurnResult out;
  out.dice_played = allowed.dice_played;
  out.orders = allowed.orders;
  out.solver_checks = allowed.solver_checks;
  z3::context c;
  if (out.dice_played == 0) {
    out.results.push_back(board);
    return out;
  }
  for (const auto& order : out.orders) {
    Encoder e(c);
    NardySequence s = encode_nardy_sequence(e, rules, white, roll, order, nardy_constant(e, board));
    z3::solver sv(c);
    sv.add(e.definitions());
    sv.add(s.legal);
    for (;;) {
      ++out.solver_checks;
      if (sv.check() != z3::sat) break;
      NardyBoard r = read_nardy(sv.get_model(), s.final);
      out.results.push_back(r);
      sv.add(!nardy_equals(e, s.final, r));
    }
  }
  std::sort(out.results.begin(), out.results.end());
  out.results.erase(std::unique(out.results.begin(), out.results.end()), out.results.end());
  return out;
}

}  // namespace loom::spec
