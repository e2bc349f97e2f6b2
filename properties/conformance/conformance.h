// Conformance properties every deterministic game must pass (the OpenSpiel
// basic_tests idea, written as RapidCheck properties). Each function registers
// one rc::prop inside the calling Catch TEST_CASE; a game's test file calls
// them with a factory for its start position:
//
//   TEST_CASE("gadur conformance", "[gadur][conformance]") {
//     auto start = [] { return ...; };
//     loom::conformance::run_all<State>(start, options);
//   }
//
// Positions are reached by random playouts whose choices RapidCheck
// generates (and shrinks), so a failure reports a short record.
#pragma once

#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <array>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/common/game.h"
#include "model/common/hex.h"

namespace loom::conformance {

struct Options {
  /// Prefix of the property names. Catch tells sections (one per property)
  /// apart by name and source line, so calling run_all twice in one
  /// TEST_CASE needs a distinct label per call or the second call never runs.
  std::string label;
  /// Longest random prefix used to reach a test position.
  int max_prefix = 60;
  /// A proven bound on the number of plies of any game, if the game has one.
  std::optional<int> length_bound;
  /// Cap on random games of a game without a proven bound.
  int practical_length = 2000;
};

/// A game-specific check run after every move of a playout:
/// (before, move, after) -> "" if fine, else what went wrong.
/// The property's name under the options' label.
inline std::string prop_name(const Options& opt, const std::string& what) {
  return opt.label.empty() ? what : opt.label + ": " + what;
}

template <class S>
using StepCheck = std::function<std::string(const S&, const typename S::Move&, const S&)>;

/// Plays up to `max_plies` random legal moves (choices from RapidCheck).
/// Returns the state and the record played.
template <Game S>
S random_position(S s, int max_plies, std::vector<typename S::Move>* record = nullptr) {
  int plies = *rc::gen::inRange(0, max_plies + 1);
  std::vector<typename S::Move> moves;
  typename S::Undo u;
  for (int i = 0; i < plies; ++i) {
    s.legal_moves(moves);
    if (moves.empty()) break;
    auto m = moves[*rc::gen::inRange<size_t>(0, moves.size())];
    if (record) record->push_back(m);
    s.apply(m, u);
  }
  return s;
}

template <Game S>
std::string record_text(const S& start, const std::vector<typename S::Move>& rec) {
  std::string out;
  S s = start;
  typename S::Undo u;
  for (const auto& m : rec) {
    out += (out.empty() ? "" : " ") + s.move_name(m);
    s.apply(m, u);
  }
  return out;
}

/// Legal moves are sorted, unique, named uniquely, parse back to themselves;
/// empty exactly when the position is terminal.
template <Game S>
void prop_moves_sorted_unique(const std::function<S()>& start, const Options& opt) {
  rc::prop(prop_name(opt, "legal moves are sorted, unique and round-trip through text"), [=] {
    std::vector<typename S::Move> rec;
    S s0 = start();
    S s = random_position(s0, opt.max_prefix, &rec);
    RC_LOG() << "record: " << record_text(s0, rec) << "\n";
    std::vector<typename S::Move> ms;
    s.legal_moves(ms);
    RC_ASSERT(std::adjacent_find(ms.begin(), ms.end(), [](const auto& a, const auto& b) {
                return !(a < b);
              }) == ms.end());
    std::set<std::string> names;
    for (const auto& m : ms) {
      std::string t = s.move_name(m);
      RC_ASSERT(names.insert(t).second);
      auto back = s.parse_move(t);
      RC_ASSERT(back.has_value());
      RC_ASSERT(*back == m);
    }
    RC_ASSERT(ms.empty() == s.is_terminal());
    RC_ASSERT(s.outcome().ongoing() == !s.is_terminal());
  });
}

/// apply then undo restores the state exactly, hash included.
template <Game S>
void prop_undo_restores(const std::function<S()>& start, const Options& opt) {
  rc::prop(prop_name(opt, "undo restores the position and its hash"), [=] {
    S s = random_position(start(), opt.max_prefix);
    std::vector<typename S::Move> ms;
    s.legal_moves(ms);
    for (const auto& m : ms) {
      S t = s;
      typename S::Undo u;
      t.apply(m, u);
      t.undo(m, u);
      RC_ASSERT(t == s);
      RC_ASSERT(t.hash() == s.hash());
    }
  });
}

/// Along a random game: the incremental hash equals the recomputed one, the
/// state's invariants hold, and the game-specific step check passes.
template <Game S>
void prop_playout_invariants(const std::function<S()>& start, const Options& opt,
                             StepCheck<S> step = nullptr) {
  rc::prop(prop_name(opt, "hash and invariants hold along a random game"), [=] {
    S s = start();
    RC_ASSERT(s.check_invariants() == "");
    std::vector<typename S::Move> ms;
    typename S::Undo u;
    int limit = opt.length_bound.value_or(opt.max_prefix * 2);
    for (int ply = 0; ply < limit; ++ply) {
      s.legal_moves(ms);
      if (ms.empty()) break;
      auto m = ms[*rc::gen::inRange<size_t>(0, ms.size())];
      S before = s;
      s.apply(m, u);
      RC_ASSERT(s.hash() == s.recompute_hash());
      std::string why = s.check_invariants();
      RC_LOG() << "after " << before.move_name(m) << ": " << why << "\n";
      RC_ASSERT(why == "");
      if (step) {
        std::string w = step(before, m, s);
        RC_LOG() << "step check: " << w << "\n";
        RC_ASSERT(w == "");
      }
    }
  });
}

/// With a proven length bound, every game (however the moves are chosen,
/// shrinking included) ends within it. Without one (a game whose position
/// graph has cycles, such as Gadur as written) play is capped at
/// `practical_length` and only games that do end are checked: terminal,
/// no moves, decided outcome.
template <Game S>
void prop_game_length(const std::function<S()>& start, const Options& opt) {
  const char* name = opt.length_bound ? "every game ends within the proven length bound"
                                      : "games that end have a decided outcome";
  rc::prop(prop_name(opt, name), [=] {
    S s = start();
    std::vector<typename S::Move> ms;
    typename S::Undo u;
    int limit = opt.length_bound.value_or(opt.practical_length);
    int ply = 0;
    for (; ply <= limit; ++ply) {
      s.legal_moves(ms);
      if (ms.empty()) break;
      if (opt.length_bound) RC_ASSERT(ply < limit);
      s.apply(ms[*rc::gen::inRange<size_t>(0, ms.size())], u);
    }
    RC_CLASSIFY(ply > limit, "capped (no end reached)");
    if (ply <= limit) {
      RC_ASSERT(s.is_terminal());
      RC_ASSERT(!s.outcome().ongoing());
    }
  });
}

/// A position mapped by any of the 12 symmetries has exactly the mapped legal
/// moves, the same terminal status and the mapped outcome.
template <SymmetricGame S>
void prop_symmetry(const std::function<S()>& start, const Options& opt) {
  rc::prop(prop_name(opt, "a symmetric image has the mapped legal moves"), [=] {
    S s = random_position(start(), opt.max_prefix);
    int k = *rc::gen::inRange(0, kNumSymmetries);
    S t = s.transformed(k);
    RC_ASSERT(t.check_invariants() == "");
    std::vector<typename S::Move> ms, mt;
    s.legal_moves(ms);
    t.legal_moves(mt);
    std::vector<typename S::Move> mapped;
    for (const auto& m : ms) mapped.push_back(s.map_move(k, m));
    std::sort(mapped.begin(), mapped.end());
    RC_ASSERT(mapped == mt);
    RC_ASSERT(s.is_terminal() == t.is_terminal());
    RC_ASSERT(s.outcome() == t.outcome());
    // The image's hash without building it (the solvers' canonical form).
    if constexpr (requires { s.transformed_hash(k); }) RC_ASSERT(s.transformed_hash(k) == t.hash());
    // All 12 images' hashes in one pass, where the game sums them so.
    if constexpr (requires(std::array<uint64_t, kNumSymmetries> & a) { s.transformed_hashes(a); }) {
      std::array<uint64_t, kNumSymmetries> all{};
      s.transformed_hashes(all);
      for (int j = 0; j < kNumSymmetries; ++j) RC_ASSERT(all[j] == s.transformed(j).hash());
    }
    // Playing a move and its image commutes with the symmetry.
    if (!ms.empty()) {
      auto m = ms[*rc::gen::inRange<size_t>(0, ms.size())];
      S a = s, b = t;
      typename S::Undo u;
      a.apply(m, u);
      b.apply(s.map_move(k, m), u);
      RC_ASSERT(a.transformed(k) == b);
    }
  });
}

/// Every conformance property for a game (symmetry when the game has it).
template <Game S>
void run_all(const std::function<S()>& start, const Options& opt = {},
             StepCheck<S> step = nullptr) {
  prop_moves_sorted_unique<S>(start, opt);
  prop_undo_restores<S>(start, opt);
  prop_playout_invariants<S>(start, opt, step);
  prop_game_length<S>(start, opt);
  if constexpr (SymmetricGame<S>) prop_symmetry<S>(start, opt);
}

}  // namespace loom::conformance
