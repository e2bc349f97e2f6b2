// `loom solve` and `loom verify --property` on the command line (in
// process): the JSON contract of CONVENTIONS.md, checkpoints that resume,
// and clear errors (exit 2) for bad requests and damaged checkpoint files.
#include <catch2/catch.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/ranks.h"
#include "solver/exchange.h"
#include "solver/whole16.h"
#include "tests/common/child_process.h"
#include "tests/common/cli_run.h"

using namespace loom;
using loom::testing::last_json;
using loom::testing::run;
using loom::testing::Run;
using nlohmann::json;

namespace {

std::string temp_path(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / "loom_solver_tests";
  std::filesystem::create_directories(dir);
  auto p = dir / (name + "_" + std::to_string(::getpid()));
  std::filesystem::remove(p);
  return p.string();
}

/// A result whose value and openings are `want`'s, proved, without the
/// principal variation, its note saying why (`why`).
void check_proved_without_line(const json& got, const json& want, const std::string& why) {
  CHECK(got["complete"] == true);
  CHECK(got["value"] == want["value"]);
  CHECK(got["openings"] == want["openings"]);
  CHECK(got["pv"].empty());
  CHECK(got["note"].get<std::string>().find(why) != std::string::npos);
}

}  // namespace

TEST_CASE("solve --json ends with the contract's JSON object", "[solver][cli]") {
  auto r = run({"solve", "gadur", "--size", "2", "--json", "--threads", "1"});
  REQUIRE(r.code == 0);
  json j = last_json(r.out);
  CHECK(j["game"] == "gadur");
  CHECK(j["size"] == 2);
  CHECK(j["rules"] == json{{"exception", "whole"}, {"capture", "any"}});
  CHECK(j["value"] == "draw");
  REQUIRE(j["openings"].size() == 2);
  CHECK(j["openings"][0]["move"] == "a1");
  CHECK(j["openings"][0]["value"] == "draw");
  CHECK(j["openings"][0]["pie"] == "either");
  CHECK(j["nodes"].get<uint64_t>() == 61);
  CHECK(j["seconds"].is_number());
  CHECK(j["pv"].is_array());
  CHECK(j["complete"] == true);

  auto m = run({"solve", "gadur", "--size", "2", "--rule", "capture=merge-only", "--json"});
  REQUIRE(m.code == 0);
  json k = last_json(m.out);
  CHECK(k["value"] == "black");
  CHECK(k["rules"]["capture"] == "merge-only");
  CHECK(k["openings"][0]["value"] == "white");
  CHECK(k["openings"][0]["pie"] == "keep");
  CHECK(k["openings"][1]["move"] == "b2");
  CHECK(k["openings"][1]["value"] == "black");
  CHECK(k["openings"][1]["pie"] == "swap");
  CHECK(m.out.find("pie: swap") != std::string::npos);
  // Both methods agree where both apply (merge-only is acyclic).
  auto d = run({"solve", "gadur", "--size", "2", "--rule", "capture=merge-only", "--method", "dfs",
                "--json"});
  REQUIRE(d.code == 0);
  json dj = last_json(d.out);
  CHECK(dj["value"] == "black");
  CHECK(dj["openings"] ==
        json::array({json{{"move", "a1"}, {"value", "white"}, {"count", 6}, {"pie", "keep"}},
                     json{{"move", "b2"}, {"value", "black"}, {"count", 1}, {"pie", "swap"}}}));
}

TEST_CASE("solve from a record, openings up to the position's own symmetries", "[solver][cli]") {
  // A late merge-only position (b3 was captured and replayed).
  auto r = run({"solve", "gadur", "--size", "3", "--rule", "capture=merge-only", "--record",
                "a3 b3 b1 c2 b2 b3 d4 c1 c3", "--json"});
  REQUIRE(r.code == 0);
  json j = last_json(r.out);
  CHECK(j["record"] == "a3 b3 b1 c2 b2 b3 d4 c1 c3");
  CHECK(j["to_move"] == "white");
  CHECK(!j["openings"].empty());
  CHECK(!j.contains("pie"));
  CHECK(!j["openings"][0].contains("pie"));  // the pie table is for the empty board only
}

TEST_CASE("solve rejects bad requests with exit 2", "[solver][cli]") {
  testing::check_bad_inputs({
      {{"solve", "gadur", "--size", "2", "--method", "magic"}, "--method"},
      {{"solve", "gadur", "--size", "2", "--method", "dfs"}, "cycle"},
      {{"solve", "gadur", "--size", "2", "--threads", "-1"}, "--threads"},
      {{"solve", "gadur", "--size", "2", "--table-mb", "0"}, "--table-mb"},
      {{"solve", "enfargar", "--size", "2", "--method", "dense", "--kept-mb", "-1"}, "--kept-mb"},
      {{"solve", "gadur", "--size", "2", "--max-positions", "-1"}, "--max-positions"},
      {{"solve", "gadur", "--size", "2", "--method", "dfs", "--max-nodes", "-5"}, "--max-nodes"},
      {{"solve", "gadur", "--size", "2", "--checkpoint-interval", "0"}, "--checkpoint-interval"},
      // Limits a method does not read were ignored: the run was unbounded.
      {{"solve", "gadur", "--size", "2", "--max-positions", "0"}, "--max-positions"},
      {{"solve", "fiodar", "--size", "2", "--max-nodes", "0"}, "--max-nodes"},
      {{"solve", "fiodar", "--size", "2", "--max-positions", "5"},
       "--max-positions is not used by --method dfs, this game's default method (only by "
       "retrograde)"},
      {{"solve", "gadur", "--size", "2", "--max-nodes", "5"},
       "--max-nodes is not used by --method retrograde, this game's default method"},
      {{"solve", "gadur", "--size", "2", "--method", "retrograde", "--table-mb", "5"},
       "--table-mb is not used by --method retrograde ("},
      {{"solve", "gadur", "--size", "2", "--kept-mb", "5"}, "--kept-mb is not used by"},
      // Gadur's dense solve walks retrograde moves: no successor lists to bound.
      {{"solve", "gadur", "--size", "2", "--method", "dense", "--kept-mb", "5"},
       "--kept-mb is not used by --method dense for gadur"},
      // Refused at once: under a small node budget it ran and said "unknown".
      {{"solve", "enfargar", "--size", "2", "--method", "compact", "--max-nodes", "5"},
       "a game can end without a winner"},
      {{"verify", "gadur", "--size", "2", "--query", "no-legal-placement", "--max-positions", "5"},
       "--max-positions is not used by --query"},
      {{"verify", "gadur", "--size", "2", "--query", "no-legal-placement", "--threads", "2"},
       "--threads is not used by --query"},
      {{"verify", "gadur", "--size", "2", "--property", "termination", "--threads", "2"},
       "--threads is not used by --property termination"},
      {{"verify", "gadur", "--size", "2", "--property", "drawless", "--threads", "0"},
       "--threads: '0' is out of range"},
      {{"verify", "gadur", "--size", "2", "--property", "drawless", "--threads", "65"},
       "--threads: '65' is out of range (expected an integer 1..64)"},
      {{"audit", "gadur", "--size", "2", "--threads", "65"},
       "--threads: '65' is out of range (expected an integer 1..64)"},
      // An empty name was "verify needs exactly one of --property, --query, ...".
      {{"verify", "gadur", "--size", "2", "--property", ""},
       "unknown property '' (known: termination, drawless or its other name decisive)"},
      {{"verify", "gadur", "--size", "2", "--query", ""}, "unknown query '' for gadur (known: "},
      {{"solve", "gadur", "--size", "2", "--method", "dense", "--checkpoint", "x.ckpt", "--kept-mb",
        "5"},
       "--kept-mb is not used by --method dense with --checkpoint"},
      // A board too large for the solver says so (not that a limit is unused).
      {{"solve", "gadur", "--size", "10", "--max-nodes", "5"}, "side 4 and below"},
      // Sides 5-9: alpha-beta only.
      {{"solve", "gadur", "--size", "5", "--method", "retrograde"}, "runs --method dfs only"},
      // Said "--max-nodes is not used by --method retrograde" of a method
      // these boards do not have.
      {{"solve", "gadur", "--size", "5", "--method", "retrograde", "--max-nodes", "5"},
       "runs --method dfs only"},
      // Its advice was "use --method retrograde", refused there.
      {{"solve", "gadur", "--size", "5", "--max-nodes", "10"}, "cannot value a loop"},
      {{"solve", "fiodar", "--size", "5", "--pie", "--max-nodes", "10"},
       "--pie solves the 2-stone set-ups on side 4 and below"},
      {{"solve", "gadur", "--size", "5", "--max-positions", "5"},
       "--max-positions is not used by --method dfs, this game's default method"},
      {{"solve", "gadur", "--size", "2", "--method", "dense", "--max-positions", "5"},
       "--max-positions is not used by --method dense"},
      {{"solve", "gadur", "--size", "2", "--checkpoint-interval", "5"},
       "--checkpoint-interval: only with --checkpoint"},
      {{"solve", "gadur", "--size", "2", "--record", "b2 b2"}, "move 2"},
      {{"solve", "nosuchgame"}, "unknown game"},
      {{"solve", "nardy"}, "dice game"},
      {{"verify", "nardy", "--property", "termination"}, "dice game"},
      {{"solve", "gadur", "--size", "2", "--pie"}, "--pie"},
      {{"solve", "fiodar", "--size", "2", "--pie", "--record", "a1"}, "--pie"},
      {{"verify", "gadur", "--size", "2", "--property", "bogus"}, "unknown property"},
      {{"verify", "gadur", "--size", "2", "--property", "drawless", "--method", "fast"},
       "unknown --method 'fast' (known: auto, hash, dense)"},
      {{"verify", "fiodar", "--size", "2", "--property", "drawless", "--method", "dense"},
       "the dense index takes Gadur and Enfargar only"},
      {{"verify", "gadur", "--size", "4", "--property", "termination", "--method", "dense"},
       "the dense index takes boards of at most 19 cells"},
      {{"verify", "gadur", "--size", "2", "--property", "drawless", "--method", "dense",
        "--max-positions", "5"},
       "--max-positions is not used by --method dense"},
      {{"verify", "gadur", "--size", "2", "--query", "no-legal-placement", "--method", "dense"},
       "--method is not used by --query"},
      // verify's --help offered --checkpoint, which every mode refused.
      {{"verify", "gadur", "--size", "2", "--property", "termination", "--checkpoint", "x"},
       "unknown option '--checkpoint' for loom verify"},
      {{"verify", "gadur", "--size", "2", "--query", "no-legal-placement", "--checkpoint", "x"},
       "unknown option '--checkpoint' for loom verify"},
      {{"verify", "gadur", "--list-queries", "--rule", "foo=bar"},
       "--rule is not used by --list-queries"},
      // --seconds bounds a query only.
      {{"verify", "gadur", "--size", "2", "--property", "termination", "--seconds", "5"},
       "--seconds is not used by --property"},
      {{"verify", "gadur", "--list-queries", "--seconds", "5"},
       "--seconds is not used by --list-queries"},
      {{"verify", "gadur", "--size", "2", "--query", "merge-capture-two", "--seconds", "0"},
       "--seconds: '0' is out of range"},
      // Long Nardy's exact solver takes none of the search options.
      {{"solve", "nardy", "--rule", "checkers=1", "--method", "dfs"}, "--method"},
      {{"solve", "nardy", "--rule", "checkers=1", "--checkpoint", "x"}, "--checkpoint"},
      {{"solve", "nardy", "--rule", "checkers=1", "--max-nodes", "1"}, "--max-nodes"},
      {{"solve", "nardy", "--rule", "checkers=1", "--pie"}, "--pie"},
      // An empty --db fell back to the default cache without a word.
      {{"solve", "nardy", "--rule", "checkers=1", "--db", ""},
       "--db: needs a directory name (got an empty one)"},
      {{"puzzle", "make", "nardy", "--count", "1", "--seed", "1", "--out", "x", "--db", ""},
       "--db: needs a directory name"},
  });
}

TEST_CASE("verify --query --seconds: an unanswered question says so, exit 0", "[solver][cli]") {
  // no-legal-placement on side 4 takes minutes of Z3 (134 s, 2026-12-05).
  auto r = run({"verify", "gadur", "--size", "4", "--query", "no-legal-placement", "--seconds",
                "0.5", "--json"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("not answered within --seconds 0.5") != std::string::npos);
  json j = last_json(r.out);
  CHECK(j["result"] == "unknown");
  CHECK(j["witness"].empty());
  // A proof query not answered is not proved either way.
  auto p = run({"verify", "enfargar", "--size", "2", "--query", "end-clause-redundant", "--seconds",
                "600", "--json"});
  REQUIRE(p.code == 0);
  json pj = last_json(p.out);
  CHECK(pj["result"] == "unsat");
  CHECK(pj["proved"] == true);
}

TEST_CASE("verify --property termination and drawless", "[solver][cli]") {
  auto t = run({"verify", "gadur", "--size", "2", "--property", "termination", "--json"});
  REQUIRE(t.code == 0);
  json j = last_json(t.out);
  CHECK(j["holds"] == false);
  CHECK(j["property"] == "termination");
  CHECK(!j["cycle"].get<std::string>().empty());
  // The record and cycle replay: the position after both equals the one after the record.
  std::string rec = j["record"], cyc = j["cycle"];
  auto a = run({"show", "gadur", "--size", "2", "--record", rec});
  auto b = run({"show", "gadur", "--size", "2", "--record", rec + " " + cyc});
  CHECK(a.code == 0);
  CHECK(a.out == b.out);
  auto m = run({"verify", "gadur", "--size", "2", "--rule", "capture=merge-only", "--property",
                "termination", "--json"});
  CHECK(last_json(m.out)["holds"] == true);
  auto d = run({"verify", "gadur", "--size", "2", "--property", "drawless", "--json"});
  CHECK(last_json(d.out)["holds"] == true);
  // The audit's name for drawless in the scored games: `decisive`.
  auto dec = run({"verify", "migong", "--size", "2", "--property", "decisive", "--json"});
  REQUIRE(dec.code == 0);
  CHECK(last_json(dec.out)["property"] == "drawless");
  CHECK(last_json(dec.out)["holds"] == true);
  // --max-positions bounds a check (it had no bound: on the recommended
  // board the reachable graph is far beyond memory): not decided, exit 0.
  // (--method hash: auto would go on by the dense index past the limit.)
  auto cut = run({"verify", "gadur", "--size", "3", "--rule", "capture=merge-only", "--property",
                  "drawless", "--max-positions", "1000", "--method", "hash", "--json"});
  REQUIRE(cut.code == 0);
  const json jc = last_json(cut.out);
  CHECK(jc["holds"].is_null());
  CHECK(jc["method"] == "hash");
  CHECK(jc["positions"].get<uint64_t>() <= 2000);
  // The dense check: the same verdicts, its method named, in text and JSON.
  auto dt = run({"verify", "gadur", "--size", "2", "--property", "termination", "--method", "dense",
                 "--json"});
  REQUIRE(dt.code == 0);
  CHECK(dt.out.find("dense index: ") != std::string::npos);
  CHECK(last_json(dt.out)["method"] == "dense");
  CHECK(last_json(dt.out)["holds"] == false);
  auto dd = run({"verify", "enfargar", "--size", "2", "--property", "drawless", "--method", "dense",
                 "--json"});
  REQUIRE(dd.code == 0);
  CHECK(last_json(dd.out)["holds"] == false);
  CHECK(last_json(dd.out)["outcome"] == "unresolved");
}

TEST_CASE("compact takes Enfargar only where every end has a winner (stall=more-stones)",
          "[solver][cli]") {
  auto c = run({"solve", "enfargar", "--size", "2", "--rule", "stall=more-stones", "--method",
                "compact", "--json"});
  auto d = run({"solve", "enfargar", "--size", "2", "--rule", "stall=more-stones", "--method",
                "dense", "--json"});
  REQUIRE(c.code == 0);
  REQUIRE(d.code == 0);
  CHECK(last_json(c.out)["value"] == last_json(d.out)["value"]);
  CHECK(last_json(c.out)["complete"] == true);
}

TEST_CASE("solve --json of the dense method: moves into ends and layers under their own keys",
          "[solver][cli][dense]") {
  // Dense stores no ends: its counts were written under retrograde's keys
  // `ends` (end positions) and `sweeps`, so one key meant two things.
  auto dense = run({"solve", "gadur", "--size", "2", "--method", "dense", "--json"});
  auto retro = run({"solve", "gadur", "--size", "2", "--method", "retrograde", "--json"});
  REQUIRE(dense.code == 0);
  REQUIRE(retro.code == 0);
  const json d = last_json(dense.out), r = last_json(retro.out);
  CHECK(!d.contains("ends"));
  CHECK(!d.contains("sweeps"));
  CHECK(d["moves_to_ends"].get<uint64_t>() > 0);
  CHECK(d["layers"] == r["sweeps"]);  // the same game length in plies
  CHECK(!r.contains("moves_to_ends"));
  CHECK(r["ends"].get<uint64_t>() > 0);
}

TEST_CASE("checkpoints: an interrupted solve resumes and gives the same answer",
          "[solver][cli][checkpoint]") {
  const std::vector<std::string> job = {"solve",    "gadur",
                                        "--size",   "3",
                                        "--record", "a3 b3 b1 c2 b2 b3 d4 c1 c3",
                                        "--rule",   "capture=merge-only",
                                        "--json",   "--threads",
                                        "1"};
  auto plain = run(job);
  REQUIRE(plain.code == 0);
  json want = last_json(plain.out);
  uint64_t positions = want["positions"];
  auto dfs_args = job;
  dfs_args.insert(dfs_args.end(), {"--method", "dfs"});
  uint64_t dfs_nodes = last_json(run(dfs_args).out)["nodes"];
  for (const std::string method : {"retrograde", "dfs"}) {
    // Retrograde: stop while enumerating, or during the sweeps (work units
    // are positions expanded, then sweeps). Dfs: after the first opening,
    // or half-way (work units are nodes, counted per finished opening).
    uint64_t late = method == "dfs" ? dfs_nodes / 2 : positions + 2;
    for (uint64_t stop : {uint64_t{1}, late}) {
      INFO(method << " stop after " << stop);
      std::string file = temp_path("ckpt");
      auto args = job;
      args.insert(args.end(), {"--method", method, "--checkpoint", file});
      auto first = args;
      first.insert(first.end(), {"--stop-after", std::to_string(stop)});
      auto r1 = run(first);
      CHECK(r1.code == 130);
      CHECK(r1.err.find("interrupted") != std::string::npos);
      REQUIRE(std::filesystem::exists(file));
      CHECK(!std::filesystem::exists(file + ".tmp"));
      auto r2 = run(args);
      REQUIRE(r2.code == 0);
      json got = last_json(r2.out);
      CHECK(got["resumed"] == true);
      CHECK(got["value"] == want["value"]);
      REQUIRE(got["openings"].size() == want["openings"].size());
      for (size_t i = 0; i < got["openings"].size(); ++i) {
        CHECK(got["openings"][i]["move"] == want["openings"][i]["move"]);
        CHECK(got["openings"][i]["value"] == want["openings"][i]["value"]);
      }
      // A finished checkpoint answers again at once: alpha-beta does not
      // search again for the principal variation (it is saved).
      auto r3 = run(args);
      const json j3 = last_json(r3.out);
      CHECK(j3["value"] == want["value"]);
      if (method == "dfs") {
        CHECK(j3["nodes"] == 0);
        CHECK(j3["pv"] == got["pv"]);
        CHECK(!j3["pv"].empty());
      }
      std::filesystem::remove(file);
    }
  }
}

TEST_CASE("compact and dfpn: Ctrl-C inside an opening stops at once, the checkpoint kept",
          "[solver][cli][checkpoint]") {
  // Merge-only Gadur side 3 from the start: each method's first opening
  // takes millions of nodes, so a stop after the first progress tick
  // (2^20 nodes) comes inside it.
  for (const std::string method : {"compact", "dfpn"}) {
    INFO(method);
    const std::string file = temp_path("ckpt");
    const std::vector<std::string> job = {
        "solve",      "gadur", "--size", "3",       "--rule",       "capture=merge-only",
        "--method",   method,  "--json", "--no-pv", "--checkpoint", file,
        "--table-mb", "64"};
    auto stop = job;
    stop.insert(stop.end(), {"--stop-after", "1"});
    auto r = run(stop);
    CHECK(r.code == 130);
    CHECK(r.err.find("interrupted; the finished openings and the search table are saved") !=
          std::string::npos);
    REQUIRE(std::filesystem::exists(file));
    // The file is this job's: a rerun resumes it (stopped at once here).
    auto limit = job;
    limit.insert(limit.end(), {"--max-nodes", "1"});
    auto r2 = run(limit);
    REQUIRE(r2.code == 0);
    const json j = last_json(r2.out);
    CHECK(j["resumed"] == true);
    CHECK(j["complete"] == false);
    CHECK(j["nodes_total"].get<uint64_t>() >= (uint64_t{1} << 20));
    std::filesystem::remove(file);
  }
}

TEST_CASE("alpha-beta under --max-nodes reports only what is proven", "[solver][cli]") {
  const std::vector<std::string> job = {"solve",    "gadur",
                                        "--size",   "3",
                                        "--record", "a3 b3 b1 c2 b2 b3 d4 c1 c3",
                                        "--rule",   "capture=merge-only",
                                        "--method", "dfs",
                                        "--json",   "--no-pv"};
  auto full = run(job);
  REQUIRE(full.code == 0);
  json want = last_json(full.out);
  const uint64_t nodes = want["nodes"];
  REQUIRE(want["openings"].size() >= 2);
  auto limited = [&](uint64_t n, const std::string& ckpt) {
    auto args = job;
    args.insert(args.end(), {"--max-nodes", std::to_string(n)});
    if (!ckpt.empty()) args.insert(args.end(), {"--checkpoint", ckpt});
    auto r = run(args);
    REQUIRE(r.code == 0);
    return last_json(r.out);
  };
  // One node short of the whole job: every opening but the last is solved,
  // with the values of the full run; the root value only if one of them
  // already wins for the mover.
  json part = limited(nodes - 1, "");
  CHECK(part["complete"] == false);
  CHECK(part["nodes"] == nodes - 1);
  CHECK(part["note"].get<std::string>().find("node limit") != std::string::npos);
  const auto& ops = part["openings"];
  REQUIRE(ops.size() == want["openings"].size());
  CHECK(ops.back()["value"].is_null());
  for (size_t i = 0; i + 1 < ops.size(); ++i)
    CHECK(ops[i]["value"] == want["openings"][i]["value"]);
  bool proven = false;
  for (const auto& o : ops) proven = proven || o["value"] == part["to_move"];
  if (proven)
    CHECK(part["value"] == want["value"]);
  else
    CHECK(part["value"].is_null());
  // Nothing solved; the checkpoint then lets an unlimited rerun finish.
  std::string file = temp_path("maxnodes");
  json none = limited(1, file);
  CHECK(none["complete"] == false);
  CHECK(none["value"].is_null());
  for (const auto& o : none["openings"]) CHECK(o["value"].is_null());
  auto args = job;
  args.insert(args.end(), {"--checkpoint", file});
  auto r = run(args);
  REQUIRE(r.code == 0);
  json done = last_json(r.out);
  CHECK(done["complete"] == true);
  CHECK(done["resumed"] == true);
  CHECK(done["value"] == want["value"]);
  CHECK(done["openings"] == want["openings"]);
  std::filesystem::remove(file);
}

TEST_CASE("a node limit met while the principal variation is worked out: the proved result",
          "[solver][cli][checkpoint]") {
  // Every opening was proved, then the line's search met --max-nodes: exit
  // 1, "internal error: node limit reached", and no report at all.
  for (const std::vector<std::string>& job :
       {std::vector<std::string>{"solve", "enfargar", "--size", "2", "--method", "dfs"},
        std::vector<std::string>{"solve", "fiodar", "--size", "2", "--pie"}}) {
    auto straight = run([&] {
      auto a = job;
      a.push_back("--json");
      return a;
    }());
    REQUIRE(straight.code == 0);
    const json want = last_json(straight.out);
    const uint64_t nodes = want["nodes"];
    const std::string file = temp_path("pvlimit");
    std::filesystem::remove(file);
    // Just past the openings' nodes (a --no-pv run's count).
    auto quiet = job;
    quiet.insert(quiet.end(), {"--json", "--no-pv"});
    const uint64_t proved = last_json(run(quiet).out)["nodes"];
    REQUIRE(proved < nodes);
    auto a = job;
    a.insert(a.end(), {"--json", "--max-nodes", std::to_string(proved + 1), "--checkpoint", file});
    auto r = run(a);
    INFO(r.err);
    REQUIRE(r.code == 0);
    check_proved_without_line(last_json(r.out), want, "principal variation was not worked out");
    // The rerun without a limit adds the line.
    auto b = job;
    b.insert(b.end(), {"--json", "--checkpoint", file});
    const json again = last_json(run(b).out);
    CHECK(again["pv"] == want["pv"]);
    std::filesystem::remove(file);
  }
}

TEST_CASE("every method answers a finished position; the value-only methods say they give no line",
          "[solver][cli]") {
  // dense, compact and dfpn refused a record that ends the game ("the
  // position is already over") where retrograde and dfs gave its value.
  const std::vector<std::string> over = {
      "solve", "gadur", "--size", "2", "--rule", "capture=merge-only", "--record", "b2 a1"};
  for (const char* m : {"retrograde", "dfs", "dense", "compact", "dfpn"}) {
    auto args = over;
    args.insert(args.end(), {"--method", m, "--json"});
    auto r = run(args);
    INFO(m << ": " << r.err);
    REQUIRE(r.code == 0);
    const json j = last_json(r.out);
    CHECK(j["value"] == "black");  // White, to move, cannot place: Black wins
    CHECK(j["method"] == m);
    CHECK(j["complete"] == true);
  }
  // A finished Enfargar stall: dfs called it "draw" (play going on for ever).
  for (const char* m : {"retrograde", "dfs", "dense"}) {
    auto r = run({"solve", "enfargar", "--size", "2", "--record", "a1 c2 b3 b1 c3 b2 pass pass",
                  "--method", m, "--json"});
    INFO(m << ": " << r.err);
    REQUIRE(r.code == 0);
    CHECK(last_json(r.out)["value"] == "stall");
  }
  // An empty "pv" was unexplained: the text now says why.
  auto c =
      run({"solve", "gadur", "--size", "2", "--rule", "capture=merge-only", "--method", "compact"});
  REQUIRE(c.code == 0);
  CHECK(c.out.find("principal variation: none (--method compact proves values only") !=
        std::string::npos);
  CHECK(c.out.find("(no symmetry)") != std::string::npos);  // was "up to 1 symmetries"
  auto quiet = run({"solve", "gadur", "--size", "2", "--rule", "capture=merge-only", "--method",
                    "compact", "--no-pv"});
  CHECK(quiet.out.find("principal variation") == std::string::npos);
}

TEST_CASE("a resumed alpha-beta job still names a stall a stall", "[solver][cli][checkpoint]") {
  // The finished openings come from the checkpoint, not from this run's
  // search: the kind of a neutral value must come from there too.
  std::string file = temp_path("stall");
  const std::vector<std::string> job = {"solve",    "enfargar",       "--size",   "3",
                                        "--record", "a1 b2 c3 d4 e5", "--method", "dfs",
                                        "--json",   "--checkpoint",   file};
  auto r1 = run(job);
  REQUIRE(r1.code == 0);
  CHECK(last_json(r1.out)["value"] == "stall");
  auto r2 = run(job);
  REQUIRE(r2.code == 0);
  json again = last_json(r2.out);
  CHECK(again["resumed"] == true);
  CHECK(again["value"] == "stall");
  CHECK(again["openings"] == last_json(r1.out)["openings"]);
  std::filesystem::remove(file);
}

TEST_CASE("a damaged or foreign checkpoint is a clear error, never a crash",
          "[solver][cli][checkpoint]") {
  std::string file = temp_path("damaged");
  std::vector<std::string> job = {"solve", "gadur", "--size", "2", "--checkpoint", file};
  REQUIRE(run(job).code == 0);
  std::string good;
  {
    std::ifstream in(file, std::ios::binary);
    good.assign(std::istreambuf_iterator<char>(in), {});
  }
  REQUIRE(good.size() > 64);
  auto write = [&](const std::string& bytes) {
    std::ofstream o(file, std::ios::binary | std::ios::trunc);
    o << bytes;
  };
  struct Damage {
    std::string name, bytes, needle;
  };
  std::string flipped = good;
  flipped[flipped.size() / 2] ^= 0x10;
  std::vector<Damage> damages = {
      {"empty", "", "corrupt"},
      {"truncated", good.substr(0, good.size() / 2), "corrupt"},
      {"one byte flipped", flipped, "corrupt"},
      {"garbage", std::string(4096, '\x7f'), "corrupt"},
      {"a text file", "hello\n", "corrupt"},
  };
  for (const auto& d : damages) {
    INFO(d.name);
    write(d.bytes);
    auto r = run(job);
    CHECK(r.code == 2);
    CHECK(r.err.find(d.needle) != std::string::npos);
  }
  // Another job's checkpoint is refused by name.
  write(good);
  auto other =
      run({"solve", "gadur", "--size", "2", "--rule", "capture=merge-only", "--checkpoint", file});
  CHECK(other.code == 2);
  CHECK(other.err.find("another job") != std::string::npos);
  auto dir = run({"solve", "gadur", "--size", "2", "--checkpoint",
                  std::filesystem::temp_directory_path().string()});
  CHECK(dir.code == 2);
  std::filesystem::remove(file);
}

TEST_CASE("another job's checkpoint is refused before the search table is made",
          "[solver][cli][checkpoint]") {
  // --table-mb 65536 is more than this machine's memory. compact, dfpn
  // and superko made (and cleared) their table before reading the
  // checkpoint, so such a run ended "out of memory" instead of naming the
  // file (with 8192: after 14-17 s and 8 GB of memory).
  const std::string foreign = temp_path("foreign_job");
  auto w = run({"solve", "gadur", "--size", "2", "--rule", "capture=merge-only", "--method",
                "compact", "--checkpoint", foreign});
  REQUIRE(w.code == 0);
  const std::string bytes = testing::slurp_file(foreign);
  const std::vector<std::vector<std::string>> jobs = {
      {"gadur", "--rule", "capture=merge-only", "--method", "compact"},
      {"gadur", "--rule", "capture=merge-only", "--method", "dfpn"},
      {"fiodar", "--method", "superko"}};
  for (const auto& job : jobs)
    for (const std::string threads : {"1", "2"}) {
      std::vector<std::string> args = {"solve",      "--size", "3",         "--checkpoint", foreign,
                                       "--table-mb", "65536",  "--threads", threads};
      args.insert(args.begin() + 1, job.begin(), job.end());
      auto r = run(args);
      INFO(job.back() << " on " << threads << " thread(s): " << r.err);
      CHECK(r.code == 2);
      CHECK(r.err.find("does not match this job") != std::string::npos);
      CHECK(testing::slurp_file(foreign) == bytes);
    }
  // A header damaged so that it names another job is damage, as before
  // (the whole file's checksum tells them apart).
  std::string damaged = bytes;
  const size_t at = damaged.find("size=2");
  REQUIRE(at != std::string::npos);
  damaged[at + 5] = '9';
  { std::ofstream(foreign, std::ios::binary) << damaged; }
  auto r = run({"solve", "gadur", "--size", "3", "--rule", "capture=merge-only", "--method",
                "compact", "--checkpoint", foreign, "--table-mb", "65536"});
  CHECK(r.code == 2);
  CHECK(r.err.find("is corrupt: checksum mismatch") != std::string::npos);
  std::filesystem::remove(foreign);
  // This very job's checkpoint, damaged in its payload: refused before the
  // table is made too (until 2026-12-07 only its header was read first, so
  // the run ran out of memory instead).
  const std::string own = temp_path("own_job");
  const std::vector<std::string> job = {
      "solve",    "gadur",   "--size",       "3", "--rule",      "capture=merge-only",
      "--method", "compact", "--checkpoint", own, "--max-nodes", "100000"};
  auto first = run(job, {"--table-mb", "16"});
  REQUIRE(first.code == 0);
  std::string payload = testing::slurp_file(own);
  payload[payload.size() / 2] ^= 1;
  { std::ofstream(own, std::ios::binary) << payload; }
  for (const std::string threads : {"1", "2"}) {
    auto d = run(job, {"--table-mb", "65536", "--threads", threads});
    INFO(threads << " thread(s): " << d.err);
    CHECK(d.code == 2);
    CHECK(d.err.find("is corrupt: checksum mismatch") != std::string::npos);
    CHECK(testing::slurp_file(own) == payload);
  }
  std::filesystem::remove(own);
}

TEST_CASE("a checkpoint names the method that ran: auto is the method it resolves to",
          "[solver][cli][checkpoint]") {
  // A file written with --method auto (Fiodar: alpha-beta) used to be
  // refused by the same job with --method dfs ("this job has 'method=dfs',
  // the file 'method=auto'"). Every other method must still refuse it.
  struct Case {
    std::vector<std::string> job;
    std::string auto_is;               // the method auto runs
    std::vector<std::string> methods;  // the methods tried on its files
  };
  const std::vector<Case> games = {
      {{"solve", "fiodar", "--size", "2", "--json"}, "dfs", {"auto", "dfs", "superko"}},
      {{"solve", "gadur", "--size", "2", "--rule", "capture=merge-only", "--json"},
       "retrograde",
       {"auto", "retrograde", "dfs", "dense", "compact"}},
  };
  for (const auto& g : games) {
    auto with = [&](const std::string& method, const std::string& file) {
      auto args = g.job;
      args.insert(args.end(), {"--method", method, "--checkpoint", file});
      return args;
    };
    auto plain = run(g.job);
    REQUIRE(plain.code == 0);
    const json want = last_json(plain.out)["value"];
    for (const auto& writer : g.methods) {
      const std::string w = writer == "auto" ? g.auto_is : writer;
      for (const auto& reader : g.methods) {
        const std::string r = reader == "auto" ? g.auto_is : reader;
        INFO(g.job[1] << ": written by --method " << writer << ", read by --method " << reader);
        const std::string dir = temp_path("method_" + writer + "_" + reader);
        std::filesystem::create_directories(dir);
        const std::string file = dir + "/job.ckpt";
        // Interrupted, so that every method leaves its file (a finished
        // dense job removes it).
        auto first_args = with(writer, file);
        first_args.insert(first_args.end(), {"--stop-after", "1"});
        auto first = run(first_args);
        REQUIRE(first.code == 130);
        REQUIRE(std::filesystem::exists(file));
        auto again = run(with(reader, file));
        INFO(again.err);
        if (w == r) {
          CHECK(again.code == 0);
          CHECK(last_json(again.out)["value"] == want);
        } else {
          CHECK(again.code == 2);
          CHECK(again.err.find("does not match this job") != std::string::npos);
          CHECK(again.err.find("method=auto") == std::string::npos);
        }
        std::filesystem::remove_all(dir);
      }
    }
  }
}

TEST_CASE("solve with the superko method: the values of dfs, node limit, checkpoint, resume",
          "[solver][cli][superko]") {
  const std::vector<std::string> job = {"solve",    "fiodar",  "--size", "2",
                                        "--method", "superko", "--json", "--no-pv"};
  auto full = run(job);
  REQUIRE(full.code == 0);
  json want = last_json(full.out);
  auto dfs = run({"solve", "fiodar", "--size", "2", "--method", "dfs", "--json", "--no-pv"});
  REQUIRE(dfs.code == 0);
  json ref = last_json(dfs.out);
  CHECK(want["method"] == "superko");
  CHECK(want["complete"] == true);
  CHECK(want["value"] == ref["value"]);
  CHECK(want["openings"] == ref["openings"]);
  // Without symmetry: the same values, more openings.
  auto args = job;
  args.push_back("--no-symmetry");
  auto plain = run(args);
  REQUIRE(plain.code == 0);
  CHECK(last_json(plain.out)["value"] == ref["value"]);
  CHECK(last_json(plain.out)["openings"].size() == 8);
  // One node short: the last opening is unknown, the others as in full.
  const uint64_t nodes = want["nodes"];
  args = job;
  const std::string file = temp_path("superko");
  args.insert(args.end(), {"--max-nodes", std::to_string(nodes - 1), "--checkpoint", file});
  auto part = run(args);
  REQUIRE(part.code == 0);
  json p = last_json(part.out);
  CHECK(p["complete"] == false);
  CHECK(p["note"].get<std::string>().find("node limit") != std::string::npos);
  REQUIRE(p["openings"].size() == want["openings"].size());
  CHECK(p["openings"].back()["value"].is_null());
  for (size_t i = 0; i + 1 < want["openings"].size(); ++i)
    CHECK(p["openings"][i]["value"] == want["openings"][i]["value"]);
  // a1 (Black +0.5) is finished: a bound on the value, not the value.
  CHECK(p["value"].is_null());
  CHECK(p["note"].get<std::string>().find("prove Black's score minus White's >= 0.5") !=
        std::string::npos);
  // The rerun resumes from the finished openings.
  args = job;
  args.insert(args.end(), {"--checkpoint", file});
  auto rest = run(args);
  REQUIRE(rest.code == 0);
  json r = last_json(rest.out);
  CHECK(r["resumed"] == true);
  CHECK(r["complete"] == true);
  CHECK(r["value"] == want["value"]);
  CHECK(r["openings"] == want["openings"]);
  CHECK(r["nodes"].get<uint64_t>() < nodes);
  std::filesystem::remove(file);
  // The pie table: the same set-up values and choice as dfs's; a node
  // limit leaves set-ups unknown and says so; the rerun resumes.
  const std::vector<std::string> pie = {"solve",    "fiodar",  "--size", "2",      "--pie",
                                        "--method", "superko", "--json", "--no-pv"};
  auto pie_full = run(pie);
  REQUIRE(pie_full.code == 0);
  auto pie_dfs = run({"solve", "fiodar", "--size", "2", "--pie", "--json", "--no-pv"});
  REQUIRE(pie_dfs.code == 0);
  json pw = last_json(pie_full.out), pr = last_json(pie_dfs.out);
  CHECK(pw["method"] == "superko");
  CHECK(pw["complete"] == true);
  CHECK(pw["value"] == pr["value"]);
  CHECK(pw["pie_setup"] == pr["pie_setup"]);
  CHECK(pw["openings"] == pr["openings"]);
  args = pie;
  const std::string pie_file = temp_path("superko-pie");
  args.insert(args.end(), {"--max-nodes", std::to_string(pw["nodes"].get<uint64_t>() - 1),
                           "--checkpoint", pie_file});
  auto pie_part = run(args);
  REQUIRE(pie_part.code == 0);
  json pp = last_json(pie_part.out);
  CHECK(pp["complete"] == false);
  CHECK(pp["value"].is_null());
  CHECK(pp["note"].get<std::string>().find("set-ups solved") != std::string::npos);
  // The finished set-ups already bound the pie: the setter's choice among
  // them (the full run's, a1 a2, is finished first).
  CHECK(pp["note"].get<std::string>().find("the setter hold the chooser to at most 0.5 (set-up " +
                                           pw["pie_setup"].get<std::string>() + ")") !=
        std::string::npos);
  args = pie;
  args.insert(args.end(), {"--checkpoint", pie_file});
  auto pie_rest = run(args);
  REQUIRE(pie_rest.code == 0);
  CHECK(last_json(pie_rest.out)["openings"] == pw["openings"]);
  CHECK(last_json(pie_rest.out)["resumed"] == true);
  std::filesystem::remove(pie_file);
  // Other games, a larger board: exit 2, one line (a finished position of
  // another game too).
  for (const auto& bad : std::vector<std::vector<std::string>>{
           {"solve", "gadur", "--size", "2", "--method", "superko"},
           {"solve", "gadur", "--size", "2", "--method", "superko", "--pie"},
           {"solve", "fiodar", "--size", "4", "--method", "superko"},
           {"solve", "gadur", "--size", "2", "--rule", "capture=merge-only", "--record", "b2 a1",
            "--method", "superko"}}) {
    auto e = run(bad);
    INFO(bad[1] << " " << e.err);
    CHECK(e.code == 2);
    CHECK(std::count(e.err.begin(), e.err.end(), '\n') == 1);
  }
  // A finished position is answered, as dfs answers it (it was refused).
  auto over = run(
      {"solve", "fiodar", "--size", "2", "--record", "pass pass", "--method", "superko", "--json"});
  REQUIRE(over.code == 0);
  auto over_dfs = run({"solve", "fiodar", "--size", "2", "--record", "pass pass", "--json"});
  CHECK(last_json(over.out)["value"] == last_json(over_dfs.out)["value"]);
  CHECK(last_json(over.out)["method"] == "superko");
}

TEST_CASE(
    "solve --value-only and --replay: the full run's value; each opening exact or a true bound",
    "[solver][cli][superko]") {
  // Roots with Black and with White to move (side 3 after 10 and 9 plies)
  // and the empty side-2 board. Every opening is either exact (the full
  // run's value) or bounded: a bound that holds for the full run's exact
  // margin and shows the opening cannot beat the value.
  for (const std::string size_record :
       {"2|", "3|c3 b2 b3 c2 d3 d2 b1 e3 d4 c4", "3|c3 b2 b3 c2 d3 d2 b1 e3 a3"}) {
    const auto bar = size_record.find('|');
    const std::vector<std::string> job = {"solve",      "fiodar",
                                          "--size",     size_record.substr(0, bar),
                                          "--record",   size_record.substr(bar + 1),
                                          "--method",   "superko",
                                          "--table-mb", "16",
                                          "--json",     "--no-pv"};
    INFO(size_record);
    auto full = run(job);
    REQUIRE(full.code == 0);
    auto args = job;
    args.push_back("--value-only");
    auto vo = run(args);
    REQUIRE(vo.code == 0);
    const json f = last_json(full.out), v = last_json(vo.out);
    CHECK(v["complete"] == true);
    REQUIRE(v["value"] == f["value"]);
    const double value = f["value"];
    const int sign = f["to_move"] == "black" ? 1 : -1;
    REQUIRE(v["openings"].size() == f["openings"].size());
    int bounded = 0, exact = 0;
    for (size_t i = 0; i < f["openings"].size(); ++i) {
      const json& o = v["openings"][i];
      const double margin = f["openings"][i]["value"];
      INFO(o.dump());
      CHECK(o["move"] == f["openings"][i]["move"]);
      if (!o["value"].is_null()) {
        CHECK(o["value"] == f["openings"][i]["value"]);
        ++exact;
        continue;
      }
      ++bounded;
      // A bound on Black's margin, on the side that keeps the mover's
      // margin from beating the value.
      REQUIRE(o.contains(sign > 0 ? "at_most" : "at_least"));
      const double b = o[sign > 0 ? "at_most" : "at_least"];
      CHECK(sign * margin <= sign * b);
      CHECK(sign * b <= sign * value);
    }
    CHECK(exact >= 1);
    CHECK(bounded >= 1);
    CHECK(v["note"].get<std::string>().find("value only: " + std::to_string(bounded)) == 0);
    // A full run resuming a value-only checkpoint solves the bounded
    // openings again; a value-only run accepts a full run's checkpoint.
    const std::string file = temp_path("value-only");
    args.insert(args.end(), {"--checkpoint", file});
    REQUIRE(run(args).code == 0);
    auto again = job;
    again.insert(again.end(), {"--checkpoint", file});
    auto resumed = run(again);
    REQUIRE(resumed.code == 0);
    CHECK(last_json(resumed.out)["openings"] == f["openings"]);
    CHECK(last_json(resumed.out)["resumed"] == true);
    auto vo_again = run(args);
    REQUIRE(vo_again.code == 0);
    CHECK(last_json(vo_again.out)["openings"] == f["openings"]);
    CHECK(last_json(vo_again.out)["nodes"] == 0);
    std::filesystem::remove(file);
  }
  // --replay: the value proved again from both sides by playing out the
  // proof trees (solver/proof_replay.h), reported in text and JSON.
  auto rp = run({"solve", "fiodar", "--size", "3", "--record", "c3 b2 b3 c2 d3 d2 b1 e3 d4 c4",
                 "--method", "superko", "--table-mb", "16", "--value-only", "--replay",
                 "--replay-mb", "4", "--json"});
  REQUIRE(rp.code == 0);
  const json x = last_json(rp.out)["replay"];
  CHECK(x["done"] == true);
  CHECK(x["stored"].get<uint64_t>() > 0);
  CHECK(x["sets"].get<uint64_t>() > 0);
  CHECK(x["dropped"].get<uint64_t>() < x["stored"].get<uint64_t>());
  CHECK(x["at_least"] == true);
  CHECK(x["at_most"] == true);
  CHECK(x["nodes"].get<uint64_t>() > x["leaves"].get<uint64_t>());
  CHECK(x["leaves"].get<uint64_t>() > 0);
  CHECK(rp.out.find("replay (second proof, whole histories): Black's margin >= 1.5 proved, <= "
                    "1.5 proved") != std::string::npos);
  // A run stopped before the value is known says the replay did not run.
  auto stopped = run({"solve", "fiodar", "--size", "2", "--method", "superko", "--max-nodes", "10",
                      "--replay", "--json"});
  REQUIRE(stopped.code == 0);
  CHECK(last_json(stopped.out)["replay"]["done"] == false);
  CHECK(last_json(stopped.out)["replay"]["note"] == "not run: the value is not proved");
  // Only the superko method over first moves.
  for (const auto& bad : std::vector<std::vector<std::string>>{
           {"solve", "fiodar", "--size", "2", "--replay"},
           {"solve", "fiodar", "--size", "2", "--method", "superko", "--replay-mb", "64"},
           {"solve", "fiodar", "--size", "2", "--method", "superko", "--replay", "--replay-mb",
            "0"},
           {"solve", "fiodar", "--size", "2", "--method", "superko", "--pie", "--replay"},
           {"solve", "fiodar", "--size", "2", "--value-only"},
           {"solve", "fiodar", "--size", "2", "--method", "dfs", "--value-only"},
           {"solve", "fiodar", "--size", "2", "--method", "superko", "--pie", "--value-only"}}) {
    auto e = run(bad);
    INFO(e.err);
    CHECK(e.code == 2);
    CHECK(std::count(e.err.begin(), e.err.end(), '\n') == 1);
  }
}

TEST_CASE("solve --method dense --kept-mb: the same result with or without kept lists",
          "[solver][cli][dense]") {
  const std::vector<std::string> cmd = {"solve",    "enfargar", "--size", "2",
                                        "--method", "dense",    "--json"};
  auto with = cmd, without = cmd;
  without.insert(without.end(), {"--kept-mb", "0"});
  auto a = run(with), b = run(without);
  REQUIRE(a.code == 0);
  REQUIRE(b.code == 0);
  json ja = last_json(a.out), jb = last_json(b.out);
  CHECK(ja["method"] == "dense");
  CHECK(ja["value"] == jb["value"]);
  CHECK(ja["positions"] == jb["positions"]);
  CHECK(ja["openings"] == jb["openings"]);
  CHECK(ja["pv"] == jb["pv"]);
}

/// A job (`with(extra)` runs it with extra arguments) on one thread and on
/// two: both finish with the same value and openings; unless `own_tables`
/// (dfs: a table a thread, none reported on one; or table figures not
/// compared), the same table bytes and the one-thread run in one table.
/// Returns the two JSON results.
template <class With>
std::pair<json, json> one_and_two_threads(const With& with, bool own_tables = false) {
  auto one = with({"--threads", "1"});
  REQUIRE(one.code == 0);
  const json want = last_json(one.out);
  if (!own_tables) CHECK(want["tables"] == 1);
  auto two = with({"--threads", "2"});
  REQUIRE(two.code == 0);
  const json got = last_json(two.out);
  CHECK(got["complete"] == true);
  CHECK(got["value"] == want["value"]);
  CHECK(got["openings"] == want["openings"]);
  if (!own_tables) CHECK(got["bytes"] == want["bytes"]);
  return {want, got};
}

/// A job on two threads (`with(extra)` runs it with extra arguments):
/// --max-nodes `limit` is one budget for both (more than `floor` nodes
/// spent), and a rerun on its checkpoint finishes the job with `want`'s
/// openings; a run stopped as if by Ctrl-C after its first finished
/// opening exits 130 with the finished openings saved, and a one-thread
/// rerun finishes it.
template <class With>
void check_two_thread_budget(const With& with, const json& want, uint64_t limit, uint64_t floor,
                             const std::string& file) {
  std::filesystem::remove(file);
  auto part = with({"--threads", "2", "--max-nodes", std::to_string(limit), "--checkpoint", file});
  REQUIRE(part.code == 0);
  const json jp = last_json(part.out);
  CHECK(jp["complete"] == false);
  CHECK(jp["nodes"].get<uint64_t>() <= limit);
  CHECK(jp["nodes"].get<uint64_t>() > floor);
  CHECK(jp["note"].get<std::string>().find("node limit") != std::string::npos);
  auto done = with({"--threads", "2", "--checkpoint", file});
  REQUIRE(done.code == 0);
  CHECK(last_json(done.out)["resumed"] == true);
  CHECK(last_json(done.out)["openings"] == want["openings"]);
  std::filesystem::remove(file);
  auto stopped = with({"--threads", "2", "--stop-after", "1", "--checkpoint", file});
  CHECK(stopped.code == 130);
  CHECK(stopped.err.find("interrupted; the finished openings") != std::string::npos);
  auto again = with({"--threads", "1", "--checkpoint", file});
  REQUIRE(again.code == 0);
  CHECK(last_json(again.out)["resumed"] == true);
  CHECK(last_json(again.out)["openings"] == want["openings"]);
  std::filesystem::remove(file);
}

TEST_CASE("compact and dfpn on two threads: the one-thread values, one node budget, checkpoints",
          "[solver][cli][checkpoint]") {
  // Ten openings of about 850,000 compact nodes in all: both threads work
  // at once. The compact method's threads share one table (8-byte
  // entries); df-pn's share one where 16-byte entries are read and
  // written whole (processors with AVX), else have one each (half the
  // budget): both report --table-mb in all.
  const int tables16 = loom::solver::whole16_atomic() ? 1 : 2;
  for (const std::string method : {"compact", "dfpn"}) {
    INFO(method);
    const std::vector<std::string> job = {"solve",      "gadur",
                                          "--size",     "3",
                                          "--record",   "a3 b3 b1 c2 b2 b3 d4",
                                          "--rule",     "capture=merge-only",
                                          "--method",   method,
                                          "--json",     "--no-pv",
                                          "--table-mb", "64"};
    const std::string file = temp_path("threads");
    auto with = [&](const std::vector<std::string>& extra) { return run(job, extra); };
    const auto [want, got] = one_and_two_threads(with);
    REQUIRE(want["openings"].size() >= 2);
    CHECK(got["tables"] == (method == "compact" ? 1 : tables16));
    // Three times the one-thread run's nodes are enough for two threads
    // (they took 0.79-1.64 times as many over 20 runs: the count depends
    // on timing). A version whose spent grant stopped the whole run
    // stopped at a ninth of such a limit.
    const uint64_t one_nodes = want["nodes"];
    auto roomy = with({"--threads", "2", "--max-nodes", std::to_string(3 * one_nodes)});
    REQUIRE(roomy.code == 0);
    CHECK(last_json(roomy.out)["complete"] == true);
    CHECK(last_json(roomy.out)["openings"] == want["openings"]);
    check_two_thread_budget(with, want, 5000, 0, file);
  }
  // Side 4 (16-byte compact entries): one table where they are read and
  // written whole (else a table a thread), the budget shared.
  auto wide =
      run({"solve", "gadur", "--size", "4", "--rule", "capture=merge-only", "--method", "compact",
           "--json", "--no-pv", "--table-mb", "64", "--threads", "2", "--max-nodes", "200000"});
  REQUIRE(wide.code == 0);
  const json jw = last_json(wide.out);
  CHECK(jw["complete"] == false);
  CHECK(jw["nodes"].get<uint64_t>() <= 200000);
  CHECK(jw["nodes"].get<uint64_t>() > 190000);  // small grants: little left unused
  CHECK(jw["bytes"].get<uint64_t>() == uint64_t{64} << 20);
  CHECK(jw["tables"] == tables16);
}

TEST_CASE("dfs on two threads: the one-thread values and line, one node budget, checkpoints",
          "[solver][cli][checkpoint]") {
  // Nine openings of about 1.25 M dfs nodes in all (Enfargar side 3, every
  // one a stall); each thread has a table of its own, half of --table-mb.
  const std::vector<std::string> job = {"solve",    "enfargar",   "--size",   "3",
                                        "--record", "a1 b2 c3",   "--method", "dfs",
                                        "--json",   "--table-mb", "64"};
  const auto with = [&](const std::vector<std::string>& extra) { return run(job, extra); };
  const auto [want, got] = one_and_two_threads(with, /*own_tables=*/true);
  REQUIRE(want["openings"].size() == 9);
  CHECK_FALSE(want.contains("tables"));  // one table, as before threads
  CHECK(got["pv"] == want["pv"]);
  CHECK(got["tables"] == 2);
  CHECK(got["bytes"].get<uint64_t>() <= uint64_t{64} << 20);
  auto text = run({"solve", "enfargar", "--size", "3", "--record", "a1 b2 c3 d4 e5", "--method",
                   "dfs", "--table-mb", "64", "--threads", "2"});
  REQUIRE(text.code == 0);
  CHECK(text.out.find("MB in 2 tables") != std::string::npos);
  check_two_thread_budget(with, want, 400000, 390000, temp_path("dfs-threads"));
  // The pie table (set-ups, no root position) on two threads.
  const std::vector<std::string> pie = {"solve",    "fiodar", "--size", "2",      "--pie",
                                        "--method", "dfs",    "--json", "--no-pv"};
  const auto [p1, p2] = one_and_two_threads(
      [&](const std::vector<std::string>& extra) { return run(pie, extra); }, true);
  CHECK(p2["pie_setup"] == p1["pie_setup"]);
  // A thread's error (a cycle: Gadur as written) stops the other and is
  // the command's one-line error, exit 2.
  auto cyc = run({"solve", "gadur", "--size", "3", "--method", "dfs", "--threads", "2"});
  CHECK(cyc.code == 2);
  CHECK(cyc.err.find("the position graph has a cycle") != std::string::npos);
  CHECK(std::count(cyc.err.begin(), cyc.err.end(), '\n') == 1);
}

TEST_CASE("superko on two threads: the one-thread values, value-only bounds, budget, checkpoints",
          "[solver][cli][superko][checkpoint]") {
  // Seven openings of about 93,000 superko nodes in all, their margins
  // mixed (-0.5 to 3.5). The threads share one table where its 16-byte
  // entries are read and written whole, else have one each.
  const int tables16 = loom::solver::whole16_atomic() ? 1 : 2;
  const std::vector<std::string> job = {
      "solve",    "fiodar",     "--size",
      "3",        "--record",   "c3 b2 b3 c2 d3 d2 c4 e3 d4 a1 e4 b1 a2",
      "--method", "superko",    "--json",
      "--no-pv",  "--table-mb", "16"};
  const auto with = [&](const std::vector<std::string>& extra) { return run(job, extra); };
  const auto [want, got] = one_and_two_threads(with);
  REQUIRE(want["openings"].size() == 7);
  CHECK(got["tables"] == tables16);
  // Value only on two threads: the value; each opening exact or a bound
  // that holds for its exact margin and does not beat the value.
  auto vo = with({"--threads", "2", "--value-only"});
  REQUIRE(vo.code == 0);
  const json v = last_json(vo.out);
  CHECK(v["complete"] == true);
  CHECK(v["value"] == want["value"]);
  const double value = want["value"];
  const int sign = want["to_move"] == "black" ? 1 : -1;
  // The last opening (pass, Black +3.5 with White to move) starts only
  // after one of the first two has finished exactly, and cannot beat it:
  // a bound, so the threads do pass the finished margins on.
  CHECK(v["openings"][6]["move"] == "pass");
  CHECK(v["openings"][6].contains("at_least"));
  for (size_t i = 0; i < want["openings"].size(); ++i) {
    const json& o = v["openings"][i];
    INFO(o.dump());
    if (!o["value"].is_null()) {
      CHECK(o["value"] == want["openings"][i]["value"]);
      continue;
    }
    REQUIRE(o.contains(sign > 0 ? "at_most" : "at_least"));
    const double b = o[sign > 0 ? "at_most" : "at_least"];
    CHECK(sign * want["openings"][i]["value"].get<double>() <= sign * b);
    CHECK(sign * b <= sign * value);
  }
  // One budget for both threads (small grants: little of it left unused).
  check_two_thread_budget(with, want, 30000, 29000, temp_path("superko-threads"));
  // The pie table on two threads: the one-thread set-up values and choice.
  const std::vector<std::string> pie = {"solve",    "fiodar",  "--size", "2",      "--pie",
                                        "--method", "superko", "--json", "--no-pv"};
  const auto [p1, p2] = one_and_two_threads(
      [&](const std::vector<std::string>& extra) { return run(pie, extra); }, true);
  CHECK(p2["pie_setup"] == p1["pie_setup"]);
  // --replay after two threads: the value proved again on the shared table.
  auto rp = run({"solve", "fiodar", "--size", "3", "--record", "c3 b2 b3 c2 d3 d2 b1 e3 d4 c4",
                 "--method", "superko", "--table-mb", "16", "--value-only", "--replay",
                 "--replay-mb", "4", "--json", "--threads", "2"});
  REQUIRE(rp.code == 0);
  const json x = last_json(rp.out)["replay"];
  CHECK(x["done"] == true);
  CHECK(x["at_least"] == true);
  CHECK(x["at_most"] == true);
}

TEST_CASE("solve --method dfpn: node limit, checkpoint, resume, interrupt, foreign files",
          "[solver][cli][checkpoint]") {
  const std::vector<std::string> job = {"solve",    "gadur",
                                        "--size",   "3",
                                        "--record", "a3 b3 b1 c2 b2 b3 d4 c1 c3",
                                        "--rule",   "capture=merge-only",
                                        "--method", "dfpn",
                                        "--json",   "--no-pv"};
  auto full = run(job);
  REQUIRE(full.code == 0);
  const auto want = last_json(full.out);
  REQUIRE(want["openings"].size() >= 2);
  CHECK(want["complete"] == true);
  const std::string file = temp_path("dfpn");
  auto with = [&](std::vector<std::string> extra) {
    auto args = job;
    args.insert(args.end(), {"--checkpoint", file});
    args.insert(args.end(), extra.begin(), extra.end());
    return run(args);
  };
  // One node: nothing proved, the checkpoint written; the rerun finishes.
  auto part = with({"--max-nodes", "1"});
  REQUIRE(part.code == 0);
  const auto jp = last_json(part.out);
  CHECK(jp["complete"] == false);
  CHECK(jp["value"].is_null());
  CHECK(jp["note"].get<std::string>().find("node limit") != std::string::npos);
  auto done = with({});
  REQUIRE(done.code == 0);
  auto jd = last_json(done.out);
  CHECK(jd["resumed"] == true);
  CHECK(jd["value"] == want["value"]);
  CHECK(jd["openings"] == want["openings"]);
  // Stopped as if by Ctrl-C after the first opening: exit 130, then the
  // same answer.
  std::filesystem::remove(file);
  auto stopped = with({"--stop-after", "1"});
  CHECK(stopped.code == 130);
  CHECK(stopped.err.find("interrupted") != std::string::npos);
  auto again = with({});
  REQUIRE(again.code == 0);
  CHECK(last_json(again.out)["openings"] == want["openings"]);
  // The compact method's checkpoint of the same position is another job's.
  std::filesystem::remove(file);
  auto args = job;
  args[args.size() - 3] = "compact";
  args.insert(args.end(), {"--checkpoint", file});
  REQUIRE(run(args).code == 0);
  auto foreign = with({});
  CHECK(foreign.code == 2);
  CHECK(foreign.err.find("does not match this job") != std::string::npos);
  std::filesystem::remove(file);
  // Games it cannot solve: a clear error.
  for (const auto& bad : std::vector<std::vector<std::string>>{
           {"solve", "enfargar", "--size", "2", "--method", "dfpn"},
           {"solve", "fiodar", "--size", "2", "--method", "dfpn"},
           {"solve", "gadur", "--size", "2", "--method", "dfpn"}}) {
    auto r = run(bad);
    CHECK(r.code == 2);
    CHECK(r.err.find("--method dfpn") != std::string::npos);
    // Said as a refusal (it once read "--method dfpn: games that list
    // their placements (Gadur)").
    if (bad[1] != "gadur") CHECK(r.err.find("is not available for this game") != std::string::npos);
    // Never pointing at a game it refuses as well (Enfargar).
    CHECK(r.err.find("Enfargar") == std::string::npos);
  }
  auto migong = run({"solve", "migong", "--size", "2", "--method", "compact"});
  CHECK(migong.code == 2);
  CHECK(migong.err.find("--method compact is not available for this game") != std::string::npos);
}

TEST_CASE("a retrograde run stopped at --max-positions lists every opening unsolved",
          "[solver][cli]") {
  // It printed "openings": [] (docs/cli.md: the openings finished, the rest
  // null), unlike the alpha-beta methods.
  auto full = run({"solve", "gadur", "--size", "2", "--json"});
  REQUIRE(full.code == 0);
  const json want = last_json(full.out);
  auto r = run({"solve", "gadur", "--size", "2", "--max-positions", "10", "--json"});
  REQUIRE(r.code == 0);
  const json j = last_json(r.out);
  CHECK(j["complete"] == false);
  CHECK(j["value"].is_null());
  REQUIRE(j["openings"].size() == want["openings"].size());
  REQUIRE(!j["openings"].empty());
  for (size_t i = 0; i < j["openings"].size(); ++i) {
    CHECK(j["openings"][i]["move"] == want["openings"][i]["move"]);
    CHECK(j["openings"][i]["value"].is_null());
  }
}

TEST_CASE("solve on the recommended boards: alpha-beta values a late position as the puzzle does",
          "[solver][cli]") {
  // Sides 5 to 9 were refused outright: a puzzle on Enfargar's side 9 had
  // no second check but `puzzle check`. The golden side-9 puzzle (206
  // plies in; tests/data/puzzles/enfargar9.jsonl, proved by the puzzle
  // checker's own search): f13 is the only winning move, every other stalls.
  std::ifstream in(std::string(LOOM_TEST_DATA) + "/puzzles/enfargar9.jsonl");
  std::string first;
  std::getline(in, first);
  const json p = json::parse(first);
  std::vector<std::string> args = {
      "solve", "enfargar", "--size", "9", "--record", p["record"].get<std::string>(), "--json"};
  for (const auto& [k, v] : p["rules"].items())
    args.insert(args.end(), {"--rule", k + "=" + v.get<std::string>()});
  auto r = run(args);
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = last_json(r.out);
  CHECK(j["method"] == "dfs");
  CHECK(j["complete"] == true);
  const std::string me = p["to_move"].get<std::string>();
  CHECK(j["value"] == me);
  std::map<std::string, std::string> got;
  for (const auto& o : j["openings"])
    got[o["move"].get<std::string>()] = o["value"].get<std::string>();
  REQUIRE(got.size() == p["moves"].size());
  for (const auto& m : p["moves"]) {
    const std::string v = m["value"].get<std::string>();
    const std::string want = v == "win"    ? me
                             : v == "loss" ? (me == "black" ? "white" : "black")
                                           : v;
    CHECK(got[m["move"].get<std::string>()] == want);
  }
}

TEST_CASE("solve --save-table, then --table: any position of the game answered without solving",
          "[solver][cli][dense][table]") {
  const std::string file = temp_path("table");
  struct Job {
    std::string game;
    std::vector<std::string> options;
  };
  const std::vector<Job> jobs = {{"gadur", {}},
                                 {"enfargar", {}},
                                 {"gadur", {"--rule", "capture=merge-only", "--no-symmetry"}},
                                 {"enfargar", {"--rule", "stall=more-stones"}}};
  for (const auto& [game, options] : jobs) {
    INFO(game << " " << (options.empty() ? "" : options[1]));
    std::filesystem::remove(file);
    auto saved = run({"solve", game, "--size", "2", "--save-table", file, "--json"}, options);
    REQUIRE(saved.code == 0);
    const json js = last_json(saved.out);
    CHECK(js["method"] == "dense");  // --method dense implied
    REQUIRE(std::filesystem::exists(file));
    // The start and positions after some records: the table's answers are
    // the solve's (value, plies, openings, line), and the figures of the
    // solve that made it.
    for (const std::string record : {"", "a1", "a1 b2", "b2 a1"}) {
      INFO("record '" << record << "'");
      auto direct =
          run({"solve", game, "--size", "2", "--method", "dense", "--record", record, "--json"},
              options);
      auto read = run({"solve", game, "--size", "2", "--table", file, "--record", record, "--json"},
                      options);
      REQUIRE(direct.code == 0);
      REQUIRE(read.code == 0);
      const json a = last_json(direct.out), b = last_json(read.out);
      CHECK(a["value"] == b["value"]);
      CHECK(a.value("plies", -1) == b.value("plies", -1));
      CHECK(a["openings"] == b["openings"]);
      CHECK(a["pv"] == b["pv"]);
      CHECK(b["table"] == file);
      CHECK(b["positions"] == js["positions"]);
      CHECK(!b.contains("table_check"));
      CHECK(b["layers"] == js["layers"]);
      // "read from the table FILE, ...", or the rules' result of a
      // finished position.
      CHECK(b.contains("note"));
    }
    // The whole table holds up against the rules (solver/dense_table_check.h).
    auto checked =
        run({"solve", game, "--size", "2", "--table", file, "--check-table", "--json"}, options);
    REQUIRE(checked.code == 0);
    CHECK(last_json(checked.out)["table_check"]["positions"] == js["positions"]);
    CHECK(last_json(checked.out)["table_check"]["moves"].get<uint64_t>() >=
          js["positions"].get<uint64_t>());
  }
  // A position right after a pass (on the start's line of best play): the
  // dense solve does not start from one, the table answers it as the hash
  // retrograde does.
  std::filesystem::remove(file);
  REQUIRE(run({"solve", "enfargar", "--size", "2", "--save-table", file}).code == 0);
  const std::string pass = "b2 a1 c3 b1 a2 pass";
  auto retro = run(
      {"solve", "enfargar", "--size", "2", "--method", "retrograde", "--record", pass, "--json"});
  auto read =
      run({"solve", "enfargar", "--size", "2", "--table", file, "--record", pass, "--json"});
  REQUIRE(retro.code == 0);
  REQUIRE(read.code == 0);
  CHECK(last_json(read.out)["value"] == last_json(retro.out)["value"]);
  CHECK(last_json(read.out)["plies"] == last_json(retro.out)["plies"]);
  CHECK(last_json(read.out)["openings"] == last_json(retro.out)["openings"]);
  std::filesystem::remove(file);
}

TEST_CASE("dense tables: another job's table, a position it lacks, and option clashes are exit 2",
          "[solver][cli][dense][table]") {
  const std::string file = temp_path("table_from_a1");
  // A table solved after a1 holds what a1 leads to, not the start.
  REQUIRE(run({"solve", "gadur", "--size", "2", "--record", "a1", "--save-table", file}).code == 0);
  CHECK(run({"solve", "gadur", "--size", "2", "--record", "a1 b2", "--table", file}).code == 0);
  const std::vector<std::string> a1 = {"solve", "gadur", "--size", "2", "--record", "a1"};
  // A checkpoint named by a link is written, and locked, at its target.
  std::filesystem::remove(file + "8");
  std::filesystem::create_symlink(file + "8.target", file + "8");
  const auto with = [](std::vector<std::string> cmd, const std::vector<std::string>& more) {
    cmd.insert(cmd.end(), more.begin(), more.end());
    return cmd;
  };
  const std::string other_job = "does not match this job";
  testing::check_bad_inputs({
      {{"solve", "gadur", "--size", "2", "--table", file},
       "does not hold this position: it holds the positions reachable from the position after "
       "\"a1\""},
      // Another rule set, game, board or symmetry: not this job's table.
      {{"solve", "gadur", "--size", "2", "--rule", "capture=merge-only", "--record", "a1",
        "--table", file},
       other_job},
      {{"solve", "enfargar", "--size", "2", "--record", "a1", "--table", file}, other_job},
      {{"solve", "gadur", "--size", "3", "--record", "a1", "--table", file}, other_job},
      {with(a1, {"--no-symmetry", "--table", file}), other_job},
      // Options that do not go with tables.
      {with(a1, {"--table", file, "--save-table", file + "2"}), "one or the other"},
      {with(a1, {"--table", file, "--method", "retrograde"}),
       "--table: tables come from --method dense, not retrograde"},
      {with(a1, {"--save-table", file + "2", "--method", "dfs"}),
       "--save-table: tables come from --method dense, not dfs"},
      {with(a1, {"--table", file, "--checkpoint", file + "3"}),
       "--table is not used with --checkpoint"},
      {with(a1, {"--table", file, "--kept-mb", "1"}), "--kept-mb is not used with --table"},
      {with(a1, {"--check-table"}), "--check-table: only with --table"},
      {with(a1, {"--save-table", file + "5", "--checkpoint", file + "5"}),
       "--save-table and --checkpoint name the same file"},
      // Spelled differently, relative (said "another loom process (pid N:
      // this one) is using this checkpoint": a reviewer's find).
      {with(a1, {"--save-table", "loom_same_rel.tbl", "--checkpoint", "./loom_same_rel.tbl"}),
       "--save-table and --checkpoint name the same file"},
      // The table at the checkpoint's lock file once replaced the lock the
      // run held (exit 0; every later run refused): a reviewer's find.
      {with(a1, {"--save-table", file + "6.lock", "--checkpoint", file + "6"}),
       "--save-table and --checkpoint: one names the other's lock file"},
      {with(a1, {"--save-table", file + "7", "--checkpoint", file + "7.lock"}),
       "--save-table and --checkpoint: one names the other's lock file"},
      {with(a1, {"--save-table", file + "8.target.lock", "--checkpoint", file + "8"}),
       "--save-table and --checkpoint: one names the other's lock file"},
      // The table over the checkpoint's parts or its .tmp ruined the
      // checkpoint or was removed by its next save (a reviewer's find).
      {with(a1, {"--save-table", file + "9.rank0.a", "--checkpoint", file + "9"}),
       "is a file the checkpoint writes beside its own"},
      {with(a1, {"--save-table", file + "9.rank0.b", "--checkpoint", file + "9"}),
       "is a file the checkpoint writes beside its own"},
      {with(a1, {"--save-table", file + "9.tmp", "--checkpoint", file + "9"}),
       "is a file the checkpoint writes beside its own"},
      {with(a1, {"--save-table", file + "9.rank2", "--checkpoint", file + "9"}),
       "the table's lock " + file + "9.rank2.lock is a file the checkpoint writes"},
      {with(a1, {"--save-table", file + "9", "--checkpoint", file + "9.tmp"}),
       "is a file the table writes beside its own"},
      {with(a1, {"--save-table", file + "2", "--check-table"}), "--check-table: only with --table"},
      {{"solve", "nardy", "--check-table"}, "--check-table is not used by nardy"},
      {with(a1, {"--table", file, "--max-nodes", "5"}),
       "--max-nodes is not used by --method dense"},
      {with(a1, {"--table", ""}), "--table: needs a file name"},
      {with(a1, {"--save-table", ""}), "--save-table: needs a file name"},
      {with(a1, {"--table", file + "_missing"}), "No such file"},
      {{"solve", "fiodar", "--size", "2", "--pie", "--save-table", file + "2"},
       "--save-table is not used with --pie"},
      {{"solve", "nardy", "--table", file}, "--table is not used by nardy"},
      // A finished position has no table to save.
      {{"solve", "gadur", "--size", "2", "--record", "b2 c2 c3 b1 a1 b3 c3 b2", "--save-table",
        file + "2"},
       "the position is already over"},
  });
  // --save-table never writes over work it would destroy: another job's
  // table, this game's solved from another position, a file that is no
  // table (each left byte for byte); this job's own table is saved again,
  // an empty file (made beforehand) filled.
  {
    const std::string saved = testing::slurp_file(file), text = file + "_text",
                      empty = file + "_empty";
    std::ofstream(text) << "notes\n";
    testing::check_bad_inputs({
        {{"solve", "gadur", "--size", "2", "--save-table", file},
         "--save-table: table " + file +
             " holds this game's table solved from the position after \"a1\", not from the "
             "start; it is not written over: remove it or name another file"},
        {{"solve", "enfargar", "--size", "2", "--record", "a1", "--save-table", file}, other_job},
        {{"solve", "gadur", "--size", "2", "--rule", "capture=merge-only", "--record", "a1",
          "--save-table", file},
         other_job},
        {with(a1, {"--save-table", text}), "is not written over"},
    });
    CHECK(testing::slurp_file(file) == saved);
    CHECK(testing::slurp_file(text) == "notes\n");
    REQUIRE(run(with(a1, {"--save-table", file})).code == 0);
    CHECK(testing::slurp_file(file) == saved);
    std::ofstream(empty).flush();
    REQUIRE(std::filesystem::file_size(empty) == 0);
    REQUIRE(run(with(a1, {"--save-table", empty})).code == 0);
    CHECK(testing::slurp_file(empty) == saved);
    // A table of the start holds the position after a1: the message says
    // how to answer from it.
    std::filesystem::remove(empty);
    REQUIRE(run({"solve", "gadur", "--size", "2", "--save-table", empty}).code == 0);
    testing::check_bad_inputs({{with(a1, {"--save-table", empty}),
                                "solved from the start, not from the position after \"a1\" "
                                "(answer this position from it with --table)"}});
    std::filesystem::remove(text);
    std::filesystem::remove(empty);
  }
  // Under mpirun, one rank included, a table is not read (one process
  // reads it); it is saved (the partitioned solve, below).
  {
    solver::LocalExchange one_rank;
    CHECK(run_rank(with(a1, {"--table", file}), one_rank) == 2);
  }
  // A finished position read from a table is answered by the rules.
  auto over = run({"solve", "gadur", "--size", "2", "--record", "b2 c2 c3 b1 a1 b3 c3 b2",
                   "--table", file, "--json"});
  CHECK(over.code == 0);
  CHECK(last_json(over.out)["value"] == "black");
  CHECK(!std::filesystem::exists(file + "2"));
  std::filesystem::remove(file);
  std::filesystem::remove(file + "8");
}

TEST_CASE("a dense --checkpoint keeps a finished solve and never writes over another job's part",
          "[solver][cli][dense]") {
  const std::string ck = temp_path("dense_finished"), other = temp_path("dense_other");
  const auto clean = [&] {
    for (const auto& f : {ck, other})
      for (const char* ext : {"", ".rank0.a", ".rank0.b"}) std::filesystem::remove(f + ext);
  };
  clean();
  const std::vector<std::string> job = {"solve", "gadur",        "--size", "2",     "--method",
                                        "dense", "--checkpoint", ck,       "--json"};
  // Finished before the first interval was due: it once left no
  // checkpoint, so a rerun solved again (a reviewer's find).
  auto first = run(job);
  REQUIRE(first.code == 0);
  CHECK(!last_json(first.out).value("resumed", false));
  CHECK(std::filesystem::exists(ck));
  auto again = run(job);
  REQUIRE(again.code == 0);
  CHECK(last_json(again.out).value("resumed", false));
  CHECK(last_json(again.out)["openings"] == last_json(first.out)["openings"]);
  CHECK(last_json(again.out)["positions"] == last_json(first.out)["positions"]);
  // A part of another job beside a missing manifest: refused, not written
  // over (it once was, silently).
  std::filesystem::remove(ck);
  REQUIRE(std::filesystem::exists(ck + ".rank0.a"));
  std::filesystem::rename(ck + ".rank0.a", other + ".rank0.a");
  const std::string part = testing::slurp_file(other + ".rank0.a");
  auto foreign = run({"solve", "gadur", "--size", "2", "--rule", "capture=merge-only", "--method",
                      "dense", "--checkpoint", other});
  CHECK(foreign.code == 2);
  CHECK(foreign.err.find("does not match this job") != std::string::npos);
  CHECK(foreign.err.find('\n') == foreign.err.size() - 1);  // one line
  CHECK(testing::slurp_file(other + ".rank0.a") == part);
  // Both parts of another job: one message names both.
  std::filesystem::copy_file(other + ".rank0.a", other + ".rank0.b");
  auto both = run({"solve", "gadur", "--size", "2", "--rule", "capture=merge-only", "--method",
                   "dense", "--checkpoint", other});
  CHECK(both.code == 2);
  CHECK(both.err.find(other + ".rank0.a does not match this job") != std::string::npos);
  CHECK(both.err.find(other + ".rank0.b beside it is refused too") != std::string::npos);
  CHECK(both.err.find('\n') == both.err.size() - 1);
  CHECK(testing::slurp_file(other + ".rank0.b") == part);
  // This job's part without its manifest (a run killed before its first
  // save was whole) holds nothing usable: written over, solved afresh.
  auto mine =
      run({"solve", "gadur", "--size", "2", "--method", "dense", "--checkpoint", other, "--json"});
  CHECK(mine.code == 0);
  CHECK(!last_json(mine.out).value("resumed", false));
  CHECK(last_json(mine.out)["openings"] == last_json(first.out)["openings"]);
  clean();
}

TEST_CASE("compact and dfpn keep their search table in the checkpoint until the job is done",
          "[solver][cli][checkpoint]") {
  // A run stopped at the node limit inside an opening once kept only the
  // finished openings: the opening's search started again from nothing.
  // Now the checkpoint holds the table (the file is the table's size) and
  // the rerun reads it; the last save, every opening solved, drops it.
  const std::string ck = temp_path("table_keep");
  for (const std::string method : {"compact", "dfpn"})
    for (const std::string threads : {"1", "2"}) {
      INFO(method << " on " << threads << " threads");
      std::filesystem::remove(ck);
      const std::vector<std::string> job = {"solve",      "gadur",
                                            "--size",     "3",
                                            "--rule",     "capture=merge-only",
                                            "--record",   "a3 b3 b1 c2 b2 b3",
                                            "--method",   method,
                                            "--json",     "--no-pv",
                                            "--table-mb", "16",
                                            "--threads",  threads};
      auto fresh = run(job);
      REQUIRE(fresh.code == 0);
      const json want = last_json(fresh.out);
      const uint64_t full = want["nodes"];
      auto stopped = run(job, {"--checkpoint", ck, "--max-nodes", std::to_string(full / 2)});
      REQUIRE(stopped.code == 0);
      CHECK(last_json(stopped.out)["complete"] == false);
      CHECK(std::filesystem::file_size(ck) > (uint64_t{16} << 20));  // the table
      auto resumed = run(job, {"--checkpoint", ck});
      REQUIRE(resumed.code == 0);
      const json got = last_json(resumed.out);
      CHECK(got["resumed"] == true);
      CHECK(got["value"] == want["value"]);
      CHECK(got["openings"] == want["openings"]);
      CHECK(!got.contains("note"));
      CHECK(std::filesystem::file_size(ck) < 4096);  // done: the codes only
      // Another --table-mb: the saved table is read past, not loaded, and
      // the note says so.
      std::filesystem::remove(ck);
      REQUIRE(run(job, {"--checkpoint", ck, "--max-nodes", std::to_string(full / 2)}).code == 0);
      auto job8 = job;
      job8[job8.size() - 3] = "8";
      auto other = run(job8, {"--checkpoint", ck});
      REQUIRE(other.code == 0);
      const json o = last_json(other.out);
      CHECK(o["value"] == want["value"]);
      CHECK(o["openings"] == want["openings"]);
      CHECK(o.value("note", "").find("search table was not used") != std::string::npos);
    }
  std::filesystem::remove(ck);
}

TEST_CASE("a stop request that comes once every opening is solved loses no result",
          "[solver][cli][checkpoint]") {
  // --stop-after N with N the whole run's nodes: the stop is due right
  // after the last opening. It once threw "interrupted after finishing an
  // opening" (exit 130) with the result computed and not printed.
  for (const std::string method : {"compact", "dfpn", "dfs"})
    for (const std::string threads : {"1", "2"}) {
      // dfs's two threads have a table each: their node count moves with
      // the timing (66 to 72 here), so another run's count can come due
      // before the last opening.
      if (method == "dfs" && threads == "2") continue;
      INFO(method << " on " << threads << " threads");
      const std::vector<std::string> job = {
          "solve",    "gadur", "--size", "2",         "--rule", "capture=merge-only",
          "--method", method,  "--json", "--threads", threads};
      auto full = run(job);
      REQUIRE(full.code == 0);
      const json want = last_json(full.out);
      auto late = run(job, {"--stop-after", std::to_string(want["nodes"].get<uint64_t>())});
      CHECK(late.code == 0);
      CHECK(last_json(late.out)["value"] == want["value"]);
      CHECK(last_json(late.out)["openings"] == want["openings"]);
    }
  // A stop while dfs works out the principal variation (1,160,311 nodes of
  // openings, then about 90,000 of the line: the stop is due at the
  // line's first progress tick) keeps the proved result, without the
  // line. It once lost it: "interrupted while searching", exit 130.
  const std::vector<std::string> job = {"solve",    "enfargar", "--size", "3",     "--record",
                                        "a1 b2 c3", "--method", "dfs",    "--json"};
  auto no_pv = run(job, {"--no-pv"});
  REQUIRE(no_pv.code == 0);
  const json want = last_json(no_pv.out);
  auto late = run(job, {"--stop-after", std::to_string(want["nodes"].get<uint64_t>())});
  REQUIRE(late.code == 0);
  check_proved_without_line(last_json(late.out), want, "not worked out before the stop request");
}

namespace {
/// Regular files this process writes are cut at `bytes` while it lives:
/// a write past it fails with EFBIG ("File too large") instead of raising
/// SIGXFSZ, as a full disk fails a write.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &old_);
    old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit r = old_;
    r.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &r);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &old_);
    std::signal(SIGXFSZ, old_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  rlimit old_{};
  void (*old_handler_)(int) = nullptr;
};
}  // namespace

TEST_CASE("a checkpoint that cannot be saved once the solve is done loses no result",
          "[solver][cli][checkpoint]") {
  // The last save of a finished solve failing (a full disk, here a file
  // size limit) once exited 2 before the report: the result was computed
  // and lost. Now the report comes first, then the one-line error, exit 2.
  const std::string ck = temp_path("final_save");
  const auto clean = [&] {
    for (const char* ext : {"", ".tmp", ".rank0.a", ".rank0.b", ".rank0.a.tmp", ".rank0.b.tmp"})
      std::filesystem::remove(ck + ext);
  };
  const std::vector<std::string> base = {
      "solve",        "gadur", "--size",  "2", "--rule", "capture=merge-only",
      "--checkpoint", ck,      "--method"};
  const auto job = [&](const std::string& method, std::vector<std::string> more) {
    std::vector<std::string> cmd = base;
    cmd.push_back(method);
    cmd.insert(cmd.end(), more.begin(), more.end());
    return cmd;
  };
  // Every method; the search methods save after each opening, so the run
  // that fails is one with a single opening left (the first one finished
  // and saved by a run stopped after it): its save is the last.
  struct Case {
    std::string method;
    std::vector<std::string> more;
    bool by_opening;
  };
  const std::vector<Case> cases = {{"dense", {}, false},  {"retrograde", {}, false},
                                   {"compact", {}, true}, {"compact", {"--threads", "2"}, true},
                                   {"dfpn", {}, true},    {"dfs", {}, true}};
  const auto want = run({"solve", "gadur", "--size", "2", "--rule", "capture=merge-only"});
  REQUIRE(want.code == 0);
  for (const auto& c : cases) {
    INFO(c.method << (c.more.empty() ? "" : " " + c.more.back()));
    clean();
    if (c.by_opening) {
      auto first = run(job(c.method, {"--stop-after", "1"}));
      REQUIRE(first.code == 130);
      REQUIRE(std::filesystem::exists(ck));
    }
    const std::string before = c.by_opening ? testing::slurp_file(ck) : "";
    Run failed;
    {
      FileSizeLimit cut(0);
      failed = run(job(c.method, c.more));
    }
    CHECK(failed.code == 2);
    CHECK(failed.out.find("value: black wins") != std::string::npos);
    CHECK(failed.out.find("  b2 ") != std::string::npos);  // the openings
    CHECK(failed.err.find("cannot write checkpoint") != std::string::npos);
    CHECK(failed.err.find("File too large") != std::string::npos);
    CHECK(failed.err.find("the result printed stands") != std::string::npos);
    CHECK(failed.err.find('\n') == failed.err.size() - 1);  // one line
    // The last good checkpoint is as it was, and resumes.
    if (c.by_opening) {
      CHECK(testing::slurp_file(ck) == before);
      auto again = run(job(c.method, c.more));
      CHECK(again.code == 0);
      CHECK(again.out.find("value: black wins") != std::string::npos);
    }
  }
  // A save with the search table that does not fit (the table is 16 MB,
  // the files may hold 1 MB) is made again without it: the finished
  // openings are kept and the report's note says the table is not.
  for (const std::string method : {"compact", "dfpn"}) {
    INFO(method << ": the table does not fit");
    clean();
    const auto table_job = [&](const std::vector<std::string>& more) {
      std::vector<std::string> cmd = {"solve",        "gadur",
                                      "--size",       "3",
                                      "--rule",       "capture=merge-only",
                                      "--record",     "a3 b3 b1 c2 b2 b3",
                                      "--method",     method,
                                      "--checkpoint", ck,
                                      "--json",       "--no-pv",
                                      "--table-mb",   "16"};
      cmd.insert(cmd.end(), more.begin(), more.end());
      return cmd;
    };
    Run limited, stopped;
    {
      FileSizeLimit cut(1 << 20);
      limited = run(table_job({"--max-nodes", "40000"}));
      stopped = run(table_job({"--stop-after", "1"}));
    }
    CHECK(limited.code == 0);
    CHECK(last_json(limited.out)["note"].get<std::string>().find(
              "the search table could not be saved in the checkpoint") != std::string::npos);
    CHECK(stopped.code == 130);
    CHECK(stopped.err.find("interrupted") != std::string::npos);
    CHECK(stopped.err.find("search table") == std::string::npos);  // not claimed saved
    CHECK(std::filesystem::file_size(ck) < 4096);                  // the codes
    auto resumed = run(table_job({}));
    CHECK(resumed.code == 0);
    CHECK(last_json(resumed.out)["resumed"] == true);
  }
  // A mid-run save failing still stops the run (its last good save stands).
  clean();
  Run mid;
  {
    FileSizeLimit cut(0);
    mid = run(job("compact", {}));
  }
  CHECK(mid.code == 2);
  CHECK(mid.out.find("value:") == std::string::npos);
  CHECK(mid.err.find("cannot write checkpoint") != std::string::npos);
  clean();
}

TEST_CASE(
    "solve --save-table with --checkpoint or mpirun: the partitioned solve saves the same table",
    "[solver][cli][dense][table]") {
  // The partitioned solver (one rank here: --checkpoint, or mpirun -np 1)
  // gathers every position on rank 0 and writes the one-process solve's
  // file, byte for byte; a run resumed from a stopped checkpoint as well.
  const std::string one = temp_path("table_one"), part = temp_path("table_part"),
                    ck = temp_path("table_ck");
  const auto clean = [&] {
    for (const auto& f : {one, part, ck, ck + ".rank0.a", ck + ".rank0.b"})
      std::filesystem::remove(f);
  };
  const std::vector<std::vector<std::string>> jobs = {
      {"gadur", "--size", "2"},
      {"gadur", "--size", "2", "--rule", "capture=merge-only", "--no-symmetry"},
      {"enfargar", "--size", "2", "--record", "b2"},
      {"enfargar", "--size", "3", "--record", "a1 b2 c3 d4 e5 a2 b1"}};
  const auto with = [](std::vector<std::string> cmd, const std::vector<std::string>& more) {
    cmd.insert(cmd.begin(), "solve");
    cmd.insert(cmd.end(), more.begin(), more.end());
    return cmd;
  };
  for (const auto& job : jobs) {
    INFO(job[0] << " " << job.back());
    clean();
    auto direct = run(with(job, {"--save-table", one, "--json"}));
    REQUIRE(direct.code == 0);
    const std::string want = testing::slurp_file(one);
    REQUIRE(want.size() > 100);
    // --checkpoint: stopped after the first step, then resumed.
    auto stopped = run(with(job, {"--save-table", part, "--checkpoint", ck, "--stop-after", "1"}));
    CHECK(stopped.code == 130);
    CHECK(!std::filesystem::exists(part));  // no table from an unfinished solve
    auto resumed = run(with(job, {"--save-table", part, "--checkpoint", ck, "--json"}));
    REQUIRE(resumed.code == 0);
    const json a = last_json(direct.out), b = last_json(resumed.out);
    CHECK(b["resumed"] == true);
    CHECK(a["value"] == b["value"]);
    CHECK(a["openings"] == b["openings"]);
    CHECK(testing::slurp_file(part) == want);
    // The finished checkpoint again: the table without solving.
    std::filesystem::remove(part);
    REQUIRE(run(with(job, {"--save-table", part, "--checkpoint", ck})).code == 0);
    CHECK(testing::slurp_file(part) == want);
    // mpirun -np 1.
    std::filesystem::remove(part);
    {
      solver::LocalExchange one_rank;
      CHECK(run_rank(with(job, {"--save-table", part}), one_rank) == 0);
    }
    CHECK(testing::slurp_file(part) == want);
    // And it answers as the solve did, every position checked against the
    // rules (a side-3 subtree with passes among them).
    auto read = run(with(job, {"--table", part, "--check-table", "--json"}));
    REQUIRE(read.code == 0);
    CHECK(last_json(read.out)["table_check"]["positions"] == a["positions"]);
    CHECK(last_json(read.out)["value"] == a["value"]);
    CHECK(last_json(read.out)["pv"] == a["pv"]);
  }
  // A finished position has no table to save, checkpointed or not.
  clean();
  testing::check_bad_inputs({{{"solve", "gadur", "--size", "2", "--record",
                               "b2 c2 c3 b1 a1 b3 c3 b2", "--save-table", part, "--checkpoint", ck},
                              "the position is already over"}});
  CHECK(!std::filesystem::exists(part));
  clean();
}
