// Robustness of the command line (issue 17), in process: one strict integer
// parser for every option, files opened only if regular, checkpoints that
// record every input of the job, output errors, messages that name and clip
// what they quote, and the fixes of each defect found.
#include <catch2/catch.hpp>

#include <poll.h>
#include <pty.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <csignal>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <streambuf>

#include "app/int_option.h"
#include "model/common/files.h"
#include "model/common/game.h"
#include "model/gadur/gadur.h"
#include "solver/checkpoint.h"
#include "solver/control.h"
#include "solver/value.h"
#include "tests/common/cli_run.h"

using namespace loom;
using loom::testing::BadInput;
using loom::testing::check_bad_inputs;
using loom::testing::last_json;
using loom::testing::lines;
using loom::testing::run;
using nlohmann::json;

namespace {

std::string robust_temp(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / "loom_robust_tests";
  std::filesystem::create_directories(dir);
  auto p = dir / (name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(p);
  return p.string();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream o(path, std::ios::binary | std::ios::trunc);
  o << text;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// Recomputes a checkpoint's trailing checksum over its edited bytes (the
/// checksum guards against damage, not deliberate edits: the tests make
/// such edits to show what the readers check beyond it).
void resign(std::string& b) {
  solver::Checksum sum;
  sum.add(b.data(), b.size() - 8);
  const uint64_t c = sum.value();
  std::memcpy(b.data() + b.size() - 8, &c, 8);
}

/// Where a saved dense table's figures start (solver/dense_table.cpp):
/// after the checkpoint header (magic, format, kind, signature), the table
/// format and the record it was solved from.
size_t table_figures_at(const std::string& b) {
  size_t at = 8 + 8;
  uint64_t len = 0;
  for (int str = 0; str < 2; ++str) {
    std::memcpy(&len, b.data() + at, 8);
    at += 8 + len;
  }
  at += 8;
  std::memcpy(&len, b.data() + at, 8);
  return at + 8 + len;
}

/// Starts the loom binary with `args` (after the program name) on a new
/// terminal; `master` gets the terminal's other end. Returns its pid (-1
/// if it could not start).
pid_t loom_on_terminal(const std::vector<std::string>& args, int& master) {
  std::vector<std::string> all = {LOOM_BIN};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
  if (pid == 0) {
    ::execv(LOOM_BIN, argv.data());
    ::_exit(127);
  }
  return pid;
}

/// Appends what a child writes to its terminal (forkpty's `master`) to
/// `seen` until it is gone or `seconds` pass with nothing read, calling
/// `after_read()` after each read.
template <class F>
void read_terminal(int master, int seconds, std::string& seen, F&& after_read) {
  for (int waited = 0; waited < 10 * seconds;) {
    pollfd p{master, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) {
      ++waited;
      continue;
    }
    char buf[512];
    const ssize_t n = ::read(master, buf, sizeof buf);
    if (n <= 0) break;  // EIO: the child is gone
    seen.append(buf, static_cast<size_t>(n));
    after_read();
  }
}

}  // namespace

TEST_CASE("the strict integer parser accepts decimal digits only, within bounds",
          "[robust][options]") {
  CHECK(parse_int_option<int>("0", "--x", 0, 10) == 0);
  CHECK(parse_int_option<int>("10", "--x", 0, 10) == 10);
  CHECK(parse_int_option<int>("-5", "--x", -10, 10) == -5);
  CHECK(parse_int_option<uint64_t>("18446744073709551615", "--x", 0, UINT64_MAX) == UINT64_MAX);
  for (const char* bad : {"", " 1", "1 ", "+1", "0x3", "010", "1e3", "1.0", "-0", "--1", "٣",
                          "1,000", "11", "-1", "18446744073709551616"}) {
    INFO("'" << bad << "'");
    CHECK_THROWS_AS(parse_int_option<int>(bad, "--x", 0, 10), InputError);
  }
  CHECK_THROWS_AS(parse_int_option<uint64_t>("-1", "--x", 0, 100), InputError);
  CHECK_THROWS_AS(parse_int_option<uint64_t>("18446744073709551616", "--x", 0, UINT64_MAX),
                  InputError);
  // The message names the option and its bounds, and clips a long text.
  try {
    parse_int_option<int>(std::string(300, '9'), "--depth", 0, 1000);
    FAIL("accepted");
  } catch (const InputError& e) {
    std::string m = e.what();
    CHECK(m.find("--depth") != std::string::npos);
    CHECK(m.find("0..1000") != std::string::npos);
    CHECK(m.find("(300 characters)") != std::string::npos);
    CHECK(m.size() < 160);
  }
  CHECK(parse_seconds_option("0.25", "--i", 0.001, 1e9) == 0.25);
  for (const char* bad : {"", "0", "-1", "nan", "inf", "1e3", "1..2", " 1", "0x1"}) {
    INFO("'" << bad << "'");
    CHECK_THROWS_AS(parse_seconds_option(bad, "--i", 0.001, 1e9), InputError);
  }
}

TEST_CASE("every integer option of every command refuses the same bad texts",
          "[robust][options][cli]") {
  // (command line before the option, option): each takes an integer.
  struct Opt {
    std::vector<std::string> pre;
    std::string option;
  };
  std::vector<Opt> opts = {
      {{"moves", "gadur"}, "--size"},
      {{"perft", "gadur", "--depth", "1"}, "--size"},
      {{"perft", "gadur", "--size", "2"}, "--depth"},
      {{"show", "gadur"}, "--size"},
      {{"score", "fiodar"}, "--size"},
      {{"play", "gadur", "--size", "2"}, "--seed"},
      {{"play", "gadur", "--size", "2"}, "--max-turns"},
      {{"edges", "migong"}, "--size"},
      {{"verify", "gadur", "--property", "termination"}, "--size"},
      {{"solve", "gadur", "--size", "2"}, "--threads"},
      {{"solve", "gadur", "--size", "2"}, "--max-positions"},
      {{"solve", "gadur", "--size", "2"}, "--table-mb"},
      {{"solve", "enfargar", "--size", "2"}, "--kept-mb"},
      {{"solve", "gadur", "--size", "2"}, "--max-nodes"},
      {{"solve", "gadur"}, "--size"},
      {{"audit", "gadur", "--out", "/nonexistent/loom-audit"}, "--size"},
      {{"audit", "gadur", "--out", "/nonexistent/loom-audit"}, "--play-size"},
      {{"audit", "gadur", "--out", "/nonexistent/loom-audit"}, "--games"},
      {{"audit", "gadur", "--out", "/nonexistent/loom-audit"}, "--seed"},
      {{"audit", "gadur", "--out", "/nonexistent/loom-audit"}, "--max-positions"},
      {{"audit", "gadur", "--out", "/nonexistent/loom-audit"}, "--max-nodes"},
      {{"puzzle", "make", "gadur", "--count", "1", "--seed", "1", "--out", "/nonexistent/p"},
       "--size"},
      {{"puzzle", "make", "gadur", "--seed", "1", "--out", "/nonexistent/p"}, "--count"},
      {{"puzzle", "make", "gadur", "--count", "1", "--out", "/nonexistent/p"}, "--seed"},
      {{"puzzle", "make", "nardy", "--count", "1", "--seed", "1", "--out", "/nonexistent/p"},
       "--max-checkers"},
      {{"puzzle", "make", "gadur", "--count", "1", "--seed", "1", "--out", "/nonexistent/p"},
       "--max-games"},
      {{"puzzle", "make", "gadur", "--count", "1", "--seed", "1", "--out", "/nonexistent/p"},
       "--stop-after"},
      {{"puzzle", "check", "/nonexistent/p"}, "--max-positions"},
  };
  std::vector<BadInput> cases;
  for (const auto& o : opts)
    for (const std::string& bad : std::vector<std::string>{"", "-1", "0x3", "+2", " 2", "2 ", "02",
                                                           "2.0", "two", std::string(300, '7')}) {
      auto args = o.pre;
      args.insert(args.end(), {o.option, bad});
      cases.push_back({args, o.option});
    }
  check_bad_inputs(cases);
  // The bounds are named.
  auto r = run({"perft", "gadur", "--size", "2", "--depth", "100000"});
  CHECK(r.code == 2);
  CHECK(r.err.find("0..1000") != std::string::npos);
  auto s = run({"moves", "gadur", "--size", "0"});
  CHECK(s.err.find("2..13") != std::string::npos);
}

TEST_CASE("perft depth is bounded and a huge depth is a clear error, not a stack overflow",
          "[robust][perft]") {
  check_bad_inputs({{{"perft", "gadur", "--size", "2", "--depth", "100000"}, "--depth"},
                    {{"perft", "gadur", "--size", "2", "--depth", "1001"}, "--depth"},
                    {{"perft", "nardy", "--depth", "100000"}, "--depth"}});
  // The bound holds in the library too.
  auto ctx = std::make_shared<const gadur::Context<1>>(2, gadur::Options{});
  CHECK_THROWS_AS(loom::perft(gadur::State<1>(ctx.get()), kMaxPerftDepth + 1), InputError);
  // A game that always ends: the deepest depth allowed counts every whole game,
  // the same as any depth past the longest game (Enfargar side 2: 7 cells).
  auto deep = run({"perft", "enfargar", "--size", "2", "--depth", "1000"});
  auto d30 = run({"perft", "enfargar", "--size", "2", "--depth", "30"});
  REQUIRE(deep.code == 0);
  CHECK(deep.out == d30.out);
}

TEST_CASE("an unknown command is named, the commands listed and the nearest suggested",
          "[robust][cli]") {
  auto r = run({"mvoes", "gadur"});
  CHECK(r.code == 2);
  CHECK(lines(r.err).size() == 1);
  CHECK(r.err.find("unknown command 'mvoes'") != std::string::npos);
  CHECK(r.err.find("known: moves, perft") != std::string::npos);
  CHECK(r.err.find("did you mean 'moves'") != std::string::npos);
  auto far = run({"zzzzzzzz"});
  CHECK(far.code == 2);
  CHECK(far.err.find("did you mean") == std::string::npos);
  auto v = run({"--version"});
  CHECK(v.code == 0);
  CHECK(v.out.rfind("loom ", 0) == 0);
  CHECK(lines(v.out).size() == 1);
  // A command's help: its options and examples.
  auto h = run({"perft", "--help"});
  CHECK(h.code == 0);
  CHECK(h.out.find("--depth") != std::string::npos);
  CHECK(h.out.find("Examples:") != std::string::npos);
  CHECK(h.out.find("--max-nodes") == std::string::npos);
  auto hs = run({"solve", "--help"});
  CHECK(hs.out.find("--max-nodes") != std::string::npos);
  CHECK(hs.out.find("--depth") == std::string::npos);
  CHECK(hs.out.find("--stop-after") == std::string::npos);  // testing only, hidden
  // An unknown word beside --help or --version is still bad input: a
  // wrapper forwarding a user's options must not read it as accepted.
  check_bad_inputs({
      {{"--bogus", "--version"}, "unknown option '--bogus' for loom; try loom --help"},
      {{"moves", "gadur", "--help", "--bogus"}, "unknown option '--bogus' for loom moves"},
      {{"moves", "gadur", "--bogus", "--help"}, "unknown option '--bogus' for loom moves"},
      {{"moves", "gadur", "extra", "--help"}, "unexpected argument 'extra' for loom moves"},
  });
  CHECK(run({"puzzle", "check", "x.jsonl", "--help"}).code == 0);  // its operand, not extra
}

namespace {
/// A stream buffer that refuses every write (a full disk).
struct FullDisk : std::streambuf {
  int overflow(int) override { return traits_type::eof(); }
  std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
};
}  // namespace

TEST_CASE("output that cannot be written is an error (exit 2), not a silent success",
          "[robust][cli]") {
  FullDisk full;
  std::ostream out(&full);
  std::ostringstream err;
  int code = run_loom({"moves", "gadur", "--size", "2"}, out, err);
  CHECK(code == 2);
  CHECK(err.str().find("cannot write the output") != std::string::npos);
  CHECK(lines(err.str()).size() == 1);
}

TEST_CASE("files are opened only if regular: directories, FIFOs and missing files are refused",
          "[robust][files]") {
  std::string dir = robust_temp("files");
  std::filesystem::create_directories(dir);
  std::string fifo = dir + "/pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string regular = dir + "/plain";
  write_text(regular, "hello\n");
  CHECK(read_regular_file(regular, "test", 100) == "hello\n");
  auto refused = [](const std::string& path, uint64_t cap, const char* needle) {
    try {
      read_regular_file(path, "test file", cap);
      FAIL("accepted " << path);
    } catch (const InputError& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find(needle) != std::string::npos);
      CHECK(std::string(e.what()).find("test file '") == 0);
    }
  };
  refused(dir, 100, "a directory");
  refused(fifo, 100, "a FIFO");  // must not block
  refused(dir + "/missing", 100, "No such file");
  refused(regular + "/below", 100, "Not a directory");
  refused(regular, 3, "too large");
  refused("/dev/null", 100, "character device");
  refused("", 100, "no file name");
  // Unreadable: the tests may run as root, who reads a chmod-000 file; the
  // check then only runs for other users.
  if (::geteuid() != 0) {
    std::string locked = dir + "/locked";
    write_text(locked, "x");
    ::chmod(locked.c_str(), 0);
    refused(locked, 100, "Permission denied");
  }
  // Writability checked before long work: missing directory, a directory,
  // a place where no file can be created.
  CHECK_NOTHROW(check_writable(dir + "/new.ckpt", "--checkpoint"));
  CHECK_FALSE(std::filesystem::exists(dir + "/new.ckpt"));
  CHECK_THROWS_AS(check_writable(dir + "/no/such/dir/x.ckpt", "--checkpoint"), InputError);
  CHECK_THROWS_AS(check_writable(dir, "--checkpoint"), InputError);
  CHECK_THROWS_AS(check_writable(fifo, "--checkpoint"), InputError);
  CHECK_THROWS_AS(check_writable("/proc/loom_probe.ckpt", "--checkpoint"), InputError);
  std::filesystem::remove_all(dir);
}

TEST_CASE("a checkpoint whose temporary or rank files cannot be written is refused before work",
          "[robust][files][solver]") {
  // Each save writes FILE.tmp first, and a dense run FILE.rank0.a/.b: a
  // directory at one of those paths failed the first save only, after up to
  // --checkpoint-interval seconds of work (or never, had the run finished
  // first: a dense run saves on its interval or a stop).
  const std::string dir = robust_temp("ckpt_paths");
  std::filesystem::create_directories(dir);
  const std::string ck = dir + "/g.ckpt";
  std::filesystem::create_directories(ck + ".tmp");
  auto r = run({"solve", "gadur", "--size", "2", "--checkpoint", ck});
  CHECK(r.code == 2);
  CHECK(r.err.find("g.ckpt.tmp': it is a directory") != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  std::filesystem::remove(ck + ".tmp");
  std::filesystem::create_directories(ck + ".rank0.b");
  // Side 3 takes a minute under the sanitizers: without the check this run
  // solves to the end with nothing saved and exits 0.
  r = run({"solve", "gadur", "--size", "3", "--rule", "capture=merge-only", "--method", "dense",
           "--checkpoint", ck, "--checkpoint-interval", "100000"});
  CHECK(r.code == 2);
  CHECK(r.err.find("g.ckpt.rank0.b': it is a directory") != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK_FALSE(std::filesystem::exists(ck));
  // puzzle make's progress file likewise (an empty directory there was
  // removed at the end of a run that finished before its first save).
  const std::string out = dir + "/puzzles";
  std::filesystem::create_directories(out + "/puzzles.progress.tmp");
  r = run({"puzzle", "make", "gadur", "--size", "2", "--count", "1", "--seed", "1", "--out", out});
  CHECK(r.code == 2);
  CHECK(r.err.find("puzzles.progress.tmp': it is a directory") != std::string::npos);
  CHECK(std::filesystem::is_directory(out + "/puzzles.progress.tmp"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("Migong --edges files: every bad kind of file is exit 2 with one line",
          "[robust][files][migong]") {
  std::string dir = robust_temp("edges");
  std::filesystem::create_directories(dir);
  std::string fifo = dir + "/pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  auto good = run({"edges", "migong", "--size", "2"});
  REQUIRE(good.code == 0);
  std::string file = dir + "/e2";
  write_text(file, good.out);
  REQUIRE(run({"moves", "migong", "--size", "2", "--edges", file}).code == 0);
  std::string truncated = dir + "/trunc", flipped = dir + "/flip", big = dir + "/big",
              other_size = dir + "/size3";
  write_text(truncated, good.out.substr(0, good.out.size() / 2));
  std::string f = good.out;
  f[f.rfind(" B")] = 'Q';  // one colour letter damaged
  write_text(flipped, f);
  write_text(big, std::string(2 << 20, '#'));
  write_text(other_size, run({"edges", "migong", "--size", "3"}).out);
  auto with = [](const std::string& path) {
    return std::vector<std::string>{"moves", "migong", "--size", "2", "--edges", path};
  };
  check_bad_inputs({
      {with(dir), "a directory"},
      {with(fifo), "a FIFO"},
      {with(dir + "/missing"), "No such file"},
      {with(truncated), "--edges"},
      {with(flipped), "--edges"},
      {with(big), "too large"},
      {with(other_size), "--edges"},
      {with("/dev/zero"), "character device"},
  });
  std::filesystem::remove_all(dir);
}

TEST_CASE("puzzle files: every bad kind of file is exit 2 with one line",
          "[robust][files][puzzles]") {
  std::string dir = robust_temp("puzzles");
  std::filesystem::create_directories(dir + "/coll");
  std::string fifo = dir + "/pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // A collection directory whose puzzles.jsonl is a FIFO: it must not block.
  REQUIRE(::mkfifo((dir + "/coll/puzzles.jsonl").c_str(), 0600) == 0);
  std::string golden = read_text(std::string(LOOM_TEST_DATA) + "/puzzles/golden.jsonl");
  std::string line = golden.substr(0, golden.find('\n'));
  json j = json::parse(line);
  REQUIRE(j["game"] == "gadur");
  std::string good = dir + "/good.jsonl", cut = dir + "/cut.jsonl", badid = dir + "/id.jsonl",
              longid = dir + "/longid.jsonl", nokey = dir + "/nokey.jsonl";
  write_text(good, line + "\n");
  auto r = run({"puzzle", "check", good, "--no-spec"});
  REQUIRE(r.code == 0);
  write_text(cut, line.substr(0, line.size() / 2) + "\n");
  json k = j;
  k["id"] = "two\nlines";
  write_text(badid, k.dump() + "\n");
  k["id"] = std::string(5000, 'x');
  write_text(longid, k.dump() + "\n");
  k = j;
  k.erase("answer");
  write_text(nokey, k.dump() + "\n");
  auto with = [](const std::string& path) {
    return std::vector<std::string>{"puzzle", "check", path, "--no-spec"};
  };
  check_bad_inputs({
      {with(fifo), "a FIFO"},
      {with(dir + "/coll"), "a FIFO"},
      {with(dir), "No such file"},  // a directory without puzzles.jsonl
      {with(dir + "/missing"), "No such file"},
      {with("/dev/zero"), "character device"},
      {with(cut), "line 1: not JSON"},
      {with(badid), "'id' is not a token"},
      {with(longid), "'id' is not a token"},
      {with(nokey), "'answer' is missing"},
  });
  std::filesystem::remove_all(dir);
}

TEST_CASE("a Migong checkpoint records the edge colouring: another colouring is a mismatch",
          "[robust][checkpoint][migong]") {
  std::string dir = robust_temp("medges");
  std::filesystem::create_directories(dir);
  std::string ckpt = dir + "/m.ckpt";
  // The default colouring, and the same colouring inverted (B <-> Y).
  std::string standard = run({"edges", "migong", "--size", "2"}).out;
  std::string inverted = standard;
  for (size_t i = 0; i + 2 < inverted.size(); ++i)
    if (inverted[i] == ' ' && (inverted[i + 1] == 'B' || inverted[i + 1] == 'Y') &&
        inverted[i + 2] == '\n')
      inverted[i + 1] = inverted[i + 1] == 'B' ? 'Y' : 'B';
  REQUIRE(inverted != standard);
  write_text(dir + "/inv", inverted);
  write_text(dir + "/same", "# the default, with a comment\n" + standard);
  // Alpha-beta: Migong's retrograde tables have no packed form to save.
  std::vector<std::string> job = {"solve", "migong", "--size",       "2", "--method",
                                  "dfs",   "--json", "--checkpoint", ckpt};
  auto plain = run({"solve", "migong", "--size", "2", "--method", "dfs", "--json"});
  REQUIRE(plain.code == 0);
  auto first = run(job);
  REQUIRE(first.code == 0);
  // Another colouring: refused as another job's checkpoint, naming the edges.
  auto other = job;
  other.insert(other.end(), {"--edges", dir + "/inv"});
  auto r = run(other);
  CHECK(r.code == 2);
  CHECK(lines(r.err).size() == 1);
  CHECK(r.err.find("does not match this job") != std::string::npos);
  CHECK(r.err.find("edges=") != std::string::npos);
  CHECK(r.err.find("corrupt") == std::string::npos);
  // The same colouring from another file (by content): the same job.
  auto same = job;
  same.insert(same.end(), {"--edges", dir + "/same"});
  auto s = run(same);
  REQUIRE(s.code == 0);
  CHECK(last_json(s.out)["resumed"] == true);
  CHECK(last_json(s.out)["value"] == last_json(plain.out)["value"]);
  std::filesystem::remove_all(dir);
}

TEST_CASE("a retrograde checkpoint with a sound checksum but forged positions never crashes",
          "[robust][checkpoint]") {
  // A stored key's bits off the board (its checksum recomputed) were
  // decoded before any check: Gadur read past its symmetry tables, Migong
  // past its cells (a segfault, no message; a reviewer's fuzzing found 39
  // of 128 single-byte edits of Gadur's key array crashing). Every byte of
  // the file set to 0xff in turn, the checksum recomputed: the run ends
  // with a result (an edit the run does not depend on) or exit 2.
  struct Job {
    std::string game;
    size_t samples;  // 0: every byte
  };
  for (const Job& g : {Job{"gadur", 0}, Job{"enfargar", 0}, Job{"migong", 60}}) {
    INFO(g.game);
    const std::string dir = robust_temp("ckpt_keys_" + g.game);
    std::filesystem::create_directories(dir);
    const std::string file = dir + "/r.ckpt";
    const std::vector<std::string> job = {"solve",        g.game,       "--size",    "2",
                                          "--method",     "retrograde", "--threads", "1",
                                          "--checkpoint", file};
    REQUIRE(run(job).code == 0);
    const std::string good = read_text(file);
    std::vector<size_t> at;
    for (size_t i = 0; i + 8 < good.size(); ++i) at.push_back(i);
    if (g.samples > 0) {
      std::mt19937 rng(5);
      std::shuffle(at.begin(), at.end(), rng);
      at.resize(g.samples);
    }
    size_t refused = 0, invalid = 0;
    for (size_t i : at) {
      std::string b = good;
      if (static_cast<unsigned char>(b[i]) == 0xff) continue;
      b[i] = static_cast<char>(0xff);
      resign(b);
      write_text(file, b);
      const auto r = run(job);
      INFO("byte " << i << ": " << r.err);
      REQUIRE((r.code == 0 || r.code == 2));
      if (r.code == 2) {
        ++refused;
        CHECK(lines(r.err).size() == 1);
      }
      if (r.err.find("a stored position is not a valid position") != std::string::npos) ++invalid;
    }
    CHECK(refused > at.size() / 2);
    if (g.samples == 0) CHECK(invalid > 0);  // the key array's edits among them
    std::filesystem::remove_all(dir);
  }
}

TEST_CASE("a dfs checkpoint with a sound checksum but impossible values is refused as corrupt",
          "[robust][checkpoint]") {
  // The checksum catches damage, not an edit that recomputes it: such a
  // file gave "black by -8388608" (a score word out of range) or a value
  // its own principal variation contradicts.
  const std::string dir = robust_temp("ckpt_values");
  std::filesystem::create_directories(dir);
  const std::string file = dir + "/g.ckpt";
  const std::vector<std::string> job = {
      "solve", "gadur",  "--size",       "2", "--rule", "capture=merge-only", "--method",
      "dfs",   "--json", "--checkpoint", file};
  auto first = run(job);
  REQUIRE(first.code == 0);
  const auto j = last_json(first.out);
  const size_t n = j["openings"].size(), plies = j["pv"].size();
  REQUIRE(j["value"] == "black");
  const std::string good = read_text(file);
  // The payload's tail: the opening count, (flag, score) per opening, the
  // nodes, the stall flag, the line's length and its moves; then the
  // checksum.
  const size_t count_at = good.size() - 8 - 8 * (1 + 2 * n + 3 + plies);
  uint64_t w = 0;
  std::memcpy(&w, good.data() + count_at, 8);
  REQUIRE(w == n);
  auto edited = [&](const std::vector<uint32_t>& scores) {
    std::string b = good;
    for (size_t i = 0; i < n; ++i) {
      const uint64_t v = scores[i];
      std::memcpy(b.data() + count_at + 8 * (2 + 2 * i), &v, 8);
    }
    resign(b);
    return b;
  };
  const uint32_t black = 1u << 24, white = 0u - (1u << 24);
  // The file as written, through the same edit: loads, and answers again.
  std::vector<uint32_t> same;
  for (const auto& o : j["openings"]) same.push_back(o["value"] == "black" ? black : white);
  write_text(file, edited(same));
  auto again = run(job);
  REQUIRE(again.code == 0);
  CHECK(last_json(again.out)["resumed"] == true);
  CHECK(last_json(again.out)["value"] == "black");
  write_text(file, edited(std::vector<uint32_t>(n, 12345)));
  auto r = run(job);
  CHECK(r.code == 2);
  CHECK(lines(r.err).size() == 1);
  CHECK(r.err.find("corrupt: an opening score out of range") != std::string::npos);
  // Every opening a loss for Black: the value becomes White's, which the
  // saved line (ending in Black's win) contradicts.
  write_text(file, edited(std::vector<uint32_t>(n, white)));
  r = run(job);
  CHECK(r.code == 2);
  CHECK(lines(r.err).size() == 1);
  CHECK(r.err.find("corrupt: its principal variation ends in another result") != std::string::npos);
  // The line cut short by one move (its length word and its last move
  // dropped): it no longer reaches the end of the game.
  {
    std::string b = good.substr(0, good.size() - 16);
    const uint64_t shorter = plies - 1;
    std::memcpy(b.data() + count_at + 8 * (1 + 2 * n + 2), &shorter, 8);
    b.append(8, '\0');
    resign(b);
    write_text(file, b);
  }
  r = run(job);
  CHECK(r.code == 2);
  CHECK(r.err.find("corrupt: its principal variation stops before the end of the game") !=
        std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("a retrograde checkpoint whose values contradict each other is corrupt",
          "[robust][checkpoint]") {
  // The root's value edited (its checksum recomputed): the principal
  // variation found no move keeping it, an internal error (exit 1); with
  // --no-pv the run said "black", complete, over openings that all draw.
  const std::string dir = robust_temp("ckpt_retro");
  std::filesystem::create_directories(dir);
  const std::string file = dir + "/g.ckpt";
  const std::vector<std::string> job = {"solve",      "gadur",  "--size",       "2", "--method",
                                        "retrograde", "--json", "--checkpoint", file};
  auto first = run(job);
  REQUIRE(first.code == 0);
  const auto j = last_json(first.out);
  REQUIRE(j["value"] == "draw");
  const uint64_t n = j["positions"].get<uint64_t>();
  const std::string good = read_text(file);
  // The tail: the code array (its count, a byte a position, the root
  // first), the plies array (its count, two bytes a position), the checksum.
  const size_t root_at = good.size() - 8 - (8 + 2 * n) - n;
  uint64_t w = 0;
  std::memcpy(&w, good.data() + root_at - 8, 8);
  REQUIRE(w == n);
  std::string b = good;
  b[root_at] = 1;  // Black wins
  resign(b);
  for (const bool pv : {true, false}) {
    INFO("pv " << pv);
    write_text(file, b);
    auto args = job;
    if (!pv) args.push_back("--no-pv");
    auto r = run(args);
    CHECK(r.code == 2);
    CHECK(lines(r.err).size() == 1);
    CHECK(
        r.err.find(pv ? "is corrupt: its values contradict each other"
                      : "is corrupt: the value of the position is not the best of its openings") !=
        std::string::npos);
  }
  // The file as written answers again.
  write_text(file, good);
  auto again = run(job);
  CHECK(again.code == 0);
  CHECK(last_json(again.out)["value"] == "draw");
  std::filesystem::remove_all(dir);
}

TEST_CASE("a saved dense table: damaged, edited or another job's is exit 2 with one line",
          "[robust][table]") {
  const std::string dir = robust_temp("dense_table");
  std::filesystem::create_directories(dir);
  const std::string file = dir + "/g.table";
  // Merge-only side 2: every position won or lost (no draws).
  const std::vector<std::string> rules = {"solve", "gadur",  "--size",
                                          "2",     "--rule", "capture=merge-only"};
  auto saved = rules;
  saved.insert(saved.end(), {"--save-table", file, "--json"});
  auto first = run(saved);
  REQUIRE(first.code == 0);
  const auto j = last_json(first.out);
  REQUIRE(j["value"] == "black");
  const uint64_t n = j["positions"].get<uint64_t>();
  const std::string good = read_text(file);
  auto job = rules;
  job.insert(job.end(), {"--table", file, "--json"});
  auto answered = run(job);
  REQUIRE(answered.code == 0);
  CHECK(last_json(answered.out)["value"] == "black");
  const auto refused = [&](const std::string& bytes, const std::string& needle) {
    write_text(file, bytes);
    check_bad_inputs({{job, needle}});
  };
  {
    INFO("damage");
    std::string flipped = good;
    flipped[flipped.size() / 2] ^= 0x04;
    refused(flipped, "is corrupt: checksum mismatch");
    refused(good.substr(0, good.size() - 3), "is corrupt");
    refused("", "is corrupt");
    refused(std::string(5000, 'x'), "is corrupt");
  }
  // The tail: the values (their count, 2 bits a position), the plies (their
  // count, a byte a position), the checksum.
  const size_t values_at = good.size() - 8 - (8 + n) - (n + 3) / 4;
  uint64_t w = 0;
  std::memcpy(&w, good.data() + values_at - 8, 8);
  REQUIRE(w == (n + 3) / 4);
  {
    INFO("every win made a loss and every loss a win, the checksum recomputed");
    std::string b = good;
    for (size_t i = values_at; i < values_at + (n + 3) / 4; ++i) {
      uint8_t v = static_cast<uint8_t>(b[i]), out = 0;
      for (int f = 0; f < 4; ++f) {
        const int c = (v >> (2 * f)) & 3;
        out |= static_cast<uint8_t>((c == 1 ? 2 : c == 2 ? 1 : c) << (2 * f));
      }
      b[i] = static_cast<char>(out);
    }
    resign(b);
    refused(b, "is corrupt: its values contradict each other");
  }
  {
    INFO("a won position's plies made 0 (a stored position is never an end)");
    std::string b = good;
    b[good.size() - 8 - n] = 0;
    resign(b);
    refused(b, "is corrupt: bad plies");
  }
  {
    INFO("a key's gap made huge (the keys overrun the index)");
    std::string b = good;
    const uint64_t blocks = (n + 63) / 64;
    // The first gap byte, from the front: the header (magic, format, kind,
    // signature), the table format, the record, five figures, then the
    // blocks' first keys and offsets.
    size_t at = table_figures_at(b);
    at += 8 * 5;  // moves, ends, layers, neutral, count
    uint64_t len = 0;
    std::memcpy(&len, b.data() + at, 8);
    REQUIRE(len == blocks);
    at += 8 + 4 * blocks;  // first keys
    at += 8 + 8 * blocks;  // offsets
    at += 8;               // the gaps' count
    b[at] = '\x7f';
    resign(b);
    refused(b, "is corrupt: ");
  }
  {
    INFO("another job");
    write_text(file, good);
    check_bad_inputs({{{"solve", "gadur", "--size", "2", "--table", file},
                       "table " + file + " does not match this job"}});
  }
  write_text(file, good);
  CHECK(run(job).code == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("a saved dense table whose neutral value is not the rules' is corrupt",
          "[robust][table]") {
  // Enfargar's neutral value is a stall; a table edited to call it a draw
  // (checksum recomputed) said "draw (8 plies)" where the game stalls.
  const std::string dir = robust_temp("dense_table_neutral");
  std::filesystem::create_directories(dir);
  const std::string file = dir + "/e.table";
  REQUIRE(run({"solve", "enfargar", "--size", "2", "--save-table", file}).code == 0);
  const std::vector<std::string> job = {"solve", "enfargar", "--size", "2",     "--record",
                                        "a1",    "--table",  file,     "--json"};
  auto good_run = run(job);
  REQUIRE(good_run.code == 0);
  REQUIRE(last_json(good_run.out)["value"] == "stall");
  std::string b = read_text(file);
  // The header (magic, format, kind, signature), the table format, the
  // record, three figures, then the neutral value's kind.
  const size_t at = table_figures_at(b) + 3 * 8;
  uint64_t kind = 0;
  std::memcpy(&kind, b.data() + at, 8);
  REQUIRE(kind == static_cast<uint64_t>(solver::Value::Kind::kStall));
  kind = static_cast<uint64_t>(solver::Value::Kind::kDraw);
  std::memcpy(b.data() + at, &kind, 8);
  resign(b);
  write_text(file, b);
  check_bad_inputs({{job, "is corrupt: its neutral value is not the one the rules give"}});
  // --check-table finds it from any position: from the start (its first
  // version passed this file, whose report answered a1 "draw (8 plies)":
  // Enfargar's stalls are all reached through a pass), and after b2 a1.
  for (const char* record : {"", "b2 a1"})
    check_bad_inputs({{{"solve", "enfargar", "--size", "2", "--record", record, "--table", file,
                        "--check-table"},
                       "is corrupt: the position ("}});
  std::filesystem::remove_all(dir);
}

TEST_CASE("every edit of one position's value or plies is found by --check-table",
          "[robust][table]") {
  // A table's checksum guards against damage, and its reader checks the
  // form of every field and the values a report reads; an edit of one
  // position's value or plies with the checksum recomputed can pass all
  // that. --check-table holds every position to its successors by the
  // rules: no such edit passes it (solver/dense_table_check.h says why).
  const std::string dir = robust_temp("dense_table_check");
  std::filesystem::create_directories(dir);
  const std::string file = dir + "/t.table";
  const std::vector<std::vector<std::string>> jobs = {
      {"gadur", "--size", "2"},  // draws
      {"gadur", "--size", "2", "--rule", "capture=merge-only"},
      {"enfargar", "--size", "2"}};  // stalls, passes
  for (const auto& rules : jobs) {
    INFO(rules[0] << " " << rules.back());
    std::filesystem::remove(file);  // another job's table is never written over
    std::vector<std::string> cmd = {"solve"};
    cmd.insert(cmd.end(), rules.begin(), rules.end());
    auto saved = cmd;
    saved.insert(saved.end(), {"--save-table", file, "--json"});
    auto first = run(saved);
    REQUIRE(first.code == 0);
    const uint64_t n = last_json(first.out)["positions"].get<uint64_t>();
    const std::string good = read_text(file);
    auto answer = cmd, check = cmd;
    answer.insert(answer.end(), {"--table", file, "--json"});
    check.insert(check.end(), {"--table", file, "--check-table", "--json"});
    auto passed = run(check);
    REQUIRE(passed.code == 0);
    CHECK(last_json(passed.out)["table_check"]["positions"] == n);
    // The tail: the values (2 bits a position), the plies' count, the
    // plies (a byte a position), the checksum.
    const size_t plies_at = good.size() - 8 - n, values_at = plies_at - 8 - (n + 3) / 4;
    int edits = 0, loaded = 0, answered = 0;
    for (uint64_t i = 0; i < n; ++i) {
      const int code = (static_cast<uint8_t>(good[values_at + i / 4]) >> (2 * (i % 4))) & 3;
      const int plies = static_cast<uint8_t>(good[plies_at + i]);
      const int some = plies == 255 ? 3 : plies;
      std::vector<std::pair<int, int>> variants;  // (code, plies)
      for (int c = 0; c < 4; ++c)
        if (c != code) variants.push_back({c, c == 0 ? 255 : some});
      if (plies != 255) variants.push_back({code, plies + 1});
      if (plies != 255 && plies > 1) variants.push_back({code, plies - 1});
      for (const auto& [c, d] : variants) {
        INFO("position " << i << ": code " << code << " -> " << c << ", plies " << plies << " -> "
                         << d);
        std::string b = good;
        uint8_t& v = reinterpret_cast<uint8_t&>(b[values_at + i / 4]);
        v = static_cast<uint8_t>((v & ~(3u << (2 * (i % 4)))) | (unsigned(c) << (2 * (i % 4))));
        b[plies_at + i] = static_cast<char>(d);
        resign(b);
        write_text(file, b);
        ++edits;
        auto plain = run(answer);
        auto checked = run(check);
        if (checked.err.find("is corrupt: bad plies") != std::string::npos ||
            checked.err.find("is corrupt: a neutral value without its kind") != std::string::npos)
          continue;  // refused by the reader's form checks
        ++loaded;
        answered += plain.code == 0;
        CHECK(checked.code == 2);
        CHECK(checked.out.empty());
        CHECK(checked.err.find("is corrupt: the position (") != std::string::npos);
      }
    }
    // Most edits load, and many of those answer without the check.
    CHECK(loaded > edits / 2);
    CHECK(answered > 0);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("a superko checkpoint with a sound checksum but an impossible margin is corrupt",
          "[robust][checkpoint]") {
  // Such a file gave "value: 1065353216" marked complete (the dfs reader
  // refused out-of-range scores; the superko reader took any code).
  const std::string dir = robust_temp("ckpt_superko");
  std::filesystem::create_directories(dir);
  const std::string file = dir + "/f.ckpt";
  const std::vector<std::string> job = {"solve",   "fiodar", "--size",       "2", "--method",
                                        "superko", "--json", "--checkpoint", file};
  auto first = run(job);
  REQUIRE(first.code == 0);
  const size_t n = last_json(first.out)["openings"].size();
  const std::string good = read_text(file);
  // The payload's tail: the opening count, a code per opening, the nodes;
  // then the checksum.
  const size_t count_at = good.size() - 8 - 8 * (1 + n + 1);
  uint64_t w = 0;
  std::memcpy(&w, good.data() + count_at, 8);
  REQUIRE(w == n);
  // The file with the first opening's code set, its checksum recomputed.
  const auto with_code = [&](uint64_t code) {
    std::string b = good;
    std::memcpy(b.data() + count_at + 8, &code, 8);
    resign(b);
    return b;
  };
  for (const int64_t margin2 : {int64_t{1} << 20, -(int64_t{1} << 20), int64_t{2129706432}}) {
    INFO("margin2 " << margin2);
    write_text(file, with_code(static_cast<uint64_t>((int64_t{1} << 31) + margin2)));
    auto r = run(job);
    CHECK(r.code == 2);
    CHECK(lines(r.err).size() == 1);
    CHECK(r.err.find("corrupt: an opening value out of range") != std::string::npos);
  }
  // A margin inside the range loads (the edit itself is not what is
  // refused): half a point.
  write_text(file, with_code((uint64_t{1} << 31) + 1));
  CHECK(run(job).code == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("a checkpoint named through a symbolic link is written to the link's file",
          "[robust][checkpoint]") {
  // The save's rename replaced the link by a regular file, so the file the
  // link led to (perhaps on another disk) never received a checkpoint.
  const std::string dir = robust_temp("ckpt_link");
  std::filesystem::create_directories(dir + "/store");
  const std::string link = dir + "/g.ckpt", target = dir + "/store/real.ckpt";
  std::filesystem::create_symlink("store/real.ckpt", link);  // dangling until the first save
  const std::vector<std::string> job = {"solve",  "gadur",        "--size", "2",
                                        "--json", "--checkpoint", link};
  auto first = run(job);
  REQUIRE(first.code == 0);
  CHECK(std::filesystem::is_symlink(link));
  CHECK(std::filesystem::is_regular_file(std::filesystem::symlink_status(target)));
  CHECK_FALSE(std::filesystem::exists(target + ".tmp"));
  auto again = run(job);
  REQUIRE(again.code == 0);
  CHECK(last_json(again.out)["resumed"] == true);
  CHECK(std::filesystem::is_symlink(link));
  // A dense run's rank files go beside the target too (they went beside
  // the link, and the resume through the target found its part missing).
  std::filesystem::remove(target);
  auto dense = run({"solve", "gadur", "--size", "2", "--method", "dense", "--checkpoint", link,
                    "--stop-after", "1"});
  CHECK(dense.code == 130);
  CHECK(std::filesystem::exists(target + ".rank0.a"));
  CHECK_FALSE(std::filesystem::exists(link + ".rank0.a"));
  auto resumed =
      run({"solve", "gadur", "--size", "2", "--method", "dense", "--json", "--checkpoint", target});
  CHECK(resumed.code == 0);
  CHECK(last_json(resumed.out)["resumed"] == true);
  // A loop of links is refused, not replaced by a file.
  std::filesystem::create_symlink("loop_b", dir + "/loop_a");
  std::filesystem::create_symlink("loop_a", dir + "/loop_b");
  auto loop = run({"solve", "gadur", "--size", "2", "--checkpoint", dir + "/loop_a"});
  CHECK(loop.code == 2);
  CHECK(loop.err.find("too many levels of symbolic links") != std::string::npos);
  CHECK(std::filesystem::is_symlink(dir + "/loop_a"));
  // The temporary file beside the target is probed before any work.
  std::filesystem::create_directories(target + ".tmp");
  std::filesystem::remove(target);
  auto r = run(job);
  CHECK(r.code == 2);
  CHECK(r.err.find("real.ckpt.tmp': it is a directory") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("two runs never share a checkpoint or a puzzle directory", "[robust][checkpoint]") {
  // Two processes saving into one checkpoint (two terminals, or mpirun
  // starting a loom built without MPI) overwrote each other's work.
  const std::string dir = robust_temp("ckpt_lock");
  std::filesystem::create_directories(dir);
  const std::string file = dir + "/g.ckpt";
  const std::vector<std::string> job = {"solve", "gadur", "--size", "2", "--checkpoint", file};
  {
    // The other run: a lock held here (flock locks of two open files
    // conflict within one process as between two).
    solver::CheckpointLock other(file, "--checkpoint");
    CHECK(other.file() == file + ".lock");
    CHECK(read_text(file + ".lock") == "loom lock file, pid " + std::to_string(::getpid()) + "\n");
    auto r = run(job);
    CHECK(r.code == 2);
    CHECK(lines(r.err).size() == 1);
    CHECK(r.err.find("another loom process (pid " + std::to_string(::getpid()) +
                     ") is using this checkpoint") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(file));
    const std::string out = dir + "/puzzles";
    std::filesystem::create_directories(out);
    solver::CheckpointLock making(out + "/puzzles.progress", "--out");
    auto p = run(
        {"puzzle", "make", "gadur", "--size", "2", "--count", "1", "--seed", "1", "--out", out});
    CHECK(p.code == 2);
    CHECK(p.err.find("--out '" + out + "/puzzles.progress': another loom process") !=
          std::string::npos);
  }
  CHECK_FALSE(std::filesystem::exists(file + ".lock"));  // removed by its holder
  // A lock file left by a killed run is not locked: it is taken over (also
  // one of the first builds with locks, which held a bare pid).
  for (const char* stale : {"loom lock file, pid 999999\n", "999999\n", ""}) {
    write_text(file + ".lock", stale);
    REQUIRE(run(job).code == 0);
    CHECK_FALSE(std::filesystem::exists(file + ".lock"));
  }
  // Something else at the lock's name is left alone: a FIFO.
  REQUIRE(::mkfifo((file + ".lock").c_str(), 0600) == 0);
  auto fifo = run(job);
  CHECK(fifo.code == 2);
  CHECK(fifo.err.find("g.ckpt.lock is a FIFO (named pipe), not a regular file") !=
        std::string::npos);
  CHECK(std::filesystem::is_fifo(file + ".lock"));
  std::filesystem::remove(file + ".lock");
  // A file of the user's at the lock's name (here a finished checkpoint
  // named g.ckpt.lock) is neither taken over nor removed: the run is
  // refused. The other way round, a run may not save over a live lock.
  const std::string other_job = file + ".lock";
  REQUIRE(run({"solve", "gadur", "--size", "2", "--checkpoint", other_job}).code == 0);
  const std::string kept = read_text(other_job);
  REQUIRE(kept.rfind("LOOMCKPT", 0) == 0);
  auto r = run(job);
  CHECK(r.code == 2);
  CHECK(lines(r.err).size() == 1);
  CHECK(r.err.find("is not a loom lock file") != std::string::npos);
  CHECK(read_text(other_job) == kept);
  std::filesystem::remove(other_job);
  {
    solver::CheckpointLock live(file, "--checkpoint");
    r = run({"solve", "gadur", "--size", "2", "--checkpoint", file + ".lock"});
    CHECK(r.code == 2);
    CHECK(r.err.find("it is the lock file of a loom run") != std::string::npos);
  }
  {
    // A run's lock file deleted by hand, and a new run started: the first
    // run's end leaves the new run's lock in place.
    auto first = std::make_unique<solver::CheckpointLock>(file, "--checkpoint");
    std::filesystem::remove(file + ".lock");
    solver::CheckpointLock second(file, "--checkpoint");
    first.reset();
    CHECK(std::filesystem::exists(file + ".lock"));
    CHECK(run(job).code == 2);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("checkpoint files: truncated, flipped, another job, kind or version, not regular",
          "[robust][checkpoint][files]") {
  std::string dir = robust_temp("ckpt");
  std::filesystem::create_directories(dir);
  std::string file = dir + "/g.ckpt";
  std::vector<std::string> job = {"solve", "gadur", "--size", "2", "--checkpoint", file};
  REQUIRE(run(job).code == 0);
  const std::string good = read_text(file);
  struct Case {
    std::string name, bytes, needle;
  };
  std::string flipped = good;
  flipped[good.size() / 3] ^= 0x01;
  std::string version = good;
  version[8] = 7;  // format version field (after the 8-byte magic)
  {
    // Keep the checksum sound: recompute it over the changed bytes.
    resign(version);
  }
  std::vector<Case> cases = {
      {"truncated", good.substr(0, good.size() - 1), "corrupt"},
      {"cut to the header", good.substr(0, 30), "corrupt"},
      {"one bit flipped", flipped, "corrupt"},
      {"another version", version, "another version of loom"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    write_text(file, c.bytes);
    auto r = run(job);
    CHECK(r.code == 2);
    CHECK(lines(r.err).size() == 1);
    CHECK(r.err.find(c.needle) != std::string::npos);
  }
  // Another job (rules), another kind of run (dfs on a retrograde file).
  write_text(file, good);
  auto other =
      run({"solve", "gadur", "--size", "2", "--rule", "capture=merge-only", "--checkpoint", file});
  CHECK(other.code == 2);
  CHECK(other.err.find("does not match this job") != std::string::npos);
  CHECK(other.err.find("capture=") != std::string::npos);
  // The fields quoted as they read, without the signature's trailing blank.
  CHECK(other.err.find("capture=merge-only', the file 'rules=exception=whole capture=any';") !=
        std::string::npos);
  CHECK(other.err.find("corrupt") == std::string::npos);
  auto kind = run({"solve", "gadur", "--size", "2", "--method", "dfs", "--checkpoint", file});
  CHECK(kind.code == 2);
  CHECK(kind.err.find("does not match this job") != std::string::npos);
  // A field only one side has (no-symmetry) is named alone: the fields
  // after it were once compared out of step ("this job has 'no-symmetry',
  // the file 'edges=...'": a reviewer's find).
  {
    const std::string mfile = dir + "/migong.ck";
    const std::vector<std::string> mjob = {"solve",    "migong", "--size",       "2",
                                           "--method", "dfs",    "--checkpoint", mfile};
    REQUIRE(run(mjob).code == 0);
    auto more = mjob, fewer = mjob;
    more.push_back("--no-symmetry");
    auto r = run(more);
    CHECK(r.code == 2);
    CHECK(lines(r.err).size() == 1);
    CHECK(r.err.find("this job has 'no-symmetry', the file does not;") != std::string::npos);
    std::filesystem::remove(mfile);
    REQUIRE(run(more).code == 0);
    r = run(fewer);
    CHECK(r.code == 2);
    CHECK(r.err.find("the file has 'no-symmetry', this job does not;") != std::string::npos);
    // Another colouring as well: still the field only one side has.
    const std::string edges = dir + "/edges.txt";
    {
      // The default colouring with its two colours swapped.
      auto shown = run({"edges", "migong", "--size", "2"});
      REQUIRE(shown.code == 0);
      std::string text = shown.out;
      for (size_t i = 0; i + 1 < text.size(); ++i)
        if (text[i] == ' ' && (text[i + 1] == 'B' || text[i + 1] == 'Y') &&
            (i + 2 == text.size() || text[i + 2] == '\n'))
          text[i + 1] = text[i + 1] == 'B' ? 'Y' : 'B';
      write_text(edges, text);
    }
    fewer.insert(fewer.end(), {"--edges", edges});
    r = run(fewer);
    CHECK(r.code == 2);
    CHECK(r.err.find("the file has 'no-symmetry', this job does not;") != std::string::npos);
    std::filesystem::remove(mfile);
    std::filesystem::remove(edges);
  }
  // Not a regular file; a place that cannot be written: refused before any work.
  std::string fifo = dir + "/pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  check_bad_inputs({
      {{"solve", "gadur", "--size", "2", "--checkpoint", fifo}, "FIFO"},
      {{"solve", "gadur", "--size", "2", "--checkpoint", dir}, "a directory"},
      {{"solve", "gadur", "--size", "2", "--checkpoint", dir + "/missing/x.ckpt"},
       "No such file or directory"},
      {{"solve", "gadur", "--size", "2", "--checkpoint", "/proc/x.ckpt"}, "--checkpoint"},
  });
  std::filesystem::remove_all(dir);
}

TEST_CASE("contract fixes: exit 2 for impossible solves, Migong in Blue and Yellow",
          "[robust][cli][solver]") {
  check_bad_inputs({{{"solve", "fiodar", "--size", "2", "--method", "retrograde"},
                     "retrograde analysis solves win/loss/draw games"}});
  auto m = run({"solve", "migong", "--size", "2", "--json"});
  REQUIRE(m.code == 0);
  CHECK(m.out.find("Blue wins") != std::string::npos);
  CHECK(m.out.find("Blue to move") != std::string::npos);
  std::string text = m.out.substr(0, m.out.rfind('\n', m.out.size() - 2));  // before the JSON
  CHECK(text.find("black") == std::string::npos);
  CHECK(text.find("white") == std::string::npos);
  CHECK(last_json(m.out)["value"] == "black");
  // The symmetries really used: the default colouring keeps 6 of the 12.
  CHECK(last_json(m.out)["symmetries"] == 6);
  CHECK(last_json(run({"solve", "gadur", "--size", "2", "--json"}).out)["symmetries"] == 12);
  auto p = run({"play", "migong", "--size", "2", "--seed", "3"});
  REQUIRE(p.code == 0);
  CHECK(p.out.find("result: black") == std::string::npos);
}

TEST_CASE("a resumed alpha-beta run counts nodes and seconds of this run, and the total",
          "[robust][checkpoint][solver]") {
  std::string dir = robust_temp("nodes");
  std::filesystem::create_directories(dir);
  std::string file = dir + "/d.ckpt";
  std::vector<std::string> job = {"solve",    "enfargar",       "--size",       "3",
                                  "--record", "a1 b2 c3 d4 e5", "--method",     "dfs",
                                  "--json",   "--no-pv",        "--checkpoint", file};
  auto stop = job;
  stop.insert(stop.end(), {"--stop-after", "1"});
  auto r1 = run(stop);
  REQUIRE(r1.code == 130);
  auto r2 = run(job);
  REQUIRE(r2.code == 0);
  json j = last_json(r2.out);
  CHECK(j["resumed"] == true);
  CHECK(j["nodes_total"].get<uint64_t>() > j["nodes"].get<uint64_t>());
  CHECK(r2.out.find("in this run") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("error messages clip long tokens and say so", "[robust][cli]") {
  std::string huge(300, '9');
  auto r = run({"moves", "gadur", "--rule", "capture=" + huge});
  CHECK(r.code == 2);
  CHECK(r.err.find("(300 characters)") != std::string::npos);
  CHECK(r.err.size() < 200);
  auto t = run({"moves", "gadur", "--record", "a1 " + huge});
  CHECK(t.code == 2);
  CHECK(t.err.find("(300 characters)") != std::string::npos);
  auto n = run({"moves", "nardy", "--dice", "65", "--position", "W:" + huge});
  CHECK(n.code == 2);
  CHECK(n.err.size() < 300);
  // Paths the system cannot use (a name too long, a loop of links): one
  // clipped line and exit 2 (--checkpoint was an internal error, exit 1,
  // that printed the whole path; audit --out printed it whole).
  const std::string dir = robust_temp("paths");
  std::filesystem::create_directories(dir);
  const std::string long_name = dir + "/" + std::string(300, 'a');
  std::filesystem::create_symlink("B", dir + "/A");
  std::filesystem::create_symlink("A", dir + "/B");
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"solve", "gadur", "--size", "2", "--checkpoint", long_name},
           {"solve", "gadur", "--size", "2", "--checkpoint", dir + "/A/x.ckpt"},
           {"audit", "gadur", "--size", "2", "--seconds", "3", "--games", "2", "--no-queries",
            "--out", long_name}}) {
    INFO(args[0] << " " << args.back());
    auto p = run(args);
    CHECK(p.code == 2);
    CHECK(lines(p.err).size() == 1);
    CHECK(p.err.size() < 300);
    CHECK(p.err.find("internal error") == std::string::npos);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("the progress line fits the terminal", "[robust][solver]") {
  std::string line(200, 'x');
  CHECK(solver::fit_status_line(line, 80).size() == 79);
  CHECK(solver::fit_status_line(line, 80).substr(76) == "...");
  CHECK(solver::fit_status_line("short", 80) == "short");
  CHECK(solver::fit_status_line(line, 3).size() == 10);  // never narrower than 10
  CHECK(solver::terminal_columns() > 0);
}

TEST_CASE("a progress line too wide for the terminal keeps the opening and the count",
          "[robust][solver]") {
  // At 40 columns "solving 1 of 4: a1 (1,048,576 nodes)" was cut at its end:
  // the count and the opening's name were both lost.
  struct Case {
    const char* columns;
    std::string step, detail, ends;
  };
  const std::vector<Case> cases = {
      {"40", "compact: solving 1 of 4: a1", "1,048,576 nodes", "...f 4: a1 (1,048,576 nodes)"},
      // dfs's detail keeps its node count, not its stored count.
      {"40", "solving 1 of 6: a1", "1,376,256 nodes, 123,456 stored",
       "...f 6: a1 (1,376,256 nodes)"},
      // Too narrow for both: the count alone.
      {"30", "superko: solving 1 of 5: a1", "1,048,576 nodes", "] 1,048,576 nodes"},
      {"200", "superko: solving 1 of 5: a1", "1,048,576 nodes",
       "] superko: solving 1 of 5: a1 (1,048,576 nodes)"},
      // The dense enumeration's count (it was one line, cut at its end).
      {"50", "dense: enumerating", "33,916,487 positions", "enumerating (33,916,487 positions)"},
      // The partitioned dense: later figures go before the step is cut.
      {"90", "dense on 2 ranks: enumerating ply 5",
       "1.23 M/s a rank, 123,456 messages, 1,234 MB sent, 567 MB a rank",
       "] dense on 2 ranks: enumerating ply 5 (1.23 M/s a rank, 123,456 messages)"},
      // The compact and dfpn threads' step keeps the openings being searched.
      {"50", "compact on 2 threads: 0 of 4 done; solving a1 + a2", "1,048,576 nodes",
       "] ...; solving a1 + a2 (1,048,576 nodes)"},
      // A line without a detail loses whole ", "-parts, never half a figure.
      {"60", "enumerating: 1,234 of 5,678 positions expanded, 99,999 moves", "",
       "] enumerating: 1,234 of 5,678 positions expanded"},
      {"200", "enumerating: 1,234 of 5,678 positions expanded, 99,999 moves", "",
       "] enumerating: 1,234 of 5,678 positions expanded, 99,999 moves"}};
  const char* old_columns = std::getenv("COLUMNS");
  const std::string saved = old_columns ? old_columns : "";
  for (const auto& c : cases) {
    ::setenv("COLUMNS", c.columns, 1);
    if (solver::terminal_columns() != std::stoi(c.columns)) break;  // stderr is a terminal
    std::ostringstream tty;
    {
      solver::RunControl::Config cfg;
      cfg.tty = &tty;
      solver::RunControl ctl(cfg);
      ctl.status(c.step);
      ::usleep(300'000);  // past the redraw throttle
      ctl.status_detail(c.detail);
    }
    const std::string all = tty.str();
    const size_t from = all.rfind("\r\x1b[K[");
    REQUIRE(from != std::string::npos);
    std::string last = all.substr(from + 4);
    last = last.substr(0, last.find('\r'));
    INFO(c.columns << " columns: " << last);
    CHECK(last.size() <= static_cast<size_t>(std::stoi(c.columns) - 1));
    REQUIRE(last.size() >= c.ends.size());
    CHECK(last.substr(last.size() - c.ends.size()) == c.ends);
  }
  if (old_columns)
    ::setenv("COLUMNS", saved.c_str(), 1);
  else
    ::unsetenv("COLUMNS");
}

TEST_CASE("Ctrl-C with nothing to save erases the progress line on a terminal",
          "[robust][solver]") {
  // The run died at once, as it should, but left "[  3.1s] enumerating..."
  // on the terminal with the shell's next output glued to it.
  int master = -1;
  const pid_t pid = loom_on_terminal({"solve", "gadur", "--size", "3", "--rule",
                                      "capture=merge-only", "--method", "dense", "--threads", "1"},
                                     master);
  REQUIRE(pid >= 0);
  std::string seen;
  bool signalled = false;
  read_terminal(master, 60, seen, [&] {
    if (!signalled && seen.find("s] ") != std::string::npos) {
      ::kill(pid, SIGINT);
      signalled = true;
    }
  });
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(master);
  REQUIRE(signalled);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGINT);
  INFO(seen);
  CHECK(seen.size() >= 4);
  CHECK(seen.substr(seen.size() - 4) == "\r\x1b[K");
}

namespace {

/// Does `seen` hold "solving 1 of N: NAME (D nodes" (D digits and commas)?
/// (By hand: std::regex trips GCC 12's -Wmaybe-uninitialized at -O1.)
bool opening_with_count(const std::string& seen) {
  const std::string start = "solving 1 of ";
  for (size_t at = seen.find(start); at != std::string::npos; at = seen.find(start, at + 1)) {
    size_t i = at + start.size();
    const auto digits = [&](bool commas) {
      const size_t from = i;
      while (i < seen.size() &&
             (std::isdigit(static_cast<unsigned char>(seen[i])) || (commas && seen[i] == ',')))
        ++i;
      return i > from;
    };
    if (!digits(false) || seen.compare(i, 2, ": ") != 0) continue;
    i += 2;
    const size_t name = i;
    while (i < seen.size() && !std::isspace(static_cast<unsigned char>(seen[i]))) ++i;
    if (i == name || seen.compare(i, 2, " (") != 0) continue;
    i += 2;
    if (digits(true) && seen.compare(i, 6, " nodes") == 0) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("the depth-first methods' progress line counts nodes within an opening",
          "[robust][solver]") {
  // compact, dfpn and superko showed "solving 1 of 6: a1" unchanged for the
  // whole of an opening (20 minutes on Gadur side 4); dfs showed its node
  // count but not which opening it was in. (dfpn has compact's tick,
  // solve_boolean_with; its first 2^20 nodes take 80 s under the
  // sanitizers.)
  const std::vector<std::vector<std::string>> runs = {
      {"gadur", "4", "--rule", "capture=merge-only", "--method", "compact"},
      {"gadur", "4", "--rule", "capture=merge-only", "--method", "dfs"},
      {"fiodar", "3", "--method", "superko"}};
  for (const auto& r : runs) {
    std::vector<std::string> args = {"solve", r[0], "--size", r[1]};
    args.insert(args.end(), r.begin() + 2, r.end());
    for (const char* x : {"--table-mb", "64"}) args.emplace_back(x);
    INFO(args[4] + " " + args.back());
    int master = -1;
    const pid_t pid = loom_on_terminal(args, master);
    REQUIRE(pid >= 0);
    std::string seen;
    bool signalled = false;
    // "solving 1 of N: NAME (1,048,576 nodes...)": the opening, then a count.

    read_terminal(master, 120, seen, [&] {
      if (!signalled && opening_with_count(seen)) {
        ::kill(pid, SIGINT);
        signalled = true;
      }
    });
    int status = 0;
    ::waitpid(pid, &status, 0);
    ::close(master);
    INFO(seen);
    CHECK(signalled);
  }
}

TEST_CASE("Ctrl-C stops an audit with the report of what it finished, exit 130",
          "[robust][audit]") {
  // Before, the audit died of the signal: the output directory stayed
  // empty and every finished rule set was lost.
  const std::string dir = robust_temp("audit_interrupted");
  const std::string cmd = std::string("timeout --preserve-status -s INT 3 ") + LOOM_BIN +
                          " audit fiodar --variants --seconds 300 --no-queries --out " + dir +
                          " > " + dir + ".out 2> " + dir + ".err";
  const int status = std::system(cmd.c_str());
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 130);
  const std::string err = read_text(dir + ".err");
  INFO(err);
  CHECK(err.rfind("loom: interrupted: the report holds ", 0) == 0);
  CHECK(std::count(err.begin(), err.end(), '\n') == 1);
  const json rep = json::parse(read_text(dir + "/report.json"));
  CHECK(rep["interrupted"] == true);
  REQUIRE(rep["rule_sets"].size() >= 1);
  CHECK(rep["rule_sets"].size() < 4);
  // The rule set that was running says which parts it did not finish.
  const json& last = rep["rule_sets"].back();
  bool marked = false;
  for (const char* key : {"termination", "decisive", "solution"})
    if (last[key].contains("note") &&
        last[key]["note"].get<std::string>().find("interrupted") != std::string::npos)
      marked = true;
  for (const auto& p : last["playouts"]) marked = marked || p.contains("note");
  CHECK(marked);
  CHECK(std::filesystem::exists(dir + "/report.html"));
  CHECK(read_text(dir + ".out").find("report: ") != std::string::npos);
  std::filesystem::remove_all(dir);
  std::filesystem::remove(dir + ".out");
  std::filesystem::remove(dir + ".err");
}

TEST_CASE("a run waits for the Long Nardy table another run is building instead of building it too",
          "[robust][nardy]") {
  // Two runs building one table wrote the same FILE.tmp and chunk files at
  // once; the second's rename then failed (exit 2) or placed a file the
  // first was still writing.
  const std::string dir = robust_temp("nardy_wait");
  std::filesystem::create_directories(dir);
  const std::string err_file = dir + ".err", out_file = dir + ".out";
  pid_t pid = -1;
  {
    // The other run, building the bear-off table N = 3.
    solver::CheckpointLock other(dir + "/nardy-bearoff-n3.bin", "bear-off database");
    pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      if (!std::freopen(out_file.c_str(), "w", stdout) ||
          !std::freopen(err_file.c_str(), "w", stderr))
        ::_exit(126);
      ::execl(LOOM_BIN, LOOM_BIN, "solve", "nardy", "--position",
              "W:2,0,0,0,1,0,0,0,0,0,0,0,0,-1,0,0,0,-1,0,0,0,0,0,0", "--db", dir.c_str(),
              static_cast<char*>(nullptr));
      ::_exit(127);
    }
    bool waiting = false;
    for (int i = 0; i < 600 && !waiting; ++i) {
      waiting = read_text(err_file).find("loom: waiting for another loom process (pid " +
                                         std::to_string(::getpid()) + ")") != std::string::npos;
      if (!waiting) ::usleep(100'000);
    }
    CHECK(waiting);
    int status = 0;
    CHECK(::waitpid(pid, &status, WNOHANG) == 0);  // still waiting
    CHECK_FALSE(std::filesystem::exists(dir + "/nardy-bearoff-n3.bin"));
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(read_text(out_file).find("p_win") != std::string::npos);
  CHECK(std::filesystem::exists(dir + "/nardy-bearoff-n3.bin"));
  CHECK_FALSE(std::filesystem::exists(dir + "/nardy-bearoff-n3.bin.lock"));
  std::filesystem::remove_all(dir);
  std::filesystem::remove(err_file);
  std::filesystem::remove(out_file);
}

TEST_CASE("a Long Nardy table build erases its progress line at the end, as every command does",
          "[robust][nardy]") {
  // The bear-off and few-checker builds ended their line with a newline, so
  // "bear-off N=3: 100.0% ..." stayed on the terminal above the result.
  const std::string dir = robust_temp("nardy_progress");
  int master = -1;
  // A bear-off with 3 and 2 checkers home: database N = 3 (a second).
  const pid_t pid =
      loom_on_terminal({"solve", "nardy", "--position",
                        "W:2,0,0,0,1,0,0,0,0,0,0,0,0,-1,0,0,0,-1,0,0,0,0,0,0", "--db", dir},
                       master);
  REQUIRE(pid >= 0);
  std::string seen;
  read_terminal(master, 120, seen, [] {});
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(master);
  INFO(seen);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  const size_t last = seen.rfind("bear-off N=3: ");
  REQUIRE(last != std::string::npos);
  const size_t erase = seen.find("\r\x1b[K", last), newline = seen.find('\n', last);
  REQUIRE(erase != std::string::npos);
  CHECK(erase < newline);
  CHECK(seen.find("p_win", erase) != std::string::npos);  // the result follows
  std::filesystem::remove_all(dir);
}

TEST_CASE("a table and a checkpoint named in a working directory that is gone: exit 2",
          "[robust][checkpoint][files]") {
  // Comparing the two names made a relative one absolute by the throwing
  // call: "internal error: filesystem error: cannot make absolute path"
  // (exit 1; a reviewer's find). The binary runs in a directory removed
  // after it entered it.
  const std::string dir = robust_temp("cwd_gone");
  std::filesystem::create_directories(dir);
  const std::string err_file = dir + ".err", table = dir + ".tbl";
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    if (::chdir(dir.c_str()) != 0 || ::rmdir(dir.c_str()) != 0 ||
        !std::freopen(err_file.c_str(), "w", stderr))
      ::_exit(126);
    ::execl(LOOM_BIN, LOOM_BIN, "solve", "gadur", "--size", "2", "--save-table", table.c_str(),
            "--checkpoint", "b.ckpt", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  const std::string err = read_text(err_file);
  INFO(err);
  CHECK(WEXITSTATUS(status) == 2);
  CHECK(lines(err).size() == 1);
  CHECK(err.find("--checkpoint 'b.ckpt': cannot create a file there") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(table));
  std::filesystem::remove(err_file);
}
