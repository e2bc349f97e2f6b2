#include "properties/spec/query_util.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace loom::spec {

namespace {
thread_local std::optional<std::chrono::steady_clock::time_point> t_deadline;
}

QueryDeadline::QueryDeadline(double seconds) : previous_(t_deadline) {
  if (seconds > 0)
    t_deadline = std::chrono::steady_clock::now() +
                 std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                     std::chrono::duration<double>(seconds));
  else
    t_deadline.reset();
}

QueryDeadline::~QueryDeadline() {
  t_deadline = previous_;
}

double query_seconds_left() {
  if (!t_deadline) return std::numeric_limits<double>::infinity();
  return std::chrono::duration<double>(*t_deadline - std::chrono::steady_clock::now()).count();
}

bool give_time(z3::solver& s, double own) {
  const double left = std::min(own, query_seconds_left());
  if (left == std::numeric_limits<double>::infinity()) return true;
  if (left <= 0) return false;
  s.set("timeout", static_cast<unsigned>(std::min(left * 1000, 4.0e9)) + 1);
  return true;
}

void limit_time(z3::solver& s, double own) {
  if (!give_time(s, own)) throw QueryTimeout("no answer within the query's time limit");
}

void unknown_answer(const z3::solver& s) {
  if (query_seconds_left() <= 0) throw QueryTimeout("no answer within the query's time limit");
  throw std::runtime_error("Z3 answered unknown: " + s.reason_unknown());
}

Solved solve(z3::context& c, const Encoder& e, const z3::expr& goal,
             const std::optional<z3::expr>& minimise, double budget) {
  z3::solver s(c);
  limit_time(s);
  s.add(e.definitions());
  s.add(goal);
  Solved out;
  z3::check_result r = s.check();
  if (r == z3::unknown) unknown_answer(s);
  if (r == z3::unsat) return out;
  out.sat = true;
  out.model = s.get_model();
  if (!minimise) return out;
  Stopwatch clock;
  int hi = int_of(*out.model, *minimise), lo = 0;  // least value lies in [lo, hi]
  out.best = hi;
  while (lo < hi) {
    // Out of time (the budget or the query's limit): the least value found
    // so far stands.
    if (!give_time(s, budget - clock.seconds())) return out;
    int mid = lo + (hi - lo) / 2;
    s.push();
    s.add(*minimise <= mid);
    z3::check_result t = s.check();
    if (t == z3::sat) {
      out.model = s.get_model();
      hi = int_of(*out.model, *minimise);
      out.best = hi;
    } else if (t == z3::unsat) {
      lo = mid + 1;
    } else {
      s.pop();
      return out;
    }
    s.pop();
  }
  out.proved_min = true;
  return out;
}

HexPicture picture(const HexBoard& b, const Cells& cells, const std::string& caption) {
  HexPicture p;
  p.side = b.side();
  p.caption = caption;
  for (int i = 0; i < b.size(); ++i)
    p.cells.push_back(cells[i] == 1 ? 'X' : cells[i] == 2 ? 'O' : '.');
  return p;
}

Unrolled unroll(Encoder& e, const HexBoard& b, int plies, const PlyFn& ply) {
  Unrolled u{{}, {}, e.yes()};
  HexPosition start;
  for (int i = 0; i < b.size(); ++i) {
    start.own.push_back(e.no());
    start.opp.push_back(e.no());
  }
  u.positions.push_back(start);
  std::vector<HexPosition> afters;
  Exprs legal;
  for (int t = 0; t < plies; ++t) {
    Ply p = ply(e, u.positions.back(), t, afters);
    legal.push_back(p.legal);
    afters.push_back(p.after);
    u.positions.push_back(HexPosition{p.after.opp, p.after.own});  // the other side moves next
    u.plies.push_back(p);
  }
  u.legal = e.all(legal);
  return u;
}

std::optional<Reached> shortest_line(
    z3::context& c, const HexBoard& b, int max_plies, double budget, const PlyFn& ply,
    const std::function<z3::expr(Encoder&, const Unrolled&)>& goal,
    const std::function<void(const Reached&, const z3::model&, const Unrolled&)>& read) {
  Stopwatch clock;
  for (int k = 0; k <= max_plies; ++k) {
    double left = std::min(budget - clock.seconds(), query_seconds_left());
    if (left <= 0) return std::nullopt;
    Encoder e(c);
    Unrolled u = unroll(e, b, k, ply);
    z3::expr g = goal(e, u);
    z3::solver s(c);
    // Building the k-ply formula takes time: the witness found before stands
    // if the limit passes meanwhile (no line, no claim).
    if (!give_time(s, left)) return std::nullopt;
    s.add(e.definitions());
    s.add(u.legal && g);
    const z3::check_result found = s.check();
    if (found == z3::unknown) return std::nullopt;  // out of time: no claim that k is the least
    if (found == z3::unsat) continue;
    z3::model m = s.get_model();
    Reached r;
    r.plies = k;
    for (int t = 0; t < k; ++t) {
      int site = read_site(m, u.plies[t].at);
      r.record.push_back(site < 0 ? "pass" : b.name(site));
    }
    Cells fin = read_cells(m, u.positions[k]);
    r.black_to_move = k % 2 == 0;
    for (int& v : fin)
      if (!r.black_to_move && v) v = 3 - v;  // mover's frame -> Black/White
    r.final_black_white = fin;
    if (read) read(r, m, u);
    r.model = m;
    return r;
  }
  return std::nullopt;
}

HexPicture picture_bw(const HexBoard& b, const Cells& cells, const std::string& caption) {
  HexPicture p;
  p.side = b.side();
  p.caption = caption;
  for (int i = 0; i < b.size(); ++i)
    p.cells.push_back(cells[i] == 1 ? 'X' : cells[i] == 2 ? 'O' : '.');
  return p;
}

std::string record_text(const std::vector<std::string>& record) {
  std::string s;
  for (const auto& t : record) s += (s.empty() ? "" : " ") + t;
  return s.empty() ? "(empty record)" : s;
}

z3::expr stone_count(const Encoder& e, const HexPosition& p) {
  Exprs all = p.own;
  all.insert(all.end(), p.opp.begin(), p.opp.end());
  return e.count(all);
}

}  // namespace loom::spec
