#include "puzzles/spec_glue.h"

namespace loom::puzzles {

std::string spec_disagreement(z3::solver& s, const spec::Encoder& e, const z3::expr& fixed,
                              const z3::expr& legal, const std::vector<SpecCandidate>& cands) {
  spec::Exprs d;
  for (const auto& c : cands)
    d.push_back(c.result ? (c.move && !(legal && *c.result)) : (c.move && legal));
  s.push();
  s.add(e.definitions());
  s.add(fixed);
  s.add(e.any(d));
  z3::check_result r = s.check();
  std::string err;
  if (r == z3::unknown) err = "Z3 answered unknown";
  if (r == z3::sat) {
    z3::model m = s.get_model();
    err = "the disagreement query is satisfiable";
    for (const auto& c : cands)
      if (m.eval(c.move, true).is_true()) {
        bool spec_legal = m.eval(legal, true).is_true();
        err = "move " + c.name + ": the puzzle " + (c.result ? "lists it" : "omits it") +
              ", the specification " +
              (spec_legal ? (c.result ? "allows a different result" : "allows it") : "forbids it");
        break;
      }
  }
  s.pop();
  return err;
}

}  // namespace loom::puzzles
