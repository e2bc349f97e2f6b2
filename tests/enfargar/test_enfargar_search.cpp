// The stall investigation (docs/findings.md, Enfargar): can both players be
// unable to place while both colours remain, and how soon?
//
// - Side 2: every reachable position, breadth first (shortest records first).
// - Side 3: a stall needs every interior point occupied (proof in
//   docs/findings.md; checked here along random games), so enumerating every
//   position with a full interior finds the fewest stones a stall can have
//   (slow test); a record with that many placements reaches one.
// Along the way: the end-of-turn clause never rejects a placement whose new
// stone has a lifeline, and the fast move generator equals the literal rules.
#include <rapidcheck/catch.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <sstream>
#include <unordered_map>

#include "tests/enfargar/enfargar_fixture.h"
#include "tests/enfargar/naive_enfargar.h"

using namespace loom;
using Board = testing::EnfargarBoard<1>;
using State = Board::State;
using BB = Bitboard<1>;

namespace {

/// Both colours on the board, neither player with a legal placement.
bool is_stall_position(State s) {
  if (s.stones(Color::kBlack).none() || s.stones(Color::kWhite).none()) return false;
  if (s.legal_sites().any()) return false;
  s.set_to_move(other(s.to_move()));
  return s.legal_sites().none();
}

struct SearchResult {
  size_t positions = 0;
  size_t stall_ends = 0, wins = 0;
  std::string shortest_stall;  ///< record, passes included
  long clause2_rejections = 0;
  long fast_exact_mismatches = 0;
  bool stalls_have_full_interior = true;
  bool touch_stalls_are_full_boards = true;
};

/// Breadth-first search over every position reachable from the empty board.
SearchResult search_all(const Board& b) {
  struct Node {
    State s;
    int parent;
    State::Move via;
  };
  struct Key {
    uint64_t black, white;
    int tag;
    bool operator==(const Key&) const = default;
  };
  struct Hash {
    size_t operator()(const Key& k) const {
      return k.black * 0x9E3779B97F4A7C15ull ^ k.white * 0xC2B2AE3D27D4EB4Full ^ k.tag;
    }
  };
  auto key = [](const State& s) {
    return Key{s.stones(Color::kBlack).w[0], s.stones(Color::kWhite).w[0],
               idx(s.to_move()) + 2 * s.passes() + 8 * s.is_terminal()};
  };
  const auto& geo = b.geo();
  BB interior;
  for (int x : geo.sites())
    if (!geo.is_edge(x)) interior.set(x);
  SearchResult r;
  std::vector<Node> nodes{{b.start(), -1, {}}};
  std::unordered_map<Key, int, Hash> seen{{key(nodes[0].s), 0}};
  std::vector<State::Move> ms;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const State s = nodes[i].s;
    if (s.is_terminal()) {
      if (s.passes() < 2) {
        ++r.wins;
        continue;
      }
      ++r.stall_ends;
      BB occ = s.stones(Color::kBlack) | s.stones(Color::kWhite);
      if (interior.andnot(occ).any()) r.stalls_have_full_interior = false;
      if (b.ctx->opt.touch && s.empty().any()) r.touch_stalls_are_full_boards = false;
      if (r.shortest_stall.empty()) {
        std::vector<std::string> rec;
        for (int x = static_cast<int>(i); nodes[x].parent >= 0; x = nodes[x].parent)
          rec.push_back(nodes[nodes[x].parent].s.move_name(nodes[x].via));
        for (auto it = rec.rbegin(); it != rec.rend(); ++it)
          r.shortest_stall += (r.shortest_stall.empty() ? "" : " ") + *it;
      }
      continue;
    }
    BB exact;
    s.empty().for_each([&](int x) {
      auto a = s.analyse(x);
      if (a.lifeline && !a.all_alive) ++r.clause2_rejections;
      if (a.legal) exact.set(x);
    });
    if (exact != s.legal_sites()) ++r.fast_exact_mismatches;
    s.legal_moves(ms);
    for (auto m : ms) {
      State t = s;
      State::Undo u;
      t.apply(m, u);
      if (seen.emplace(key(t), static_cast<int>(nodes.size())).second)
        nodes.push_back({t, static_cast<int>(i), m});
    }
  }
  r.positions = nodes.size();
  return r;
}

}  // namespace

TEST_CASE("enfargar side 2: a stall is reachable, the shortest takes 8 plies",
          "[enfargar][stall]") {
  Board b(2);
  SearchResult r = search_all(b);
  CHECK(r.positions == 995);  // every reachable position, terminal ones included
  CHECK(r.wins == 24);
  CHECK(r.stall_ends == 126);
  // Six placements (one empty point left) and two passes; no stall can have
  // fewer stones (the centre must be occupied and no empty point may be a
  // source), and breadth-first search returns a shortest record.
  CHECK(r.shortest_stall == "a1 b1 a2 b2 c2 b3 pass pass");
  CHECK(r.stalls_have_full_interior);
  CHECK(r.clause2_rejections == 0);
  CHECK(r.fast_exact_mismatches == 0);
  // The naive reference agrees that the record ends in a stall.
  naive::Enfargar ref(2, false, false);
  auto p = ref.start();
  for (const char* t : {"a1", "b1", "a2", "b2", "c2", "b3", "pass", "pass"}) {
    auto legal = ref.legal(p);
    int point = std::string(t) == "pass" ? -1 : ref.point(t);
    REQUIRE(std::find(legal.begin(), legal.end(), point) != legal.end());
    p = ref.play(p, point);
  }
  CHECK(ref.over(p));
  CHECK(ref.result(p, 'W') == "unresolved");
}

TEST_CASE("enfargar side 2, edge=touch: every stall is a full board", "[enfargar][stall]") {
  Board b(2, enfargar::Options{.touch = true, .more_stones = false});
  SearchResult r = search_all(b);
  CHECK(r.positions == 820);
  CHECK(r.wins == 0);  // no game on side 2 under edge=touch ends by annihilation
  CHECK(r.stall_ends == 35);
  CHECK(r.touch_stalls_are_full_boards);
  CHECK(r.shortest_stall == "a1 b1 a2 b2 c2 b3 c3 pass pass");
  CHECK(r.clause2_rejections == 0);
  CHECK(r.fast_exact_mismatches == 0);
}

TEST_CASE("enfargar side 3: a stall after 16 placements", "[enfargar][stall]") {
  // Found by random play; 16 stones is the fewest a side-3 stall can have
  // (the slow test below), so 16 placements + 2 passes = 18 plies is shortest.
  const char* record = "d4 d2 e5 c2 d3 d5 b4 c4 a2 a1 b3 b2 e3 c1 c5 c3";
  Board b(3);
  State s = b.play(record);
  CHECK(s.empty().count() == 3);
  CHECK(is_stall_position(s));
  State end = b.play_from(s, "pass pass");
  CHECK(end.outcome().kind == Outcome::Kind::kUnresolved);
  // The naive reference: no placement for either player.
  naive::Enfargar ref(3, false, false);
  auto p = ref.start();
  std::istringstream in(record);
  std::string t;
  while (in >> t) p = ref.play(p, ref.point(t));
  CHECK(ref.legal(p) == std::vector<int>{-1});
  p = ref.play(p, -1);
  CHECK(ref.legal(p) == std::vector<int>{-1});
}

TEST_CASE("enfargar: every stall along random games has a full interior", "[enfargar][stall]") {
  // docs/findings.md: an empty interior point that is not a source sees a
  // stone, and its owner may place there (nothing can be cut away from the
  // edge). So at a stall only edge points are empty, and under edge=touch
  // none (every edge point is a source there).
  rc::prop("stalls fill the interior", [] {
    const int side = *rc::gen::element(3, 4);
    const bool touch = *rc::gen::arbitrary<bool>();
    Board b(side, enfargar::Options{.touch = touch, .more_stones = false});
    State s = b.start();
    std::vector<State::Move> ms;
    State::Undo u;
    while (!s.is_terminal()) {
      s.legal_moves(ms);
      s.apply(ms[*rc::gen::inRange<size_t>(0, ms.size())], u);
    }
    RC_CLASSIFY(s.passes() >= 2, "stall");
    if (s.passes() < 2) return;
    BB occ = s.stones(Color::kBlack) | s.stones(Color::kWhite);
    s.empty().for_each([&](int x) { RC_ASSERT(b.geo().is_edge(x)); });
    if (touch) RC_ASSERT(s.empty().none());
    RC_ASSERT(occ.any());
  });
}

TEST_CASE("enfargar: pack and unpack restore every position along random games",
          "[enfargar][pack]") {
  // The solver stores and checkpoints packed positions (solver/core.h).
  rc::prop("unpack(pack(s)) == s", [] {
    const int side = *rc::gen::element(2, 3, 4);
    Board b(side, enfargar::Options{.touch = *rc::gen::arbitrary<bool>(), .more_stones = false});
    State s = b.start();
    std::vector<State::Move> ms;
    State::Undo u;
    for (;;) {
      State back = b.start().unpack(s.pack());
      RC_ASSERT(back == s);
      RC_ASSERT(back.hash() == s.hash());
      RC_ASSERT(back.all_alive() == s.all_alive());
      if (s.is_terminal()) break;
      s.legal_moves(ms);
      s.apply(ms[*rc::gen::inRange<size_t>(0, ms.size())], u);
    }
  });
}

TEST_CASE("enfargar side 3: no stall has fewer than 16 stones", "[enfargar][stall][.slow]") {
  // Every position with a full interior (7 points) and any edge points: keep
  // those where every stone has a lifeline (true of every reachable position)
  // and neither player can place. Colour-free prefilter: no empty point may
  // be a source, i.e. a player without stones could not place either.
  Board b(3);
  const auto& geo = b.geo();
  BB interior;
  std::vector<int> edge;
  for (int x : geo.sites()) {
    if (geo.is_edge(x))
      edge.push_back(x);
    else
      interior.set(x);
  }
  std::map<int, long> stalls_by_stones;
  for (uint32_t em = 0; em < (1u << edge.size()); ++em) {
    BB occ = interior;
    for (size_t i = 0; i < edge.size(); ++i)
      if (em >> i & 1) occ.set(edge[i]);
    State probe = b.start();
    probe.set_stones(occ, BB{});
    probe.set_to_move(Color::kWhite);
    if (probe.legal_sites().any()) continue;
    std::vector<int> pts;
    occ.for_each([&](int x) { pts.push_back(x); });
    const int k = static_cast<int>(pts.size());
    for (uint64_t cm = 1; cm + 1 < (uint64_t{1} << k); ++cm) {
      BB black, white;
      for (int i = 0; i < k; ++i) (cm >> i & 1 ? black : white).set(pts[i]);
      State s = b.start();
      s.set_stones(black, white);
      if (s.all_alive() && is_stall_position(s)) ++stalls_by_stones[k];
    }
  }
  REQUIRE_FALSE(stalls_by_stones.empty());
  CHECK(stalls_by_stones.begin()->first == 16);
  CHECK(stalls_by_stones[16] == 1824);
}
