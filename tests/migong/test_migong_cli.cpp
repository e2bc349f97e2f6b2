// `loom` for Migong (CONVENTIONS.md, docs/cli.md): moves, perft, show, score,
// rules, --edges FILE and `loom edges`, driven in process.
#include <rapidcheck/catch.h>
#include <catch2/catch.hpp>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

#include "model/migong/edges.h"
#include "tests/common/cli_run.h"
#include "tests/migong/migong_fixture.h"
#include "tests/migong/naive_migong.h"

using namespace loom;
using loom::testing::lines;
using loom::testing::run;
using loom::testing::Run;

namespace {

/// A temporary file removed at the end of the test.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& text) {
    static int counter = 0;
    path = "/tmp/loom_migong_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) +
           ".txt";
    std::ofstream(path) << text;
  }
  ~TempFile() { std::remove(path.c_str()); }
};

/// A random game of the naive reference to its end: (record, final position).
std::pair<std::string, naive::Migong::Pos> naive_game(const naive::Migong& ref, unsigned seed) {
  std::mt19937 rng(seed);
  auto p = ref.start();
  std::string record;
  for (;;) {
    auto ms = ref.legal(p);
    if (ms.empty()) break;
    auto m = ms[rng() % ms.size()];
    record += (record.empty() ? "" : " ") + m;
    p = ref.play(p, m);
  }
  return {record, p};
}

}  // namespace

TEST_CASE("loom moves migong prints the naive reference's moves, sorted", "[migong][cli]") {
  naive::Migong ref(3);
  auto r = run({"moves", "migong", "--size", "3"});
  REQUIRE(r.code == 0);
  CHECK(lines(r.out) == ref.legal(ref.start()));
  auto [record, end] = naive_game(ref, 7);
  // Every prefix of a random game.
  std::istringstream in(record);
  std::string tok, prefix;
  auto p = ref.start();
  int checked = 0;
  while (in >> tok) {
    prefix += (prefix.empty() ? "" : " ") + tok;
    p = ref.play(p, tok);
    auto m = run({"moves", "migong", "--size", "3", "--record", prefix});
    REQUIRE(m.code == 0);
    CHECK(lines(m.out) == ref.legal(p));
    ++checked;
  }
  CHECK(checked >= 10);
  // The game is over: no moves, and any further token is illegal.
  auto over = run({"moves", "migong", "--size", "3", "--record", record});
  CHECK(over.code == 0);
  CHECK(over.out.empty());
  auto bad = run({"moves", "migong", "--size", "3", "--record", record + " pass"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("over") != std::string::npos);
}

TEST_CASE("loom perft migong prints the leaf count last", "[migong][cli]") {
  naive::Migong ref(2);
  auto r = run({"perft", "migong", "--size", "2", "--depth", "4"});
  REQUIRE(r.code == 0);
  CHECK(lines(r.out).back() == std::to_string(ref.perft(ref.start(), 4)));
  auto d = run({"perft", "migong", "--size", "2", "--depth", "2", "--divide"});
  REQUIRE(d.code == 0);
  auto ls = lines(d.out);
  CHECK(ls.back() == std::to_string(ref.perft(ref.start(), 2)));
  CHECK(ls.size() == ref.legal(ref.start()).size() + 1);
  CHECK(run({"perft", "migong", "--depth", "0"}).out == "1\n");
  naive::Migong pie(2, false, true);
  auto rp = run({"perft", "migong", "--size", "2", "--rule", "pie=on", "--depth", "3"});
  CHECK(lines(rp.out).back() == std::to_string(pie.perft(pie.start(), 3)));
}

TEST_CASE("loom score migong prints groups, counts, scores and the winner", "[migong][cli]") {
  for (unsigned seed : {1u, 2u, 3u, 4u}) {
    for (bool wedges : {false, true}) {
      naive::Migong ref(3, wedges);
      auto [record, end] = naive_game(ref, seed);
      std::vector<std::string> args = {"score", "migong", "--size", "3", "--record", record};
      if (wedges) args.insert(args.end(), {"--rule", "measure=wedges"});
      auto r = run(args);
      REQUIRE(r.code == 0);
      INFO(r.out);
      auto gs = ref.groups(end);
      int b = ref.score(gs, 'B'), y = ref.score(gs, 'Y');
      CHECK(lines(r.out)[0] == std::string("measure ") + (wedges ? "wedges" : "extent"));
      CHECK(r.out.find("score blue " + std::to_string(b) + " yellow " + std::to_string(y) + "\n") !=
            std::string::npos);
      std::string winner = ref.winner_seat(end) == 0 ? "blue" : "yellow";
      CHECK(r.out.find("winner " + winner + " (") != std::string::npos);
      int nb = 0;
      for (const auto& g : gs) nb += g.colour == 'B';
      CHECK(r.out.find("blue groups " + std::to_string(nb) + ":") != std::string::npos);
    }
  }
  auto mid = run({"score", "migong", "--size", "3", "--record", "BBBBYB@a1"});
  REQUIRE(mid.code == 0);
  CHECK(mid.out.find("winner none yet") != std::string::npos);
  CHECK(run({"score", "gadur"}).code == 2);
}

TEST_CASE("measure=wedges changes the winner of about one random side-3 game in nine", "[migong]") {
  // docs/findings.md (Migong 5): 2,000 uniformly random games of the naive
  // reference (seeds 1..2000), each winner found by the reference under
  // both measures and by the engine replaying the record under both.
  naive::Migong extent(3, false), wedges(3, true);
  testing::MigongBoard<1> be(3, migong::Options{}), bw(3, migong::Options{.wedges = true});
  int changed = 0, agree = 0;
  for (unsigned seed = 1; seed <= 2000; ++seed) {
    auto [record, end] = naive_game(extent, seed);
    const int we = extent.winner_seat(end), ww = wedges.winner_seat(end);
    changed += we != ww;
    const auto oe = be.play(record, be.start()).outcome();
    const auto ow = bw.play(record, bw.start()).outcome();
    agree += (oe == Outcome::win(we == 0 ? Color::kBlack : Color::kWhite)) &&
             (ow == Outcome::win(ww == 0 ? Color::kBlack : Color::kWhite));
  }
  CHECK(agree == 2000);
  CHECK(changed == 221);
}

TEST_CASE("loom show migong draws pieces, constraints and the side to move", "[migong][cli]") {
  auto r = run({"show", "migong", "--size", "3", "--record", "BBBBYB@a1"});
  REQUIRE(r.code == 0);
  auto ls = lines(r.out);
  CHECK(ls.size() == 3 * 5 + 3);
  CHECK(r.out.find("Yellow to move") != std::string::npos);
  CHECK(r.out.find("Blue: 1 pieces placed, 62 left") != std::string::npos);
  // a1 is drawn as its wedges around the set mark: " B B ", "B b B", " Y B ".
  CHECK(r.out.find("B b B") != std::string::npos);
  auto def = run({"show", "migong"});
  REQUIRE(def.code == 0);
  CHECK(lines(def.out).size() == 3 * 13 + 3);
}

TEST_CASE("loom rules migong lists the measure and pie options", "[migong][cli]") {
  auto r = run({"rules", "migong"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("--rule measure=extent (default)|wedges") != std::string::npos);
  CHECK(r.out.find("--rule pie=off (default)|on") != std::string::npos);
  CHECK(r.out.find("size: 2..13 (default 7)") != std::string::npos);
}

TEST_CASE("pie=on makes swap legal on Yellow's first turn only", "[migong][cli]") {
  auto plain = run({"moves", "migong", "--size", "3", "--record", "BBBBYB@a1"});
  CHECK(plain.out.find("swap") == std::string::npos);
  auto pie = run({"moves", "migong", "--size", "3", "--rule", "pie=on", "--record", "BBBBYB@a1"});
  CHECK(lines(pie.out).back() == "swap");  // 'Y' < 's' in byte order
  auto after =
      run({"show", "migong", "--size", "3", "--rule", "pie=on", "--record", "BBBBYB@a1 swap"});
  REQUIRE(after.code == 0);
  CHECK(after.out.find("Yellow (the first player) to move") != std::string::npos);
  auto again = run(
      {"moves", "migong", "--size", "3", "--rule", "pie=on", "--record", "BBBBYB@a1 swap swap"});
  CHECK(again.code == 2);
  CHECK(again.err.find("move 3 'swap'") != std::string::npos);
  CHECK(run({"moves", "migong", "--size", "3", "--record", "BBBBYB@a1 swap"}).code == 2);
}

TEST_CASE("pie=on: the pie column of pie=off says when the swap wins, and seats are named",
          "[migong][cli]") {
  // The pie column under pie=on used to read "keep" after every opening,
  // the swap after BBBBYB@a1 included, which the solver's own line played.
  auto off = run({"solve", "migong", "--size", "2", "--json"});
  REQUIRE(off.code == 0);
  const auto table = loom::testing::last_json(off.out)["openings"];
  REQUIRE(table.size() == 6);
  int swaps = 0;
  for (const auto& o : table) {
    const std::string x = o["move"].get<std::string>(), d = o["pie"].get<std::string>();
    INFO(x << " pie: " << d);
    REQUIRE((d == "swap" || d == "keep"));
    swaps += d == "swap";
    // With the swap a move, the second seat ("white") wins after every
    // opening, by swapping exactly where the column says so.
    auto on = run({"solve", "migong", "--size", "2", "--rule", "pie=on", "--record", x, "--json"});
    REQUIRE(on.code == 0);
    CHECK(loom::testing::last_json(on.out)["value"] == "white");
    auto swapped = run(
        {"solve", "migong", "--size", "2", "--rule", "pie=on", "--record", x + " swap", "--json"});
    REQUIRE(swapped.code == 0);
    CHECK((loom::testing::last_json(swapped.out)["value"] == "white") == (d == "swap"));
  }
  CHECK(swaps == 2);  // BBBBYB@a1 and YBYBYB@a2 (docs/findings.md)
  auto on = run({"solve", "migong", "--size", "2", "--rule", "pie=on"});
  REQUIRE(on.code == 0);
  CHECK(on.out.find("value: second player wins") != std::string::npos);
  CHECK(on.out.find("pie: ") == std::string::npos);
  CHECK(on.out.find("Yellow") == std::string::npos);
  CHECK(on.out.find("first player to move") != std::string::npos);
  // loom play names the winner's colour, and its seat after a swap, as
  // loom show does ("result: Yellow" was the seat for a Blue win).
  int seen = 0;
  for (int seed = 1; seed <= 50; ++seed) {
    auto p =
        run({"play", "migong", "--size", "2", "--rule", "pie=on", "--seed", std::to_string(seed)});
    REQUIRE(p.code == 0);
    std::string record;
    for (const auto& l : lines(p.out)) {
      const auto dot = l.find(". ");
      if (!l.empty() && std::isdigit(static_cast<unsigned char>(l[0])) && dot != std::string::npos)
        record += (record.empty() ? "" : " ") + l.substr(dot + 2);
    }
    if (record.find(" swap") == std::string::npos) continue;
    ++seen;
    auto s = run({"show", "migong", "--size", "2", "--rule", "pie=on", "--record", record});
    REQUIRE(s.code == 0);
    const std::string result = lines(p.out).back();
    INFO(record << " / " << result);
    const bool blue = s.out.find("Blue wins") != std::string::npos;
    CHECK(result.rfind(blue ? "result: Blue (the " : "result: Yellow (the ", 0) == 0);
  }
  CHECK(seen == 2);  // seeds 40 and 45 swap
}

TEST_CASE("migong --edges FILE loads a colouring and loom edges prints one", "[migong][cli]") {
  auto printed = run({"edges", "migong", "--size", "3"});
  REQUIRE(printed.code == 0);
  CHECK(migong::EdgeColouring::parse(printed.out, 3) == migong::EdgeColouring::standard(3));
  CHECK(run({"edges", "migong"}).out == migong::EdgeColouring::standard(7).to_text());

  // The default written to a file gives the default game.
  TempFile same(printed.out);
  auto a = run({"moves", "migong", "--size", "3", "--edges", same.path});
  auto b = run({"moves", "migong", "--size", "3"});
  REQUIRE(a.code == 0);
  CHECK(a.out == b.out);
  CHECK(run({"edges", "migong", "--size", "3", "--edges", same.path}).out == printed.out);

  // Every colour exchanged: Blue's first moves are Yellow's patterns with the
  // colours exchanged, so the all-Yellow-rim cell a1 now takes YYYYBY.
  TempFile inv(migong::EdgeColouring::standard(3).inverted().to_text());
  const std::string side2_inverted = migong::EdgeColouring::standard(2).inverted().to_text();
  auto c = run({"moves", "migong", "--size", "3", "--edges", inv.path});
  REQUIRE(c.code == 0);
  CHECK(c.out != b.out);
  CHECK(c.out.find("YYYYBY@a1\n") != std::string::npos);
  CHECK(b.out.find("BBBBYB@a1\n") != std::string::npos);
  CHECK(b.out.find("YYYYBY@a1\n") == std::string::npos);

  // A result under a colouring from a file names it (headline and JSON): it
  // is another game's result. The same colouring has the same digest.
  TempFile inv2(side2_inverted);
  auto s1 = run({"solve", "migong", "--size", "2", "--edges", inv2.path, "--json"});
  REQUIRE(s1.code == 0);
  CHECK(s1.out.find("edges from '" + inv2.path + "' (digest ") != std::string::npos);
  const auto j1 = loom::testing::last_json(s1.out);
  CHECK(j1["edges"]["file"] == inv2.path);
  TempFile inv3(side2_inverted);
  const auto j2 = loom::testing::last_json(
      run({"solve", "migong", "--size", "2", "--edges", inv3.path, "--json"}).out);
  CHECK(j2["edges"]["digest"] == j1["edges"]["digest"]);
  TempFile std2(migong::EdgeColouring::standard(2).to_text());
  const auto j3 = loom::testing::last_json(
      run({"solve", "migong", "--size", "2", "--edges", std2.path, "--json"}).out);
  CHECK(j3["edges"]["digest"] != j1["edges"]["digest"]);
  // The built-in default names none.
  CHECK(!loom::testing::last_json(run({"solve", "migong", "--size", "2", "--json"}).out)
             .contains("edges"));
  auto p = run({"play", "migong", "--size", "2", "--edges", inv2.path, "--seed", "1"});
  CHECK(lines(p.out).front().find("edges from '" + inv2.path + "'") != std::string::npos);
}

TEST_CASE("bad migong input exits 2 with one line", "[migong][cli]") {
  TempFile bad("size 3\na1 W Q\n");
  TempFile wrong_size(migong::EdgeColouring::standard(2).to_text());
  testing::check_bad_inputs({
      {{"moves", "migong", "--size", "3", "--record", "BBBBBB@c3"}, "move 1 'BBBBBB@c3': illegal"},
      {{"moves", "migong", "--size", "3", "--record", "BBBBYB@a1 BBBBYB@a1"}, "move 2"},
      {{"moves", "migong", "--size", "3", "--record", "BBBBBB@a1"}, "move 1 'BBBBBB@a1'"},
      {{"moves", "migong", "--size", "3", "--record", "bbbbyb@a1"}, "malformed"},
      {{"moves", "migong", "--size", "3", "--record", "pass"}, "move 1 'pass': illegal"},
      {{"moves", "migong", "--size", "3", "--record", "swap"}, "move 1 'swap': illegal"},
      {{"moves", "migong", "--size", "3", "--record", "a1"}, "malformed"},
      {{"moves", "migong", "--size", "1"}, "size"},
      {{"moves", "migong", "--size", "14"}, "size"},
      {{"moves", "migong", "--rule", "measure=area"}, "measure"},
      {{"moves", "migong", "--rule", "pie=yes"}, "pie"},
      {{"moves", "migong", "--setup", "d4 c3"}, "--setup"},
      {{"moves", "migong", "--edges", "/nonexistent/file"}, "--edges '/nonexistent/file'"},
      {{"moves", "migong", "--edges", "/tmp"}, "directory"},
      {{"moves", "migong", "--size", "3", "--edges", bad.path}, "line 2: colour must be B or Y"},
      {{"moves", "migong", "--size", "3", "--edges", wrong_size.path}, "side 2"},
      {{"edges", "gadur"}, "gadur has no edge colours"},
      {{"edges", "migong", "--size", "99"}, "size"},
      {{"edges", "migong", "--edges", bad.path}, "--edges"},
  });
}

TEST_CASE("random migong records never crash loom", "[migong][cli]") {
  rc::prop("exit 0 or 2, one error line", [] {
    const std::vector<std::string> vocab = {
        "BBBBYB@a1", "YYYBYB@b1", "BBBBBB@d3", "YBYBYY@b2", "pass", "swap",     "BYYBBY@c3",
        "YYYYYY@e5", "BBBBBB@a1", "@",         "BYYBBY@",   "x",    "BYYBBY@z1"};
    auto picks =
        *rc::gen::container<std::vector<size_t>>(rc::gen::inRange<size_t>(0, vocab.size()));
    std::string record;
    for (size_t i : picks) record += vocab[i] + " ";
    std::string cmd = *rc::gen::element<std::string>("moves", "show", "score", "perft");
    std::vector<std::string> args = {cmd, "migong", "--size", "3", "--record", record};
    if (*rc::gen::arbitrary<bool>()) args.insert(args.end(), {"--rule", "pie=on"});
    if (cmd == "perft") args.insert(args.end(), {"--depth", "1"});
    auto r = run(args);
    RC_ASSERT(r.code == 0 || r.code == 2);
    if (r.code == 2) RC_ASSERT(lines(r.err).size() == 1u);
  });
}
