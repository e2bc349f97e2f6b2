// Hex geometry (RULES.md section 1): counts, names, neighbours, lines,
// symmetries, and bitboard shifts against the coordinate definition.
#include <rapidcheck/catch.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "model/common/hex.h"

using namespace loom;

TEST_CASE("site count is 3n(n-1)+1 for every side", "[hex]") {
  for (int n = kMinSide; n <= kMaxSide; ++n) {
    const auto& g = HexGeometry::get(n);
    CHECK(g.num_sites() == 3 * n * (n - 1) + 1);
    int counted = 0;
    for (int s = 0; s < g.slots(); ++s) counted += g.is_site(s);
    CHECK(counted == g.num_sites());
    // Edge sites: the rim of the hexagon, 6(n-1).
    CHECK(static_cast<int>(g.edge_sites().size()) == 6 * (n - 1));
  }
}

TEST_CASE("bad sides are rejected", "[hex]") {
  CHECK_THROWS_AS(HexGeometry::get(1), std::invalid_argument);
  CHECK_THROWS_AS(HexGeometry::get(14), std::invalid_argument);
  CHECK_THROWS_AS(HexGeometry::get(-3), std::invalid_argument);
}

TEST_CASE("names follow RULES.md section 1", "[hex]") {
  const auto& g4 = HexGeometry::get(4);
  CHECK(g4.name(g4.centre()) == "d4");
  CHECK(HexGeometry::get(7).name(HexGeometry::get(7).centre()) == "g7");
  // Row 1 holds a1..d1 for n = 4; the top row holds the last n letters.
  CHECK(g4.parse("a1").has_value());
  CHECK(g4.parse("d1").has_value());
  CHECK_FALSE(g4.parse("e1").has_value());
  CHECK(g4.parse("d7").has_value());
  CHECK(g4.parse("g7").has_value());
  CHECK_FALSE(g4.parse("c7").has_value());
  CHECK_FALSE(g4.parse("a8").has_value());
  const auto& g13 = HexGeometry::get(13);
  CHECK(g13.name(g13.site(24, 24)) == "y25");
  CHECK(g13.parse("y25") == g13.site(24, 24));
  for (const char* bad :
       {"", "d", "4", "D4", "d04", "d+4", "d-1", "d0", "d 4", "dd4", "d4x", "d100",
        "\xff"
        "4",
        "z1"})
    CHECK_FALSE(g4.parse(bad).has_value());
}

TEST_CASE("name round trip on every board", "[hex]") {
  for (int n = kMinSide; n <= kMaxSide; ++n) {
    const auto& g = HexGeometry::get(n);
    std::set<std::string> seen;
    for (int s : g.sites()) {
      auto name = g.name(s);
      CHECK(seen.insert(name).second);
      CHECK(g.parse(name) == s);
    }
  }
}

TEST_CASE("neighbours follow the axial steps and are symmetric", "[hex]") {
  for (int n = kMinSide; n <= kMaxSide; ++n) {
    const auto& g = HexGeometry::get(n);
    for (int s : g.sites())
      for (int d = 0; d < 6; ++d) {
        int q = g.q_of(s) + kDirStep[d][0], r = g.r_of(s) + kDirStep[d][1];
        int t = g.neighbour(s, d);
        if (g.valid(q, r)) {
          REQUIRE(t == g.site(q, r));
          CHECK(g.neighbour(t, opposite(d)) == s);
        } else {
          CHECK(t == -1);
        }
      }
    // Interior sites have 6 neighbours; corners 3; other rim sites 4.
    int corners = 0;
    for (int s : g.edge_sites()) corners += g.degree(s) == 3;
    CHECK(corners == 6);
  }
}

TEST_CASE("lines partition the board three ways", "[hex]") {
  for (int n = kMinSide; n <= 7; ++n) {
    const auto& g = HexGeometry::get(n);
    for (int l = 0; l < 3; ++l) {
      int total = 0;
      for (int i = 0; i < 2 * n - 1; ++i) {
        const auto& line = g.line(l, i);
        total += static_cast<int>(line.size());
        // Consecutive sites are neighbours in the line's positive direction.
        for (size_t j = 0; j + 1 < line.size(); ++j) CHECK(g.neighbour(line[j], l) == line[j + 1]);
        CHECK(g.neighbour(line.front(), opposite(l)) == -1);
        CHECK(g.neighbour(line.back(), l) == -1);
        CHECK(static_cast<int>(line.size()) == 2 * n - 1 - std::abs(i - (n - 1)));
      }
      CHECK(total == g.num_sites());
    }
  }
}

TEST_CASE("the 12 symmetries preserve adjacency and form a group", "[hex]") {
  for (int n = kMinSide; n <= 6; ++n) {
    const auto& g = HexGeometry::get(n);
    std::set<std::vector<int>> images;
    for (int k = 0; k < kNumSymmetries; ++k) {
      std::vector<int> img;
      std::set<int> seen;
      for (int s : g.sites()) {
        int t = g.map_site(k, s);
        REQUIRE(g.is_site(t));
        seen.insert(t);
        img.push_back(t);
        for (int d = 0; d < 6; ++d) {
          int u = g.neighbour(s, d);
          int v = g.neighbour(t, HexGeometry::map_dir(k, d));
          CHECK((u < 0 ? -1 : g.map_site(k, u)) == v);
        }
      }
      CHECK(static_cast<int>(seen.size()) == g.num_sites());  // a permutation
      images.insert(img);
      CHECK(g.map_site(k, g.centre()) == g.centre());
    }
    CHECK(images.size() == 12);  // all distinct
    // Closure and inverses, checked on the site maps themselves.
    for (int a = 0; a < kNumSymmetries; ++a) {
      int inv = HexGeometry::inverse(a);
      for (int b = 0; b < kNumSymmetries; ++b) {
        int c = HexGeometry::compose(a, b);
        for (int s : g.sites()) CHECK(g.map_site(b, g.map_site(a, s)) == g.map_site(c, s));
      }
      for (int s : g.sites()) CHECK(g.map_site(inv, g.map_site(a, s)) == s);
    }
    CHECK(HexGeometry::compose(0, 5) == 5);
  }
}

TEST_CASE("the mirror symmetry fixes row n and rotations fix only the centre", "[hex]") {
  const auto& g = HexGeometry::get(4);
  for (int q = 0; q < 7; ++q) CHECK(g.map_site(6, g.site(q, 3)) == g.site(q, 3));
  for (int k = 1; k < 6; ++k)
    for (int s : g.sites()) CHECK((g.map_site(k, s) == s) == (s == g.centre()));
  // Rotation 1 turns E into NE: the east corner g4 goes to the NE corner g7.
  CHECK(g.name(g.map_site(1, *g.parse("g4"))) == "g7");
}

template <int W>
void check_shifts(int n) {
  const auto& m = HexMasks<W>::get(n);
  const auto& g = m.geo();
  for (int s : g.sites())
    for (int d = 0; d < 6; ++d) {
      Bitboard<W> b = Bitboard<W>::single(s);
      Bitboard<W> sh = m.shift(b, d);
      int t = g.neighbour(s, d);
      if (t < 0)
        CHECK(sh.none());
      else
        CHECK(sh == Bitboard<W>::single(t));
      CHECK(m.edge_in(d).test(s) == (t < 0));
    }
  // The whole board shifted loses exactly the edge in that direction.
  for (int d = 0; d < 6; ++d)
    CHECK(m.shift(m.valid(), d).count() == g.num_sites() - m.edge_in(d).count());
}

TEST_CASE("bitboard shifts move every site to its neighbour", "[hex][bitboard]") {
  for (int n = 2; n <= 4; ++n) check_shifts<1>(n);
  for (int n = 5; n <= 7; ++n) check_shifts<3>(n);
  for (int n = 8; n <= 9; ++n) check_shifts<5>(n);
  for (int n = 10; n <= 13; ++n) check_shifts<10>(n);
  // A wider board than needed works too.
  check_shifts<10>(3);
}

TEST_CASE("flood fill finds connected components", "[hex][bitboard]") {
  const auto& m = HexMasks<3>::get(5);
  const auto& g = m.geo();
  Bitboard<3> within;
  for (const char* n : {"a1", "b2", "c3", "e5", "e1"}) within.set(*g.parse(n));
  auto comp = m.flood(Bitboard<3>::single(*g.parse("a1")), within);
  CHECK(comp.count() == 3);  // a1-b2-c3 along NE; e5 and e1 apart
  CHECK_FALSE(comp.test(*g.parse("e1")));
}

TEST_CASE("multiword shifts carry bits across words", "[bitboard]") {
  rc::prop("shl then shr by k restores bits far from the ends", [] {
    Bitboard<5> b;
    for (int i = 0; i < 5; ++i) b.w[i] = *rc::gen::arbitrary<uint64_t>();
    int k = *rc::gen::inRange(1, 64);
    Bitboard<5> top_clear = b;
    for (int i = 0; i < k; ++i) top_clear.reset(319 - i);
    RC_ASSERT(top_clear.shl(k).shr(k) == top_clear);
    for (int i = 0; i + k < 320; ++i) RC_ASSERT(b.shl(k).test(i + k) == b.test(i));
    RC_ASSERT(b.count() == [&] {
      int c = 0;
      b.for_each([&](int) { ++c; });
      return c;
    }());
  });
}
