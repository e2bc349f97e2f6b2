// Small vocabulary for writing rules as Z3 formulas (Z3 4.8.12 C++ API).
//
// An Encoder collects "definitions": constraints that tie auxiliary variables
// (groups, lifelines, ranks) to the position variables. Every definition has
// exactly one solution for given inputs, so a formula built here behaves like
// a function of its inputs; the rule encodings rely on that when they claim
// the position after a move is unique.
#pragma once

#include <z3++.h>

#include <string>
#include <utility>
#include <vector>

namespace loom::spec {

using Exprs = std::vector<z3::expr>;

/// Two equivalent ways to state a least fixed point (see least_fixed_point).
enum class Fixpoint {
  kLevels,     ///< a fixed point plus an integer level function (compact; good for search)
  kBitLevels,  ///< the same with levels as bit-vectors (all-Boolean after bit-blasting;
               ///< best for the UNSAT proofs over symbolic positions)
  kUnrolled,   ///< N rounds of the monotone step from the empty set (pure Boolean;
               ///< with the inputs fixed, unit propagation alone decides it)
};

class Encoder {
 public:
  explicit Encoder(z3::context& c, Fixpoint mode = Fixpoint::kLevels, std::string prefix = "")
      : c_(c), mode_(mode), prefix_(std::move(prefix)), defs_(c) {}

  z3::context& ctx() const { return c_; }
  Fixpoint mode() const { return mode_; }
  z3::expr yes() const { return c_.bool_val(true); }
  z3::expr no() const { return c_.bool_val(false); }
  z3::expr num(int v) const { return c_.int_val(v); }

  /// Fresh variables; names get the encoder's prefix and a serial number.
  z3::expr boolean(const std::string& name);
  z3::expr integer(const std::string& name);
  Exprs booleans(const std::string& name, int n);
  Exprs integers(const std::string& name, int n);

  /// Adds a constraint to the definitions.
  void require(const z3::expr& e) { defs_.push_back(e); }
  const z3::expr_vector& definitions() const { return defs_; }
  /// A fresh Boolean defined equal to e (so a model can report its value).
  z3::expr name(const std::string& name, const z3::expr& e);
  z3::expr name_int(const std::string& name, const z3::expr& e);

  z3::expr all(const Exprs& xs) const;
  z3::expr any(const Exprs& xs) const;
  /// Number of true formulas among xs (an Int term).
  z3::expr count(const Exprs& xs) const;
  z3::expr exactly_one(const Exprs& xs) const;
  z3::expr at_most_one(const Exprs& xs) const;
  /// xs and ys (same length) hold the same values.
  z3::expr same(const Exprs& xs, const Exprs& ys) const;

  /// "Site i is supported by site `from` while `cond` holds."
  struct Support {
    int from;
    z3::expr cond;
  };
  /// The least set L with: allowed[i] and (base[i] or some support (j, cond)
  /// with cond and L[j]) implies L[i]; i.e. the least fixed point of that
  /// monotone step, restricted to `allowed`. Stated declaratively: L is a
  /// fixed point, and every member has a support of strictly smaller rank
  /// (an integer level function), so no cycle of mutual support without a
  /// base can sustain itself (a ring with no route out stays outside L).
  /// In Fixpoint::kUnrolled mode: L is the N-th iterate of the step from the
  /// empty set (N = number of sites; a support chain visits each site once).
  Exprs least_fixed_point(const std::string& name, const Exprs& allowed, const Exprs& base,
                          const std::vector<std::vector<Support>>& supports);

 private:
  z3::context& c_;
  Fixpoint mode_;
  std::string prefix_;
  z3::expr_vector defs_;
  int serial_ = 0;
};

/// Value of a Boolean term in a model (model completion on).
bool value_of(const z3::model& m, const z3::expr& e);
/// Value of an Int term in a model.
int int_of(const z3::model& m, const z3::expr& e);

}  // namespace loom::spec
