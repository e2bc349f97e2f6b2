// Edge colours as data (RULES.md section 5 "Edge colours", section 7 "Centre
// border" and "Rim walk"): the default, the text format and its errors, and
// how colourings move under the board symmetries.
#include <catch2/catch.hpp>

#include "model/common/errors.h"
#include "model/migong/edges.h"
#include "tests/migong/naive_migong.h"

using namespace loom;
using migong::EdgeColouring;

namespace {

std::string colour_at(const EdgeColouring& e, const char* site, int dir) {
  int s = *e.geo().parse(site);
  REQUIRE(e.is_edge(s, dir));
  return e.is_blue(s, dir) ? "B" : "Y";
}

std::string parse_error(const std::string& text, int n) {
  try {
    EdgeColouring::parse(text, n);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("default rim walk for side 3 is the one of RULES.md section 7", "[migong][edges]") {
  // "a1 W=B SW=Y SE=B, b1 SW=Y SE=B, c1 SW=Y SE=B E=Y, ..."
  auto e = EdgeColouring::standard(3);
  auto rim = migong::rim_walk(e.geo());
  REQUIRE(rim.size() == 30u);  // 6(2n-1)
  const std::vector<std::pair<const char*, int>> first = {
      {"a1", 3}, {"a1", 4}, {"a1", 5}, {"b1", 4}, {"b1", 5}, {"c1", 4}, {"c1", 5}, {"c1", 0}};
  const std::string colours = "BYBYBYBY";
  for (size_t k = 0; k < first.size(); ++k) {
    INFO("rim segment " << k);
    CHECK(e.geo().name(rim[k].site) == first[k].first);
    CHECK(rim[k].dir == first[k].second);
    CHECK(colour_at(e, first[k].first, first[k].second) == colours.substr(k, 1));
  }
}

TEST_CASE("default centre border for side 7 is the one of RULES.md section 7", "[migong][edges]") {
  // "h7 wedge W is B, h8 SW Y, g8 SE B, f7 E Y, f6 NE B, g6 NW Y."
  auto e = EdgeColouring::standard(7);
  CHECK(colour_at(e, "h7", 3) == "B");
  CHECK(colour_at(e, "h8", 4) == "Y");
  CHECK(colour_at(e, "g8", 5) == "B");
  CHECK(colour_at(e, "f7", 0) == "Y");
  CHECK(colour_at(e, "f6", 1) == "B");
  CHECK(colour_at(e, "g6", 2) == "Y");
  CHECK(migong::rim_walk(e.geo()).size() == 78u);
}

TEST_CASE("default colouring agrees with the naive reference's literal walk", "[migong][edges]") {
  for (int n = 2; n <= 8; ++n) {
    auto e = EdgeColouring::standard(n);
    naive::Migong ref(n);
    const auto& g = e.geo();
    int segments = 0;
    for (int c = 0; c < ref.num_cells(); ++c) {
      int s = *g.parse(ref.name(c));
      for (int d = 0; d < 6; ++d) {
        char want = ref.edge(c, d);
        INFO("side " << n << " " << ref.name(c) << " dir " << d);
        CHECK(e.is_edge(s, d) == (want != '?'));
        if (want != '?') {
          CHECK(e.is_blue(s, d) == (want == 'B'));
          ++segments;
        }
      }
    }
    CHECK(segments == 6 * (2 * n - 1) + 6);
  }
}

TEST_CASE("the text format round-trips and accepts the shorthands", "[migong][edges]") {
  for (int n : {2, 3, 7, 13}) {
    auto e = EdgeColouring::standard(n);
    CHECK(EdgeColouring::parse(e.to_text(), n) == e);
    auto inv = e.inverted();
    CHECK(EdgeColouring::parse(inv.to_text(), n) == inv);
    CHECK_FALSE(inv == e);
  }
  // Shorthands, comments and blank lines: the default for side 2 again.
  std::string text = "# side 2 default\n\nsize 2   # side\nrim BYBYBYBYBYBYBYBYBY\ncentre BYBYBY\n";
  CHECK(EdgeColouring::parse(text, 2) == EdgeColouring::standard(2));
  // Shorthand and segment lines mixed: an all-Yellow rim, the default centre.
  text = "size 2\nrim YYYYYYYYYYYYYYYYYY\nb3 SE B\nc2 W B\nc3 SW Y\na2 E Y\na1 NE B\nb1 NW Y\n";
  auto custom = EdgeColouring::parse(text, 2);
  CHECK(colour_at(custom, "a1", 3) == "Y");
  CHECK(colour_at(custom, "b3", 5) == "B");
}

TEST_CASE("bad edge files give one clear error", "[migong][edges]") {
  const std::string ok = EdgeColouring::standard(2).to_text();
  struct Case {
    std::string text;
    int n;
    std::string needle;
  };
  std::vector<Case> cases = {
      {"", 2, "empty"},
      {"# nothing\n", 2, "empty"},
      {"a1 W B\n", 2, "line 1: the file must start with 'size N'"},
      {"size x\n", 2, "the side must be a number"},
      {"size 02\n", 2, "the side must be a number"},
      {"size 3\n", 2, "the file is for side 3 but the board has side 2"},
      {"size 2\nsize 2\n", 2, "line 2: 'size' given twice"},
      {"size 2\nz9 W B\n", 2, "'z9' is not a site"},
      {"size 2\nb2 W B\n", 2, "'b2' is the centre"},
      {"size 2\na1 X B\n", 2, "'X' is not a direction"},
      {"size 2\na1 E B\n", 2, "a1 E is not an edge segment"},
      {"size 2\na1 W G\n", 2, "colour must be B or Y"},
      {"size 2\na1 W b\n", 2, "colour must be B or Y"},
      {"size 2\na1 W B\na1 W Y\n", 2, "line 3: segment a1 W is given twice (first on line 2)"},
      {"size 2\na1 W B extra\n", 2, "expected 'SITE DIR COLOUR'"},
      {"size 2\nrim\n", 2, "expected 'rim LETTERS'"},
      {"size 2\nrim BYBYBYBYBYBYBYBYBX\n", 2, "letters must be B or Y"},
      {"size 2\ncentre BYBYBY\n", 2, "18 segments have no colour (first: a1 W)"},
      {"size 2\nrim BYBYBYBYBYBYBYBYBYBY\n", 2, "needs 18"},
      {"size 2\nrim BYBYBYBYBYBYBYBYBY\ncentre BYBYBY\na1 W B\n", 2,
       "line 4: segment a1 W is given twice"},
      {"size 2\n\xff\xfe\n", 2, "expected 'SITE DIR COLOUR'"},
      {ok.substr(0, ok.rfind("b1")), 2, "1 segment has no colour (first: b1 NW)"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    std::string what = parse_error(c.text, c.n);
    CHECK_THAT(what, Catch::Contains(c.needle));
    CHECK(what.find('\n') == std::string::npos);
  }
}

TEST_CASE("symmetries and the default colouring", "[migong][edges]") {
  // The default alternates around the rim and the centre, so the even
  // rotations (with or without the mirror) keep it and the odd ones exchange
  // every colour (RULES.md section 5 default; see docs/rules.md).
  for (int n : {2, 3, 4, 7}) {
    auto e = EdgeColouring::standard(n);
    for (int k = 0; k < kNumSymmetries; ++k) {
      INFO("side " << n << " symmetry " << k);
      bool odd = (k % 6) % 2 == 1;
      CHECK(e.mapped(k) == (odd ? e.inverted() : e));
      CHECK((e.mapped(k).digest() == e.digest()) == !odd);
    }
  }
  // Mapping composes: mapped(a) then mapped(b) is mapped(compose(a, b)).
  std::string text = EdgeColouring::standard(3).to_text();
  text.replace(text.find("a1 W B"), 6, "a1 W Y");
  auto odd = EdgeColouring::parse(text, 3);
  for (int a = 0; a < kNumSymmetries; ++a)
    for (int b = 0; b < kNumSymmetries; ++b)
      CHECK(odd.mapped(a).mapped(b) == odd.mapped(HexGeometry::compose(a, b)));
}
