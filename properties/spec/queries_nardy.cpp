// Long Nardy queries (RULES.md section 6 and 7).
#include <stdexcept>

#include "properties/spec/nardy_spec.h"
#include "properties/spec/query_util.h"

namespace loom::spec {

namespace {

std::string position_string(bool white_to_move, const NardyBoard& b) {
  std::string s = white_to_move ? "W:" : "B:";
  for (int i = 0; i < 24; ++i) s += (i ? "," : "") + std::to_string(b[i]);
  return s;
}

std::string step_token(bool white, int from, int die) {
  int t = nardy_route(white, from) + die;
  return std::to_string(from) + "/" +
         (t >= 24 ? std::string("off") : std::to_string(nardy_point(white, t)));
}

int chosen(const z3::model& m, const Exprs& from) {
  for (int p = 1; p <= 24; ++p)
    if (value_of(m, from[p - 1])) return p;
  return -1;
}

/// Neither side has won: the position is one where a turn is played.
z3::expr in_play(const Encoder& e, const NardyPosition& p, int checkers) {
  return nardy_borne_off(e, p, true, checkers) < checkers &&
         nardy_borne_off(e, p, false, checkers) < checkers;
}

/// A solver that takes an encoder's definitions incrementally.
struct Incremental {
  z3::solver s;
  unsigned added = 0;
  explicit Incremental(z3::context& c) : s(c) {}
  void sync(const Encoder& e) {
    const auto& d = e.definitions();
    for (; added < d.size(); ++added) s.add(d[added]);
  }
};

/// Searches, for the side `white`, a position and roll (a > b) where both dice
/// can be played singly but no sequence plays both, and the smaller die's
/// play differs from every play of the larger: the larger-die rule decides. Exists-forall by
/// counterexample-guided refinement: candidates come from the existential part; each 2-step
/// sequence found at a candidate is forbidden for all positions, until a candidate has none or none
/// remain.
QueryAnswer larger_die_decides(const NardyRules& rules) {
  QueryAnswer a;
  Stopwatch clock;
  int refinements = 0;
  for (bool white : {true, false})
    for (int hi = 6; hi >= 2; --hi)
      for (int lo = hi - 1; lo >= 1; --lo) {
        std::pair<int, int> roll{hi, lo};
        z3::context c;
        Encoder e(c);
        NardyPosition pos = fresh_nardy_position(e, "pos", rules.checkers);
        NardySequence one_hi = encode_nardy_sequence(e, rules, white, roll, {hi}, pos);
        NardySequence one_lo = encode_nardy_sequence(e, rules, white, roll, {lo}, pos);
        // The rule must decide something: no play of the larger die alone
        // gives the position the smaller die gives.
        Exprs differs;
        for (int f = 1; f <= 24; ++f) {
          NardySequence alt = encode_nardy_sequence(e, rules, white, roll, {hi}, pos, {f});
          differs.push_back(!(alt.legal && e.same(alt.final.white, one_lo.final.white) &&
                              e.same(alt.final.black, one_lo.final.black)));
        }
        Incremental cand(c);
        cand.s.add(in_play(e, pos, rules.checkers) && one_hi.legal && one_lo.legal &&
                   e.all(differs));
        for (;;) {
          cand.sync(e);
          limit_time(cand.s);
          z3::check_result r = cand.s.check();
          if (r == z3::unknown) unknown_answer(cand.s);
          if (r == z3::unsat) break;  // no position left for this roll
          z3::model m = cand.s.get_model();
          NardyBoard board = read_nardy(m, pos);
          // Does some 2-step sequence exist at this concrete position?
          bool both = false;
          for (const auto& order : nardy_orders(roll, 2)) {
            Encoder f(c);
            NardyPosition fixed = fresh_nardy_position(f, "fixed", rules.checkers);
            NardySequence seq = encode_nardy_sequence(f, rules, white, roll, order, fixed);
            z3::solver t(c);
            limit_time(t);
            t.add(f.definitions());
            t.add(nardy_equals(f, fixed, board) && seq.legal);
            const z3::check_result tr = t.check();
            if (tr == z3::unknown) unknown_answer(t);
            if (tr != z3::sat) continue;
            z3::model tm = t.get_model();
            std::vector<int> froms{chosen(tm, seq.steps[0].from), chosen(tm, seq.steps[1].from)};
            // Forbid this sequence everywhere: it must be illegal at the answer.
            NardySequence learned = encode_nardy_sequence(e, rules, white, roll, order, pos, froms);
            cand.s.add(!learned.legal);
            ++refinements;
            both = true;
            break;
          }
          if (both) continue;
          a.witness = true;
          a.seconds = clock.seconds();
          int f_hi = chosen(m, one_hi.steps[0].from), f_lo = chosen(m, one_lo.steps[0].from);
          std::string pstr = position_string(white, board);
          a.lines.push_back("position " + pstr + ", roll " + std::to_string(hi) +
                            std::to_string(lo));
          a.lines.push_back(
              std::string(white ? "White" : "Black") + " can play the " + std::to_string(hi) +
              " alone (e.g. " + step_token(white, f_hi, hi) + ") or the " + std::to_string(lo) +
              " alone (e.g. " + step_token(white, f_lo, lo) +
              "); no sequence plays both, and no play of the " + std::to_string(hi) +
              " gives what the " + std::to_string(lo) +
              " gives: the larger-die rule decides (play the " + std::to_string(hi) + ")");
          a.lines.push_back("counterexample-guided search: " + std::to_string(refinements) +
                            " two-step sequences refuted on the way");
          a.facts = {{"position", pstr},
                     {"dice", std::to_string(hi) + std::to_string(lo)},
                     {"larger_alone", step_token(white, f_hi, hi)},
                     {"smaller_alone", step_token(white, f_lo, lo)}};
          return a;
        }
      }
  a.seconds = clock.seconds();
  a.lines.push_back("every roll of both sides searched; " + std::to_string(refinements) +
                    " two-step sequences refuted");
  return a;
}

/// Per end index u of the opponent's route: the mover's run of 6+ ends there.
Exprs runs_ending(const Encoder& e, const NardyPosition& p, bool white) {
  const Exprs& mine = p.side(white);
  Exprs held;
  for (int u = 0; u < 24; ++u) held.push_back(mine[nardy_point(!white, u) - 1] >= 1);
  Exprs out;
  for (int end = 0; end < 24; ++end) {
    if (end < 5) {
      out.push_back(e.no());
      continue;
    }
    Exprs run;
    for (int u = end - 5; u <= end; ++u) run.push_back(held[u]);
    if (end < 23) run.push_back(!held[end + 1]);
    out.push_back(e.all(run));
  }
  return out;
}

QueryAnswer block_one_ahead(const NardyRules& rules) {
  QueryAnswer a;
  Stopwatch clock;
  for (bool white : {true, false})
    for (int die = 1; die <= 6; ++die) {
      z3::context c;
      Encoder e(c);
      NardyPosition pos = fresh_nardy_position(e, "pos", rules.checkers);
      NardyStep step = encode_nardy_step(e, rules, white, die, pos, e.num(0), e.num(1));
      const Exprs& theirs = pos.side(!white);
      Exprs before_runs = runs_ending(e, pos, white),
            after_runs = runs_ending(e, step.after, white);
      Exprs one_ahead;
      for (int end = 5; end < 24; ++end) {
        Exprs beyond;
        for (int u = end + 1; u < 24; ++u) beyond.push_back(theirs[nardy_point(!white, u) - 1]);
        z3::expr n = e.num(0);
        for (const auto& x : beyond) n = n + x;
        one_ahead.push_back(after_runs[end] && n == 1);
      }
      z3::expr goal = in_play(e, pos, rules.checkers) && step.legal &&
                      !nardy_block_violation(e, step.after, white, rules.checkers) &&
                      nardy_borne_off(e, pos, !white, rules.checkers) == 0 && !e.any(before_runs) &&
                      e.any(one_ahead);
      Solved s = solve(c, e, goal);
      if (!s.sat) continue;
      const z3::model& m = *s.model;
      a.witness = true;
      a.seconds = clock.seconds();
      NardyBoard board = read_nardy(m, pos);
      int from = chosen(m, step.from);
      int end = -1;
      for (int u = 5; u < 24; ++u)
        if (value_of(m, after_runs[u])) end = u;
      int start = end;
      NardyBoard after = read_nardy(m, step.after);
      while (start > 0 && after[nardy_point(!white, start - 1) - 1] * (white ? 1 : -1) > 0) --start;
      int ahead = -1;
      for (int u = end + 1; u < 24; ++u)
        if (board[nardy_point(!white, u) - 1] * (white ? -1 : 1) > 0)
          ahead = nardy_point(!white, u);
      std::string pstr = position_string(white, board);
      a.lines.push_back("position " + pstr + ", die " + std::to_string(die));
      a.lines.push_back(
          std::string(white ? "White" : "Black") + " plays " + step_token(white, from, die) +
          " and holds points " + std::to_string(nardy_point(!white, start)) + " to " +
          std::to_string(nardy_point(!white, end)) + " (" + std::to_string(end - start + 1) +
          " in a row along the opponent's route); legal only because the "
          "opposing checker on point " +
          std::to_string(ahead) +
          " is ahead of the block's end (the opponent has "
          "borne off none)");
      a.facts = {{"position", pstr},
                 {"die", std::to_string(die)},
                 {"step", step_token(white, from, die)},
                 {"ahead", std::to_string(ahead)}};
      return a;
    }
  a.seconds = clock.seconds();
  return a;
}

}  // namespace

QueryAnswer nardy_query(const std::string& name, const NardyRules& rules) {
  if (name == "larger-die-decides") return larger_die_decides(rules);
  if (name == "block-one-ahead") return block_one_ahead(rules);
  throw std::invalid_argument("unknown nardy query " + name);
}

}  // namespace loom::spec
