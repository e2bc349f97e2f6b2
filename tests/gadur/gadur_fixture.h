// Test helpers for Gadur: build positions from diagrams and records.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "model/gadur/gadur.h"
#include "tests/common/diagram_parse.h"

namespace loom::testing {

/// Owns a Gadur context so states built from it stay valid.
template <int W>
struct GadurBoard {
  std::unique_ptr<gadur::Context<W>> ctx;
  using State = gadur::State<W>;

  explicit GadurBoard(int side, gadur::Options o = {})
      : ctx(std::make_unique<gadur::Context<W>>(side, o)) {}

  State start() const { return State(ctx.get()); }

  /// Diagram: 'X' black, 'O' white, '.' empty.
  State from_diagram(std::string_view d, Color to_move) const {
    State s(ctx.get());
    for (auto [site, c] : parse_hex_diagram(ctx->masks.geo(), d)) {
      if (c == 'X') s.put(site, Color::kBlack);
      if (c == 'O') s.put(site, Color::kWhite);
    }
    s.set_to_move(to_move);
    return s;
  }

  int site(std::string_view name) const { return *ctx->masks.geo().parse(name); }
  typename State::Move move(std::string_view name) const {
    return {static_cast<int16_t>(site(name))};
  }

  /// Plays a record; fails the test (throws) on an illegal token.
  State play(std::string_view record) const {
    State s = start();
    std::string tok;
    auto flush = [&] {
      if (tok.empty()) return;
      auto m = s.parse_move(tok);
      if (!m || !s.legal_sites().test(m->site))
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
};

}  // namespace loom::testing
