// One entry point per job for the command line: solve a position (value,
// openings up to symmetry, principal variation, counts) or check a property
// of its reachable graph. Generic over loom::Game; app/any_game.h calls these
// on the typed state inside GameAdapter<S>.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "model/common/errors.h"
#include "model/common/game.h"
#include "solver/checkpoint.h"
#include "solver/compact_dfs.h"
#include "solver/control.h"
#include "solver/dense.h"
#include "solver/dense_checks.h"
#include "solver/dense_table.h"
#include "solver/dense_table_check.h"
#include "solver/dfpn.h"
#include "solver/dfs.h"
#include "solver/distributed_dense.h"
#include "solver/exchange.h"
#include "solver/graph_checks.h"
#include "solver/proof_replay.h"
#include "solver/retrograde.h"
#include "solver/superko_dfs.h"
#include "solver/value.h"

namespace loom::solver {

struct SolveOptions {
  enum class Method { kAuto, kRetrograde, kDfs, kDense, kCompact, kDfpn, kSuperko };
  Method method = Method::kAuto;
  bool symmetry = true;
  bool pv = true;
  int threads = 1;
  /// --method compact and dfpn: openings searched at once, one a thread
  /// (solve_boolean_parallel); 1: one after another over one table.
  int search_threads = 1;
  /// Retrograde: stop enumerating beyond this many positions (0: no limit).
  uint64_t max_positions = 0;
  /// Depth-first search: transposition table size (heap-held keys included).
  uint64_t table_mb = 512;
  /// Dense method, games without retrograde moves (Enfargar): memory for
  /// the successor lists kept from the enumeration (0: none).
  uint64_t kept_mb = 384;
  /// Depth-first search: stop after this many nodes in this run and report
  /// the openings finished so far (0: no limit).
  uint64_t max_nodes = 0;
  /// Checkpoint file ("" = none) and the job identity written into it.
  std::string checkpoint;
  std::string signature;
  double checkpoint_interval = 60;
  /// Progress line target (a terminal), or null.
  std::ostream* tty = nullptr;
  /// Tests: stop as if interrupted after this many work units (0: never).
  uint64_t stop_after = 0;
  /// Stop as if interrupted after this many seconds (0: never; loom audit).
  double deadline_seconds = 0;
  /// Stop, too, on a Ctrl-C that an outer job caught (loom audit's parts).
  bool outer_stop = false;
  /// Alpha-beta over the openings (--method superko): prove the value
  /// only; an opening that cannot beat the best one found is only bounded.
  bool value_only = false;
  /// --method superko: after solving, prove the value a second way by
  /// playing out both bounds' proof trees with whole histories
  /// (solver/proof_replay.h).
  bool replay = false;
  /// The replay memo's budget in MB (0: an eighth of table_mb).
  uint64_t replay_mb = 0;
  /// The ranks of a distributed run (mpirun), or null for one process.
  /// Under mpirun the dense method runs partitioned (with one rank too).
  Exchange* exchange = nullptr;
  /// --method dense: where to save the finished table (--save-table), or a
  /// table to answer from instead of solving (--table); the tables'
  /// identity (game, board, rules, symmetry: not the record, since one
  /// table answers every position in it) and the record solved from.
  struct TableFile {
    std::string save, read, signature, root_record;
    /// --check-table: every position of the table read checked against
    /// its successors by the rules before answering
    /// (solver/dense_table_check.h).
    bool check = false;
  } table_file;
  /// --method auto, Gadur and Enfargar up to side 3, without a position
  /// limit, checkpoint or deadline: the hash retrograde while the job holds
  /// at most this many positions, then the dense method (0: never).
  uint64_t auto_dense_above = 200'000;
  /// loom audit: max_positions, the deadline and an outer stop bound the
  /// hash retrograde only. An auto run whose job outgrows max_positions or
  /// auto_dense_above (the smaller) goes on by the dense method where it
  /// fits: its memory is the board's index, not the job's, and the deadline
  /// and the outer stop still end it.
  bool dense_past_limit = false;
};

struct OpeningResult {
  std::string move;  ///< representative token (smallest in byte order)
  int count = 1;     ///< moves in its symmetry class
  Value value;       ///< value of the position after it
  int plies = -1;    ///< plies to the end under optimal play after it (-1: unknown/draw)
  /// --value-only, value unknown: the opening was only shown not to beat
  /// the best one. Black's margin is at most (-1) or at least (+1) bound2.
  int bound_dir = 0;
  int32_t bound2 = 0;
};

struct SolveReport {
  std::string method;             ///< "retrograde" or "dfs"
  Color to_move = Color::kBlack;  ///< side to move in the solved position
  bool complete = false;
  Value value;
  int plies = -1;  ///< retrograde: plies to the end under optimal play (-1: draw/unknown)
  std::vector<OpeningResult> openings;
  std::vector<std::string> pv;
  bool pv_repeats = false;  ///< the PV ends because a position repeats (a draw)
  uint64_t nodes = 0;  ///< positions searched in this run (dfs) / positions stored (retrograde)
  uint64_t nodes_total = 0;  ///< alpha-beta: nodes of this run and every run it resumes
  uint64_t positions = 0;    ///< positions stored (up to symmetry)
  uint64_t moves = 0;        ///< retrograde: stored moves between them
  uint64_t terminals = 0;    ///< retrograde: ends among them
  uint32_t sweeps = 0;       ///< retrograde: sweeps until the fixed point
  int depth_complete = -1;   ///< incomplete retrograde: every line of this many plies stored
  uint64_t bytes = 0;        ///< memory of the tables
  /// compact, dfpn and superko: the search tables (1, or one a thread where the
  /// threads cannot share one; 0: not reported)
  int tables = 0;
  int symmetries = 1;
  double seconds = 0;  ///< this run's (a resumed run does not count earlier runs)
  bool resumed = false;
  /// A partitioned run (dense, distributed or checkpointed): each rank's figures.
  std::vector<RankStats> ranks;
  std::string note;
  std::string table;  ///< --table: the file the values were read from
  /// --check-table: the whole table checked against the rules, which it
  /// passed (a table that fails is refused as corrupt).
  std::optional<TableCheckResult> table_check;
  /// --save-table: why the finished table could not be saved (the report
  /// is whole; the command prints it, then fails with this).
  std::string save_error;
  std::string pie_setup;  ///< pie table: the set-up the setter should choose
  /// --replay: the second proof of the value (solver/proof_replay.h).
  struct Replay {
    bool done = false;      ///< the replay ran to its end
    bool at_least = false;  ///< Black's margin >= the value was proved
    bool at_most = false;   ///< Black's margin <= the value was proved
    uint64_t nodes = 0, leaves = 0, hits = 0, stored = 0, oracle_nodes = 0;
    uint64_t sets = 0;     ///< distinct R_K sets kept for the stored claims
    uint64_t dropped = 0;  ///< proved claims not stored (memo full)
    double seconds = 0;
    std::string note;  ///< why it did not run or finish
  } replay;
};

struct PropertyOptions {
  bool symmetry = true;
  uint64_t max_positions = 0;
  std::ostream* tty = nullptr;
  /// Stop as if interrupted after this many seconds (0: never; loom audit).
  double deadline_seconds = 0;
  /// Stop, too, on a Ctrl-C that an outer job caught (loom audit's parts).
  bool outer_stop = false;
  /// drawless: threads expanding positions (the result is the same on any).
  int threads = 1;
  /// kHash: a table of the positions met, bounded by max_positions;
  /// kDense: the board's base-3 index (solver/dense_checks.h; Gadur and
  /// Enfargar up to side 3), whose memory is the board's, not the job's;
  /// kAuto: the hash check, and where it stops at max_positions and the
  /// dense index takes the game, the dense check from the start.
  enum class Method { kAuto, kHash, kDense };
  Method method = Method::kAuto;
};

/// The first moves of `root` grouped by the symmetries that fix `root`.
/// Representatives are listed in byte order of their tokens.
template <Game S>
std::vector<std::pair<typename S::Move, int>> opening_classes(const S& root, bool symmetry) {
  using Move = typename S::Move;
  std::vector<Move> ms;
  root.legal_moves(ms);
  std::vector<int> stab{0};
  if constexpr (SymmetricGame<S>) {
    if (symmetry)
      for (int k = 1; k < 12; ++k)
        if (root.transformed(k) == root) stab.push_back(k);
  }
  std::vector<bool> done(ms.size(), false);
  std::vector<std::pair<Move, int>> out;
  for (size_t i = 0; i < ms.size(); ++i) {
    if (done[i]) continue;
    std::vector<size_t> orbit;
    for (int k : stab) {
      Move img = ms[i];
      if constexpr (SymmetricGame<S>) img = root.map_move(k, ms[i]);
      auto it = std::lower_bound(ms.begin(), ms.end(), img);
      if (it == ms.end() || !(*it == img))
        throw std::logic_error("a symmetry of the position maps a legal move to an illegal one");
      size_t j = static_cast<size_t>(it - ms.begin());
      if (!done[j]) {
        done[j] = true;
        orbit.push_back(j);
      }
    }
    size_t rep = orbit[0];
    for (size_t j : orbit)
      if (root.move_name(ms[j]) < root.move_name(ms[rep])) rep = j;
    out.emplace_back(ms[rep], static_cast<int>(orbit.size()));
  }
  std::sort(out.begin(), out.end(), [&](const auto& a, const auto& b) {
    return root.move_name(a.first) < root.move_name(b.first);
  });
  return out;
}

/// One first step of a depth-first job: a first move from the root, or (pie
/// table) a whole set-up position. `count`: how many it stands for.
template <Game S>
struct Branch {
  std::string name;
  int count = 1;
  S state;
};

/// The first moves of `root` up to symmetry (opening_classes), each as the
/// position it leads to.
template <Game S>
std::vector<Branch<S>> opening_branches(const S& root, bool symmetry) {
  std::vector<Branch<S>> out;
  typename S::Undo u;
  for (const auto& [m, count] : opening_classes(root, symmetry)) {
    S c = root;
    c.apply(m, u);
    out.push_back({root.move_name(m), count, std::move(c)});
  }
  return out;
}

namespace detail {

inline RunControl::Config control_config(const SolveOptions& o) {
  RunControl::Config c;
  c.tty = o.tty;
  c.checkpoint_interval = o.checkpoint_interval;
  c.stop_after = o.stop_after;
  c.deadline_seconds = o.deadline_seconds;
  c.outer_stop = o.outer_stop;
  c.catch_signals = !o.checkpoint.empty();
  return c;
}

template <Game S>
SolveReport solve_dfs(const S& root, const SolveOptions& o, RunControl& ctl);

/// A finished position under a method that searches from its moves (dense,
/// compact, dfpn, superko; they refused it while retrograde and dfs gave its
/// value): the rules' result, alpha-beta's one-node answer, reported under
/// the method asked for.
template <Game S>
SolveReport finished_position(const S& root, const SolveOptions& o, RunControl& ctl,
                              const std::string& method) {
  SolveReport rep = solve_dfs(root, o, ctl);
  rep.method = method;
  return rep;
}

/// Does a terminal position score a margin? Probes a few lines of play
/// (first, last and middle moves), at most 2000 plies each.
template <Game S>
bool scores_margins(const S& root) {
  std::vector<typename S::Move> ms;
  typename S::Undo u;
  for (int pick = 0; pick < 3; ++pick) {
    S s = root;
    for (int ply = 0; ply < 2000; ++ply) {
      s.legal_moves(ms);
      if (ms.empty()) {
        if (s.outcome().margin2 != 0) return true;
        break;
      }
      size_t i = pick == 0 ? 0 : pick == 1 ? ms.size() - 1 : ms.size() / 2;
      s.apply(ms[i], u);
    }
  }
  return false;
}

/// A solved table that disagrees with itself (report_from_table): a bug
/// for a table solved in this run, a corrupt file for one read from a
/// checkpoint (report_checked).
struct TableContradiction : std::logic_error {
  using std::logic_error::logic_error;
};

/// The part of a report read from a finished win/loss/draw table, whatever
/// the table (hash retrograde or dense): the root's value and plies, every
/// opening class, and the principal variation. `lookup(s)` gives
/// (value, plies to the end; -1 if not a finite line). Throws
/// TableContradiction where the table disagrees with itself: the root's
/// value is not the mover's best over its openings, or the principal
/// variation finds no move that keeps the value.
template <Game S, class Lookup>
void report_from_table(const S& root, const SolveOptions& o, Lookup lookup, SolveReport& rep) {
  std::tie(rep.value, rep.plies) = lookup(root);
  const Color me = root.to_move();
  const auto rank = [&](const Value& v) {
    return v == Value::win(me) ? 2 : v == Value::win(other(me)) ? 0 : 1;
  };
  int best = -1;
  for (const auto& b : opening_branches(root, o.symmetry)) {
    auto [v, p] = lookup(b.state);
    rep.openings.push_back({b.name, b.count, v, p});
    best = std::max(best, rank(v));
  }
  const auto check_root = [&] {
    if (best >= 0 && best != rank(rep.value))
      throw TableContradiction("the value of the position is not the best of its openings");
  };
  if (!o.pv) {
    check_root();
    return;
  }
  // Winner: fastest win; loser: slowest loss; neutral: stay neutral.
  S s = root;
  typename S::Undo u;
  std::vector<typename S::Move> ms;
  std::vector<S> seen{s};
  for (int ply = 0; ply < 400; ++ply) {
    s.legal_moves(ms);
    if (ms.empty()) break;
    const Value v = lookup(s).first;
    const bool mover_wins = v == Value::win(s.to_move());
    std::optional<typename S::Move> pick;
    int pick_d = 0;
    for (const auto& m : ms) {
      S c = s;
      c.apply(m, u);
      auto [cv, cd] = lookup(c);
      if (!(cv == v)) continue;
      if (!pick || (mover_wins ? cd < pick_d : cd > pick_d)) {
        pick = m;
        pick_d = cd;
      }
    }
    if (!pick)
      throw TableContradiction("its values contradict each other (no move keeps the value)");
    rep.pv.push_back(s.move_name(*pick));
    s.apply(*pick, u);
    if (std::find(seen.begin(), seen.end(), s) != seen.end()) {
      rep.pv_repeats = true;
      break;
    }
    seen.push_back(s);
  }
  check_root();
}

/// report_from_table for a table that may have been read from a checkpoint
/// (rep.resumed) or a saved table (rep.table): its checksum catches damage,
/// not an edit that recomputes it, so a table that disagrees with itself is
/// then a corrupt file.
template <Game S, class Lookup>
void report_checked(const S& root, const SolveOptions& o, Lookup lookup, SolveReport& rep) {
  try {
    report_from_table(root, o, lookup, rep);
  } catch (const TableContradiction& e) {
    if (!rep.table.empty())
      throw InputError("table " + clip_token(rep.table, 200) + " is corrupt: " + e.what());
    if (!rep.resumed) throw;
    throw InputError("checkpoint " + clip_token(o.checkpoint, 200) + " is corrupt: " + e.what());
  }
}

/// Runs save(), a checkpoint save made once the run's result is final
/// (every opening solved, a limit reached, the line worked out): a failure
/// (a full disk) goes to `error`, the first one only, for the command to
/// report after the result it printed, instead of losing the result. A save
/// in the middle of a run still stops it: its work since the last good save
/// cannot be kept, and the last good checkpoint stands: with `final`
/// false (the save after a branch that leaves others), save() is plain.
template <class Save>
void save_final(Save&& save, std::string& error, bool final = true) {
  if (!final) return save();
  try {
    save();
    error.clear();  // a later final save that succeeds makes the file whole
  } catch (const InputError& e) {
    if (error.empty()) error = e.what();
  }
}

template <Game S>
SolveReport solve_retrograde(const S& root, const SolveOptions& o, RunControl& ctl) {
  using R = Retrograde<S>;
  SolveReport rep;
  rep.method = "retrograde";
  typename R::Config cfg;
  cfg.symmetry = o.symmetry;
  cfg.max_positions = o.max_positions;
  cfg.threads = o.threads;
  R r(root, cfg);
  rep.symmetries = r.canonicalizer().count();
  const std::string kind = "retrograde";
  if (!o.checkpoint.empty()) {
    if constexpr (!R::kCheckpointable)
      throw InputError("--checkpoint: this game's positions cannot be saved (no packed form)");
    if (CheckpointReader::exists(o.checkpoint)) {
      CheckpointReader rd(o.checkpoint, kind, o.signature);
      r.load(rd);
      rep.resumed = true;
    }
  }
  auto save = [&] {
    if (!o.checkpoint.empty()) {
      CheckpointWriter w(o.checkpoint, kind, o.signature);
      r.save(w);
      w.commit();
    }
    ctl.checkpoint_written();
  };
  auto fill_counts = [&] {
    rep.positions = rep.nodes = rep.nodes_total = r.positions();
    rep.moves = r.moves();
    rep.terminals = r.terminals();
    rep.sweeps = r.sweeps();
    rep.bytes = r.bytes();
    rep.seconds = ctl.elapsed();
  };
  if (!r.enumerated() && !r.enumerate(ctl, save)) {
    fill_counts();
    rep.depth_complete = r.depth_complete();
    rep.note = "stopped at the position limit (" + with_commas(o.max_positions) +
               " positions): every line of " + std::to_string(r.depth_complete()) +
               " plies was stored, " + with_commas(r.expanded()) + " positions expanded";
    // Every opening is listed, none solved (docs/cli.md: the rest null).
    for (const auto& b : opening_branches(root, o.symmetry))
      rep.openings.push_back({b.name, b.count, Value{}, -1});
    if (!o.checkpoint.empty()) save_final(save, rep.save_error);
    return rep;
  }
  bool was_solved = r.solved();
  r.solve(ctl, save);
  if (!was_solved && !o.checkpoint.empty()) save_final(save, rep.save_error);
  fill_counts();
  rep.complete = true;

  report_checked(
      root, o,
      [&](const S& s) {
        auto i = r.index_of(s);
        int plies = !i || r.dist(*i) == R::kUndecided ? -1 : static_cast<int>(r.dist(*i));
        return std::pair{r.value_of(s), plies};
      },
      rep);
  return rep;
}

/// Can --method dense solve this job? "" if so, else why not.
template <Game S>
std::string dense_unsupported(const S& root, const SolveOptions& o) {
  if constexpr (DenseGame<S>) {
    if (o.max_positions != 0) return "--max-positions is not used by --method dense";
    return DenseRetrograde<S>::unsupported(root, /*finished_ok=*/true);
  } else {
    (void)root;
    (void)o;
    return "this game has no dense index (two colours of stones on at most 19 cells)";
  }
}

/// --table: the report of a solve read from a saved dense table (no
/// solving): the position must be in it (reachable from the position the
/// table was solved from) or over. Throws InputError if the file is not a
/// sound table of this game, board, rules and symmetry, or does not hold
/// the position; a table whose values contradict each other is corrupt.
template <DenseGame S>
SolveReport answer_from_table(const S& root, const SolveOptions& o, RunControl& ctl) {
  using M = DenseMoves<S>;
  // A position after a pass is answered too (the solve refuses to start
  // from one): the table holds it as the same board without the pass.
  if (std::string why = M::unsupported(root, /*finished_ok=*/true, /*after_pass_ok=*/true);
      !why.empty())
    throw InputError("--table: " + why);
  const std::string& file = o.table_file.read;
  M mv(root, o.symmetry);
  ctl.status("dense: reading the table", "");
  const DenseTable t(file, o.table_file.signature, mv.codec().key_count());
  if (!mv.end_code(root) && t.find(mv.key_of(root)) < 0)
    throw InputError("table " + clip_token(file, 200) +
                     " does not hold this position: it holds the positions reachable from " +
                     DenseTable::solved_from(t.root_record) +
                     "; save a table solved from this position with --save-table");
  std::optional<TableCheckResult> checked;
  if (o.table_file.check) {
    checked = check_dense_table(t, mv, o.threads, ctl);
    if (!checked->wrong.empty())
      throw InputError("table " + clip_token(file, 200) + " is corrupt: " + checked->wrong);
  }
  const auto lookup = [&](const S& s) -> std::pair<Value, int> {
    uint8_t code = 0;
    int plies = 0;
    switch (table_entry(t, mv, s, code, plies)) {
      case EntryFault::kMissing:  // a stored position's successors are stored or ends
        throw TableContradiction("a successor of a stored position is missing");
      case EntryFault::kNeutral:
        throw TableContradiction("its neutral value is not the one the rules give at an end");
      case EntryFault::kNone:
        break;
    }
    return M::table_value(code, plies, s.to_move(), t.neutral);
  };
  const bool over = root.is_terminal();
  SolveReport rep = over ? finished_position(root, o, ctl, "dense") : SolveReport{};
  rep.table = file;  // a contradiction is a corrupt file
  rep.table_check = checked;
  if (!over) {
    rep.method = "dense";
    rep.complete = true;
    report_checked(root, o, lookup, rep);
  }
  rep.symmetries = mv.codec().symmetries();
  rep.positions = rep.nodes = t.size();
  rep.moves = t.stats.moves;
  rep.terminals = t.stats.ends;
  rep.sweeps = static_cast<uint32_t>(t.stats.layers);
  rep.bytes = t.bytes();
  rep.note = over ? "the position is over: the rules' result (the table is not needed)"
                  : "read from the table " + clip_token(file, 200) + ", solved from " +
                        DenseTable::solved_from(t.root_record);
  rep.seconds = ctl.elapsed();
  return rep;
}

/// A finished dense solve's table (DenseRetrograde, or DistributedDense:
/// collective, the positions on rank 0).
template <class D>
DenseTable final_table(D& d) {
  DenseTable t;
  d.for_each_solved([&](uint32_t key, uint8_t code, uint8_t plies) { t.add(key, code, plies); });
  return t;
}

/// --save-table: writes a dense solve's final table t with the report's
/// figures; a failure goes to rep.save_error (reported after the solve's
/// report, which is not lost).
inline void save_table(DenseTable& t, const SolveOptions& o, SolveReport& rep,
                       Value::Kind neutral) {
  t.root_record = o.table_file.root_record;
  t.stats = {rep.moves, rep.terminals, rep.sweeps};
  t.neutral = neutral;
  try {
    t.save(o.table_file.save, o.table_file.signature);
  } catch (const InputError& e) {
    if (rep.save_error.empty()) rep.save_error = e.what();
  }
}

template <Game S>
SolveReport solve_dense(const S& root, const SolveOptions& o, RunControl& ctl) {
  if constexpr (DenseGame<S>) {
    if (!o.table_file.read.empty()) return answer_from_table(root, o, ctl);
    std::string why = dense_unsupported(root, o);
    if (!why.empty()) throw InputError("--method dense: " + why);
    if (root.is_terminal()) return finished_position(root, o, ctl, "dense");
    using D = DenseRetrograde<S>;
    SolveReport rep;
    rep.method = "dense";
    typename D::Config cfg;
    cfg.symmetry = o.symmetry;
    cfg.threads = o.threads;
    cfg.kept_bytes = o.kept_mb << 20;
    D d(root, cfg);
    rep.symmetries = d.symmetries();
    d.run(ctl);
    rep.complete = true;
    rep.positions = rep.nodes = d.positions();
    rep.moves = d.moves();
    rep.terminals = d.terminals();
    rep.sweeps = d.sweeps();
    rep.bytes = d.bytes();
    report_from_table(
        root, o, [&](const S& s) { return d.lookup(s); }, rep);
    if (!o.table_file.save.empty()) {
      ctl.status("dense: saving the table", "");
      DenseTable t = final_table(d);
      save_table(t, o, rep, d.neutral_kind());
    }
    rep.seconds = ctl.elapsed();
    return rep;
  } else {
    (void)root;
    (void)ctl;
    throw InputError("--method dense: " + dense_unsupported(root, o));
  }
}

/// The dense method partitioned over the ranks of o.exchange (or one
/// process, for a checkpointed run): solver/distributed_dense.h. Collective:
/// every rank calls it; rank 0's report is the one to print.
template <Game S>
SolveReport solve_partitioned(const S& root, const SolveOptions& o, RunControl& ctl) {
  if constexpr (DenseGame<S>) {
    std::string why = dense_unsupported(root, o);
    if (!why.empty()) throw InputError("--method dense: " + why);
    if (root.is_terminal()) return finished_position(root, o, ctl, "dense");  // on every rank
    LocalExchange local;
    Exchange& ex = o.exchange ? *o.exchange : local;
    using D = DistributedDense<S>;
    typename D::Config cfg;
    cfg.symmetry = o.symmetry;
    cfg.checkpoint = o.checkpoint;
    cfg.signature = o.signature;
    D d(root, cfg, ex);
    SolveReport rep;
    rep.method = "dense";
    rep.symmetries = d.symmetries();
    d.run(ctl);
    rep.complete = true;
    rep.save_error = d.save_error();
    rep.resumed = d.resumed();
    rep.positions = rep.nodes = d.positions();
    rep.moves = d.moves();
    rep.terminals = d.terminals();
    rep.sweeps = d.sweeps();
    rep.bytes = d.bytes_per_rank();
    rep.ranks = d.ranks();
    // The table is gathered on rank 0 before the report (every rank takes
    // part) and saved after it, so that a failed save loses no report.
    DenseTable table;
    if (!o.table_file.save.empty()) {
      ctl.status("dense: gathering the table", "");
      table = final_table(d);
    }
    if (ex.rank() == 0) {
      try {
        report_checked(
            root, o, [&](const S& s) { return d.ask(s); }, rep);
      } catch (...) {
        d.stop_service();
        throw;
      }
      d.stop_service();
      if (!o.table_file.save.empty()) {
        ctl.status("dense: saving the table", "");
        save_table(table, o, rep, d.neutral_kind());
      }
    } else {
      d.serve();
    }
    rep.seconds = ctl.elapsed();
    return rep;
  } else {
    (void)root;
    (void)ctl;
    throw InputError("--method dense: " + dense_unsupported(root, o));
  }
}

/// Thrown from inside a search (a progress tick) to stop it; run_branches
/// saves the finished openings and stops with Interrupted.
struct OpeningStop {};

/// A search's progress tick (its Config::tick, every 2^20 nodes): reports
/// the nodes since the last report to ctl (`counted` holds those already
/// reported), shows the run's node count after the opening's progress
/// line, and stops the search on a stop request. `engine` is read at each
/// tick: it may be set after the tick is made.
template <class Engine>
std::function<void()> node_tick(RunControl& ctl, Engine* const& engine, uint64_t& counted) {
  return [&ctl, &engine, &counted] {
    ctl.work(engine->nodes() - counted);
    counted = engine->nodes();
    ctl.status_detail(with_commas(counted) + " nodes");
    if (ctl.stop_requested()) throw OpeningStop{};
  };
}

/// What run_branches found: a code per opening class (0: unknown).
struct OpeningRun {
  std::vector<uint64_t> done;
  uint64_t nodes_before = 0;  ///< nodes of the runs this one resumes
  bool resumed = false;
  bool limit_hit = false;
  std::string note;        ///< set when the node limit stopped the run
  std::string save_error;  ///< a final save's failure (save_final)
  /// The checkpoint's search table: 1 loaded, 2 not used (another size).
  int table_read = 0;
  std::string table_failed;  ///< why the table could not be saved (TableKeep)
};

/// A search's table kept in its branch checkpoint (compact, dfpn: every
/// entry is a proof, or numbers that only steer, so any run of the job may
/// load it): written after the branch codes when the run stops (Ctrl-C,
/// the node limit), after an opening that leaves others to solve, and
/// from inside a search when the checkpoint interval is due (only while
/// the table is quiet: a one-thread search at its tick; on several threads
/// sharing the table, every searching thread parked at its tick); read
/// back when the run resumes. save_now is set by run_branches for the
/// search's tick. Every save with the table waits until the last one took
/// at most a twentieth of the time since (cheap()), so that a large table
/// costs at most about 5 % of the run: a finished opening's save that
/// comes sooner is put off (pending) to the next tick that may save, so
/// that no save without the table replaces the last one with it.
struct TableKeep {
  std::function<void(CheckpointWriter&)> write;
  std::function<bool(CheckpointReader&)> read;
  std::function<void()> save_now;
  double last_at = 0, last_seconds = 0;  ///< the last table save (ctl.elapsed())
  /// A finished opening's code not yet saved (its save was put off).
  bool pending = false;
  /// Why a save with the table failed (a full disk: the save is made again
  /// without it, and later saves leave it out).
  std::string failed;
  bool cheap(const RunControl& ctl) const { return ctl.elapsed() - last_at >= 20 * last_seconds; }
  bool due(const RunControl& ctl) const { return (pending || ctl.checkpoint_due()) && cheap(ctl); }
  /// Is a finished opening's save to be put off? (Not when the table is
  /// no longer written: those saves hold the codes only.)
  bool put_off(const RunControl& ctl) const { return write && !cheap(ctl); }
};

/// The searches that can keep their table (compact, dfpn; not superko).
template <class Engine>
concept KeepsTable = requires(Engine& e, CheckpointWriter& w, CheckpointReader& r) {
  e.write_table(w);
  e.read_table(r);
};

/// keep writes and reads the table of e.
template <KeepsTable Engine>
void keep_table_of(TableKeep& keep, Engine& e) {
  keep.write = [&e](CheckpointWriter& w) { e.write_table(w); };
  keep.read = [&e](CheckpointReader& rd) { return e.read_table(rd); };
}

/// Adds `more` to a report's note ("; "-separated).
inline void append_note(std::string& note, const std::string& more) {
  note += (note.empty() ? "" : "; ") + more;
}

/// Refuses another job's file at --checkpoint before a search table is
/// made: the tables of compact, dfpn and superko are allocated (and
/// cleared) whole, gigabytes that a run refused a moment later would
/// have spent seconds on, or failed for want of.
inline void check_checkpoint_job(const SolveOptions& o, const std::string& kind) {
  if (!o.checkpoint.empty()) CheckpointReader::check_job(o.checkpoint, kind, o.signature);
}

/// The codes and node count of the branch checkpoint `kind` (if any) into
/// r (r.done: n codes, 0 unknown); a code that does not satisfy
/// stands(code) is dropped (solved again).
template <class Valid, class Stands>
void read_branches(OpeningRun& r, size_t n, const SolveOptions& o, const std::string& kind,
                   Valid valid, Stands stands, TableKeep* keep = nullptr) {
  r.done.assign(n, 0);
  if (o.checkpoint.empty() || !CheckpointReader::exists(o.checkpoint)) return;
  CheckpointReader rd(o.checkpoint, kind, o.signature);
  if (rd.u64(1 << 20, "opening count") != n)
    rd.corrupt("opening count differs from this position's");
  for (auto& x : r.done) {
    x = rd.u64(~uint64_t{0}, "opening value");
    if (x != 0 && !valid(x)) rd.corrupt("an opening value out of range");
    if (!stands(x)) x = 0;
  }
  r.nodes_before = rd.u64();
  if (!rd.at_end()) {  // a search table (TableKeep)
    if (keep && keep->read)
      r.table_read = keep->read(rd) ? 1 : 2;
    else  // not loaded (a table each on several threads): read past
      rd.skip(read_table_head(rd).bytes());
  }
  rd.finish();
  r.resumed = true;
}

/// Writes r's codes and node count (this run's `nodes` added) to the
/// branch checkpoint `kind`, if the run has one.
/// With `keep` (and its write), the search table after them: the caller
/// makes sure no search writes to it meanwhile.
/// A save with the table that fails (a full disk: a save needs the table's
/// size twice, the new file beside the old) is made again without it, so
/// that the codes are kept; keep->failed says why, and later saves leave
/// the table out.
inline void save_branches(const OpeningRun& r, uint64_t nodes, const SolveOptions& o,
                          const std::string& kind, RunControl& ctl, TableKeep* keep = nullptr) {
  if (o.checkpoint.empty()) return;
  const auto write = [&](bool table) {
    CheckpointWriter w(o.checkpoint, kind, o.signature);
    w.u64(r.done.size());
    for (uint64_t x : r.done) w.u64(x);
    w.u64(r.nodes_before + nodes);
    if (table) keep->write(w);
    w.commit();
  };
  if (keep && keep->write) {
    const double start = ctl.elapsed();
    ctl.status_detail("saving the search table");
    try {
      write(true);
      keep->last_at = ctl.elapsed();
      keep->last_seconds = keep->last_at - start;
    } catch (const InputError& e) {
      keep->failed = e.what();
      keep->write = nullptr;
      write(false);
    }
  } else {
    write(false);
  }
  if (keep) keep->pending = false;
  ctl.checkpoint_written();
}

/// The message of a branch run stopped by a signal, after its save.
inline std::string interrupted_note(const std::string& what, const TableKeep* keep) {
  return "interrupted; the finished " + what +
         (keep && keep->write ? " and the search table" : "") + " are saved";
}

/// True once every branch has its code.
inline bool all_done(const OpeningRun& r) {
  return std::find(r.done.begin(), r.done.end(), uint64_t{0}) == r.done.end();
}

/// The note of a run stopped by the node limit.
inline std::string node_limit_note(const OpeningRun& r, const SolveOptions& o,
                                   const std::string& what) {
  size_t solved = 0;
  for (uint64_t x : r.done) solved += x != 0;
  return "stopped at the node limit (" + with_commas(o.max_nodes) +
         " nodes in this run): " + std::to_string(solved) + " of " + std::to_string(r.done.size()) +
         " " + what + " solved";
}

/// The branch loop of the one-table depth-first methods (compact,
/// superko): each branch (a first-move class, or a pie set-up) in turn over
/// one table. solve(state, done) returns the branch's code (nonzero, and
/// valid(code)) given the codes found so far, or throws Limit at the node
/// budget. Finished codes and the node count go to the checkpoint `kind`
/// after each branch; a checkpointed code that does not satisfy
/// stands(code) (a bound where this run needs an exact value) is solved
/// again. `counted` holds the work units already reported to ctl (a tick
/// inside the search may report some); `what` names the branches in the
/// node-limit note. With `keep`, the search's table goes to the checkpoint
/// too (TableKeep), except in the last save, once every branch is solved.
template <class Limit, Game S, class Solve, class Valid, class Stands, class Nodes>
OpeningRun run_branches(const std::vector<Branch<S>>& classes, const SolveOptions& o,
                        RunControl& ctl, const std::string& method, const std::string& kind,
                        Valid valid, Stands stands, Solve solve, Nodes nodes, uint64_t& counted,
                        const std::string& what, TableKeep* keep = nullptr) {
  OpeningRun r;
  read_branches(r, classes.size(), o, kind, valid, stands, keep);
  auto save = [&] { save_branches(r, nodes(), o, kind, ctl, all_done(r) ? nullptr : keep); };
  // The search's tick saves through keep->save_now while this runs; it
  // refers to this frame, so it is cleared on every way out.
  struct Clear {
    TableKeep* k;
    ~Clear() {
      if (k) k->save_now = nullptr;
    }
  } clear{keep};
  if (keep && !o.checkpoint.empty())
    keep->save_now = [&] {
      if (keep->due(ctl)) save();
    };
  for (size_t i = 0; i < classes.size(); ++i) {
    if (r.done[i]) continue;
    ctl.status(method + ": solving " + std::to_string(i + 1) + " of " +
               std::to_string(classes.size()) + ": " + classes[i].name);
    try {
      r.done[i] = solve(classes[i].state, std::as_const(r.done));
    } catch (const Limit&) {
      r.limit_hit = true;
      break;
    } catch (const OpeningStop&) {
      save();
      throw Interrupted(interrupted_note(what, keep));
    } catch (...) {
      // A finished opening's code whose save was put off is not lost.
      if (keep && keep->pending) try {
          save();
        } catch (...) {  // the error that ended the run is the one to report
        }
      throw;
    }
    ctl.work(nodes() - counted);
    counted = nodes();
    if (!all_done(r) && keep && !o.checkpoint.empty() && keep->put_off(ctl))
      keep->pending = true;  // saved at the next tick that may save the table
    else
      save_final(save, r.save_error, all_done(r));
    // Once every branch is solved a stop request changes nothing: the
    // result is reported.
    if (!all_done(r) && ctl.stop_requested()) {
      if (keep && keep->pending) save();
      throw Interrupted("interrupted after finishing an opening");
    }
  }
  if (r.limit_hit) {
    save_final(save, r.save_error);
    r.note = node_limit_note(r, o, what);
  }
  if (keep) r.table_failed = keep->failed;
  return r;
}

/// The pie set-up the setter should choose among n: of the known margins
/// (margin(i) is an optional), the smallest in absolute value (ties: the
/// first, i.e. the first in byte order); nullopt when none is known.
template <class Margin>
std::optional<size_t> nearest_even(size_t n, Margin margin) {
  std::optional<size_t> pick;
  for (size_t i = 0; i < n; ++i)
    if (const auto m = margin(i);
        m && (!pick || std::abs(int64_t{*m}) < std::abs(int64_t{*margin(*pick)})))
      pick = i;
  return pick;
}

/// A report's run figures from an opening run and its solver's counters.
inline void report_run(SolveReport& rep, const OpeningRun& run, uint64_t nodes, uint64_t positions,
                       uint64_t bytes, const RunControl& ctl) {
  rep.complete = !run.limit_hit;
  rep.note = run.note;
  if (run.table_read == 2)
    append_note(rep.note,
                "the checkpoint's search table was not used: it has another size than this "
                "run's --table-mb gives, or another layout");
  if (!run.table_failed.empty())
    append_note(rep.note, "the search table could not be saved in the checkpoint (" +
                              run.table_failed + "): it keeps the finished openings only");
  if (rep.save_error.empty()) rep.save_error = run.save_error;
  rep.resumed = run.resumed;
  rep.nodes = nodes;
  rep.nodes_total = run.nodes_before + nodes;
  rep.positions = positions;
  rep.bytes = bytes;
  rep.seconds = ctl.elapsed();
}

/// A checkpointed boolean code (1 or 2; 0 unknown) is in range, and
/// every such code stands (is not solved again).
inline bool boolean_code_valid(uint64_t x) {
  return x <= 2;
}
inline bool boolean_code_stands(uint64_t) {
  return true;
}

/// An opening's code for a boolean engine: 1 the mover after the opening
/// wins, 2 it loses.
template <Game S, class Engine>
uint64_t boolean_code(Engine& e, const S& c) {
  if (c.is_terminal()) return c.outcome() == Outcome::win(c.to_move()) ? 1 : 2;
  return e.mover_wins(c) ? 1 : 2;
}

/// The report of a boolean run from its openings' codes.
template <Game S>
void boolean_report(SolveReport& rep, const S& root, const std::vector<Branch<S>>& branches,
                    const OpeningRun& run) {
  const Color me = root.to_move();
  bool some_win = false, all_known = true;
  for (size_t i = 0; i < branches.size(); ++i) {
    const uint64_t x = run.done[i];
    Value v;
    if (x) v = Value::win(x == 2 ? me : other(me));
    some_win = some_win || x == 2;
    all_known = all_known && x != 0;
    rep.openings.push_back({branches[i].name, branches[i].count, v, -1});
  }
  if (some_win)
    rep.value = Value::win(me);
  else if (all_known)
    rep.value = Value::win(other(me));
}

/// Threads on one node budget: each grant takes at most `size` nodes from
/// `left` (0 once it is spent).
inline std::function<uint64_t()> node_grant(std::atomic<uint64_t>& left, uint64_t size) {
  return [&left, size]() -> uint64_t {
    uint64_t cur = left.load();
    for (;;) {
      const uint64_t g = std::min(cur, size);
      if (g == 0 || left.compare_exchange_weak(cur, cur - g)) return g;
    }
  };
}

/// What run_branches_parallel's engines did: nodes, positions stored,
/// bytes of their tables, and how many tables (1: shared).
struct ParallelFigures {
  uint64_t nodes = 0, stored = 0, bytes = 0;
  int tables = 1;
};

/// run_branches (above) on o.search_threads threads: each thread has its
/// own engine (made from `base`) and takes the next unsolved branch until
/// none is left; the engines share one table where the entries are read
/// and written whole (Engine::shareable(): 8-byte entries, and 16-byte ones
/// on Intel and AMD processors with AVX), else each has its own
/// (--table-mb shared out, each a power of two). solve(t, engine, state,
/// done) returns the branch's code given the codes finished so far (a
/// copy). The node limit is one budget for all, drawn in small grants (at
/// most 2^16 nodes, and a 64th of a thread's share), so the run searches
/// at most --max-nodes and leaves little of it unused; a finished branch
/// goes to the checkpoint (with a shared table, which the searches leave
/// alone meanwhile, once the last save took at most a twentieth of the
/// time since: TableKeep), and Ctrl-C stops every thread within its next
/// 2^20 nodes. Before returning (not when interrupted), then(run,
/// engine 0) runs while the engines' ticks still report to ctl. The codes
/// are those of the sequential run where they do not depend on the
/// order; the node counts depend on which thread took which branch.
template <Game S, class Engine, class Valid, class Stands, class Solve, class Then>
OpeningRun run_branches_parallel(const std::vector<Branch<S>>& branches, const S& proto,
                                 const typename Engine::Config& base, const SolveOptions& o,
                                 RunControl& ctl, const std::string& method,
                                 const std::string& kind, Valid valid, Stands stands, Solve solve,
                                 Then then, ParallelFigures& fig, const std::string& what) {
  OpeningRun run;
  // One table for all where the engine's entries allow it (the branches
  // share most of their positions), else a table each. A shared table is
  // kept in the checkpoint (TableKeep): at Ctrl-C or the node limit once
  // the threads are joined, after a finished opening and at the checkpoint
  // interval with the searches parked; tables of their own are not kept.
  const bool shared = Engine::shareable();
  TableKeep keep;
  // A save with the shared table while threads search (the checkpoint
  // interval, a finished opening): the saver asks for a pause, every
  // searching thread parks at its next tick (at most 2^20 nodes away),
  // so that no entry changes while the table is written; then they go
  // on. Under mu.
  struct Pause {
    bool wanted = false;
    int searching = 0, parked = 0;
  } pause;

  std::condition_variable resumed;  // the pause's counts or wish changed
  const bool keeps = shared && !o.checkpoint.empty();
  // No more threads (and tables) than branches left to solve: known before
  // the engines are made where each has a table of its own; a shared table
  // is made first, so that the checkpoint's table can be read into it.
  int threads = 0;
  const auto plan = [&] {
    size_t open = 0;
    for (uint64_t x : run.done) open += x == 0;
    threads = static_cast<int>(std::clamp<size_t>(open, 1, o.search_threads));
  };
  if (shared) {
    threads = static_cast<int>(std::clamp<size_t>(branches.size(), 1, o.search_threads));
  } else {
    read_branches(run, branches.size(), o, kind, valid, stands);
    plan();
  }
  std::mutex mu;  // guards ctl, run, the lists below and the checkpoint
  std::atomic<uint64_t> left{o.max_nodes};
  const uint64_t grant_size =
      std::clamp<uint64_t>(o.max_nodes / (64 * uint64_t(threads)), 1, uint64_t{1} << 16);
  std::atomic<bool> quit{false};
  std::vector<uint64_t> seen(threads, 0);  // nodes each thread has reported
  std::vector<int> busy(threads, -1);      // the branch each thread searches
  // Which threads count in pause.searching (a tick from elsewhere, then(),
  // takes no part in a pause).
  std::vector<char> in_search(threads, 0);
  std::vector<bool> taken(branches.size(), false);
  std::vector<std::unique_ptr<Engine>> engines(threads);
  const auto total = [&] {
    uint64_t n = 0;
    for (uint64_t x : seen) n += x;
    return n;
  };
  // Under mu: nodes of thread t to ctl (work units, progress).
  const auto report = [&](int t) {
    const uint64_t n = engines[t]->nodes();
    ctl.work(n - seen[t]);
    seen[t] = n;
  };
  // Under mu: the progress line (the step has no ", ": a narrow terminal
  // cuts its front and keeps the branches being searched and the count).
  const auto show = [&] {
    size_t done = 0;
    for (uint64_t x : run.done) done += x != 0;
    std::string names;
    for (int b : busy)
      if (b >= 0) names += (names.empty() ? "" : " + ") + branches[b].name;
    ctl.status(method + (threads > 1 ? " on " + std::to_string(threads) + " threads" : "") + ": " +
                   std::to_string(done) + " of " + std::to_string(branches.size()) + " done" +
                   (names.empty() ? "" : "; solving " + names),
               with_commas(total()) + " nodes");
  };
  // Under g (mu): a searching thread waits out a save.
  const auto park = [&](std::unique_lock<std::mutex>& g) {
    ++pause.parked;
    resumed.notify_all();
    resumed.wait(g, [&] { return !pause.wanted; });
    --pause.parked;
  };
  // Under g (mu): saves the codes and, unless every branch is done, the
  // shared table once every searching thread is parked (the caller, if
  // it searches, counts as parked); a failed save lets them go on too.
  const auto quiet_save = [&](std::unique_lock<std::mutex>& g, bool searching) {
    resumed.wait(g, [&] { return !pause.wanted; });  // another save first
    // A finished opening's save (its code pending) that a save made
    // meanwhile took, that comes too soon after the last, or that a stop
    // leaves to the save after the join (or an error's).
    if (!searching && (!keep.pending || keep.put_off(ctl) || ctl.stop_requested())) return;
    pause.wanted = true;
    pause.parked += searching;
    struct Release {
      Pause& p;
      std::condition_variable& cv;
      bool searching;
      ~Release() {
        p.parked -= searching;
        p.wanted = false;
        cv.notify_all();
      }
    } release{pause, resumed, searching};
    const double start = ctl.elapsed();
    resumed.wait(g, [&] { return pause.parked == pause.searching; });
    if (ctl.stop_requested()) return;  // the save after the join (or an error's)
    const bool table = keep.write && !all_done(run);
    save_branches(run, total(), o, kind, ctl, all_done(run) ? nullptr : &keep);
    // The throttle counts the wait for the ticks too (up to 2^20 nodes of
    // a search): the threads stood still for all of it.
    if (table && keep.write) keep.last_seconds = keep.last_at - start;
  };
  for (int t = 0; t < threads; ++t) {
    typename Engine::Config cfg = base;
    cfg.table_bytes = (o.table_mb << 20) / (shared ? 1 : threads);
    cfg.max_nodes = 0;
    if (o.max_nodes > 0) cfg.grant = node_grant(left, grant_size);
    cfg.tick = [&, t] {
      std::unique_lock<std::mutex> g(mu);
      report(t);
      ctl.status_detail(with_commas(total()) + " nodes");
      if (quit.load() || ctl.stop_requested()) throw OpeningStop{};
      if (keeps && keep.write && in_search[t]) {  // this thread's search is quiet here
        if (pause.wanted)
          park(g);
        else if (keep.due(ctl))
          quiet_save(g, /*searching=*/true);
      }
    };
    engines[t] = shared && t > 0 ? std::make_unique<Engine>(proto, cfg, *engines[0])
                                 : std::make_unique<Engine>(proto, cfg);
  }
  if (shared) {
    if constexpr (KeepsTable<Engine>) keep_table_of(keep, *engines[0]);
    read_branches(run, branches.size(), o, kind, valid, stands, &keep);
    const int made = threads;
    plan();
    threads = std::min(threads, made);
    engines.resize(threads);  // the owner of the table, engines[0], stays
    seen.resize(threads);
    busy.resize(threads);
  }
  bool stopped = false;
  std::vector<std::exception_ptr> errors(threads);
  const auto work = [&](int t) {
    try {
      for (;;) {
        size_t i = branches.size();
        std::vector<uint64_t> done;
        {
          std::unique_lock<std::mutex> g(mu);
          resumed.wait(g, [&] { return !pause.wanted; });  // no search starts in a save
          if (quit.load() || run.limit_hit) return;
          for (size_t k = 0; k < branches.size() && i == branches.size(); ++k)
            if (!run.done[k] && !taken[k]) i = k;
          if (i == branches.size()) return;
          taken[i] = true;
          busy[t] = static_cast<int>(i);
          done = run.done;
          ++pause.searching;
          in_search[t] = 1;
          show();
        }
        try {
          uint64_t code = 0;
          {
            // However the search ends, it no longer counts for a pause.
            struct Leave {
              std::mutex& mu;
              Pause& p;
              char& mine;
              std::condition_variable& cv;
              ~Leave() {
                std::lock_guard<std::mutex> g(mu);
                --p.searching;
                mine = 0;
                cv.notify_all();
              }
            } leave{mu, pause, in_search[t], resumed};
            code = solve(t, *engines[t], branches[i].state, std::as_const(done));
          }
          std::unique_lock<std::mutex> g(mu);
          run.done[i] = code;
          busy[t] = -1;
          report(t);
          show();
          if (keeps && keep.write && !all_done(run)) {
            keep.pending = true;  // saved now, or by the next save with the table
            quiet_save(g, /*searching=*/false);
          } else {
            save_final([&] { save_branches(run, total(), o, kind, ctl); }, run.save_error,
                       all_done(run));
          }
          if (ctl.stop_requested()) {
            stopped = true;
            quit = true;
          }
        } catch (const typename Engine::NodeLimit&) {
          // The budget is spent (the others stop within a grant).
          std::lock_guard<std::mutex> g(mu);
          run.limit_hit = true;
          busy[t] = -1;
          return;
        } catch (const OpeningStop&) {
          std::lock_guard<std::mutex> g(mu);
          stopped = true;
          quit = true;
          return;
        }
      }
    } catch (...) {
      errors[t] = std::current_exception();
      quit = true;
    }
  };
  {
    ThreadGroup ws;
    ws.start_each(0, threads, work, [&] { quit = true; });
    ws.join();
  }
  for (const auto& e : errors)
    if (e) {
      // A finished opening's code whose save was put off is not lost (every
      // thread has ended: the table is quiet).
      if (keep.pending) try {
          save_branches(run, total(), o, kind, ctl, all_done(run) ? nullptr : &keep);
        } catch (...) {  // the error that ended the run is the one to report
        }
      std::rethrow_exception(e);
    }
  fig = ParallelFigures{};
  for (int t = 0; t < threads; ++t) {
    report(t);
    fig.stored += engines[t]->stored();
    fig.bytes += engines[t]->table_bytes();
  }
  fig.nodes = total();
  // A shared table's positions: its entries (two threads may both have
  // counted one slot they filled at once).
  if (shared) fig.stored = engines[0]->occupied();
  fig.tables = shared ? 1 : threads;
  TableKeep* const table = shared ? &keep : nullptr;  // every thread has ended
  if (stopped && !all_done(run)) {                    // (all solved: the result is reported)
    save_branches(run, fig.nodes, o, kind, ctl, table);
    throw Interrupted(interrupted_note(what, table));
  }
  if (run.limit_hit) {
    save_final([&] { save_branches(run, fig.nodes, o, kind, ctl, table); }, run.save_error);
    run.note = node_limit_note(run, o, what);
  }
  run.table_failed = keep.failed;
  then(std::as_const(run), *engines[0]);
  return run;
}

/// solve_boolean_with (below) on o.search_threads threads
/// (run_branches_parallel).
template <Game S, class Engine>
SolveReport solve_boolean_parallel(const std::vector<Branch<S>>& branches, const S& root,
                                   const SolveOptions& o, RunControl& ctl,
                                   const std::string& method, const std::string& kind) {
  ParallelFigures fig;
  const OpeningRun run = run_branches_parallel<S, Engine>(
      branches, root, typename Engine::Config{}, o, ctl, method, kind, boolean_code_valid,
      boolean_code_stands,
      [](int, Engine& e, const S& c, const std::vector<uint64_t>&) { return boolean_code(e, c); },
      [](const OpeningRun&, Engine&) {}, fig, "openings");
  SolveReport rep;
  rep.method = method;
  rep.symmetries = 1;
  rep.tables = fig.tables;
  boolean_report(rep, root, branches, run);
  report_run(rep, run, fig.nodes, fig.stored, fig.bytes, ctl);
  return rep;
}

/// A boolean search with exact-key entries over the first moves, sharing
/// one table; finished openings go to the checkpoint `kind`. Engine: the
/// compact alpha-beta (solver/compact_dfs.h) or df-pn (solver/dfpn.h), over
/// the 32-bit dense key up to 19 cells or the 64-bit wide key up to 39.
template <Game S, class Engine>
SolveReport solve_boolean_with(const S& root, const SolveOptions& o, RunControl& ctl,
                               const std::string& method, const std::string& kind) {
  const std::vector<Branch<S>> branches = opening_branches(root, o.symmetry);
  check_checkpoint_job(o, kind);
  if (o.search_threads > 1 && branches.size() > 1)
    return solve_boolean_parallel<S, Engine>(branches, root, o, ctl, method, kind);
  typename Engine::Config cfg;
  cfg.table_bytes = o.table_mb << 20;
  cfg.max_nodes = o.max_nodes;
  uint64_t counted = 0;
  Engine* self = nullptr;
  TableKeep keep;
  cfg.tick = [&keep, tick = node_tick(ctl, self, counted)] {
    tick();
    if (keep.save_now) keep.save_now();  // the table is quiet here
  };
  Engine d(root, cfg);
  self = &d;
  keep_table_of(keep, d);
  SolveReport rep;
  rep.method = method;
  rep.symmetries = 1;
  rep.tables = 1;
  OpeningRun run = run_branches<typename Engine::NodeLimit>(
      branches, o, ctl, method, kind, boolean_code_valid, boolean_code_stands,
      [&](const S& c, const std::vector<uint64_t>&) { return boolean_code(d, c); },
      [&] { return d.nodes(); }, counted, "openings", &keep);
  boolean_report(rep, root, branches, run);
  // A table read from the checkpoint holds positions this run did not store.
  report_run(rep, run, d.nodes(), run.table_read == 1 ? d.occupied() : d.stored(), d.table_bytes(),
             ctl);
  return rep;
}

/// --method compact (alpha-beta) or dfpn (proof numbers; games that list
/// their placements, i.e. Gadur) on boards of at most 39 cells.
/// The games --method dfpn solves, as its refusals name them.
inline constexpr const char* kDfpnGames =
    "a game that lists its placements with their captures (Gadur)";

template <Game S>
SolveReport solve_boolean(const S& root, const SolveOptions& o, RunControl& ctl, bool dfpn) {
  const std::string method = dfpn ? "dfpn" : "compact";
  if constexpr (DenseGame<S>) {
    if (root.geo().num_sites() > WideCodec::kMaxCells)
      throw InputError("--method " + method + ": boards of at most 39 cells (side 4)");
    if constexpr (!PlacementGame<S>)
      if (dfpn)
        throw InputError("--method dfpn is not available for this game: it needs " +
                         std::string(kDfpnGames));
    if (root.is_terminal()) return finished_position(root, o, ctl, method);
    const bool small = root.geo().num_sites() <= kDenseMaxCells;
    if constexpr (PlacementGame<S>)
      if (dfpn)
        return small ? solve_boolean_with<S, Dfpn<S, DenseCodec>>(root, o, ctl, method, "dfpn1")
                     : solve_boolean_with<S, Dfpn<S, WideCodec>>(root, o, ctl, method, "dfpn1");
    return small
               ? solve_boolean_with<S, CompactDfs<S, DenseCodec>>(root, o, ctl, method, "compact1")
               : solve_boolean_with<S, CompactDfs<S, WideCodec>>(root, o, ctl, method, "compact1");
  } else {
    (void)root;
    (void)o;
    (void)ctl;
    throw InputError(
        "--method " + method + " is not available for this game: it needs " +
        (dfpn ? kDfpnGames : "two colours of stones on at most 39 cells (Gadur, Enfargar)"));
  }
}

/// A superko branch's result (Black's margin in half points, never 0).
struct BranchMargin {
  std::optional<int> exact;  ///< nullopt: not finished, or only bounded
  int bound_dir = 0;         ///< value-only: Black's margin <= (-1) / >= (+1) bound2
  int32_t bound2 = 0;
};

/// The superko method (solver/superko_dfs.h) over branches (first moves or
/// pie set-ups) sharing one table; finished branches go to the checkpoint
/// `kind`. Returns each branch's Black-minus-White margin and fills the
/// report's method and run figures. With o.value_only (first moves of
/// `root_mover`), a branch after the first finished one is first tested
/// with a null window against the mover's best margin so far; if it cannot
/// beat it, the branch keeps that test's bound instead of an exact margin.
template <SuperkoGame S>
std::vector<BranchMargin> superko_branches(
    const S& proto, const std::vector<Branch<S>>& branches, const SolveOptions& o, Color root_mover,
    RunControl& ctl, const std::string& kind, const std::string& what, SolveReport& rep,
    const std::function<void(SuperkoDfs<S>&, const std::vector<BranchMargin>&)>& then = {}) {
  if (proto.geo().num_sites() > kDenseMaxCells)
    throw InputError("--method superko: boards of at most 19 cells (side 3)");
  check_checkpoint_job(o, kind);
  using D = SuperkoDfs<S>;
  typename D::Config cfg;
  cfg.table_bytes = o.table_mb << 20;
  cfg.max_nodes = o.max_nodes;
  cfg.symmetry = o.symmetry;
  rep.method = "superko";
  // Codes (checkpointed): the margin + 2^31, so that 0 stays "unknown"; a
  // value-only bound adds 1 << 33 (at most) or 2 << 33 (at least).
  constexpr int64_t kBias = int64_t{1} << 31;
  constexpr uint64_t kAtMost = uint64_t{1} << 33, kAtLeast = uint64_t{2} << 33;
  const auto margin_of = [](uint64_t x) {
    return static_cast<int>(static_cast<int64_t>(x & (kAtMost - 1)) - kBias);
  };
  const auto code_of = [](int margin2, uint64_t flag) {
    return flag | static_cast<uint64_t>(kBias + margin2);
  };
  // A finished search's margin lies strictly inside its infinity
  // (SuperkoDfs::kInf); a checkpoint that says more is corrupt, however its
  // checksum reads (prisoners count, so the board's size bounds nothing).
  constexpr int64_t most = D::kInf - 1;
  const auto valid = [](uint64_t x) {
    const uint64_t m = x & (kAtMost - 1), flag = x - m;
    const int64_t margin2 = static_cast<int64_t>(m) - kBias;
    return margin2 >= -most && margin2 <= most && (margin2 != 0 || flag != 0) &&
           (flag == 0 || flag == kAtMost || flag == kAtLeast);
  };
  const auto stands = [&](uint64_t x) { return x < kAtMost || o.value_only; };
  const int sign = root_mover == Color::kBlack ? 1 : -1;  // Black's margin to the root mover's
  // A branch's code given the codes finished so far; `guess` starts
  // MTD(f) (the search's last value).
  const auto branch = [&](D& d, int& guess, const S& c, const std::vector<uint64_t>& done) {
    if (c.is_terminal()) return code_of(c.outcome().margin2, 0);
    // Black's margin at the end is past + t * (a value of c, D's terms).
    const int past = 2 * (c.prisoners(Color::kBlack) - c.prisoners(Color::kWhite));
    const int t = c.to_move() == Color::kBlack ? 1 : -1;
    std::optional<int> best;  // the root mover's best exact margin so far, its side
    for (uint64_t x : done)
      if (x && x < kAtMost && (!best || sign * margin_of(x) > *best)) best = sign * margin_of(x);
    if (o.value_only && best) {
      // The root mover's margin is sign * past + sign * t * v: not above
      // *best iff v >= beta (sign * t < 0) or v < beta (sign * t > 0).
      const int st = sign * t;
      const int beta = st < 0 ? sign * past - *best : *best - sign * past + 1;
      const int g = d.test(c, beta);
      if ((g >= beta) == (st < 0)) {
        // g bounds v from below (g >= beta) or above; Black's margin
        // past + t * g is then an upper or a lower bound.
        const bool at_most = (g >= beta) == (t < 0);
        return code_of(past + t * g, at_most ? kAtMost : kAtLeast);
      }
      guess = g;
    }
    const int v = d.value(c, guess);
    guess = v;
    return code_of(past + t * v, 0);
  };
  const auto margins_of = [&](const OpeningRun& run) {
    std::vector<BranchMargin> margins;
    for (uint64_t x : run.done) {
      BranchMargin b;
      if (x && x < kAtMost)
        b.exact = margin_of(x);
      else if (x) {
        b.bound_dir = x >= kAtLeast ? 1 : -1;
        b.bound2 = margin_of(x);
      }
      margins.push_back(b);
    }
    return margins;
  };
  std::vector<BranchMargin> margins;
  if (o.search_threads > 1 && branches.size() > 1) {
    // Several branches at once (each thread its own MTD(f) guess); under
    // value_only a branch is tested against the best margin finished when
    // it starts.
    ParallelFigures fig;
    std::vector<int> guesses(static_cast<size_t>(o.search_threads), 1);
    run_branches_parallel<S, D>(
        branches, proto, cfg, o, ctl, "superko", kind, valid, stands,
        [&](int t, D& d, const S& c, const std::vector<uint64_t>& done) {
          return branch(d, guesses[static_cast<size_t>(t)], c, done);
        },
        [&](const OpeningRun& run, D& d) {
          report_run(rep, run, fig.nodes, fig.stored, fig.bytes, ctl);
          rep.symmetries = d.symmetries();
          rep.tables = fig.tables;
          margins = margins_of(run);
          if (then) then(d, margins);
        },
        fig, what);
    return margins;
  }
  uint64_t counted = 0;
  D* self = nullptr;
  cfg.tick = node_tick(ctl, self, counted);
  D d(proto, cfg);
  self = &d;
  rep.symmetries = d.symmetries();
  rep.tables = 1;
  int guess = 1;
  OpeningRun run = run_branches<SuperkoNodeLimit>(
      branches, o, ctl, "superko", kind, valid, stands,
      [&](const S& c, const std::vector<uint64_t>& done) { return branch(d, guess, c, done); },
      [&] { return d.nodes(); }, counted, what);
  report_run(rep, run, d.nodes(), d.stats().stored, d.table_bytes(), ctl);
  margins = margins_of(run);
  if (then) then(d, margins);
  return margins;
}

/// The second proof of a solved value (SolveOptions::replay): both bounds
/// of Black's margin `value2` at `root` played out by ProofReplay, with d as
/// the oracle. Its node limit and interruption stop the replay only.
template <HistoryGame S>
void replay_value(SuperkoDfs<S>& d, const S& root, int value2, const SolveOptions& o,
                  RunControl& ctl, SolveReport& rep) {
  auto& r = rep.replay;
  const auto t0 = std::chrono::steady_clock::now();
  ProofReplay<S> p(d, o.replay_mb ? o.replay_mb << 20 : (o.table_mb << 20) / 8, 8);
  std::string claim;
  p.tick = [&] {
    if (ctl.stop_requested()) throw OpeningStop{};
    const auto& st = p.stats();
    ctl.status("replay: " + claim + ": " + with_commas(st.nodes) + " proof nodes, " +
               with_commas(st.stored) + " claims stored, " + with_commas(st.sets) + " R_K sets");
  };
  try {
    claim = "Black's margin >= " + margin_text(value2);
    ctl.status("replay: " + claim);
    r.at_least = p.prove(root, true, value2);
    claim = "Black's margin <= " + margin_text(value2);
    ctl.status("replay: " + claim);
    r.at_most = p.prove(root, false, value2);
    r.done = true;
  } catch (const SuperkoNodeLimit&) {
    r.note = "the replay reached the node limit";
  } catch (const OpeningStop&) {
    r.note = "the replay was interrupted";
  }
  const auto& st = p.stats();
  r.nodes = st.nodes;
  r.leaves = st.leaves;
  r.hits = st.hits;
  r.stored = st.stored;
  r.oracle_nodes = st.oracle_nodes;
  r.sets = st.sets;
  r.dropped = st.pool_full + st.kept_out;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// solve_superko's report from its openings' margins: each opening, the
/// value once every opening is solved or bounded, else what is proven.
template <SuperkoGame S>
void superko_summary(const S& root, const std::vector<Branch<S>>& branches,
                     const std::vector<BranchMargin>& margins, SolveReport& rep) {
  const int sign = root.to_move() == Color::kBlack ? 1 : -1;  // Black's margin to the mover's
  std::optional<int> best;  // the mover's best finished opening, from its side
  size_t bounded = 0;
  bool all_done = true;
  for (size_t i = 0; i < branches.size(); ++i) {
    const BranchMargin& m = margins[i];
    OpeningResult r{branches[i].name, branches[i].count,
                    m.exact ? Value::margin(*m.exact) : Value{}, -1};
    r.bound_dir = m.bound_dir;
    r.bound2 = m.bound2;
    rep.openings.push_back(r);
    if (m.exact && (!best || sign * *m.exact > *best)) best = sign * *m.exact;
    bounded += m.bound_dir != 0;
    all_done = all_done && (m.exact || m.bound_dir != 0);
  }
  if (!best) return;
  const Value v = Value::margin(sign * *best);
  if (all_done) {
    rep.value = v;
    if (bounded)
      rep.note = "value only: " + std::to_string(bounded) + " of " +
                 std::to_string(branches.size()) +
                 " openings were only shown not to beat the best one";
  } else {  // the mover can do at least as well as its best finished opening
    rep.note += std::string("; the finished openings prove Black's score minus White's ") +
                (sign > 0 ? ">= " : "<= ") + v.text();
  }
}

/// Alpha-beta with a board-keyed table that is sound under positional
/// superko (solver/superko_dfs.h) over the first moves, sharing one table;
/// each opening's exact margin (value-only: or bound) goes to the checkpoint
/// when it is finished. A run stopped early says in its note what the
/// finished openings prove.
template <Game S>
SolveReport solve_superko(const S& root, const SolveOptions& o, RunControl& ctl) {
  if constexpr (SuperkoGame<S>) {
    if (root.is_terminal()) return finished_position(root, o, ctl, "superko");
    const std::vector<Branch<S>> branches = opening_branches(root, o.symmetry);
    SolveReport rep;
    superko_branches<S>(root, branches, o, root.to_move(), ctl, "superko1", "openings", rep,
                        [&](SuperkoDfs<S>& d, const std::vector<BranchMargin>& margins) {
                          superko_summary(root, branches, margins, rep);
                          if constexpr (HistoryGame<S>) {
                            if (o.replay && rep.value.known())
                              replay_value(d, root, rep.value.margin2, o, ctl, rep);
                            else if (o.replay)
                              rep.replay.note = "not run: the value is not proved";
                          }
                        });
    return rep;
  } else {
    (void)root;
    (void)o;
    (void)ctl;
    throw InputError("--method superko: for games with positional superko (Fiodar)");
  }
}

/// The pie table by the superko method: every set-up class's margin; the
/// value is that of the set-up nearest to even, as in solve_branches.
template <Game S>
SolveReport solve_setups_superko(const std::vector<Branch<S>>& branches, const SolveOptions& o,
                                 RunControl& ctl) {
  if constexpr (SuperkoGame<S>) {
    SolveReport rep;
    if (o.value_only) throw InputError("--value-only: not with --pie (every set-up is needed)");
    const S& proto = branches.front().state;
    const auto margins =
        superko_branches(proto, branches, o, proto.to_move(), ctl, "superko-pie1", "set-ups", rep);
    for (size_t i = 0; i < branches.size(); ++i)
      rep.openings.push_back({branches[i].name, branches[i].count,
                              margins[i].exact ? Value::margin(*margins[i].exact) : Value{}, -1});
    const auto pick = nearest_even(margins.size(), [&](size_t i) { return margins[i].exact; });
    if (std::all_of(margins.begin(), margins.end(),
                    [](const auto& m) { return m.exact.has_value(); })) {
      rep.value = Value::margin(*margins[*pick].exact);
      rep.pie_setup = branches[*pick].name;
    } else if (pick) {
      // The setter can already choose among the finished set-ups: that
      // one bounds what the chooser gets.
      append_note(rep.note, "the finished set-ups let the setter hold the chooser to at most " +
                                margin_text(std::abs(*margins[*pick].exact)) + " (set-up " +
                                branches[*pick].name + ")");
    }
    return rep;
  } else {
    (void)branches;
    (void)o;
    (void)ctl;
    throw InputError("--method superko: for games with positional superko (Fiodar)");
  }
}

/// Solves every branch with alpha-beta, saving finished branches to the
/// checkpoint: one solver (one table) for all, or with o.search_threads > 1
/// that many solvers on threads, each with a table of its own (--table-mb
/// shared out) taking the next unsolved branch, on one node budget drawn in
/// small grants. `root` is the position the branches are first moves of,
/// or null for a pie table (the setter chooses a set-up, the chooser a
/// colour: the setter picks the set-up whose margin is smallest in
/// absolute value).
template <Game S>
SolveReport solve_branches(const S& proto, const S* root, const std::vector<Branch<S>>& branches,
                           const SolveOptions& o, RunControl& ctl) {
  using Move = typename S::Move;
  using D = DfsSolver<S>;
  SolveReport rep;
  rep.method = "dfs";
  // Finished branches: black-side scores, and nodes spent before.
  std::vector<std::optional<int32_t>> done(branches.size());
  uint64_t nodes_before = 0;
  // Whether a score of 0 meant a stall in work loaded from the checkpoint
  // (the solver only knows what it met in this run).
  bool stall_loaded = false;
  // The principal variation of a finished run, as each move's index in its
  // position's legal_moves() (a finished checkpoint answers again without
  // searching the tree a second time for it).
  std::optional<std::vector<uint64_t>> pv_saved;
  constexpr uint64_t kMaxPvPlies = 1 << 16, kMaxMoveIndex = 1 << 16;
  // "dfs2": the format with the stall flag (older files are refused
  // clearly); a finished run adds its principal variation at the end. Read
  // before any table is made.
  const std::string kind = "dfs2";
  if (!o.checkpoint.empty() && CheckpointReader::exists(o.checkpoint)) {
    CheckpointReader rd(o.checkpoint, kind, o.signature);
    uint64_t n = rd.u64(1 << 20, "opening count");
    if (n != branches.size())
      rd.mismatch("it holds " + std::to_string(n) + " openings, this position has " +
                  std::to_string(branches.size()));
    for (auto& x : done) {
      uint64_t has = rd.u64(1, "flag");
      uint64_t raw = rd.u64(0xffffffffu, "opening score");
      if (has) x = static_cast<int32_t>(static_cast<uint32_t>(raw));
      if (x && !possible_score(*x)) rd.corrupt("an opening score out of range");
    }
    nodes_before = rd.u64();
    stall_loaded = rd.u64(1, "stall flag") != 0;
    if (!rd.at_end()) {
      pv_saved.emplace(rd.u64(kMaxPvPlies, "principal variation length"));
      for (auto& x : *pv_saved) x = rd.u64(kMaxMoveIndex, "principal variation move");
    }
    rd.finish();
    rep.resumed = true;
  }
  // Openings not solved yet (count_if: GCC's -O1 sanitizer build warned
  // maybe-uninitialized on std::count over optionals).
  const auto unsolved = [&] {
    return static_cast<size_t>(
        std::count_if(done.begin(), done.end(), [](const auto& x) { return !x; }));
  };
  const size_t open = unsolved();
  const int threads = static_cast<int>(std::clamp<size_t>(open, 1, o.search_threads));
  std::mutex mu;  // with threads: guards ctl, done, the lists below and the checkpoint
  std::atomic<uint64_t> left{o.max_nodes};
  std::atomic<bool> quit{false};  // a thread met an error or a stop: the others stop
  const uint64_t grant_size =
      std::clamp<uint64_t>(o.max_nodes / (64 * uint64_t(threads)), 1, uint64_t{1} << 16);
  std::vector<std::unique_ptr<D>> solvers(threads);
  std::vector<uint64_t> seen(threads, 0);  // nodes each solver has reported (work units)
  std::vector<int> busy(threads, -1);      // the branch each thread searches
  // A solver met a stall in a finished opening (while threads search:
  // a stall met in a search cut short counts after the join only).
  bool stall_seen = false;
  bool pv_phase = false;  // the openings are done: the line is worked out
  // Nodes of solver t to ctl (with threads: under mu, by thread t or after
  // the join).
  const auto report = [&](int t) {
    ctl.work(solvers[t]->nodes() - seen[t]);
    seen[t] = solvers[t]->nodes();
  };
  const auto spent = [&] {
    uint64_t n = 0;
    for (uint64_t x : seen) n += x;
    return n;
  };
  // The progress line (with threads: under mu).
  const auto show = [&] {
    if (threads == 1) {
      if (busy[0] >= 0)
        ctl.status("solving " + std::to_string(busy[0] + 1) + " of " +
                   std::to_string(branches.size()) + ": " + branches[busy[0]].name);
      return;
    }
    std::string names;
    for (int b : busy)
      if (b >= 0) names += (names.empty() ? "" : " + ") + branches[b].name;
    const size_t finished = branches.size() - unsolved();
    ctl.status("dfs on " + std::to_string(threads) + " threads: " + std::to_string(finished) +
                   " of " + std::to_string(branches.size()) + " done" +
                   (names.empty() ? "" : "; solving " + names),
               with_commas(spent()) + " nodes");
  };
  for (int t = 0; t < threads; ++t) {
    typename D::Config cfg;
    cfg.symmetry = o.symmetry;
    cfg.table_bytes = (o.table_mb << 20) / threads;
    cfg.max_nodes = o.max_nodes;
    if (threads > 1) {
      if (o.max_nodes > 0) cfg.grant = node_grant(left, grant_size);
      cfg.tick = [&, t] {
        std::lock_guard<std::mutex> g(mu);
        report(t);
        if (pv_phase)
          ctl.status_detail(with_commas(spent()) + " nodes");
        else
          show();
        if (quit.load() || ctl.stop_requested()) throw Interrupted("interrupted while searching");
      };
    }
    solvers[t] = std::make_unique<D>(proto, std::move(cfg), ctl);
  }
  D& d = *solvers[0];
  rep.symmetries = d.canonicalizer().count();
  // Under mu with threads.
  auto save = [&] {
    if (o.checkpoint.empty()) return;
    CheckpointWriter w(o.checkpoint, kind, o.signature);
    w.u64(branches.size());
    for (const auto& x : done) {
      w.u64(x.has_value());
      w.u64(x ? static_cast<uint32_t>(*x) : 0);
    }
    w.u64(nodes_before + spent());
    w.u64(stall_loaded || stall_seen);
    if (pv_saved) {
      w.u64(pv_saved->size());
      for (uint64_t x : *pv_saved) w.u64(x);
    }
    w.commit();
    ctl.checkpoint_written();
  };
  bool limit_hit = false;
  bool cut = false;          // a stop cut a search short: its nodes are not saved yet
  std::string stopped;       // why the run stops before the end (Interrupted's message)
  std::exception_ptr error;  // the first thread's error, which stops the others
  const auto all_solved = [&] {
    return std::all_of(done.begin(), done.end(), [](const auto& x) { return x.has_value(); });
  };
  // Thread t takes the next unsolved branch, in order, until none is left,
  // a stop, an error or the node limit.
  const auto work = [&](int t) {
    D& e = *solvers[t];
    std::unique_lock<std::mutex> g(mu, std::defer_lock);
    if (threads > 1) g.lock();
    for (;;) {
      size_t i = 0;
      while (i < branches.size() && (done[i] || std::count(busy.begin(), busy.end(), int(i)))) ++i;
      if (i == branches.size() || quit.load() || limit_hit) return;
      busy[t] = static_cast<int>(i);
      show();
      if (threads > 1) g.unlock();
      // Another error leaves work(): the caller's, or guarded's below.
      std::optional<int32_t> v;
      std::string why;
      try {
        v = e.solve_black(branches[i].state);
      } catch (const NodeLimit&) {
      } catch (const Interrupted& x) {
        why = x.what();
      }
      if (threads > 1) g.lock();
      busy[t] = -1;
      report(t);
      if (!why.empty()) {
        if (stopped.empty()) stopped = why;
        cut = true;
        quit = true;
        return;
      }
      if (!v) {
        limit_hit = true;
        return;
      }
      done[i] = v;
      // This solver's searches all finished: a stall it met is the game's.
      stall_seen = stall_seen || e.neutral_kind() == Value::Kind::kStall;
      const bool all = all_solved();
      save_final(save, rep.save_error, all);
      // Once every opening is solved a stop request changes nothing.
      if (!all && ctl.stop_requested()) {
        if (stopped.empty()) stopped = "interrupted after finishing an opening";
        quit = true;
        return;
      }
    }
  };
  if (threads == 1) {
    work(0);
  } else {
    // An error leaves its thread (its lock let go as it unwinds) and stops
    // the others at their next tick.
    const auto guarded = [&](int t) {
      try {
        work(t);
      } catch (...) {
        std::lock_guard<std::mutex> g(mu);
        if (!error) error = std::current_exception();
        busy[t] = -1;
        quit = true;
      }
    };
    ThreadGroup ws;
    ws.start_each(0, threads, guarded, [&] { quit = true; });
    ws.join();
    rep.tables = threads;
  }
  if (error) std::rethrow_exception(error);
  // From here on one thread: every solver's figures are read directly.
  const auto settle = [&] {
    for (int t = 0; t < threads; ++t) report(t);
  };
  settle();
  for (const auto& e : solvers) stall_seen = stall_seen || e->neutral_kind() == Value::Kind::kStall;
  // A stop that came before the last opening was solved (once every one
  // is, the result stands and is reported).
  if (!stopped.empty() && !all_solved()) {
    if (o.checkpoint.empty()) throw Interrupted(stopped);
    if (cut) try {  // the nodes of the searches cut short
        save();
      } catch (const InputError&) {  // the last good save stands
      }
    throw Interrupted(interrupted_note(root ? "openings" : "set-ups", nullptr));
  }
  pv_phase = true;
  Value::Kind neutral = stall_loaded || stall_seen ? Value::Kind::kStall : Value::Kind::kDraw;
  for (size_t i = 0; i < branches.size(); ++i)
    rep.openings.push_back({branches[i].name, branches[i].count,
                            done[i] ? score_value(*done[i], neutral) : Value{}, -1});
  auto finish = [&](bool complete) {
    settle();
    rep.complete = complete;
    rep.nodes = spent();
    rep.nodes_total = nodes_before + spent();
    rep.positions = rep.bytes = 0;
    for (const auto& e : solvers) {
      rep.positions += e->stored();
      rep.bytes += e->table_bytes();
    }
    rep.seconds = ctl.elapsed();
    return rep;
  };
  if (limit_hit) {
    // Report what is proven: the finished openings and, for a win/loss
    // game, the root value when a finished opening already wins for the
    // mover (no other opening can do better).
    size_t solved = 0;
    for (const auto& op : rep.openings) {
      if (op.value.known()) ++solved;
      if (root && op.value == Value::win(root->to_move())) rep.value = op.value;
    }
    save_final(save, rep.save_error);  // the nodes spent (finished openings are saved already)
    rep.note = "stopped at the node limit (" + with_commas(o.max_nodes) + " nodes in this run" +
               (threads > 1 ? ", on all threads" : "") + "): " + std::to_string(solved) + " of " +
               std::to_string(branches.size()) + (root ? " openings" : " set-ups") + " solved" +
               (rep.value.known() ? ", and one of them proves the value" : "") +
               (o.checkpoint.empty() ? "" : "; the checkpoint keeps them for a rerun");
    return finish(false);
  }
  std::optional<S> pv_from;
  int32_t pv_black = 0;  // the value the principal variation must end in
  if (root) {
    int32_t best = -kInfScore;  // from the mover's side
    if (branches.empty()) {
      try {
        best = d.solve(*root);
      } catch (const NodeLimit&) {
        rep.note = "stopped at the node limit (" + with_commas(o.max_nodes) +
                   " nodes in this run): the position is not solved";
        return finish(false);
      }
      // A finished position that stalls: the solve just met it (neutral
      // was read before; it called the stall a draw that goes on for ever).
      settle();
      if (d.neutral_kind() == Value::Kind::kStall) {
        stall_seen = true;  // (saved with the line below)
        neutral = Value::Kind::kStall;
      }
    }
    for (size_t i = 0; i < branches.size(); ++i) {
      int32_t mine = root->to_move() == Color::kBlack ? *done[i] : -*done[i];
      best = std::max(best, mine);
    }
    int32_t black = root->to_move() == Color::kBlack ? best : -best;
    rep.value = score_value(black, neutral);
    pv_from = *root;
    pv_black = black;
  } else if (!branches.empty()) {
    // Pie: the set-up nearest to even.
    const size_t pick = *nearest_even(branches.size(), [&](size_t i) { return done[i]; });
    rep.value = score_value(*done[pick], neutral);
    rep.pie_setup = branches[pick].name;
    pv_from = branches[pick].state;
    pv_black = *done[pick];
  }
  if (o.pv && pv_from) {
    S s = *pv_from;
    typename S::Undo u;
    std::vector<Move> ms;
    if (pv_saved) {
      for (uint64_t x : *pv_saved) {
        s.legal_moves(ms);
        if (x >= ms.size())
          throw InputError("checkpoint " + clip_token(o.checkpoint, 200) +
                           ": its principal variation plays a move this position does not have");
        rep.pv.push_back(s.move_name(ms[x]));
        s.apply(ms[x], u);
      }
      // The line saved goes to an end, which must be the value it stands
      // for, or to its ply cap (a stall's line).
      s.legal_moves(ms);
      if (ms.empty() ? black_score(s.outcome()) != pv_black
                     : pv_saved->size() != static_cast<size_t>(DfsSolver<S>::kPvMaxPlies))
        throw InputError("checkpoint " + clip_token(o.checkpoint, 200) +
                         " is corrupt: its principal variation " +
                         (ms.empty() ? "ends in another result than its value"
                                     : "stops before the end of the game"));
    } else {
      // Every opening is proved: a node limit met while the line is worked
      // out leaves the result complete, without the line (a rerun with the
      // checkpoint and a larger limit adds it).
      std::vector<Move> line;
      ctl.status("dfs: working out the principal variation");
      std::string why;  // the line is not worked out: why
      try {
        line = d.principal_variation(*pv_from);
      } catch (const NodeLimit&) {
        why = "within --max-nodes (" + with_commas(o.max_nodes) + " nodes in this run)";
      } catch (const Interrupted&) {
        why = "before the stop request";
      }
      if (!why.empty()) {
        rep.note = "the principal variation was not worked out " + why + "; the value and every " +
                   (root ? "opening" : "set-up") + " are proved";
        settle();
        save_final(save, rep.save_error);  // the nodes spent
        return finish(true);
      }
      pv_saved.emplace();
      for (const Move& m : line) {
        s.legal_moves(ms);
        pv_saved->push_back(std::find(ms.begin(), ms.end(), m) - ms.begin());
        rep.pv.push_back(s.move_name(m));
        s.apply(m, u);
      }
      settle();
      save_final(save, rep.save_error);
    }
  }
  return finish(true);
}

template <Game S>
SolveReport solve_dfs(const S& root, const SolveOptions& o, RunControl& ctl) {
  return solve_branches(root, &root, opening_branches(root, o.symmetry), o, ctl);
}

}  // namespace detail

/// The method solve_position runs for `o` at `root`: auto resolved (the
/// dense method under mpirun; else alpha-beta for a game that scores
/// margins, retrograde analysis for the others), any other method as given.
/// A checkpoint's job signature names this method, so that a file written
/// by an auto run resumes under the method named, and only under it. (An
/// auto run without a checkpoint may go on by the dense method once the
/// job proves large: auto_goes_dense.)
template <Game S>
SolveOptions::Method resolved_method(const S& root, const SolveOptions& o) {
  if (o.method != SolveOptions::Method::kAuto) return o.method;
  if (o.exchange != nullptr) return SolveOptions::Method::kDense;  // solve_partitioned
  return detail::scores_margins(root) ? SolveOptions::Method::kDfs
                                      : SolveOptions::Method::kRetrograde;
}

namespace detail {
/// o without its position limit: the dense method's job (auto_goes_dense).
inline SolveOptions without_position_limit(SolveOptions o) {
  o.max_positions = 0;
  return o;
}

/// May an auto run that resolved to the hash retrograde go on by the dense
/// method once it holds more than o.auto_dense_above positions? Where the
/// dense index fits (Gadur and Enfargar up to side 3) and the run asks for
/// nothing only the hash retrograde gives: a checkpoint, or (unless
/// o.dense_past_limit) a position limit, a deadline or an outer stop (a run
/// stopped early with a partial report).
template <Game S>
bool auto_goes_dense(const S& root, const SolveOptions& o) {
  if constexpr (DenseGame<S>) {
    const bool bounded = o.max_positions != 0 || o.deadline_seconds > 0 || o.outer_stop;
    return o.method == SolveOptions::Method::kAuto && o.auto_dense_above > 0 &&
           o.checkpoint.empty() && (!bounded || o.dense_past_limit) && !root.is_terminal() &&
           dense_unsupported(root, without_position_limit(o)).empty();
  } else {
    (void)root;
    (void)o;
    return false;
  }
}
}  // namespace detail

/// Solves the position: its value, the value after every first move up to
/// symmetry, a principal variation. Throws InputError for impossible
/// requests, Interrupted after saving progress on a stop request.
template <Game S>
SolveReport solve_position(const S& root, const SolveOptions& o) {
  RunControl ctl(detail::control_config(o));
  if (!o.table_file.save.empty() && root.is_terminal())  // (every rank alike)
    throw InputError("--save-table: the position is already over (no table to save)");
  SolveOptions::Method m = o.method;
  const bool ranks = o.exchange != nullptr;  // under mpirun, even with one rank
  if (ranks && o.exchange->size() > 1 && m != SolveOptions::Method::kAuto &&
      m != SolveOptions::Method::kDense)
    throw InputError(
        "under mpirun with more than one rank, loom solve runs --method dense (Gadur and "
        "Enfargar up to side 3); run other methods as one process");
  if (ranks || (m == SolveOptions::Method::kDense && !o.checkpoint.empty())) {
    SolveReport rep = detail::solve_partitioned(root, o, ctl);
    rep.to_move = root.to_move();
    ctl.clear_status();
    return rep;
  }
  if (m == SolveOptions::Method::kAuto)
    m = resolved_method(root, o);
  else if (m == SolveOptions::Method::kRetrograde && detail::scores_margins(root))
    throw InputError(
        "retrograde analysis solves win/loss/draw games; this game scores margins (use "
        "--method dfs, the default for it)");
  SolveReport rep;
  if (m == SolveOptions::Method::kRetrograde && detail::auto_goes_dense(root, o)) {
    // A small job by the hash retrograde (no 317 MB index on side 3); a
    // large one, which that stops at the limit, by the dense method.
    SolveOptions probe = o;
    probe.max_positions =
        o.max_positions == 0 ? o.auto_dense_above : std::min(o.max_positions, o.auto_dense_above);
    rep = detail::solve_retrograde(root, probe, ctl);
    if (!rep.complete) {
      rep = detail::solve_dense(root, detail::without_position_limit(o), ctl);
      rep.note = "auto: the dense method, the job being larger than " +
                 with_commas(probe.max_positions) + " positions";
    }
  } else {
    rep = m == SolveOptions::Method::kDfs       ? detail::solve_dfs(root, o, ctl)
          : m == SolveOptions::Method::kDense   ? detail::solve_dense(root, o, ctl)
          : m == SolveOptions::Method::kCompact ? detail::solve_boolean(root, o, ctl, false)
          : m == SolveOptions::Method::kDfpn    ? detail::solve_boolean(root, o, ctl, true)
          : m == SolveOptions::Method::kSuperko ? detail::solve_superko(root, o, ctl)
                                                : detail::solve_retrograde(root, o, ctl);
  }
  rep.to_move = root.to_move();
  ctl.clear_status();
  return rep;
}

/// solve_position for boards wider than one word (above side 4), where
/// only alpha-beta is compiled: an endgame or a late position of the
/// recommended boards, bounded by --max-nodes (the whole game is far out
/// of reach). `o.method` must be auto or dfs.
/// Refuses a method other than auto or dfs on those boards (the command
/// line checks it before the options each method reads).
inline void require_dfs_method(SolveOptions::Method m) {
  if (m != SolveOptions::Method::kAuto && m != SolveOptions::Method::kDfs)
    throw InputError(
        "on boards above side 4 loom solve runs --method dfs only (alpha-beta, for late "
        "positions: bound it with --max-nodes)");
}

template <Game S>
SolveReport solve_position_dfs(const S& root, const SolveOptions& o) {
  require_dfs_method(o.method);
  if (o.exchange != nullptr)
    throw InputError("under mpirun loom solve runs --method dense (side 3 and below)");
  RunControl ctl(detail::control_config(o));
  SolveReport rep;
  try {
    rep = detail::solve_dfs(root, o, ctl);
  } catch (const CycleError&) {
    // Its own advice (retrograde analysis) is not compiled for these boards.
    throw InputError(
        "the position graph has a cycle (a position repeats along a line of play): this rule set "
        "can loop, and above side 4 loom solve has only alpha-beta, which cannot value a loop "
        "(retrograde analysis runs on side 4 and below)");
  }
  rep.to_move = root.to_move();
  ctl.clear_status();
  return rep;
}

/// The pie table: every set-up position (name, state) solved by alpha-beta,
/// up to symmetry (set-ups whose positions are images of each other form one
/// class, named by its smallest name in byte order). The value is the margin
/// of the set-up the setter should choose (smallest absolute margin).
template <Game S>
SolveReport solve_setups(std::vector<std::pair<std::string, S>> setups, const SolveOptions& o) {
  if (setups.empty()) throw InputError("no set-up position to solve");
  RunControl ctl(detail::control_config(o));
  std::sort(setups.begin(), setups.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  Canonicalizer<S> canon(o.symmetry);
  std::vector<Branch<S>> branches;
  std::vector<S> reps;  // canonical form of each branch
  for (auto& [name, s] : setups) {
    S c = canon.canonical(s);
    auto it = std::find(reps.begin(), reps.end(), c);
    if (it != reps.end()) {
      ++branches[static_cast<size_t>(it - reps.begin())].count;
      continue;
    }
    reps.push_back(std::move(c));
    branches.push_back({name, 1, s});
  }
  SolveReport rep =
      o.method == SolveOptions::Method::kSuperko
          ? detail::solve_setups_superko<S>(branches, o, ctl)
          : detail::solve_branches<S>(setups.front().second, nullptr, branches, o, ctl);
  rep.to_move = setups.front().second.to_move();
  ctl.clear_status();
  return rep;
}

/// Checks "termination" or "drawless" exhaustively from `root`.
template <Game S>
PropertyResult check_property(const S& root, const std::string& property,
                              const PropertyOptions& o) {
  RunControl::Config c;
  c.tty = o.tty;
  c.deadline_seconds = o.deadline_seconds;
  c.outer_stop = o.outer_stop;
  RunControl ctl(c);
  if (property != "termination" && property != "drawless")
    throw InputError("unknown property '" + property + "' (known: termination, drawless)");
  using M = PropertyOptions::Method;
  const auto dense = [&]() -> PropertyResult {
    if constexpr (DenseGame<S>) {
      return property == "termination" ? dense_termination(root, o.symmetry, ctl)
                                       : dense_drawless(root, o.symmetry, ctl, o.threads);
    } else {
      throw InputError("--method dense: the dense index takes Gadur and Enfargar only");
    }
  };
  PropertyResult r;
  if (o.method == M::kDense) {
    r = dense();
  } else {
    r = property == "termination"
            ? check_termination(root, o.symmetry, o.max_positions, ctl)
            : check_drawless(root, o.symmetry, o.max_positions, ctl, o.threads);
    if constexpr (DenseGame<S>) {
      if (o.method == M::kAuto && r.at_limit && DenseMoves<S>::unsupported(root).empty()) {
        const std::string why = r.note;
        r = dense();
        r.note = (r.note.empty() ? "" : r.note + "; ") + "the hash check " + why +
                 ", and the dense method went on from the start";
      }
    }
  }
  ctl.clear_status();
  return r;
}

}  // namespace loom::solver
