// loom solve: exact values (solver/), the openings up to symmetry and the
// pie table, with a progress line on a terminal and resumable checkpoints.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <optional>
#include <string_view>
#include <thread>

#include "app/command.h"
#include "app/int_option.h"
#include "app/ranks.h"
#include "app/solve_nardy.h"
#include "app/solve_output.h"
#include "app/threads.h"
#include "app/typed_game.h"
#include "model/common/errors.h"
#include "model/common/files.h"
#include "solver/checkpoint.h"
#include "solver/dense_table.h"
#include "solver/exchange.h"

namespace loom {

namespace {

/// What the command line sets: the solver's options directly (bounds
/// checked by CLI11 when parsing), plus what only the command uses.
struct SolveArgs {
  solver::SolveOptions o;
  bool json = false;
  bool pie = false;
  std::string method = "auto";
  bool no_symmetry = false;
  bool no_pv = false;
  int threads = 0;  ///< 0: one per core, at most 8
  std::string db;   ///< nardy: bear-off database directory
};

/// What else decides the job's values beyond game, size, rules, set-up and
/// record: data given by file, by content (Migong's edge colouring, by its
/// digest: another --edges file with the same colouring is the same job).
/// Part of the checkpoint signature.
std::string content_inputs(const AnyGame& g) {
  const std::string d = edges_digest(g);
  return d.empty() ? "" : "; edges=" + d;
}

/// The symmetries the reduction really uses: those of the board that map
/// the game onto itself (Migong: only those that keep the edge colouring;
/// a state mapped by another lands in another game and is never merged).
int symmetries_used(const AnyGame& g, int reported) {
  int n = reported;
  visit_state(g, [&](const auto& s) {
    if constexpr (requires { s.context().image(0); }) {
      if (reported > 1) {
        n = 0;
        for (int k = 0; k < reported; ++k) n += &s.context().image(k) == &s.context();
      }
    }
  });
  return n;
}

/// --method's names and the solver's methods (one table for parsing, the
/// help's choices and the checkpoint signature).
using Method = solver::SolveOptions::Method;
const std::vector<std::pair<std::string, Method>> kMethodNames = {
    {"auto", Method::kAuto},      {"retrograde", Method::kRetrograde}, {"dfs", Method::kDfs},
    {"dense", Method::kDense},    {"compact", Method::kCompact},       {"dfpn", Method::kDfpn},
    {"superko", Method::kSuperko}};

/// The method `name` names, if any.
std::optional<Method> method_named(const std::string& name) {
  for (const auto& [n, m] : kMethodNames)
    if (n == name) return m;
  return std::nullopt;
}

/// The method the solve runs, as --method names it: auto resolved as the
/// solver resolves it (solver::resolved_method; --pie: alpha-beta, as
/// solve_setups runs it). Part of the checkpoint signature: a file written
/// with --method auto is the job of the method that ran.
std::string method_run(const AnyGame& g, const solver::SolveOptions& o, const std::string& method,
                       bool pie) {
  // Boards with alpha-beta alone refuse another method first, before
  // refuse_unused names the options that method would not read.
  visit_state(g, [&](const auto& s) {
    if constexpr (kDfsWidth<std::remove_cvref_t<decltype(s)>>)
      solver::require_dfs_method(method_named(method).value_or(Method::kAuto));
  });
  if (method != "auto") return method;
  if (pie) return "dfs";
  std::string name = method;
  visit_state(g, [&](const auto& s) {
    // The solver's width (larger boards are refused by the solve itself, with
    // the reason; Long Nardy has its own solver).
    if constexpr (kWidthOf<decltype(s)> == 1) {
      const Method m = solver::resolved_method(s, o);
      for (const auto& [n, x] : kMethodNames)
        if (x == m) name = n;
    } else if constexpr (kDfsWidth<std::remove_cvref_t<decltype(s)>>) {
      name = "dfs";  // the only method compiled for these boards (solve_position_dfs)
    }
  });
  return name;
}

/// Options that only some methods read, refused (not ignored) by the others:
/// a user who bounds a run by a limit its method does not read would get an
/// unbounded run.
void refuse_unused(const GameArgs& ga, const AnyGame& g, const std::string& run, bool chosen,
                   bool partitioned) {
  if (run == "auto") return;  // a board too large for the solver: refused by it
  const std::vector<std::string> alpha_beta = {"dfs", "compact", "dfpn", "superko"};
  const std::vector<std::pair<const char*, std::vector<std::string>>> readers = {
      {"--max-positions", {"retrograde"}},
      {"--max-nodes", alpha_beta},
      {"--table-mb", alpha_beta},
      {"--kept-mb", {"dense"}},
  };
  for (const auto& [option, methods] : readers) {
    if (!ga.given(option) || std::find(methods.begin(), methods.end(), run) != methods.end())
      continue;
    std::string who;
    for (const auto& m : methods) who += (who.empty() ? "" : ", ") + m;
    throw InputError(std::string(option) + " is not used by --method " + run +
                     (chosen ? ", this game's default method" : "") + " (only by " + who + ")");
  }
  // Dense keeps successor lists only for a game without retrograde moves
  // (Enfargar), and not in its partitioned runs (docs/distributed.md),
  // which list the moves again.
  if (run == "dense" && ga.given("--kept-mb")) {
    bool retractable = false;
    visit_state(g, [&](const auto& s) {
      retractable = solver::RetractableGame<std::remove_cvref_t<decltype(s)>>;
    });
    if (partitioned || retractable)
      throw InputError("--kept-mb is not used by --method dense " +
                       (partitioned
                            ? std::string("with --checkpoint or under mpirun")
                            : "for " + ga.game + " (its solve walks the retrograde moves)") +
                       ": it keeps no successor lists");
  }
  if (ga.given("--checkpoint-interval") && !ga.given("--checkpoint"))
    throw InputError("--checkpoint-interval: only with --checkpoint");
}

/// The options of the board games' solvers, which Long Nardy's do not read.
constexpr const char* kBoardGameOptions[] = {"--method",
                                             "--pie",
                                             "--no-symmetry",
                                             "--no-pv",
                                             "--max-positions",
                                             "--max-nodes",
                                             "--table-mb",
                                             "--kept-mb",
                                             "--value-only",
                                             "--replay",
                                             "--replay-mb",
                                             "--checkpoint",
                                             "--checkpoint-interval",
                                             "--save-table",
                                             "--table",
                                             "--check-table"};

/// The progress line goes to a terminal only (the real stderr, a TTY).
std::ostream* progress_stream(std::ostream& err) {
  return (&err == &std::cerr && ::isatty(STDERR_FILENO)) ? &err : nullptr;
}

/// --method's check: one of kMethodNames (the help shows them in braces).
CLI::Validator method_check() {
  std::string names;
  for (const auto& [n, m] : kMethodNames) names += (names.empty() ? "" : ",") + n;
  return CLI::Validator(
      [names](std::string& v) -> std::string {
        return method_named(v) ? "" : "'" + clip_token(v) + "' is not a method (" + names + ")";
      },
      "{" + names + "}");
}

/// --save-table and --table (docs/cli.md): refuses what they cannot go
/// with, sets o for the dense method and the tables' identity (game, board,
/// rules, symmetry: not the record). Returns the method the run names.
std::string table_options(const GameArgs& ga, const std::string& method, bool pie, bool ranks,
                          const JobInfo& job, const AnyGame& g, solver::SolveOptions& o) {
  if (ga.given("--check-table") && !ga.given("--table"))
    throw InputError("--check-table: only with --table (it checks a saved table)");
  if (!ga.given("--save-table") && !ga.given("--table")) return method;
  const std::string opt = ga.given("--table") ? "--table" : "--save-table";
  if (ga.given("--save-table") && ga.given("--table"))
    throw InputError(
        "--save-table and --table: one or the other (a table is saved by a solve and read "
        "instead of one)");
  if (method != "auto" && method != "dense")
    throw InputError(opt + ": tables come from --method dense, not " + method);
  if (pie) throw InputError(opt + " is not used with --pie (tables come from --method dense)");
  if (ga.given("--table") && (ranks || ga.given("--checkpoint")))
    throw InputError(std::string("--table is not used with ") +
                     (ranks ? "mpirun" : "--checkpoint") +
                     " (one process reads a table; nothing is solved)");
  if (ga.given("--save-table") && ga.given("--checkpoint")) {
    // Compared where each is written: through a symbolic link (a dangling
    // one too), at its target; from the root (weakly_canonical leaves a
    // relative name of nothing existing relative: `x` against `./x`).
    const auto where = [](const std::string& f, std::error_code& e) {
      const auto whole = std::filesystem::absolute(solver::checkpoint_target(f), e);
      return e ? whole : std::filesystem::weakly_canonical(whole, e);
    };
    const auto same = [&](const std::string& x, const std::string& y) {
      std::error_code e1, e2;
      const auto a = where(x, e1), b = where(y, e2);
      return !e1 && !e2 && a == b;
    };
    const std::string& table = o.table_file.save;
    const std::string& ck = o.checkpoint;
    if (same(table, ck))
      throw InputError("--save-table and --checkpoint name the same file (" + clip_token(ck, 200) +
                       "): give the table a file of its own");
    // Each file's lock is its target's FILE.lock (solver::CheckpointLock):
    // a table saved over the checkpoint's lock (or the reverse) would
    // replace a lock the run holds.
    const auto lock_of = [](const std::string& f) {
      return solver::checkpoint_target(f) + ".lock";
    };
    const bool table_at_lock = same(table, lock_of(ck));
    if (table_at_lock || same(ck, lock_of(table)))
      throw InputError("--save-table and --checkpoint: one names the other's lock file (" +
                       clip_token(table_at_lock ? table : ck, 200) +
                       "): give each a file of its own");
    // The other files each writes beside its target: FILE.tmp while
    // saving, and a dense checkpoint's parts FILE.rank<r>.<a|b> (with
    // their .tmp) and the other ranks' locks FILE.rank<r>.lock. A table
    // saved over one of them ruined the checkpoint, or a later save of the
    // checkpoint removed the table (a reviewer's find).
    const auto beside = [&](const std::string& owner, const std::string& f) {
      std::error_code e1, e2;
      const auto t = where(owner, e1), x = where(f, e2);
      if (e1 || e2 || t.parent_path() != x.parent_path()) return false;
      const std::string name = x.filename().string(), base = t.filename().string();
      if (name.size() <= base.size() || name.compare(0, base.size(), base) != 0) return false;
      // FILE.tmp, FILE.rank<r>.a|b (and .tmp), FILE.rank<r>.lock.
      std::string_view rest = std::string_view(name).substr(base.size());
      if (rest == ".tmp") return true;
      if (rest.substr(0, 5) != ".rank") return false;
      rest.remove_prefix(5);
      size_t digits = 0;
      while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
      if (digits == 0) return false;
      rest.remove_prefix(digits);
      return rest == ".a" || rest == ".b" || rest == ".a.tmp" || rest == ".b.tmp" ||
             rest == ".lock";
    };
    std::string clash;
    if (beside(ck, table))
      clash = clip_token(table, 200) + " is a file the checkpoint writes";
    else if (beside(ck, lock_of(table)))
      clash = "the table's lock " + clip_token(lock_of(table), 200) +
              " is a file the checkpoint writes";
    else if (beside(table, ck))
      clash = clip_token(ck, 200) + " is a file the table writes";
    if (!clash.empty())
      throw InputError("--save-table and --checkpoint: " + clash +
                       " beside its own: give each a file of its own");
  }
  if (ga.given("--table") && ga.given("--kept-mb"))
    throw InputError("--kept-mb is not used with --table (nothing is solved)");
  o.method = solver::SolveOptions::Method::kDense;
  JobInfo whole = job;
  whole.record.clear();
  o.table_file.signature = "loom dense table; " + whole.signature("dense") +
                           (o.symmetry ? "" : "; no-symmetry") + content_inputs(g);
  o.table_file.root_record = job.record;
  return "dense";
}

}  // namespace

std::vector<CommandSpec> solve_commands() {
  return {{"solve", "solve a position exactly: value, every opening up to symmetry, best play",
           [](CLI::App* cmd) {
             auto ga = std::make_shared<GameArgs>();
             ga->add_to(cmd, /*with_dice=*/true);
             auto a = std::make_shared<SolveArgs>();
             cmd->add_option("--db", a->db,
                             "nardy: bear-off database directory (default: $XDG_CACHE_HOME/loom "
                             "or ~/.cache/loom)")
                 ->check(non_empty_name("a directory name"));
             cmd->add_flag("--json", a->json, "end with one JSON line (CONVENTIONS.md)");
             cmd->add_flag("--pie", a->pie,
                           "fiodar: solve every 2-stone pie set-up up to symmetry (the pie "
                           "table) instead of the first moves (--method dfs or superko)");
             cmd->add_option(
                    "--method", a->method,
                    "auto (default: retrograde, or dfs for scored games and on sides 5 to 9; "
                    "Gadur and Enfargar up to side 3 go on by dense past 200,000 positions), "
                    "retrograde "
                    "(exhaustive, handles cycles), dense "
                    "(retrograde over a base-3 index: Gadur, Enfargar up to side 3), "
                    "dfs (alpha-beta, acyclic games), compact (win/loss alpha-beta, "
                    "8/16-byte table entries, up to side 4), dfpn (win/loss proof-number "
                    "search, 16-byte entries, Gadur up to side 4) or superko (Fiodar up to "
                    "side 3: alpha-beta with a board-keyed table sound under superko)")
                 ->check(method_check());
             cmd->add_flag("--no-symmetry", a->no_symmetry,
                           "do not reduce positions by the 12 board symmetries");
             cmd->add_flag("--no-pv", a->no_pv, "skip the principal variation");
             constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();
             add_int_option(
                 cmd, "--threads", a->threads,
                 "worker threads: retrograde and dense (default: cores, <= 8); dfs, compact, dfpn "
                 "and superko: openings searched at once (default 1)",
                 0, 64);
             add_int_option(cmd, "--max-positions", a->o.max_positions,
                            "retrograde: stop once the table holds more than this many positions "
                            "(read between batches of expansions, so it may hold up to a batch's "
                            "successors more) and report how far it got (default: no limit)",
                            uint64_t{1}, kU64Max);
             add_int_option(cmd, "--table-mb", a->o.table_mb,
                            "dfs, compact, dfpn, superko: transposition table size in MB, keys' "
                            "heap memory included; a small board takes only what its positions "
                            "need (default 512)",
                            uint64_t{1}, uint64_t{1} << 20);
             add_int_option(cmd, "--kept-mb", a->o.kept_mb,
                            "dense, Enfargar: memory in MB for the successor lists kept from the "
                            "enumeration, so that solving need not list them again (default 384; "
                            "0: none)",
                            uint64_t{0}, uint64_t{1} << 20);
             add_int_option(cmd, "--max-nodes", a->o.max_nodes,
                            "dfs, compact, dfpn, superko: stop after this many nodes and report "
                            "the openings solved so far (default: no limit)",
                            uint64_t{1}, kU64Max);
             cmd->add_flag("--value-only", a->o.value_only,
                           "superko: prove the value only; an opening that cannot beat the best "
                           "one found is shown so (a bound), not solved exactly");
             cmd->add_flag("--replay", a->o.replay,
                           "superko: prove the value a second way: play out both bounds' proof "
                           "trees with whole histories");
             add_int_option(cmd, "--replay-mb", a->o.replay_mb,
                            "--replay: memory for its memo of proved claims in MB (default: an "
                            "eighth of --table-mb)",
                            uint64_t{1}, uint64_t{1} << 20);
             cmd->add_option("--save-table", a->o.table_file.save,
                             "dense: after solving, save every position's value (2 bits) and "
                             "plies (a byte) to FILE, to answer any of them later with --table")
                 ->check(non_empty_name("a file name"));
             cmd->add_option("--table", a->o.table_file.read,
                             "dense: answer from FILE, a table saved by --save-table, instead of "
                             "solving: the value, openings and best play of any position in it")
                 ->check(non_empty_name("a file name"));
             cmd->add_flag("--check-table", a->o.table_file.check,
                           "with --table: first check every position of the table against its "
                           "successors by the rules (any edit or damage is found)");
             cmd->add_option("--checkpoint", a->o.checkpoint,
                             "save finished work to FILE (atomically) and resume from it");
             add_seconds_option(cmd, "--checkpoint-interval", a->o.checkpoint_interval,
                                "seconds between checkpoint saves (default 60)", 0.001, 1e9);
             add_int_option(cmd, "--stop-after", a->o.stop_after,
                            "testing: stop as if interrupted after N units of work", uint64_t{0},
                            kU64Max)
                 ->group("");
             return Action([=](std::ostream& out, std::ostream& err) {
               solver::SolveOptions o = a->o;
               o.method = method_named(a->method).value_or(Method::kAuto);  // checked by CLI11
               if (ga->given("--checkpoint") && o.checkpoint.empty())
                 throw InputError("--checkpoint needs a file name");
               o.exchange = process_exchange();
               const bool ranks = o.exchange && o.exchange->size() > 1;
               if (ranks && (ga->game == "nardy" || a->pie))
                 throw InputError(
                     "under mpirun with more than one rank, loom solve runs --method dense "
                     "(Gadur and Enfargar up to side 3), not " +
                     std::string(a->pie ? "--pie" : "nardy"));
               if (ga->game == "nardy") {
                 // Long Nardy: expectations by the exact solvers in solver/nardy/,
                 // which take none of the board games' search options (their
                 // databases resume by themselves): refused, not ignored.
                 for (const char* opt : kBoardGameOptions)
                   if (ga->given(opt))
                     throw InputError(std::string(opt) +
                                      " is not used by nardy (its exact solver takes --position, "
                                      "--dice, --db, --threads and --rule checkers=K)");
                 NardySolveArgs na;
                 na.position_given = ga->given("--position");
                 if (ga->given("--dice")) na.dice = nardy::Roll::parse(ga->dice);
                 na.json = a->json;
                 na.db_dir = a->db;
                 na.threads = a->threads > 0 ? a->threads : std::min(2, default_threads());
                 na.stop_after = static_cast<int>(std::min<uint64_t>(o.stop_after, 1u << 30));
                 na.tty = progress_stream(err);
                 auto g = ga->build();
                 visit_state(*g, [&](const auto& s) {
                   if constexpr (std::is_same_v<std::remove_cvref_t<decltype(s)>, NardyGame>)
                     solve_nardy(s, na, out, err);
                 });
                 return;
               }
               if (ga->given("--dice")) throw InputError("--dice is only used by nardy");
               if (ga->given("--db")) throw InputError("--db is only used by nardy");
               auto g = ga->build();
               o.symmetry = !a->no_symmetry;
               o.pv = !a->no_pv;
               o.threads = a->threads > 0 ? a->threads : default_threads();
               // compact, dfpn and superko: one thread unless asked (the node counts of
               // a one-thread run do not depend on timing).
               o.search_threads = a->threads > 0 ? a->threads : 1;
               o.tty = progress_stream(err);
               std::string setup = ga->given("--setup") && ga->start.setup ? *ga->start.setup : "";
               std::optional<int> size =
                   ga->given("--size") ? std::optional<int>(ga->size) : std::nullopt;
               // The job's identity (checkpoints resume only the job that wrote them).
               JobInfo job = job_info(ga->game, size, ga->rules, setup, ga->record, Color::kBlack);
               job.use_edges(ga->start.edges_file, edges_digest(*g));
               // Saved tables: the dense method's (--method dense implied).
               const std::string method =
                   table_options(*ga, a->method, a->pie, o.exchange != nullptr, job, *g, o);
               const std::string run = method_run(*g, o, method, a->pie);
               refuse_unused(*ga, *g, run, method == "auto", ranks || ga->given("--checkpoint"));
               o.signature = job.signature(run) + (o.symmetry ? "" : "; no-symmetry") +
                             (a->pie ? "; pie" : "") + content_inputs(*g) +
                             (ga->given("--position") ? "; position=" + ga->position : "");
               if (a->pie && a->method != "auto" && a->method != "dfs" && a->method != "superko")
                 throw InputError(
                     "--pie solves by alpha-beta (--method dfs or superko): drop "
                     "--method " +
                     a->method);
               if ((o.value_only || o.replay) && (a->method != "superko" || a->pie))
                 throw InputError(std::string(o.replay ? "--replay" : "--value-only") +
                                  ": with --method superko, first moves (not --pie)");
               if (o.replay_mb && !o.replay) throw InputError("--replay-mb: only with --replay");
               // One process at a time saves into a checkpoint: FILE.lock for a
               // run of one process and for rank 0 (which writes FILE and the
               // part FILE.rank0), FILE.rank<r>.lock beside the target for the
               // other ranks. A saved table: FILE.lock, taken by rank 0 (which
               // writes the table).
               // A refusal on one rank is every rank's (under mpirun the
               // others would wait for it in the solve's first collective).
               std::optional<solver::CheckpointLock> lock, table_lock;
               solver::LocalExchange one;
               solver::on_every_rank(o.exchange ? *o.exchange : one, [&] {
                 // Found out now, not at the first save after the work.
                 if (!o.checkpoint.empty())
                   solver::check_checkpoint_writable(o.checkpoint, "--checkpoint");
                 if (!o.table_file.save.empty() && (!o.exchange || o.exchange->rank() == 0)) {
                   solver::check_checkpoint_writable(o.table_file.save, "--save-table");
                   table_lock.emplace(o.table_file.save, "--save-table",
                                      solver::CheckpointLock::Busy::kRefuse, nullptr, "table");
                   // Never written over: another job's table, or any file
                   // that is not this job's (docs/cli.md).
                   if (const std::string why = solver::DenseTable::why_not_replace(
                           o.table_file.save, o.table_file.signature, o.table_file.root_record);
                       !why.empty())
                     throw InputError("--save-table: " + why +
                                      "; it is not written over: remove it or name another file");
                 }
                 if (!o.checkpoint.empty())
                   lock.emplace(ranks && o.exchange->rank() != 0
                                    ? solver::checkpoint_target(o.checkpoint) + ".rank" +
                                          std::to_string(o.exchange->rank())
                                    : o.checkpoint,
                                "--checkpoint");
               });
               solver::SolveReport r = a->pie ? g->solve_pie(o) : g->solve(o);
               r.symmetries = symmetries_used(*g, r.symmetries);
               job.pie_setups = a->pie;
               job.pv = !a->no_pv;
               job.to_move = color_name(r.to_move);
               // A one-move pie table for the games whose pie rule is one
               // move (Fiodar's is the 2-stone set-up: --pie).
               job.pie_table = job.record.empty() && setup.empty() && one_move_pie(ga->game) &&
                               !job.seats() && r.value.kind != solver::Value::Kind::kMargin;
               print_solve(job, r, a->json, out);
               // A save after the solve (the table, the checkpoint's last
               // state) that failed: the result is printed and stands.
               if (!r.save_error.empty())
                 throw InputError(r.save_error + " (the result printed stands)");
               if (r.replay.done && !(r.replay.at_least && r.replay.at_most))
                 throw CommandFailed("the proof replay does not confirm the value (a bug)");
             });
           }}};
}

}  // namespace loom
