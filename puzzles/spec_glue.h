// The Z3 step of `loom puzzle check`: the legal moves a puzzle lists must be
// exactly those the specification (properties/spec) allows at its position,
// each with the position after that the model gives. One solver call per
// puzzle decides it (the disagreement query of tests/spec/spec_check.h,
// written again here because that header belongs to the test suite);
// Enfargar uses witness queries per point instead (enfargar_puzzles.cpp).
#pragma once

#include <z3++.h>

#include <optional>
#include <string>
#include <vector>

#include "model/common/hex.h"
#include "properties/spec/encoder.h"
#include "properties/spec/hex_position.h"

namespace loom::puzzles {

/// A two-colour position in the mover's frame, by the spec's site order:
/// 1 where `mine` has a stone, 2 where `theirs` has, 0 empty.
template <class BB>
spec::Cells mover_frame(const spec::HexBoard& b, const HexGeometry& g, const BB& mine,
                        const BB& theirs) {
  spec::Cells c(b.size(), 0);
  for (int i = 0; i < b.size(); ++i) {
    int site = *g.parse(b.name(i));
    if (mine.test(site)) c[i] = 1;
    if (theirs.test(site)) c[i] = 2;
  }
  return c;
}

/// One candidate move: `move` fixes the spec's move variables; `result` is
/// nullopt if the puzzle does not list it, else the model's position after
/// as a formula over the spec's variables.
struct SpecCandidate {
  std::string name;
  z3::expr move;
  std::optional<z3::expr> result;
};

/// "" when "some candidate is listed and the spec forbids it or allows
/// another result, or is not listed and the spec allows it" is UNSAT; else
/// the first disagreement (or "Z3 answered unknown").
std::string spec_disagreement(z3::solver& s, const spec::Encoder& e, const z3::expr& fixed,
                              const z3::expr& legal, const std::vector<SpecCandidate>& cands);

}  // namespace loom::puzzles
