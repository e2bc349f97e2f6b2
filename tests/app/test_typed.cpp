// visit_state: the typed state behind an AnyGame reaches a template over the
// game concept (app/typed_game.h).
#include <catch2/catch.hpp>

#include "app/registry.h"
#include "app/typed_game.h"

using namespace loom;

TEST_CASE("visit_state hands over the typed state of every game", "[cli]") {
  struct Case {
    const char* game;
    int size;
    int width;
  };
  for (auto c : {Case{"gadur", 3, 1}, Case{"fiodar", 7, 3}, Case{"enfargar", 9, 5},
                 Case{"migong", 13, 10}, Case{"nardy", 0, 0}}) {
    std::optional<int> size;
    if (c.size) size = c.size;
    auto g = make_game(c.game, size, {});
    int seen = -1;
    std::string hashes;
    visit_state(*g, [&](const auto& s) {
      using S = std::remove_cvref_t<decltype(s)>;
      seen = kWidthOf<S>;
      if constexpr (kWidthOf < S >> 0) CHECK(s.hash() == s.recompute_hash());
    });
    CHECK(seen == c.width);
  }
}
