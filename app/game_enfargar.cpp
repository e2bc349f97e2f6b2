// Enfargar on the command line. The pie rule (RULES.md section 3: after
// Black's first stone the second player picks a side) is no move of the
// record (CONVENTIONS.md: records are the plain game); it is the solver's
// concern.
#include "app/registry.h"
#include "model/enfargar/enfargar.h"

namespace loom {

GameInfo enfargar_info() {
  GameInfo g;
  g.name = "enfargar";
  g.title = "Enfargar: place stones with lifelines, flip enemy stones without one";
  g.default_size = enfargar::kDefaultSide;
  g.min_size = kMinSide;
  g.max_size = kMaxSide;
  g.rule_specs = &enfargar::Options::specs;
  g.make = [](int size, const RuleSet& rules, const StartOptions&) -> std::unique_ptr<AnyGame> {
    return dispatch_width(size, [&](auto w) -> std::unique_ptr<AnyGame> {
      constexpr int W = decltype(w)::value;
      auto ctx = std::make_shared<const enfargar::Context<W>>(size, enfargar::Options::from(rules));
      enfargar::State<W> s(ctx.get());
      return std::make_unique<GameAdapter<enfargar::State<W>>>("enfargar", ctx, s,
                                                               &enfargar::render<W>);
    });
  };
  return g;
}

}  // namespace loom
