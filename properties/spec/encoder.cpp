#include "properties/spec/encoder.h"

#include <stdexcept>

namespace loom::spec {

z3::expr Encoder::boolean(const std::string& name) {
  return c_.bool_const((prefix_ + name + "#" + std::to_string(serial_++)).c_str());
}

z3::expr Encoder::integer(const std::string& name) {
  return c_.int_const((prefix_ + name + "#" + std::to_string(serial_++)).c_str());
}

Exprs Encoder::booleans(const std::string& name, int n) {
  Exprs out;
  for (int i = 0; i < n; ++i) out.push_back(boolean(name + "_" + std::to_string(i)));
  return out;
}

Exprs Encoder::integers(const std::string& name, int n) {
  Exprs out;
  for (int i = 0; i < n; ++i) out.push_back(integer(name + "_" + std::to_string(i)));
  return out;
}

z3::expr Encoder::name(const std::string& n, const z3::expr& e) {
  z3::expr v = boolean(n);
  require(v == e);
  return v;
}

z3::expr Encoder::name_int(const std::string& n, const z3::expr& e) {
  z3::expr v = integer(n);
  require(v == e);
  return v;
}

z3::expr Encoder::all(const Exprs& xs) const {
  if (xs.empty()) return yes();
  if (xs.size() == 1) return xs[0];
  z3::expr_vector v(c_);
  for (const auto& x : xs) v.push_back(x);
  return z3::mk_and(v);
}

z3::expr Encoder::any(const Exprs& xs) const {
  if (xs.empty()) return no();
  if (xs.size() == 1) return xs[0];
  z3::expr_vector v(c_);
  for (const auto& x : xs) v.push_back(x);
  return z3::mk_or(v);
}

z3::expr Encoder::count(const Exprs& xs) const {
  if (xs.empty()) return num(0);
  z3::expr_vector v(c_);
  for (const auto& x : xs) v.push_back(z3::ite(x, num(1), num(0)));
  return z3::sum(v);
}

z3::expr Encoder::exactly_one(const Exprs& xs) const {
  if (xs.empty()) return no();
  z3::expr_vector v(c_);
  for (const auto& x : xs) v.push_back(x);
  return z3::atleast(v, 1) && z3::atmost(v, 1);
}

z3::expr Encoder::at_most_one(const Exprs& xs) const {
  if (xs.size() <= 1) return yes();
  z3::expr_vector v(c_);
  for (const auto& x : xs) v.push_back(x);
  return z3::atmost(v, 1);
}

z3::expr Encoder::same(const Exprs& xs, const Exprs& ys) const {
  if (xs.size() != ys.size()) throw std::logic_error("Encoder::same: sizes differ");
  Exprs eq;
  for (size_t i = 0; i < xs.size(); ++i) eq.push_back(xs[i] == ys[i]);
  return all(eq);
}

Exprs Encoder::least_fixed_point(const std::string& name, const Exprs& allowed, const Exprs& base,
                                 const std::vector<std::vector<Support>>& supports) {
  const int n = static_cast<int>(allowed.size());
  if (mode_ == Fixpoint::kUnrolled) {
    Exprs cur;
    for (int i = 0; i < n; ++i) cur.push_back(allowed[i] && base[i]);
    for (int round = 1; round < n; ++round) {
      Exprs next;
      for (int i = 0; i < n; ++i) {
        Exprs step{cur[i]};
        for (const auto& s : supports[i]) step.push_back(s.cond && cur[s.from]);
        next.push_back(allowed[i] && any(step));
      }
      cur = std::move(next);
    }
    Exprs out;
    for (int i = 0; i < n; ++i) out.push_back(this->name(name + "_" + std::to_string(i), cur[i]));
    return out;
  }
  Exprs in = booleans(name, n);
  Exprs rank;
  if (mode_ == Fixpoint::kBitLevels) {
    unsigned bits = 1;
    while ((1 << bits) < n) ++bits;
    for (int i = 0; i < n; ++i)
      rank.push_back(c_.bv_const(
          (prefix_ + name + "_rank_" + std::to_string(i) + "#" + std::to_string(serial_++)).c_str(),
          bits));
  } else {
    rank = integers(name + "_rank", n);
  }
  for (int i = 0; i < n; ++i) {
    Exprs step{base[i]}, ranked{base[i]};
    for (const auto& s : supports[i]) {
      step.push_back(s.cond && in[s.from]);
      z3::expr lower =
          mode_ == Fixpoint::kBitLevels ? z3::ult(rank[s.from], rank[i]) : rank[s.from] < rank[i];
      ranked.push_back(s.cond && in[s.from] && lower);
    }
    // Fixed point: i is in exactly when the one-step rule puts it in.
    require(in[i] == (allowed[i] && any(step)));
    // Well-founded: a member rests on a base or on a member of lower rank.
    require(z3::implies(in[i], any(ranked)));
  }
  return in;
}

bool value_of(const z3::model& m, const z3::expr& e) {
  return m.eval(e, true).is_true();
}

int int_of(const z3::model& m, const z3::expr& e) {
  return m.eval(e, true).get_numeral_int();
}

}  // namespace loom::spec
