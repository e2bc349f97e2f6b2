// Cross-check helpers: the Z3 specification (properties/spec) against a
// model, one position at a time. This is the only place where the two meet.
//
// For a position and every candidate site, the oracle asks Z3 (with the
// position and the site fixed) whether the specification allows the move. If
// the model says illegal, "legal" must be UNSAT. If the model says legal,
// "legal" must be SAT, the position after the move read from Z3's model must
// equal the model's, and "legal and the position after differs from the
// model's" must be UNSAT: the model's result is the only one the spec allows.
#pragma once

#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app/registry.h"
#include "properties/spec/hex_position.h"
#include "properties/spec/queries.h"

namespace loom::testing {

/// Tallies printed at the end of a test case (reported in docs/verification.md).
struct CrossCheckStats {
  std::string label;
  long positions = 0, candidates = 0, legal = 0, illegal = 0, solver_checks = 0;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  explicit CrossCheckStats(std::string l) : label(std::move(l)) {}
  ~CrossCheckStats() {
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::ostringstream o;
    o << "[cross-check] " << label << ": " << positions << " positions, " << candidates
      << " candidate moves (" << legal << " legal, " << illegal << " illegal), " << solver_checks
      << " solver checks, " << s << " s";
    std::cout << o.str() << std::endl;
  }
};

/// Builds the spec's one-move relation for a hex placement game.
struct HexRelation {
  spec::HexPosition before, after;
  spec::Exprs at;
  z3::expr legal;
  spec::Exprs observables;  ///< extra terms compared with the model (Bool or Int)
};

/// The model's view of one candidate: nullopt if illegal, else the position
/// after (mover's frame) and the observables' expected values.
struct ModelResult {
  spec::Cells after;
  std::vector<int> observables;
};

inline std::string cells_text(const spec::HexBoard& b, const spec::Cells& c) {
  std::string s;
  for (int i = 0; i < b.size(); ++i)
    if (c[i]) s += b.name(i) + (c[i] == 1 ? "=own " : "=opp ");
  return s.empty() ? "(empty)" : s;
}

/// One solver holding a relation, reused across positions (push/pop).
class HexOracle {
 public:
  using Build = std::function<HexRelation(spec::Encoder&, const spec::HexBoard&)>;
  HexOracle(int side, const Build& build, spec::Fixpoint mode = spec::Fixpoint::kLevels)
      : board_(side), solver_(ctx_), enc_(ctx_, mode), rel_(build(enc_, board_)) {
    solver_.add(enc_.definitions());
  }
  const spec::HexBoard& board() const { return board_; }

  /// Checks every site of `before`; model(site) gives the model's answer.
  /// Returns "" or a description of the first disagreement.
  ///
  /// One solver call decides the whole position: the disagreement query
  /// "some site where the model says illegal and the spec allows the move,
  /// or the model says legal and the spec forbids it or allows any other
  /// result" must be UNSAT. Only when it is SAT are the sites checked one by
  /// one, to name the first disagreement.
  std::string check(const spec::Cells& before,
                    const std::function<std::optional<ModelResult>(int)>& model,
                    CrossCheckStats& stats) {
    ++stats.positions;
    std::vector<std::optional<ModelResult>> answers;
    spec::Exprs disagree;
    for (int site = 0; site < board_.size(); ++site) {
      answers.push_back(model(site));
      ++stats.candidates;
      const auto& want = answers.back();
      if (!want) {
        ++stats.illegal;
        disagree.push_back(rel_.at[site] && rel_.legal);
      } else {
        ++stats.legal;
        spec::Exprs same{rel_.legal, spec::equals(enc_, rel_.after, want->after)};
        for (size_t k = 0; k < rel_.observables.size(); ++k)
          same.push_back(constant_equals(rel_.observables[k], want->observables[k]));
        disagree.push_back(rel_.at[site] && !enc_.all(same));
      }
    }
    solver_.push();
    solver_.add(spec::equals(enc_, rel_.before, before));
    solver_.add(enc_.any(disagree));
    ++stats.solver_checks;
    z3::check_result r = solver_.check();
    solver_.pop();
    if (r == z3::unsat) return "";
    std::string err = diagnose(before, answers, stats);
    return err.empty() ? "position " + cells_text(board_, before) +
                             ": the disagreement query is not UNSAT (" +
                             (r == z3::sat ? "sat" : "unknown") + ")"
                       : err;
  }

  /// Site-by-site checks (used to explain a disagreement).
  std::string diagnose(const spec::Cells& before,
                       const std::vector<std::optional<ModelResult>>& answers,
                       CrossCheckStats& stats) {
    std::string err;
    solver_.push();
    solver_.add(spec::equals(enc_, rel_.before, before));
    for (int site = 0; site < board_.size() && err.empty(); ++site) {
      const auto& want = answers[site];
      solver_.push();
      solver_.add(rel_.at[site]);
      solver_.add(rel_.legal);
      ++stats.solver_checks;
      z3::check_result r = solver_.check();
      std::string where = "position " + cells_text(board_, before) + " move " + board_.name(site);
      if (!want) {
        if (r != z3::unsat) err = where + ": model says illegal, spec allows it";
      } else if (r != z3::sat) {
        err = where + ": model says legal, spec forbids it";
      } else {
        z3::model m = solver_.get_model();
        spec::Cells got = spec::read_cells(m, rel_.after);
        if (got != want->after)
          err = where + ": after the move the model has " + cells_text(board_, want->after) +
                " but the spec has " + cells_text(board_, got);
        for (size_t k = 0; k < rel_.observables.size() && err.empty(); ++k) {
          z3::expr v = m.eval(rel_.observables[k], true);
          int got_v = v.is_bool() ? v.is_true() : v.get_numeral_int();
          if (got_v != want->observables[k])
            err = where + ": observable " + std::to_string(k) + " is " +
                  std::to_string(want->observables[k]) + " in the model, " + std::to_string(got_v) +
                  " in the spec";
        }
        if (err.empty()) {
          solver_.add(!spec::equals(enc_, rel_.after, want->after));
          ++stats.solver_checks;
          if (solver_.check() != z3::unsat)
            err = where + ": the spec also allows a different position after the move";
        }
      }
      solver_.pop();
    }
    solver_.pop();
    return err;
  }

 private:
  z3::expr constant_equals(const z3::expr& term, int value) const {
    return term.is_bool() ? (value ? term : !term) : term == ctx_.int_val(value);
  }

  spec::HexBoard board_;
  mutable z3::context ctx_;
  z3::solver solver_;
  spec::Encoder enc_;
  HexRelation rel_;
};

/// One candidate move for the generic disagreement query: `move` fixes the
/// spec's move variables; `result` is nullopt if the model says the move is
/// illegal, else the model's result as a formula over the spec's variables
/// for the position after (and any observables).
struct Candidate {
  std::string name;
  z3::expr move;
  std::optional<z3::expr> result;
};

/// The disagreement query for one position with a relation built in `e`
/// (its definitions are added inside a push/pop scope of `s`): "some
/// candidate where the model says illegal and the spec allows it, or the
/// model says legal and the spec forbids it or allows another result" must
/// be UNSAT. Returns "" or the first disagreement found in the SAT model.
inline std::string disagreement(z3::solver& s, const spec::Encoder& e, const z3::expr& fixed,
                                const z3::expr& legal, const std::vector<Candidate>& cands,
                                CrossCheckStats& stats, const std::string& where) {
  ++stats.positions;
  spec::Exprs d;
  for (const auto& c : cands) {
    ++stats.candidates;
    if (c.result) {
      ++stats.legal;
      d.push_back(c.move && !(legal && *c.result));
    } else {
      ++stats.illegal;
      d.push_back(c.move && legal);
    }
  }
  s.push();
  s.add(e.definitions());
  s.add(fixed);
  s.add(e.any(d));
  ++stats.solver_checks;
  z3::check_result r = s.check();
  std::string err;
  if (r == z3::unknown) err = where + ": Z3 answered unknown";
  if (r == z3::sat) {
    z3::model m = s.get_model();
    for (const auto& c : cands)
      if (spec::value_of(m, c.move)) {
        bool spec_legal = spec::value_of(m, legal);
        err = where + " move " + c.name + ": the model says " + (c.result ? "legal" : "illegal") +
              ", the spec " +
              (spec_legal ? (c.result ? "allows a different result" : "allows it") : "forbids it");
        break;
      }
  }
  s.pop();
  return err;
}

/// Runs `loom verify GAME --size N --query NAME` under the default rules
/// through the same entry point as the command line, checks that a witness
/// exists (SAT) or not (UNSAT) as expected, and replays a witness game line
/// on the model: the record must be legal play and the final move legal
/// there. Returns the model's game after the line (nullptr if the answer
/// has no record) for further checks.
inline std::unique_ptr<AnyGame> check_query(const std::string& game, const std::string& name,
                                            int size, bool witness) {
  const spec::QueryInfo* q = spec::find_spec_query(game, name);
  REQUIRE(q != nullptr);
  spec::QueryAnswer a = spec::run_spec_query(*q, size, {});
  std::cout << "[query] " << game << " " << name
            << (q->sized ? " side " + std::to_string(size) : "") << ": "
            << (a.witness ? "SAT" : "UNSAT") << ", " << a.seconds << " s" << std::endl;
  std::string said;
  for (const auto& line : a.lines) said += line + "\n";
  INFO(said);
  CHECK(a.witness == witness);
  if (!a.record) return nullptr;
  auto g = make_game(game, q->sized ? std::optional<int>(size) : std::nullopt, {});
  std::string text;
  for (const auto& t : *a.record) text += (text.empty() ? "" : " ") + t;
  INFO("record " << text << " then " << a.move);
  REQUIRE_NOTHROW(g->play_record(text));
  if (!a.move.empty()) REQUIRE_NOTHROW(g->play(a.move, static_cast<int>(a.record->size()) + 1));
  return g;
}

/// True in sanitizer builds, where Z3 runs several times slower: the default
/// suite then checks fewer random positions (the slow sweep checks more).
inline constexpr bool kSanitized =
#if defined(__SANITIZE_ADDRESS__)
    true;
#else
    false;
#endif

/// Checks a RapidCheck property with its own number of cases (RC_PARAMS
/// still sets the seed); unlike rc::prop it opens no Catch SECTION, so one
/// test case can run several properties in a single pass.
template <typename Testable>
void spec_prop(const std::string& description, int cases, Testable&& testable) {
  auto params = rc::detail::configuration().testParams;
  params.maxSuccess = cases;
  rc::detail::TestMetadata meta;
  meta.id = description;
  meta.description = description;
  auto result = rc::detail::checkTestable(std::forward<Testable>(testable), meta, params);
  if (!result.template is<rc::detail::SuccessResult>()) {
    std::ostringstream ss;
    rc::detail::printResultMessage(result, ss);
    INFO(description << ": " << ss.str() << "\n");
    FAIL();
  }
  SUCCEED();
}

}  // namespace loom::testing
