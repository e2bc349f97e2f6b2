// The specification's own geometry (properties/spec/hex_spec.h) against the
// model's (model/common/hex.h), and the Migong default edge colouring against
// the examples written out in RULES.md section 7.
#include <catch2/catch.hpp>

#include "model/common/hex.h"
#include "properties/spec/hex_spec.h"
#include "properties/spec/migong_spec.h"

using namespace loom;

TEST_CASE("spec geometry matches the model's names and neighbours", "[spec]") {
  for (int n = 2; n <= 13; ++n) {
    spec::HexBoard b(n);
    const HexGeometry& g = HexGeometry::get(n);
    REQUIRE(b.size() == g.num_sites());
    REQUIRE(b.size() == 3 * n * (n - 1) + 1);
    for (int i = 0; i < b.size(); ++i) {
      int s = g.site(b.q(i), b.r(i));
      REQUIRE(g.name(s) == b.name(i));
      REQUIRE(b.parse(b.name(i)) == i);
      for (int d = 0; d < 6; ++d) {
        int t = g.neighbour(s, d), j = b.neighbour(i, d);
        REQUIRE((t < 0) == (j < 0));
        if (j >= 0) REQUIRE(g.name(t) == b.name(j));
      }
    }
    REQUIRE(b.name(b.centre()) == g.name(g.centre()));
  }
  spec::HexBoard b4(4);
  CHECK(b4.name(b4.centre()) == "d4");
  CHECK(b4.parse("D4") == -1);
  CHECK(b4.parse("d04") == -1);
  CHECK(b4.parse("a5") == -1);
}

TEST_CASE("migong default edges follow the RULES.md section 7 examples", "[spec][migong]") {
  auto colour = [](const spec::MigongBoard& b, const spec::MigongEdges& e, const char* site,
                   int d) { return e[b.cell(b.hex().parse(site))][d]; };
  enum { E, NE, NW, W, SW, SE };
  {
    // n=3: a1 W=B SW=Y SE=B, b1 SW=Y SE=B, c1 SW=Y SE=B E=Y.
    spec::MigongBoard b(3);
    auto e = spec::migong_default_edges(b);
    CHECK(colour(b, e, "a1", W) == 1);
    CHECK(colour(b, e, "a1", SW) == 0);
    CHECK(colour(b, e, "a1", SE) == 1);
    CHECK(colour(b, e, "b1", SW) == 0);
    CHECK(colour(b, e, "b1", SE) == 1);
    CHECK(colour(b, e, "c1", SW) == 0);
    CHECK(colour(b, e, "c1", SE) == 1);
    CHECK(colour(b, e, "c1", E) == 0);
    CHECK(colour(b, e, "a1", E) == -1);
    CHECK(b.cells() == 18);
  }
  {
    // n=7: h7 W is B, h8 SW Y, g8 SE B, f7 E Y, f6 NE B, g6 NW Y.
    spec::MigongBoard b(7);
    auto e = spec::migong_default_edges(b);
    CHECK(colour(b, e, "h7", W) == 1);
    CHECK(colour(b, e, "h8", SW) == 0);
    CHECK(colour(b, e, "g8", SE) == 1);
    CHECK(colour(b, e, "f7", E) == 0);
    CHECK(colour(b, e, "f6", NE) == 1);
    CHECK(colour(b, e, "g6", NW) == 0);
    CHECK(b.cells() == 126);
    int edges = 0;
    for (const auto& c : e)
      for (int v : c) edges += v >= 0;
    CHECK(edges == 6 * 13 + 6);  // rim 6(2n-1) plus six centre sides
  }
}
