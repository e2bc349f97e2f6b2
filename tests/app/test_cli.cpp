// The `loom` command-line contract (CONVENTIONS.md), driven in process, and
// the garbage-input property: any command line exits 0 or 2, never crashes,
// and an error is exactly one line on standard error.
#include <rapidcheck/catch.h>
#include <catch2/catch.hpp>

#include <sstream>

#include "tests/common/cli_run.h"
#include "tests/gadur/naive_gadur.h"

using namespace loom;
using loom::testing::lines;
using loom::testing::run;
using loom::testing::Run;

TEST_CASE("loom moves gadur prints the sorted legal moves", "[cli]") {
  auto r = run({"moves", "gadur", "--size", "4", "--record", "d4 c3 e5"});
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());
  // Expected list from the naive reference, sorted in byte order.
  naive::Gadur ref(4, false, false);
  auto p = ref.start();
  for (auto [q, rr] : {std::pair{3, 3}, {2, 2}, {4, 4}}) p = ref.play(p, ref.cell_of(q, rr));
  std::vector<std::string> expect;
  for (int c : ref.legal(p)) expect.push_back(ref.name(c));
  std::sort(expect.begin(), expect.end());
  CHECK(lines(r.out) == expect);
  CHECK(std::is_sorted(expect.begin(), expect.end()));
}

TEST_CASE("loom perft prints the leaf count as the last line", "[cli]") {
  auto r = run({"perft", "gadur", "--size", "3", "--depth", "5"});
  REQUIRE(r.code == 0);
  CHECK(lines(r.out).back() == "717906");  // tests/data/gadur_perft.txt (naive reference)
  auto d = run({"perft", "gadur", "--size", "3", "--depth", "3", "--divide"});
  REQUIRE(d.code == 0);
  auto ls = lines(d.out);
  CHECK(ls.back() == "4788");
  CHECK(ls.size() == 20);  // 19 first moves + total
  CHECK(run({"perft", "gadur", "--depth", "0"}).out == "1\n");
  auto v = run({"perft", "gadur", "--size", "2", "--depth", "10", "--rule", "capture=merge-only",
                "--rule", "exception=subset"});
  CHECK(lines(v.out).back() == "0");
}

TEST_CASE("loom show draws the board with counts and side to move", "[cli]") {
  auto r = run({"show", "gadur", "--record", "d4 c3 e5"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("white to move") != std::string::npos);
  CHECK(r.out.find("1 stones") != std::string::npos);
  CHECK(lines(r.out).size() == 7 + 2);
}

TEST_CASE("bad input exits 2 with one line naming the problem", "[cli]") {
  testing::check_bad_inputs({
      {{"moves", "gadur", "--size", "3", "--record", "zz99"}, "move 1 'zz99'"},
      {{"moves", "gadur", "--record", "d4 d4"}, "move 2 'd4'"},
      {{"moves", "gadur", "--record", "d4 c3 c3"}, "move 3 'c3'"},
      {{"moves", "gadur", "--record", "pass"}, "move 1 'pass'"},
      {{"perft", "nosuchgame", "--depth", "1"}, "unknown game"},
      {{"moves", "gadur", "--size", "0"}, "size"},
      {{"moves", "gadur", "--size", "14"}, "size"},
      {{"moves", "gadur", "--size", "x"}, "size"},
      {{"moves", "gadur", "--rule", "capture=never"}, "capture"},
      {{"moves", "gadur", "--rule", "ko=on"}, "unknown rule"},
      {{"moves", "gadur", "--dice", "65"}, "dice"},
      {{"perft", "gadur"}, "depth"},
      // A Long Nardy option given to a board game (it was silently ignored).
      {{"play", "gadur", "--size", "2", "--positions"}, "--positions is not used by gadur"},
      {{"perft", "gadur", "--depth", "-2"}, "depth"},
      // One stack frame a ply: a huge depth once overflowed the stack (exit 139).
      {{"perft", "gadur", "--size", "2", "--depth", "100000"}, "integer 0..1000"},
      {{"perft", "gadur", "--depth", "1001"}, "integer 0..1000"},
      {{"perft", "nardy", "--depth", "100000"}, "integer 0..1000"},
      {{"moves"}, "game"},
      {{"frobnicate"}, ""},
      // CLI11 alone said "A subcommand is required" to each of these.
      {{"puzzle", "foo"}, "unknown puzzle command 'foo' (known: make, check"},
      {{"puzzle", "--bogus"}, "puzzle needs a command first (known: make, check"},
      {{"puzzle"}, "puzzle needs a command first"},
      {{"--bogus"}, "unknown option '--bogus': a command comes first"},
      {{}, "command"},
      // CLI11 alone said "The following arguments were not expected: 65
      // --dice" and "--method:  not in {...}".
      {{"moves", "gadur", "--bogus"},
       "unknown option '--bogus' for loom moves; try loom moves --help"},
      {{"perft", "nardy", "--dice", "65", "--depth", "1"},
       "unknown option '--dice' for loom perft"},
      {{"perft", "gadur", "--depth", "1", "extra"}, "unexpected argument 'extra' for loom perft"},
      {{"puzzle", "check", "x.jsonl", "-z"}, "unknown option '-z' for loom puzzle check"},
      // An option before the command was said to be the command's own, and
      // a stray negative number was called an option.
      {{"--bogus", "perft", "gadur", "--depth", "1"},
       "unknown option '--bogus' before the command; options follow it (loom perft --bogus)"},
      {{"perft", "gadur", "--depth", "1", "-5"}, "unexpected argument '-5' for loom perft"},
      {{"-5", "perft", "gadur", "--depth", "1"},
       "unexpected argument '-5' before the command; try loom --help"},
      // An option between a command and its own command is the outer one's.
      {{"puzzle", "--json", "check", "x.jsonl"},
       "unknown option '--json' for loom puzzle; try loom puzzle --help"},
      // CLI11 checks what is required before what is left over: each said
      // "path is required" or "--depth is required".
      {{"puzzle", "check", "--x"},
       "unknown option '--x' for loom puzzle check; try loom puzzle check --help"},
      {{"puzzle", "--x", "check"}, "unknown option '--x' for loom puzzle; try loom puzzle --help"},
      {{"perft", "gadur", "--bogus"}, "unknown option '--bogus' for loom perft"},
      {{"puzzle", "check"}, "path is required"},
      {{"solve", "nardy", "--rule", "checkers=1", "--db="}, "--db: needs a value"},
      {{""}, "unknown command '' (known: moves"},
      // CLI11's own wording, with the user's bytes raw.
      {{"perft", "gadur", "--size", "2", "--depth", "1", "--divide=m\x1b[31"},
       "--divide: cannot read 'm\\x1b[31' (a flag takes no value: write --divide alone)"},
      {{"moves", "gadur", "--size", "2", "--size", "3"}, "--size: given more than once"},
      {{"solve", "gadur", "--size", "2", "--method", "\x1b[31mRED"},
       "--method: '\\x1b[31mRED' is not a method"},
      {{"puzzle", "make", "nardy", "--min-gap", "abc", "--count", "1", "--seed", "1", "--out", "x"},
       "--min-gap: 'abc' is not a decimal number (expected a chance 0.000001..0.999, e.g. 0.02)"},
      {{"puzzle", "make", "nardy", "--min-gap", "1e-3", "--count", "1", "--seed", "1", "--out",
        "x"},
       "--min-gap: '1e-3' is not a decimal number"},
      {{"solve", "gadur", "--size", "2", "--checkpoint-interval", "-1"},
       "--checkpoint-interval: '-1' is negative"},
      // A decimal too long to read was "not a decimal number" (a helper's find).
      {{"verify", "gadur", "--query", "no-legal-placement", "--seconds",
        "0.00100000000000000000000000000001"},
       "--seconds: '0.00100000000000000000000000000001' has more than 32 characters"},
      {{"solve", "gadur", "--size", "2", "--method", ""}, "--method: '' is not a method (auto,"},
      {{"moves", "fiodar", "--size", "3", "--record", "c3 c3"}, "move 2 'c3'"},
      {{"moves", "gadur", "--setup", "d4 c3"}, "--setup"},
      {{"moves", "gadur", "--edges", "/nonexistent"}, "--edges"},
      {{"moves", "gadur", "--position", "W:0"}, "--position"},
  });
}

TEST_CASE("every command's help shows examples", "[cli]") {
  // audit, render and puzzle make/check showed none, only the top-level
  // footer that points back at COMMAND --help.
  for (const std::vector<std::string>& cmd :
       std::vector<std::vector<std::string>>{{"moves"},
                                             {"perft"},
                                             {"show"},
                                             {"rules"},
                                             {"score"},
                                             {"play"},
                                             {"solve"},
                                             {"verify"},
                                             {"edges"},
                                             {"audit"},
                                             {"render"},
                                             {"puzzle"},
                                             {"puzzle", "make"},
                                             {"puzzle", "check"}}) {
    auto args = cmd;
    args.push_back("--help");
    auto r = run(args);
    INFO(cmd.back());
    CHECK(r.code == 0);
    std::string first = "loom";
    for (const auto& w : cmd) first += " " + w;
    CHECK(r.out.find("Examples:\n  " + first) != std::string::npos);
    CHECK(r.out.find("for a command's options and examples") == std::string::npos);
  }
}

TEST_CASE("play on a board game names the job and numbers on from the record", "[cli]") {
  // The header said only "fiodar, seed 1" and the numbering restarted at 1,
  // so a game played from a record or set-up could not be replayed.
  auto r = run({"play", "gadur", "--size", "2", "--record", "a1 b3", "--seed", "4"});
  REQUIRE(r.code == 0);
  const auto ls = lines(r.out);
  REQUIRE(ls.size() >= 3);
  CHECK(ls[0] ==
        "gadur side 2 (exception=whole capture=any), after \"a1 b3\", black to move, seed 4");
  CHECK(ls[1].rfind("3. ", 0) == 0);
  // The record plus the printed moves is the whole game: no move is left.
  std::string record = "a1 b3";
  size_t played = 0;
  for (size_t i = 1; i + 1 < ls.size(); ++i) {
    CHECK(ls[i].rfind(std::to_string(i + 2) + ". ", 0) == 0);
    record += " " + ls[i].substr(ls[i].find(' ') + 1);
    ++played;
  }
  CHECK(ls.back().find("after " + std::to_string(played) + " moves") != std::string::npos);
  auto end = run({"moves", "gadur", "--size", "2", "--record", record});
  CHECK(end.code == 0);
  CHECK(end.out.empty());
  auto f = run({"play", "fiodar", "--size", "2", "--setup", "a1 b2", "--max-turns", "2"});
  REQUIRE(f.code == 0);
  CHECK(lines(f.out)[0].find("setup \"a1 b2\", from the start") != std::string::npos);
}

TEST_CASE("help exits 0", "[cli]") {
  CHECK(run({"--help"}).code == 0);
  auto r = run({"perft", "--help"});
  CHECK(r.code == 0);
  CHECK(r.out.find("--depth") != std::string::npos);
  CHECK(run({"rules", "gadur"}).out.find("capture=any") != std::string::npos);
}

TEST_CASE("score --help: every example runs, and it names only the games with a score", "[cli]") {
  // It showed `loom score migong --size 2 --record "BBBBBB@a1"` (an illegal
  // move, exit 2) and offered gadur and enfargar, which have no score.
  auto h = run({"score", "--help"});
  REQUIRE(h.code == 0);
  const size_t at = h.out.find("Examples:");
  REQUIRE(at != std::string::npos);
  int examples = 0;
  for (const auto& line : lines(h.out.substr(at))) {
    const size_t loom = line.find("loom score ");
    if (loom == std::string::npos) continue;
    // The words of the example, "..." quoting one argument.
    std::vector<std::string> args;
    std::string word;
    bool quoted = false, any = false;
    for (char c : line.substr(loom + 5)) {
      if (c == '"') {
        quoted = !quoted;
        any = true;
      } else if (c == ' ' && !quoted) {
        if (any) args.push_back(word);
        word.clear();
        any = false;
      } else {
        word += c;
        any = true;
      }
    }
    if (any) args.push_back(word);
    INFO(line);
    auto r = run(args);
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    ++examples;
  }
  CHECK(examples >= 2);
  for (const char* game : {"fiodar", "migong", "nardy"}) {
    INFO(game);
    CHECK(run({"score", game}).code == 0);
  }
  const size_t list = h.out.find("fiodar, migong or nardy");
  CHECK(list != std::string::npos);
  CHECK(h.out.find("gadur") == std::string::npos);
  CHECK(h.out.find("enfargar") == std::string::npos);
  for (const char* game : {"gadur", "enfargar"})
    CHECK(run({"score", game}).err.find("not available") != std::string::npos);
}

TEST_CASE("after the end of a game every token is illegal", "[cli]") {
  // Side 2, merge-only: perft reaches 0 by depth 10, so some 9-ply record ends
  // the game; find one via the naive reference and check the CLI.
  naive::Gadur ref(2, false, true);
  std::vector<int> rec;
  std::function<bool(naive::Gadur::Pos)> dfs = [&](naive::Gadur::Pos p) {
    auto ms = ref.legal(p);
    if (ms.empty()) return true;
    for (int c : ms) {
      rec.push_back(c);
      if (dfs(ref.play(p, c))) return true;
      rec.pop_back();
    }
    return false;
  };
  REQUIRE(dfs(ref.start()));
  std::string record;
  for (int c : rec) record += ref.name(c) + " ";
  auto r =
      run({"moves", "gadur", "--size", "2", "--rule", "capture=merge-only", "--record", record});
  CHECK(r.code == 0);
  CHECK(r.out.empty());
  auto bad = run(
      {"moves", "gadur", "--size", "2", "--rule", "capture=merge-only", "--record", record + "b2"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("over") != std::string::npos);
}

TEST_CASE("random and mutated command lines never crash", "[cli]") {
  rc::prop("exit 0 or 2, one error line", [] {
    const std::vector<std::string> vocab = {"moves",
                                            "perft",
                                            "show",
                                            "rules",
                                            "score",
                                            "gadur",
                                            "fiodar",
                                            "nardy",
                                            "enfargar",
                                            "migong",
                                            "--size",
                                            "--rule",
                                            "--record",
                                            "--depth",
                                            "--divide",
                                            "--dice",
                                            "--position",
                                            "--help",
                                            "2",
                                            "3",
                                            "4",
                                            "13",
                                            "0",
                                            "-1",
                                            "capture=merge-only",
                                            "exception=subset",
                                            "d4",
                                            "c3 d4",
                                            "a1 b1 c2",
                                            "pass",
                                            "",
                                            "=",
                                            "W:0,0",
                                            "65",
                                            "--",
                                            "-",
                                            "\xff\xfe"};
    auto picks =
        *rc::gen::container<std::vector<size_t>>(rc::gen::inRange<size_t>(0, vocab.size()));
    std::vector<std::string> args;
    for (size_t i : picks) args.push_back(vocab[i]);
    if (!args.empty() && *rc::gen::arbitrary<bool>()) {
      // Mutate one argument byte-wise.
      size_t which = *rc::gen::inRange<size_t>(0, args.size());
      std::string extra = *rc::gen::arbitrary<std::string>();
      args[which] =
          args[which].substr(0, *rc::gen::inRange<size_t>(0, args[which].size() + 1)) + extra;
    }
    // Keep perft cheap: depth values beyond 2 are replaced.
    for (size_t i = 0; i + 1 < args.size(); ++i)
      if (args[i] == "--depth" && args[i + 1] != "0" && args[i + 1] != "1" && args[i + 1] != "2")
        args[i + 1] = "1";
    auto r = run(args);
    RC_ASSERT(r.code == 0 || r.code == 2);
    if (r.code == 2) RC_ASSERT(lines(r.err).size() == 1u);
  });
}
