// Typed access to the position behind an AnyGame, for tools that are
// templates over the game concept (rendering, puzzles, audits): instead of a
// new AnyGame virtual per tool, a command calls visit_state(game, f) and f
// receives the typed state (gadur::State<W>, ..., or the NardyGame itself).
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "app/any_game.h"
#include "app/game_nardy.h"
#include "model/enfargar/enfargar.h"
#include "model/fiodar/fiodar.h"
#include "model/gadur/gadur.h"
#include "model/migong/migong.h"

namespace loom {

namespace detail {

template <template <int> class T, class F, int W, int... Ws>
bool try_widths(const AnyGame& g, F& f) {
  if (auto* a = dynamic_cast<const GameAdapter<T<W>>*>(&g)) {
    f(a->state());
    return true;
  }
  if constexpr (sizeof...(Ws) > 0)
    return try_widths<T, F, Ws...>(g, f);
  else
    return false;
}

template <template <int> class T, class F>
bool try_game(const AnyGame& g, F& f) {
  return try_widths<T, F, 1, 3, 5, 10>(g, f);
}

}  // namespace detail

/// Calls f(const S&) with the typed state of a hex game (S one of
/// gadur/fiodar/enfargar/migong ::State<W>, W in 1, 3, 5, 10 as
/// dispatch_width gives), or f(const NardyGame&) for Long Nardy. f must
/// compile for every one of them (use `if constexpr` to reject some); it
/// returns void. Throws std::logic_error for an AnyGame of unknown type.
template <class F>
void visit_state(const AnyGame& g, F&& f) {
  if (auto* n = dynamic_cast<const NardyGame*>(&g)) {
    f(*n);
    return;
  }
  if (detail::try_game<gadur::State>(g, f) || detail::try_game<fiodar::State>(g, f) ||
      detail::try_game<enfargar::State>(g, f) || detail::try_game<migong::State>(g, f))
    return;
  throw std::logic_error("visit_state: a game of unknown type");
}

/// The bitboard width W of a hex game's state type (0 for NardyGame).
template <class S>
inline constexpr int kWidthOf = StateWidth<std::remove_cvref_t<S>>::value;

/// Migong's edge colouring as its digest (16 hex digits; "" for the other
/// games): two files with the same colouring give the same digest.
inline std::string edges_digest(const AnyGame& g) {
  std::string out;
  visit_state(g, [&](const auto& s) {
    if constexpr (requires { s.context().edges().digest(); }) {
      char buf[24];
      std::snprintf(buf, sizeof buf, "%016llx",
                    static_cast<unsigned long long>(s.context().edges().digest()));
      out = buf;
    }
  });
  return out;
}

}  // namespace loom
