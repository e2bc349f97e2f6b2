// Whether two board puzzles ask about the same position: the same game
// state up to the board's symmetries, whatever record reached it. This is
// the solver's own notion of one position (its canonical form and exact
// key); for Fiodar it includes the set of earlier boards that positional
// superko can still forbid, so the same board with another history is
// another position.
#pragma once

#include <cstdint>

#include "model/common/game.h"
#include "solver/core.h"

namespace loom::puzzles {

/// A hash of s's symmetry class: equal for the same position (a filter
/// before same_position).
template <Game S>
uint64_t position_class_hash(const S& s) {
  return solver::Canonicalizer<S>(true).canonical(s).hash();
}

template <Game S>
bool same_position(const S& a, const S& b) {
  const solver::Canonicalizer<S> canon(true);
  const S ca = canon.canonical(a), cb = canon.canonical(b);
  using T = solver::KeyTraits<S>;
  return solver::key_equal(T::key(ca), T::key(cb));
}

}  // namespace loom::puzzles
