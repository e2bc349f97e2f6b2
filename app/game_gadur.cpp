// Gadur on the command line.
#include "app/registry.h"
#include "model/common/diagram.h"
#include "model/gadur/gadur.h"

namespace loom {

namespace {

template <int W>
std::string draw_gadur(const gadur::State<W>& s) {
  const auto& geo = s.geo();
  std::string out = hex_diagram(geo, [&](int site) {
    if (s.stones(Color::kBlack).test(site)) return 'X';
    if (s.stones(Color::kWhite).test(site)) return 'O';
    return '.';
  });
  out += "X = black (" + std::to_string(s.stones(Color::kBlack).count()) + " stones), O = white (" +
         std::to_string(s.stones(Color::kWhite).count()) + " stones)\n";
  Outcome o = s.outcome();
  if (o.ongoing())
    out += std::string(color_name(s.to_move())) + " to move, " +
           std::to_string(s.count_legal_moves()) + " legal placements\n";
  else
    out += std::string("game over: ") + color_name(s.to_move()) + " cannot place and wins\n";
  return out;
}

}  // namespace

GameInfo gadur_info() {
  GameInfo g;
  g.name = "gadur";
  g.title = "Gadur: placement game on hex cells, a player who cannot place wins";
  g.default_size = gadur::kDefaultSide;
  g.min_size = kMinSide;
  g.max_size = kMaxSide;
  g.rule_specs = &gadur::Options::specs;
  g.make = [](int size, const RuleSet& rules, const StartOptions&) -> std::unique_ptr<AnyGame> {
    return dispatch_width(size, [&](auto w) -> std::unique_ptr<AnyGame> {
      constexpr int W = decltype(w)::value;
      auto ctx = std::make_shared<const gadur::Context<W>>(size, gadur::Options::from(rules));
      gadur::State<W> s(ctx.get());
      return std::make_unique<GameAdapter<gadur::State<W>>>("gadur", ctx, s, &draw_gadur<W>);
    });
  };
  return g;
}

}  // namespace loom
