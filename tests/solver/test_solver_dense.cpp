// The dense-index retrograde (solver/dense.h) against the hash-table
// retrograde (solver/retrograde.h, which shares only the model with it): the
// same value and the same plies to the end at every position the hash
// retrograde stores, on every Gadur and Enfargar rule set of side 2 and on
// side-3 positions a few moves into the game. Gadur's retrograde moves
// (State::predecessors) are checked for completeness and soundness against
// the forward move generator. The side-3 games from the empty board are
// [.slow]; their expected values are the README's (hash retrograde and
// alpha-beta results). Last, the worker threads' errors (solver/threads.h,
// parallel_slices).
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <system_error>
#include <thread>

#include <unistd.h>

#include "solver/dense.h"
#include "solver/dense_table.h"
#include "solver/driver.h"
#include "solver/retrograde.h"
#include "tests/enfargar/enfargar_fixture.h"
#include "tests/gadur/gadur_fixture.h"

using namespace loom;
using GState = gadur::State<1>;
using EState = enfargar::State<1>;

namespace {

std::vector<gadur::Options> gadur_rule_sets() {
  return {{false, false}, {true, false}, {false, true}, {true, true}};
}
std::vector<enfargar::Options> enfargar_rule_sets() {
  return {{false, false}, {true, false}, {false, true}, {true, true}};
}

/// Two reports of one position give the same value and plies, and the
/// same openings with their values and plies.
void same_answers(const solver::SolveReport& a, const solver::SolveReport& b) {
  CHECK(a.value == b.value);
  CHECK(a.plies == b.plies);
  REQUIRE(a.openings.size() == b.openings.size());
  for (size_t i = 0; i < a.openings.size(); ++i) {
    CHECK(a.openings[i].move == b.openings[i].move);
    CHECK(a.openings[i].value == b.openings[i].value);
    CHECK(a.openings[i].plies == b.openings[i].plies);
  }
}

/// Every position stored by the hash retrograde has the same value and
/// distance under the dense method. Returns the number compared.
template <class S>
uint64_t compare_methods(
    const S& root, int threads = 1,
    uint64_t kept_bytes = typename solver::DenseRetrograde<S>::Config{}.kept_bytes,
    uint64_t* kept_moves = nullptr) {
  solver::RunControl ctl;
  typename solver::Retrograde<S>::Config rc;
  solver::Retrograde<S> r(root, rc);
  REQUIRE(r.enumerate(ctl, [] {}));
  r.solve(ctl, [] {});
  typename solver::DenseRetrograde<S>::Config dc;
  dc.threads = threads;
  dc.kept_bytes = kept_bytes;
  solver::DenseRetrograde<S> d(root, dc);
  d.run(ctl);
  if (kept_moves) *kept_moves = d.kept_moves();
  uint64_t compared = 0;
  for (uint64_t i = 0; i < r.positions(); ++i) {
    S s = r.state(i);
    auto [v, plies] = d.lookup(s);
    INFO("position " << i);
    REQUIRE(v == r.value(i));
    int want = r.dist(i) == solver::Retrograde<S>::kUndecided ? -1 : r.dist(i);
    // Ends are not stored by the dense method; lookup() gives them too.
    REQUIRE(plies == want);
    ++compared;
  }
  // The dense method stores no end position and one position per class
  // (Enfargar: nor the positions after one pass, which it reads as the same
  // board without the pass).
  if constexpr (std::is_same_v<S, GState>) CHECK(d.positions() == r.positions() - r.terminals());
  // sample(): every stored position once, in key order (none an end); or
  // every k-th of them.
  const auto key = [&](const S& x) {
    return d.codec().canonical(x.stones(Color::kBlack).w[0], x.stones(Color::kWhite).w[0],
                               x.to_move());
  };
  const std::vector<S> all = d.sample(1);
  REQUIRE(all.size() == d.positions());
  for (size_t i = 0; i < all.size(); ++i) {
    REQUIRE(!all[i].is_terminal());
    if (i > 0) REQUIRE(key(all[i - 1]) < key(all[i]));
  }
  const std::vector<S> third = d.sample(3);
  REQUIRE(third.size() == (all.size() + 2) / 3);
  for (size_t i = 0; i < third.size(); ++i) REQUIRE(key(third[i]) == key(all[3 * i]));
  // probe(): counts the stored keys among those given (a non-smallest
  // image of a position with several is never stored), adding the value
  // bytes read with `cells` (a decided position's byte is its code << 5).
  std::vector<uint32_t> stored, images;
  uint64_t decided = 0;
  for (const S& x : all) {
    stored.push_back(key(x));
    uint32_t img[12];
    d.codec().images(x.stones(Color::kBlack).w[0], x.stones(Color::kWhite).w[0], x.to_move(), img);
    const uint32_t top = *std::max_element(img, img + d.symmetries());
    if (top != key(x)) images.push_back(top);
    if (d.lookup(x).second >= 0) ++decided;
  }
  REQUIRE(d.probe(stored, false) == d.positions());
  REQUIRE(!images.empty());
  REQUIRE(d.probe(images, false) == 0);
  REQUIRE(d.probe(images, true) == 0);
  const uint64_t bytes = d.probe(stored, true) - d.positions();
  REQUIRE(bytes >= 32 * decided);
  REQUIRE(bytes <= 255 * d.positions());
  return compared;
}

/// Positions reachable from `root` (each once), by breadth-first search.
std::vector<GState> reachable(const GState& root, size_t cap) {
  std::vector<GState> out{root};
  std::set<std::array<uint64_t, 2>> seen{root.pack().w};
  std::vector<GState::Move> ms;
  GState::Undo u;
  for (size_t i = 0; i < out.size() && out.size() < cap; ++i) {
    GState s = out[i];
    s.legal_moves(ms);
    for (auto m : ms) {
      GState c = s;
      c.apply(m, u);
      if (seen.insert(c.pack().w).second) out.push_back(c);
    }
  }
  return out;
}

/// Every move from s is undone by one of the child's predecessors, and
/// every predecessor reaches the child in one legal move.
void check_predecessors(const GState& s) {
  std::vector<GState::Move> ms, pms;
  std::vector<GState> preds;
  GState::Undo u;
  s.legal_moves(ms);
  for (auto m : ms) {
    GState c = s;
    c.apply(m, u);
    c.predecessors(preds);
    INFO("after " << s.move_name(m));
    CHECK(std::find(preds.begin(), preds.end(), s) != preds.end());
    for (const GState& p : preds) {
      REQUIRE(p.check_invariants() == "");
      p.legal_moves(pms);
      bool found = false;
      for (auto pm : pms) {
        GState x = p;
        x.apply(pm, u);
        found = found || x == c;
      }
      CHECK(found);
    }
  }
}

}  // namespace

TEST_CASE("gadur retrograde moves are complete and sound", "[solver][dense][gadur]") {
  for (auto opt : gadur_rule_sets()) {
    INFO("subset " << opt.subset << " merge-only " << opt.merge_only);
    testing::GadurBoard<1> b2(2, opt);
    for (const GState& s : reachable(b2.start(), 100000)) check_predecessors(s);
    // Side 3: every position within 3 plies, then random games.
    testing::GadurBoard<1> b3(3, opt);
    for (const GState& s : reachable(b3.start(), 2000)) check_predecessors(s);
    std::mt19937 rng(7);
    std::vector<GState::Move> ms;
    GState::Undo u;
    for (int game = 0; game < 40; ++game) {
      GState s = b3.start();
      for (int ply = 0; ply < 60; ++ply) {
        check_predecessors(s);
        s.legal_moves(ms);
        if (ms.empty()) break;
        s.apply(ms[rng() % ms.size()], u);
      }
    }
  }
}

TEST_CASE("gadur placements() and has_placement() agree with legal_sites() and analyse()",
          "[solver][dense][gadur]") {
  for (auto opt : gadur_rule_sets()) {
    INFO("subset " << opt.subset << " merge-only " << opt.merge_only);
    for (int side : {2, 3}) {
      testing::GadurBoard<1> b(side, opt);
      std::vector<GState> states = reachable(b.start(), side == 2 ? 20000 : 2000);
      std::mt19937 rng(11);
      std::vector<GState::Move> ms;
      GState::Undo u;
      for (int game = 0; game < 60; ++game) {
        GState s = b.start();
        for (int ply = 0; ply < 50; ++ply) {
          states.push_back(s);
          s.legal_moves(ms);
          if (ms.empty()) break;
          s.apply(ms[rng() % ms.size()], u);
        }
      }
      std::vector<GState::Placed> placed(64), plain(64);
      size_t answered = 0, stuck = 0;
      for (const GState& s : states) {
        const int n = s.placements(placed.data(), true);
        // Without the answers: the same list, nothing claimed.
        REQUIRE(s.placements(plain.data()) == n);
        for (int i = 0; i < n; ++i) {
          REQUIRE(plain[i].site == placed[i].site);
          REQUIRE(plain[i].captured == placed[i].captured);
          REQUIRE(!plain[i].answered);
        }
        std::vector<std::pair<int, uint64_t>> got, want;
        for (int i = 0; i < n; ++i) {
          got.push_back({placed[i].site, placed[i].captured.w[0]});
          // "answered": the opponent has a placement in the child.
          GState c = s;
          c.apply(GState::Move{placed[i].site}, u);
          REQUIRE(c.has_placement() == placed[i].answered);
          ++(placed[i].answered ? answered : stuck);
        }
        s.legal_sites().for_each([&](int c) {
          auto p = s.analyse(c);
          REQUIRE(p.legal);
          want.push_back({c, p.captures ? p.enemies.w[0] : 0});
        });
        std::sort(got.begin(), got.end());
        REQUIRE(got == want);
        REQUIRE(s.has_placement() == (n > 0));
        REQUIRE(s.is_terminal() == (n == 0));
      }
      CHECK(answered > 0);  // both kinds occur
      CHECK(stuck > 0);
    }
  }
}

TEST_CASE("dense = hash retrograde: gadur side 2, every rule set", "[solver][dense][gadur]") {
  for (auto opt : gadur_rule_sets()) {
    INFO("subset " << opt.subset << " merge-only " << opt.merge_only);
    testing::GadurBoard<1> b(2, opt);
    CHECK(compare_methods(b.start()) > 10);
  }
}

TEST_CASE("dense = hash retrograde: enfargar side 2, every rule set", "[solver][dense][enfargar]") {
  for (auto opt : enfargar_rule_sets()) {
    INFO("touch " << opt.touch << " more-stones " << opt.more_stones);
    testing::EnfargarBoard<1> b(2, opt);
    CHECK(compare_methods(b.start()) > 10);
  }
}

TEST_CASE("dense = hash retrograde: side-3 positions a few moves in", "[solver][dense]") {
  // Records: the first plies of `loom play GAME --size 3 --seed 3`. (Gadur
  // as written reaches most of its side-3 graph from any early position
  // because lone stones capture and recapture: it is compared on side 2.)
  testing::GadurBoard<1> gm(3, {false, true});
  CHECK(compare_methods(gm.play("a3 d3 d2 a1 b2 c4 b3 e5 c3"), 2) > 500);
  testing::EnfargarBoard<1> e(3, {});
  CHECK(compare_methods(e.play("a3 d3 c5 a2 b3 d2 b1 e4"), 2) > 10000);
}

TEST_CASE("dense: Enfargar's kept successor lists, all, some or none, give the same values",
          "[solver][dense][enfargar]") {
  // The same side-3 position as above, whose comparison there keeps every
  // list (the default budget); here none, and some (64 KiB: some pieces
  // of up to 4,096 positions, a byte or five a successor, fit).
  testing::EnfargarBoard<1> e(3, {});
  const auto root = e.play("a3 d3 c5 a2 b3 d2 b1 e4");
  uint64_t none = 1, some = 0;
  CHECK(compare_methods(root, 2, 0, &none) > 10000);
  CHECK(compare_methods(root, 2, 64 << 10, &some) > 10000);
  solver::RunControl ctl;
  using ES = std::remove_cvref_t<decltype(root)>;
  solver::DenseRetrograde<ES> d(root, {});
  d.run(ctl);
  const uint64_t all = d.kept_moves();
  CHECK(all == d.moves());  // moves() counts every list, kept or not
  CHECK(none == 0);
  CHECK(some > 0);
  CHECK(some < all);
}

namespace {
/// A dense solve of `root` saved as a table file and read back: the file
/// holds every stored position with its code and plies, and no other key
/// (every key of the index is asked). Then solve_position with --table
/// answers every stored position as the solve does. Returns the positions.
template <class S>
uint64_t table_round_trip(const S& root, const std::string& tag) {
  solver::RunControl ctl;
  solver::DenseRetrograde<S> d(root, {});
  d.run(ctl);
  solver::DenseTable t;
  std::map<uint32_t, std::pair<uint8_t, uint8_t>> want;
  d.for_each_solved([&](uint32_t key, uint8_t code, uint8_t plies) {
    t.add(key, code, plies);
    want[key] = {code, plies};
  });
  REQUIRE(want.size() == d.positions());
  t.root_record = "x";
  t.stats = {d.moves(), d.terminals(), d.sweeps()};
  t.neutral = d.neutral_kind();
  const std::string file = (std::filesystem::temp_directory_path() /
                            ("loom_dense_table_" + tag + "_" + std::to_string(::getpid())))
                               .string();
  t.save(file, "sig");
  const uint64_t limit = d.codec().key_count();
  const solver::DenseTable r(file, "sig", limit);
  CHECK(r.size() == d.positions());
  // The file: its arrays, their five lengths, the header and the checksum.
  CHECK(r.bytes() == t.bytes());
  CHECK(std::filesystem::file_size(file) > t.bytes());
  CHECK(std::filesystem::file_size(file) < t.bytes() + 400);
  CHECK(r.root_record == "x");
  CHECK(r.neutral == d.neutral_kind());
  CHECK(r.stats.layers == d.sweeps());
  CHECK_THROWS_AS(solver::DenseTable(file, "another", limit), InputError);
  // Every key of the index (side 2: 2 * 3^7), or a stride of them.
  const uint64_t step = limit < 100000 ? 1 : 997;
  uint64_t found = 0;
  for (uint64_t k = 0; k < limit; k += step) {
    const int64_t i = r.find(static_cast<uint32_t>(k));
    const auto it = want.find(static_cast<uint32_t>(k));
    REQUIRE((i >= 0) == (it != want.end()));
    if (i < 0) continue;
    ++found;
    REQUIRE(r.code(i) == it->second.first);
    REQUIRE(r.plies(i) == it->second.second);
  }
  for (const auto& [k, cp] : want) {
    const int64_t i = r.find(k);
    REQUIRE(i >= 0);
    REQUIRE(r.code(i) == cp.first);
    REQUIRE(r.plies(i) == cp.second);
  }
  if (step == 1) CHECK(found == want.size());
  // Through solve_position: stored positions answered from the file as a
  // fresh dense solve from each answers it (value, plies, every opening
  // with its plies, the line): every one on side 2, some 40 on side 3.
  solver::SolveOptions o;
  o.method = solver::SolveOptions::Method::kDense;
  o.table_file = {"", file, "sig", ""};
  solver::SolveOptions fresh;
  fresh.method = solver::SolveOptions::Method::kDense;
  fresh.threads = 2;
  uint64_t i = 0;
  for (const S& x : d.sample(std::max<uint64_t>(1, d.positions() / 40))) {
    INFO("stored position " << i++);
    // sample() decodes without a hash; a position of the game has one.
    const S s = x.with_board(x.stones(Color::kBlack), x.stones(Color::kWhite), x.to_move());
    const auto from_file = solver::solve_position(s, o);
    const auto solved = solver::solve_position(s, fresh);
    same_answers(from_file, solved);
    REQUIRE(from_file.pv == solved.pv);
    REQUIRE(from_file.pv_repeats == solved.pv_repeats);
    REQUIRE(from_file.table == file);
    REQUIRE(from_file.positions == d.positions());
  }
  std::filesystem::remove(file);
  return d.positions();
}
}  // namespace

TEST_CASE("dense tables: saved and read back, every key of the index asked",
          "[solver][dense][table]") {
  for (auto opt : gadur_rule_sets()) {
    INFO("gadur subset " << opt.subset << " merge-only " << opt.merge_only);
    testing::GadurBoard<1> b(2, opt);
    CHECK(table_round_trip(b.start(), "g") > 10);
  }
  for (auto opt : enfargar_rule_sets()) {
    INFO("enfargar touch " << opt.touch << " more-stones " << opt.more_stones);
    testing::EnfargarBoard<1> b(2, opt);
    CHECK(table_round_trip(b.start(), "e") > 10);
  }
  // Side 3 a few moves in: some thousands of positions, keys far apart.
  testing::GadurBoard<1> gm(3, {false, true});
  CHECK(table_round_trip(gm.play("a3 d3 d2 a1 b2 c4 b3 e5 c3"), "g3") > 500);
  testing::EnfargarBoard<1> e(3, {});
  CHECK(table_round_trip(e.play("a3 d3 c5 a2 b3 d2 b1 e4"), "e3") > 10000);
}

TEST_CASE("dense tables: a table that cannot be saved leaves the solve's report whole",
          "[solver][dense][table]") {
  testing::GadurBoard<1> b(2, {});
  solver::SolveOptions o;
  o.method = solver::SolveOptions::Method::kDense;
  o.table_file.save = "/nonexistent-loom-dir/x.table";
  o.table_file.signature = "sig";
  const auto rep = solver::solve_position(b.start(), o);
  CHECK(rep.complete);
  CHECK(rep.value.known());
  CHECK(rep.save_error.find("cannot write table") != std::string::npos);
}

TEST_CASE("the dense method through solve_position: gadur side 2, openings", "[solver][dense]") {
  testing::GadurBoard<1> b(2, {});
  solver::SolveOptions o;
  o.method = solver::SolveOptions::Method::kDense;
  auto d = solver::solve_position(b.start(), o);
  o.method = solver::SolveOptions::Method::kRetrograde;
  auto r = solver::solve_position(b.start(), o);
  CHECK(d.method == "dense");
  same_answers(d, r);
  // auto: the hash retrograde for a small job; past o.auto_dense_above
  // positions the dense method, unless the run asks for a position limit,
  // a checkpoint or a deadline.
  o.method = solver::SolveOptions::Method::kAuto;
  const auto small = solver::solve_position(b.start(), o);
  CHECK(small.method == "retrograde");
  CHECK(small.positions == r.positions);
  o.auto_dense_above = 20;
  const auto large = solver::solve_position(b.start(), o);
  CHECK(large.method == "dense");
  CHECK(large.note.find("auto: the dense method") != std::string::npos);
  CHECK(large.positions == d.positions);
  same_answers(large, r);
  for (int limit = 0; limit < 3; ++limit) {
    solver::SolveOptions l = o;
    if (limit == 0) l.max_positions = 30;  // below the job's 61 positions
    if (limit == 1) l.deadline_seconds = 1000;
    if (limit == 2) l.outer_stop = true;
    CHECK(solver::solve_position(b.start(), l).method == "retrograde");
    // loom audit: those bound the hash retrograde only; the job goes on by
    // the dense method past the smaller of the two limits.
    l.dense_past_limit = true;
    if (limit == 0) l.auto_dense_above = 200'000;
    const auto past = solver::solve_position(b.start(), l);
    CHECK(past.method == "dense");
    CHECK(past.note.find(limit == 0 ? "larger than 30 positions" : "larger than 20 positions") !=
          std::string::npos);
    same_answers(past, r);
  }
  testing::EnfargarBoard<1> e(2, {});
  CHECK(solver::solve_position(e.start(), o).method == "dense");
  o.auto_dense_above = 0;
  CHECK(solver::solve_position(e.start(), o).method == "retrograde");
  o.method = solver::SolveOptions::Method::kDense;
  o.max_positions = 1000;
  CHECK_THROWS_AS(solver::solve_position(b.start(), o), InputError);
}

namespace {
solver::SolveReport solve_dense(const auto& root) {
  solver::SolveOptions o;
  o.method = solver::SolveOptions::Method::kDense;
  o.threads = 2;
  return solver::solve_position(root, o);
}
std::string openings_text(const solver::SolveReport& r) {
  std::string s;
  for (const auto& op : r.openings)
    s += op.move + ":" + op.value.text() + ":" + std::to_string(op.plies) + " ";
  return s;
}
}  // namespace

// Expected values: README "Exact results" (hash retrograde, 2026-11-29;
// merge-only also alpha-beta).
TEST_CASE("dense: gadur side 3 from the empty board", "[solver][dense][.slow]") {
  testing::GadurBoard<1> b(3, {});
  auto r = solve_dense(b.start());
  CHECK(r.value.kind == solver::Value::Kind::kDraw);
  for (const auto& op : r.openings) CHECK(op.value.kind == solver::Value::Kind::kDraw);
  CHECK(r.openings.size() == 4);
  testing::GadurBoard<1> m(3, {false, true});
  auto rm = solve_dense(m.start());
  CHECK(rm.value.kind == solver::Value::Kind::kBlack);
  CHECK(rm.plies == 30);
  CHECK(openings_text(rm).find("c3:black") != std::string::npos);
  for (const auto& op : rm.openings)
    if (op.move != "c3") CHECK(op.value.kind == solver::Value::Kind::kWhite);
}

TEST_CASE("dense: enfargar side 3 from the empty board", "[solver][dense][.slow]") {
  testing::EnfargarBoard<1> b(3, {});
  auto r = solve_dense(b.start());
  CHECK(r.value.kind == solver::Value::Kind::kStall);
  CHECK(r.plies == 25);
  CHECK(openings_text(r) == "a1:stall:24 a2:stall:24 b2:stall:24 c3:stall:23 ");
}

// The side-3 rule variants (findings.md: Gadur 4, Enfargar 8), each but
// Gadur exception=subset as written (cycles: the hash retrograde, 5 minutes
// and 3.6 GB, agreed once; README) against forward search (2026-12-06).
TEST_CASE("dense: the side-3 rule variants, against forward search where it applies",
          "[solver][dense][.slow]") {
  const auto with = [](auto root, solver::SolveOptions::Method m) {
    solver::SolveOptions o;
    o.method = m;
    o.pv = false;
    return solver::solve_position(root, o);
  };
  {  // Gadur exception=subset capture=merge-only: White wins, every opening.
    testing::GadurBoard<1> b(3, {true, true});
    auto r = solve_dense(b.start());
    CHECK(r.value.kind == solver::Value::Kind::kWhite);
    CHECK(r.plies == 29);
    CHECK(openings_text(r) == "a1:white:22 a2:white:22 b2:white:18 c3:white:28 ");
    auto f = with(b.start(), solver::SolveOptions::Method::kDfpn);
    CHECK(f.value.kind == solver::Value::Kind::kWhite);
    for (const auto& op : f.openings) CHECK(op.value.kind == solver::Value::Kind::kWhite);
  }
  {  // Gadur exception=subset: a draw, but the centre opening loses.
    testing::GadurBoard<1> b(3, {true, false});
    auto r = solve_dense(b.start());
    CHECK(r.value.kind == solver::Value::Kind::kDraw);
    CHECK(openings_text(r) == "a1:draw:-1 a2:draw:-1 b2:draw:-1 c3:white:24 ");
  }
  // Enfargar: stall=more-stones, with and without edge=touch; edge=touch.
  const std::vector<std::tuple<enfargar::Options, solver::Value::Kind, int, std::string>> enf = {
      {{false, true},
       solver::Value::Kind::kBlack,
       20,
       "a1:white:19 a2:black:20 b2:black:19 c3:black:19 "},
      {{true, true},
       solver::Value::Kind::kBlack,
       21,
       "a1:black:20 a2:black:20 b2:black:20 c3:black:20 "},
      {{true, false},
       solver::Value::Kind::kStall,
       23,
       "a1:stall:22 a2:stall:22 b2:stall:22 c3:stall:22 "}};
  for (const auto& [opt, kind, plies, openings] : enf) {
    INFO("touch " << opt.touch << " more-stones " << opt.more_stones);
    testing::EnfargarBoard<1> b(3, opt);
    auto r = solve_dense(b.start());
    CHECK(r.value.kind == kind);
    CHECK(r.plies == plies);
    CHECK(openings_text(r) == openings);
    auto d = with(b.start(), solver::SolveOptions::Method::kDfs);
    CHECK(d.value.kind == kind);
    REQUIRE(d.openings.size() == r.openings.size());
    for (size_t i = 0; i < d.openings.size(); ++i)
      CHECK(d.openings[i].value.kind == r.openings[i].value.kind);
  }
}

// Position by position on a whole side-3 game (the hash retrograde takes
// about 3 CPU minutes and 1.8 GB here).
TEST_CASE("dense = hash retrograde: gadur side 3 merge-only from the empty board, every position",
          "[solver][dense][.slow]") {
  testing::GadurBoard<1> m(3, {false, true});
  CHECK(compare_methods(m.start(), 2) > 20000000);
}

TEST_CASE("dense keys: a move's and a board change's keys equal the canonical key",
          "[solver][dense]") {
  // moved_key (SSE4.1 lanes where built with them) and changed_key add digit
  // changes to a board's 12 images; canonical computes the key afresh.
  for (int side : {2, 3}) {
    const HexGeometry& g = HexGeometry::get(side);
    solver::DenseCodec codec(g, true);
    std::mt19937_64 rng(5 + side);
    std::vector<int> sites(g.sites().begin(), g.sites().end());
    int checked = 0;
    for (int t = 0; t < 20000; ++t) {
      uint64_t b = 0, w = 0, b2 = 0, w2 = 0;
      for (int s : sites) {  // digits 0 empty, 1 Black, 2 White; a quarter change
        const uint64_t bit = uint64_t{1} << s;
        const auto d = rng() % 3, d2 = rng() % 4 ? d : rng() % 3;
        b |= d == 1 ? bit : 0;
        w |= d == 2 ? bit : 0;
        b2 |= d2 == 1 ? bit : 0;
        w2 |= d2 == 2 ? bit : 0;
      }
      const Color side_to_move = rng() % 2 ? Color::kBlack : Color::kWhite;
      uint32_t img[12];
      codec.images(b, w, side_to_move, img);
      REQUIRE(codec.changed_key(img, b, w, b2, w2) == codec.canonical(b2, w2, side_to_move));
      // A placement of Black on an empty site that takes some white stones.
      const uint64_t empty_sites = ~(b | w);
      int site = -1;
      for (int s : sites)
        if ((empty_sites >> s) & 1) site = s;
      if (site < 0) continue;
      const uint64_t taken = w & rng();
      REQUIRE(codec.moved_key(img, site, 1, taken, 0u - 2) ==
              codec.canonical(b | uint64_t{1} << site, w & ~taken, side_to_move));
      ++checked;
    }
    CHECK(checked > 1000);
  }
}

namespace {
/// A thread body whose copy fails as a thread that cannot start does
/// (std::thread copies its function before the thread exists).
struct Unstartable {
  Unstartable() = default;
  Unstartable(const Unstartable&) {
    throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
  }
  void operator()() const {}
};

/// A thread body whose third copy fails to start; the started ones wait
/// (up to 10 s) for the stop flag and count whether they saw it.
struct FailsThird {
  std::atomic<int>* copies;
  std::atomic<bool>* stop;
  std::atomic<int>* saw_stop;
  FailsThird(std::atomic<int>* c, std::atomic<bool>* s, std::atomic<int>* w)
      : copies(c), stop(s), saw_stop(w) {}
  FailsThird(const FailsThird& o) : copies(o.copies), stop(o.stop), saw_stop(o.saw_stop) {
    if (++*copies == 3)
      throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
  }
  FailsThird(FailsThird&&) = default;
  void operator()(int) const {
    for (int i = 0; i < 10000 && !*stop; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (*stop) ++*saw_stop;
  }
};
}  // namespace

TEST_CASE("a thread that cannot start is bad input after the others are joined",
          "[solver][threads]") {
  std::atomic<int> done{0};
  const auto slow = [&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ++done;
  };
  bool thrown = false;
  try {
    solver::ThreadGroup g;
    g.start(slow);
    g.start(slow);
    g.start(Unstartable{});
  } catch (const InputError& e) {
    thrown = true;
    CHECK(std::string(e.what()).find("2 started): try fewer --threads") != std::string::npos);
    // Both started threads ran to the end before the error left the group
    // (an unjoined std::thread would have ended the program).
    CHECK(done == 2);
  }
  CHECK(thrown);
  // start_each: threads that run until told to stop are told before the
  // group joins them (the solvers' stop flags).
  std::atomic<int> copies{0}, saw_stop{0};
  std::atomic<bool> stop{false};
  const FailsThird body(&copies, &stop, &saw_stop);
  REQUIRE_THROWS_AS(
      [&] {
        solver::ThreadGroup g;
        g.start_each(0, 4, body, [&] { stop = true; });
      }(),
      InputError);
  CHECK(saw_stop == 2);
}

TEST_CASE("an error in a parallel slice keeps its type", "[solver][threads]") {
  // One slice throws bad input: it arrives as InputError (exit status 2),
  // not as an internal error; an allocation failure stays one (out of
  // memory, also 2).
  std::atomic<uint64_t> ran{0};
  REQUIRE_THROWS_AS(solver::parallel_slices(2, 1000, 10,
                                            [&](int, uint64_t lo, uint64_t) {
                                              ++ran;
                                              if (lo == 500) throw InputError("slice 50");
                                            }),
                    InputError);
  CHECK(ran >= 51);  // every slice taken up to the one that threw ran
  CHECK(ran <= 100);
  REQUIRE_THROWS_AS(solver::parallel_slices(
                        2, 1000, 10, [&](int, uint64_t, uint64_t) { throw std::bad_alloc(); }),
                    std::bad_alloc);
}
