// Test helpers for Fiodar: build positions from diagrams and records.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "model/fiodar/fiodar.h"
#include "tests/common/diagram_parse.h"

namespace loom::testing {

/// Owns a Fiodar context so states built from it stay valid.
template <int W>
struct FiodarBoard {
  std::unique_ptr<fiodar::Context<W>> ctx;
  using State = fiodar::State<W>;
  using Move = typename State::Move;

  explicit FiodarBoard(int side, fiodar::Options o = {})
      : ctx(std::make_unique<fiodar::Context<W>>(side, o)) {}

  State start() const { return State(ctx.get()); }
  const HexGeometry& geo() const { return ctx->masks.geo(); }

  /// Diagram: 'X' black, 'O' white, '.' empty. Histories start empty.
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
    if (!s) throw std::invalid_argument("bad site in test: " + std::string(name));
    return *s;
  }
  Move move(std::string_view name) const {
    return name == "pass" ? Move::pass() : Move{static_cast<int16_t>(site(name))};
  }
  Bitboard<W> sites(std::initializer_list<const char*> names) const {
    Bitboard<W> b;
    for (const char* n : names) b.set(site(n));
    return b;
  }

  /// Plays a record from s; throws on an illegal token.
  State play(State s, std::string_view record) const {
    std::vector<Move> ms;
    std::string tok;
    auto flush = [&] {
      if (tok.empty()) return;
      auto m = s.parse_move(tok);
      s.legal_moves(ms);
      if (!m || !std::binary_search(ms.begin(), ms.end(), *m))
        throw std::invalid_argument("illegal token in test record: " + tok);
      typename State::Undo u;
      s.apply(*m, u);
      tok.clear();
    };
    for (char c : record) {
      if (c == ' ')
        flush();
      else
        tok += c;
    }
    flush();
    return s;
  }
  State play(std::string_view record) const { return play(start(), record); }

  static bool is_legal(const State& s, Move m) {
    std::vector<Move> ms;
    s.legal_moves(ms);
    return std::binary_search(ms.begin(), ms.end(), m);
  }
  bool legal(const State& s, std::string_view name) const { return is_legal(s, move(name)); }
  State after(State s, std::string_view name) const {
    typename State::Undo u;
    s.apply(move(name), u);
    return s;
  }
};

}  // namespace loom::testing
