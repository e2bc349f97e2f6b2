// The second proof of superko results (solver/proof_replay.h): the proof
// tree of each bound played out on the model's state with whole
// histories. A true value is proved from both sides; a claim half a point
// beyond it is not (so the replay does not accept whatever it is asked).
#include <catch2/catch.hpp>

#include <functional>
#include <vector>

#include "model/fiodar/fiodar.h"
#include "solver/proof_replay.h"
#include "solver/superko_dfs.h"
#include "tests/fiodar/fiodar_fixture.h"
#include "tests/solver/ko_toy.h"

using namespace loom;

namespace {

/// Black's final margin from s by the superko search.
template <class S>
int black_margin(solver::SuperkoDfs<S>& d, const S& s) {
  if (s.is_terminal()) return s.outcome().margin2;
  const int v = d.value(s);
  const int past = 2 * (s.prisoners(Color::kBlack) - s.prisoners(Color::kWhite));
  return past + (s.to_move() == Color::kBlack ? v : -v);
}

/// Replays both bounds of s's value and the two claims just beyond it.
template <class S>
void check_replay(solver::SuperkoDfs<S>& d, solver::ProofReplay<S>& r, const S& s) {
  const int v = black_margin(d, s);
  INFO("value " << v);
  CHECK(r.prove(s, true, v));
  CHECK(r.prove(s, false, v));
  CHECK_FALSE(r.prove(s, true, v + 1));
  CHECK_FALSE(r.prove(s, false, v - 1));
}

}  // namespace

TEST_CASE("proof replay: every ko-toy position within 10 plies, both bounds, nothing beyond",
          "[solver][superko][replay]") {
  // On the toy superko decides many values (test_solver_superko), so a
  // replay that reused claims across histories unsoundly would accept a
  // claim beyond the value somewhere.
  using testing::KoToy;
  for (int shape = 0; shape < 2; ++shape) {
    const KoToy start = shape == 0 ? KoToy{"a1", "b1", "b2"} : KoToy{"a2", "b2", "c2"};
    solver::SuperkoDfs<KoToy> d(start, {uint64_t{1} << 20, 0, false, {}, {}});
    // Each shape is invariant under some of the board's symmetries (the
    // line a2-b2-c2 under four, the triangle under a reflection), so claims
    // are shared between images, histories mapped too.
    const auto& geo = HexGeometry::get(2);
    Bitboard<1> cells;
    for (const char* c : shape == 0 ? std::vector<const char*>{"a1", "b1", "b2"}
                                    : std::vector<const char*>{"a2", "b2", "c2"})
      cells.set(*geo.parse(c));
    std::vector<int> syms;
    for (int g = 0; g < kNumSymmetries; ++g) {
      bool fixed = true;
      cells.for_each([&](int site) { fixed = fixed && cells.test(geo.map_site(g, site)); });
      if (fixed) syms.push_back(g);
    }
    CHECK(syms.size() == (shape == 0 ? 2u : 4u));
    solver::ProofReplay<KoToy> r(d, uint64_t{1} << 30, 1, syms);
    int checked = 0;
    std::function<void(KoToy&, int)> walk = [&](KoToy& s, int depth) {
      if (s.is_terminal()) return;
      INFO("shape " << shape << " checked " << checked);
      check_replay(d, r, s);
      ++checked;
      if (depth == 0) return;
      std::vector<KoToy::Move> ms;
      s.legal_moves(ms);
      KoToy::Undo u;
      for (const auto& m : ms) {
        s.apply(m, u);
        walk(s, depth - 1);
        s.undo(m, u);
      }
    };
    KoToy root = start;
    walk(root, 10);
    CHECK(checked > (shape == 0 ? 200 : 30));
    CHECK(r.stats().hits > 0);
  }
}

TEST_CASE("proof replay: Fiodar side 2 from the start and side 3 after ten plies",
          "[solver][fiodar][superko][replay]") {
  using S = fiodar::State<1>;
  for (const auto& [size, record] :
       std::vector<std::pair<int, std::string>>{{2, ""}, {3, "c3 b2 b3 c2 d3 d2 b1 e3 d4 c4"}}) {
    testing::FiodarBoard<1> b(size);
    const S s = b.play(record);
    solver::SuperkoDfs<S> d(s, {uint64_t{64} << 20, 0, true, {}, {}});
    solver::ProofReplay<S> r(d);
    INFO("side " << size << " after " << record);
    check_replay(d, r, s);
    CHECK(r.stats().leaves > 0);
  }
}

TEST_CASE("proof replay: a claim proved once holds for every symmetric image of the line",
          "[solver][fiodar][superko][replay]") {
  // Fiodar is invariant under the 12 symmetries of the board: after one
  // proof, the image of the same game under any symmetry is a memo hit at
  // its root (the image's history is the image of the history).
  using S = fiodar::State<1>;
  testing::FiodarBoard<1> b(3);
  const auto& geo = HexGeometry::get(3);
  const std::vector<std::string> record = {"c3", "b2", "b3", "c2", "d3",
                                           "d2", "b1", "e3", "d4", "c4"};
  auto image = [&](int g) {
    std::string r;
    for (const auto& m : record)
      r += (r.empty() ? "" : " ") + geo.name(geo.map_site(g, *geo.parse(m)));
    return b.play(r);
  };
  const S s = image(0);
  solver::SuperkoDfs<S> d(s, {uint64_t{64} << 20, 0, true, {}, {}});
  solver::ProofReplay<S> r(d);
  const int v = black_margin(d, s);
  REQUIRE(r.prove(s, true, v));
  for (int g = 1; g < kNumSymmetries; ++g) {
    INFO("symmetry " << g);
    const uint64_t nodes = r.stats().nodes, hits = r.stats().hits;
    CHECK(r.prove(image(g), true, v));
    CHECK(r.stats().nodes == nodes + 1);
    CHECK(r.stats().hits == hits + 1);
    CHECK_FALSE(r.prove(image(g), true, v + 1));
  }
}
