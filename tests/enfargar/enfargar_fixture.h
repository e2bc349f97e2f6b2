// Test helpers for Enfargar: build positions from diagrams and records.
#pragma once

#include <algorithm>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "model/enfargar/enfargar.h"
#include "tests/common/diagram_parse.h"

namespace loom::testing {

/// Calls run(std::integral_constant<int, W>{}) with the bitboard width W of
/// a side-`side` board: one word up to side 4, else three (sides 5 and 6).
template <class Run>
void with_width(int side, Run&& run) {
  if (side <= 4)
    run(std::integral_constant<int, 1>{});
  else
    run(std::integral_constant<int, 3>{});
}

/// Owns an Enfargar context so states built from it stay valid.
template <int W>
struct EnfargarBoard {
  std::unique_ptr<enfargar::Context<W>> ctx;
  using State = enfargar::State<W>;
  using Move = typename State::Move;

  explicit EnfargarBoard(int side, enfargar::Options o = {})
      : ctx(std::make_unique<enfargar::Context<W>>(side, o)) {}

  const HexGeometry& geo() const { return ctx->masks.geo(); }
  State start() const { return State(ctx.get()); }

  /// Diagram: 'X' black, 'O' white, '.' empty.
  State from_diagram(std::string_view d, Color to_move) const {
    State s(ctx.get());
    for (auto [site, c] : parse_hex_diagram(geo(), d)) {
      if (c == 'X') s.put(site, Color::kBlack);
      if (c == 'O') s.put(site, Color::kWhite);
    }
    s.set_to_move(to_move);
    return s;
  }

  int site(std::string_view name) const {
    auto s = geo().parse(name);
    if (!s) throw std::invalid_argument("no such site in test: " + std::string(name));
    return *s;
  }
  Move move(std::string_view name) const {
    return name == "pass" ? Move{Move::kPass} : Move{static_cast<int16_t>(site(name))};
  }
  /// A bitboard of the named sites ("a1 b2 c3").
  Bitboard<W> sites(std::string_view names) const {
    Bitboard<W> b;
    std::istringstream in{std::string(names)};
    std::string t;
    while (in >> t) b.set(site(t));
    return b;
  }

  /// Plays a record from `s`; throws on an illegal token.
  State play_from(State s, std::string_view record) const {
    std::istringstream in{std::string(record)};
    std::string tok;
    std::vector<Move> ms;
    while (in >> tok) {
      auto m = s.parse_move(tok);
      s.legal_moves(ms);
      if (!m || !std::binary_search(ms.begin(), ms.end(), *m))
        throw std::invalid_argument("illegal token in test record: " + tok);
      typename State::Undo u;
      s.apply(*m, u);
    }
    return s;
  }
  State play(std::string_view record) const { return play_from(start(), record); }
};

}  // namespace loom::testing
