// loom puzzle make | check: wiring only; the generator and the checker live
// in puzzles/ (puzzles/puzzles.h). visit_state hands them the typed state.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <type_traits>

#include "app/cli.h"
#include "app/command.h"
#include "app/int_option.h"
#include "app/typed_game.h"
#include "model/common/bitboard.h"
#include "model/common/errors.h"
#include "model/common/files.h"
#include "model/nardy/nardy.h"
#include "puzzles/nardy_puzzles.h"
#include "puzzles/progress.h"
#include "puzzles/puzzles.h"
#include "puzzles/same_position.h"
#include "solver/checkpoint.h"

namespace loom {

namespace {

struct MakeArgs {
  std::string game;
  int size = 0;
  std::vector<std::string> rules;
  int count = 0;
  uint64_t seed = 0;
  std::string out;
  uint64_t max_positions = 200'000;
  int max_games = 0;
  int max_checkers = 6;                      ///< nardy
  double min_gap = puzzles::kDefaultMinGap;  ///< nardy
  bool race_wrong = false;                   ///< nardy: --race-wrong
  std::string db;                            ///< nardy: bear-off database directory
  double checkpoint_interval = 10;           ///< seconds between progress saves
  uint64_t stop_after = 0;                   ///< testing: stop after N games
};

/// The progress file of DIR (puzzles/progress.h): the directory is created
/// and the file's place tried before any work, so that an unwritable --out
/// is found out now, not after the generation; `lock` takes the progress
/// file's lock (two runs never share one --out), held until the command ends.
std::string prepare_progress(const std::string& dir, std::optional<solver::CheckpointLock>& lock) {
  if (dir.empty()) throw InputError("--out needs a directory name");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw InputError("cannot create directory '" + clip_token(dir, 200) + "': " + ec.message());
  std::string path = puzzles::progress_path(dir);
  solver::check_checkpoint_writable(path, "--out");
  // The collection's fixed files too (a directory in the place of one was
  // found only when the finished collection was written).
  for (const char* name : {"puzzles.jsonl", "index.html", "puzzles.job"})
    check_whole_writable((std::filesystem::path(dir) / name).string(), "--out");
  lock.emplace(path, "--out");
  return path;
}

struct CheckArgs {
  std::vector<std::string> paths;
  uint64_t max_positions = 5'000'000;
  bool no_spec = false;
};

const char* kBoards =
    "puzzles are made on boards of side 4 and below and on the recommended board (gadur 4, "
    "fiodar 7, enfargar 9, migong 7)";

/// The rules of `rs` that differ from the game's defaults, "key=value"
/// joined by spaces ("" for the defaults).
std::string variant_of(const RuleSet& rs) {
  std::string v;
  for (const auto& spec : rs.specs())
    if (rs.get(spec.key) != spec.values.front())
      v += (v.empty() ? "" : " ") + spec.key + "=" + rs.get(spec.key);
  return v;
}

/// A collection's title: the board, the rules that are not the defaults, the seed.
std::string title_of(std::string board, const std::string& variant, uint64_t seed) {
  if (!variant.empty()) board += ", rules " + variant;
  return board + " (seed " + std::to_string(seed) + ")";
}

/// The files a finished make wrote.
void report_written(const std::string& dir, const puzzles::MakeReport& rep, std::ostream& out) {
  const size_t n = rep.puzzles.size();
  out << "wrote " << dir << "/puzzles.jsonl, " << n << (n == 1 ? " SVG" : " SVGs") << " and " << dir
      << "/index.html\n";
}

/// A run that found no puzzle writes nothing: an empty collection is one
/// `puzzle check` refuses (it cannot be told from a truncated file).
void refuse_empty(const puzzles::MakeReport& rep, const std::string& progress_file) {
  if (!rep.puzzles.empty()) return;
  puzzles::remove_progress(progress_file);
  throw CommandFailed("no puzzle found, nothing written: " + rep.summary() +
                      "; a larger --max-games or another --seed may find some");
}

void make(const MakeArgs& a, CLI::App* cmd, std::ostream& out, std::ostream& err) {
  const GameInfo& info = find_game(a.game);
  const bool tty = &err == &std::cerr && ::isatty(STDERR_FILENO);
  std::optional<solver::CheckpointLock> lock;  // taken by prepare_progress
  if (a.game == "nardy") {
    if (cmd->count("--size")) throw InputError("--size is not used by nardy (a fixed board)");
    if (cmd->count("--max-positions"))
      throw InputError(
          "--max-positions is not used by nardy (its values come from the bear-off database)");
    RuleSet rs(info.rule_specs());
    rs.set_all(a.rules);
    puzzles::NardyMakeOptions o;
    o.rules = rs.in_force();
    o.opt = nardy::Options::from(rs);
    o.variant = variant_of(rs);
    o.max_checkers = a.max_checkers;
    o.min_gap = a.min_gap;
    o.race_wrong_only = a.race_wrong;
    o.count = a.count;
    o.seed = a.seed;
    o.db_dir = a.db;
    o.max_games = a.max_games;
    o.tty = tty ? &err : nullptr;
    o.notes = &err;
    o.checkpoint_interval = a.checkpoint_interval;
    o.stop_after = a.stop_after;
    o.version = loom_version();
    puzzles::check_nardy_make(o);
    o.progress_file = prepare_progress(a.out, lock);
    auto rep = puzzles::make_nardy_puzzles(o);
    refuse_empty(rep, o.progress_file);
    const std::string title = title_of("Long Nardy bear-off puzzles, at most " +
                                           std::to_string(a.max_checkers) + " checkers a side",
                                       o.variant, a.seed);
    puzzles::write_collection(a.out, title, rep);
    puzzles::remove_progress(o.progress_file);
    out << "nardy max-checkers " << a.max_checkers << ": " << rep.summary() << "\n";
    report_written(a.out, rep, out);
    return;
  }
  for (const char* o : {"--max-checkers", "--min-gap", "--db", "--race-wrong"})
    if (cmd->count(o)) throw InputError(std::string(o) + " is only used by nardy");
  std::optional<int> size = cmd->count("--size") ? std::optional<int>(a.size) : std::nullopt;
  auto g = make_game(a.game, size, a.rules);
  RuleSet rs(info.rule_specs());
  rs.set_all(a.rules);
  puzzles::MakeOptions o;
  o.game = a.game;
  o.size = size.value_or(info.default_size);
  o.rules = rs.in_force();
  o.variant = variant_of(rs);
  o.count = a.count;
  o.seed = a.seed;
  o.max_positions = a.max_positions;
  o.max_games = a.max_games;
  o.tty = tty ? &err : nullptr;
  o.notes = &err;
  o.checkpoint_interval = a.checkpoint_interval;
  o.stop_after = a.stop_after;
  o.version = loom_version();
  puzzles::MakeReport rep;
  visit_state(*g, [&](const auto& s) {
    using S = std::remove_cvref_t<decltype(s)>;
    if constexpr (puzzles::kPuzzleState<S>) {
      o.progress_file = prepare_progress(a.out, lock);
      rep = puzzles::make_puzzles(s, o);
    } else
      throw InputError(std::string(kBoards) + "; side " + std::to_string(o.size) + " is neither");
  });
  refuse_empty(rep, o.progress_file);
  const std::string title =
      title_of(a.game + " side " + std::to_string(o.size) + " puzzles", o.variant, a.seed);
  puzzles::write_collection(a.out, title, rep);
  puzzles::remove_progress(o.progress_file);
  out << a.game << " side " << o.size << ": " << rep.summary() << "\n";
  report_written(a.out, rep, out);
}

/// The move tokens a puzzle holds after its record: the listed moves, the
/// answer and the line, each with the name an error gives it ("listed move
/// 2"; `noun` is "move" or, for Long Nardy, "turn").
std::vector<std::pair<std::string, std::string>> claimed_tokens(const nlohmann::json& p,
                                                                const std::string& noun) {
  std::vector<std::pair<std::string, std::string>> out;
  int k = 0;
  for (const auto& e : p["moves"])
    out.emplace_back("listed " + noun + " " + std::to_string(++k), e["move"].get<std::string>());
  out.emplace_back("the answer", p["answer"].get<std::string>());
  k = 0;
  for (const auto& t : p["line"])
    out.emplace_back("line " + noun + " " + std::to_string(++k), t.get<std::string>());
  return out;
}

/// Every turn a Long Nardy puzzle holds (listed turns, answer, line) is a
/// turn text (a malformed one is malformed input, exit 2; one that is not a
/// result of the roll is the checker's to find, exit 1).
void check_turn_tokens(const nlohmann::json& p, const std::string& id) {
  for (const auto& [what, tok] : claimed_tokens(p, "turn"))
    if (!nardy::Turn::parse(tok))
      throw InputError("puzzle " + id + ": " + what + " '" + clip_token(tok) +
                       "' is not a Long Nardy turn (steps such as 24/18 or 5/off)");
}

/// Whether two board games stand at the same position up to symmetry
/// (puzzles/same_position.h); games of different types never do.
bool same_state(const AnyGame& a, const AnyGame& b) {
  bool same = false;
  visit_state(a, [&](const auto& sa) {
    using S = std::remove_cvref_t<decltype(sa)>;
    if constexpr (kWidthOf<S> != 0)
      visit_state(b, [&](const auto& sb) {
        if constexpr (std::is_same_v<S, std::remove_cvref_t<decltype(sb)>>)
          same = puzzles::same_position(sa, sb);
      });
  });
  return same;
}

/// A board puzzle's start position (before its record), with its size,
/// rules and set-up checked, and every move token it holds (record, listed
/// moves, answer, line) one of the game's move tokens (an illegal move is
/// the checker's to find: a claim, exit 1; a token that is no move at all is
/// malformed input, exit 2).
std::unique_ptr<AnyGame> board_of(const nlohmann::json& p, const std::string& id) {
  std::vector<std::string> rules;
  for (const auto& [k, v] : p["rules"].items()) rules.push_back(k + "=" + v.get<std::string>());
  // A Fiodar set-up is placed on the empty board before the record, as
  // `--setup` places it (the same code: two distinct points, Black's
  // then White's); a bad one is malformed input.
  StartOptions start;
  start.setup_name = "setup";
  if (p.contains("setup")) start.setup = p["setup"].get<std::string>();
  std::unique_ptr<AnyGame> g;
  try {
    g = make_game(p["game"].get<std::string>(), p["size"].get<int>(), rules, start);
  } catch (const InputError& e) {
    throw InputError("puzzle " + id + ": " + e.what());
  }
  // Every move token the puzzle holds: the record's, then the claims'.
  std::vector<std::pair<std::string, std::string>> tokens;
  const std::string record = p["record"].get<std::string>();
  for (const auto& t : detail::split_ws(record))
    tokens.emplace_back("record move " + std::to_string(tokens.size() + 1), std::string(t));
  for (auto& named : claimed_tokens(p, "move")) tokens.push_back(std::move(named));
  visit_state(*g, [&](const auto& s) {
    if constexpr (puzzles::kPuzzleState<std::remove_cvref_t<decltype(s)>>) {
      for (const auto& [what, tok] : tokens)
        if (!s.parse_move(tok))
          throw InputError("puzzle " + id + ": " + what + " '" + clip_token(tok) +
                           "' is not a move token of " + g->game_name());
    } else {
      throw InputError("puzzle " + id + ": " + kBoards);
    }
  });
  return g;
}

void check(const CheckArgs& a, std::ostream& out, std::ostream& err) {
  // Read and shape-check everything first: malformed input is exit 2
  // whatever else the files hold.
  std::vector<nlohmann::json> all;
  // Each board puzzle's start position (null for Long Nardy), built here so
  // that a bad size, rule, set-up or record token is found in this pass.
  std::vector<std::unique_ptr<AnyGame>> games;
  std::map<size_t, std::string> repeats;  // puzzle index -> the id of its first occurrence
  // Board puzzles by game, size, rules and the hash of their position's
  // symmetry class (each collection's own: files checked together may
  // share positions, as they may share ids).
  std::map<std::string, std::vector<std::pair<size_t, std::unique_ptr<AnyGame>>>> by_class;
  for (const auto& path : a.paths) {
    auto ps = puzzles::read_puzzles(path);
    // "0 of 0 puzzles confirmed" would pass a truncated or wrong file.
    if (ps.empty())
      throw InputError("puzzle file '" + clip_token(path, 200) +
                       "': no puzzles (empty, or only blank lines)");
    // Ids are unique in a collection (they name the SVGs): a repeated one
    // is malformed. Files checked together may reuse each other's ids.
    std::set<std::string> ids;
    // A collection's puzzles are distinct positions: the same one again
    // under a new id is a false claim of the collection (exit 1).
    std::map<std::string, std::string> nardy_ids;
    by_class.clear();
    for (auto& p : ps) {
      puzzles::validate_file_puzzle(p);
      const std::string id = p["id"].get<std::string>();
      // Every rule in force is named (CONVENTIONS.md): a missing one was
      // read as its default, which need not be what the author meant.
      const GameInfo* info = nullptr;
      try {
        info = &find_game(p["game"].get<std::string>());
      } catch (const InputError& e) {
        throw InputError("puzzle " + id + ": " + e.what());
      }
      for (const RuleSpec& spec : info->rule_specs())
        if (!p["rules"].contains(spec.key))
          throw InputError("puzzle " + id + ": 'rules' lacks '" + spec.key +
                           "' (a puzzle names every rule in force)");
      if (!ids.insert(id).second)
        throw InputError("puzzle file '" + clip_token(path, 200) + "': the id '" + id +
                         "' is used by more than one puzzle");
      if (p["game"] == "nardy") check_turn_tokens(p, id);
      games.push_back(p["game"] == "nardy" ? nullptr : board_of(p, id));
      // The same question about the same position: Long Nardy's position
      // and dice in either order; a board game's position up to symmetry,
      // whatever record reached it (a transposition, a mirrored record).
      const std::string where =
          p["game"].dump() + p["size"].dump() + p["rules"].dump() + p["question"].dump();
      if (p["game"] == "nardy") {
        std::string dice = p["dice"].get<std::string>();
        std::sort(dice.begin(), dice.end());
        if (auto [it, fresh] = nardy_ids.emplace(where + p["position"].dump() + "|" + dice, id);
            !fresh)
          repeats.emplace(all.size(), it->second);
      } else {
        // The position the question is asked in; a record that is not
        // legal play is the checker's to refuse below (a false claim).
        std::unique_ptr<AnyGame> at = board_of(p, id);
        try {
          at->play_record(p["record"].get<std::string>());
        } catch (const std::exception&) {
          at.reset();
        }
        if (at) {
          uint64_t h = 0;
          visit_state(*at, [&h](const auto& s) {
            using S = std::remove_cvref_t<decltype(s)>;
            if constexpr (kWidthOf<S> != 0) h = puzzles::position_class_hash(s);
          });
          auto& earlier = by_class[where + "#" + std::to_string(h)];
          for (const auto& [j, other] : earlier)
            if (same_state(*other, *at)) {
              repeats.emplace(all.size(), all[j]["id"].get<std::string>());
              break;
            }
          earlier.emplace_back(all.size(), std::move(at));
        }
      }
      all.push_back(std::move(p));
    }
  }
  puzzles::CheckOptions co;
  co.max_positions = a.max_positions;
  co.spec = !a.no_spec;
  int failed = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    const nlohmann::json& p = all[i];
    const std::string id = p["id"].get<std::string>();
    const std::string game = p["game"].get<std::string>();
    if (auto it = repeats.find(i); it != repeats.end()) {
      ++failed;
      err << "puzzle " << id << ": not confirmed: the same "
          << (game == "nardy" ? "position and dice" : "position (up to symmetry)")
          << " and question as puzzle " << it->second << "\n";
      continue;
    }
    puzzles::CheckResult r;
    if (game == "nardy") {
      puzzles::NardyCheckOptions no;
      no.spec = co.spec;
      no.max_pairs = co.max_positions;
      try {
        r = puzzles::check_nardy_puzzle(p, no);
      } catch (const InputError& e) {
        throw InputError("puzzle " + id + ": " + e.what());
      }
      if (!r.confirmed) {
        ++failed;
        err << "puzzle " << id << ": not confirmed: " << r.reason << "\n";
      }
      continue;
    }
    const AnyGame& g = *games[i];
    visit_state(g, [&](const auto& s) {
      if constexpr (puzzles::kPuzzleState<std::remove_cvref_t<decltype(s)>>)
        r = puzzles::check_puzzle(s, p, co);
    });
    if (!r.confirmed) {
      ++failed;
      err << "puzzle " << id << ": not confirmed: " << r.reason << "\n";
    }
  }
  out << (all.size() - static_cast<size_t>(failed)) << " of " << all.size()
      << " puzzles confirmed\n";
  if (failed > 0)
    throw CommandFailed(std::to_string(failed) + " of " + std::to_string(all.size()) +
                        " puzzles not confirmed");
}

}  // namespace

std::vector<CommandSpec> puzzle_commands() {
  return {
      {"puzzle", "make puzzles with proved unique answers, or re-prove them", [](CLI::App* cmd) {
         cmd->require_subcommand(1);
         auto* mk = cmd->add_subcommand("make", "generate a puzzle collection in DIR");
         auto m = std::make_shared<MakeArgs>();
         mk->add_option("game", m->game, "fiodar, enfargar, gadur, migong or nardy")->required();
         add_int_option(mk, "--size", m->size, "board side (default: the recommended side)",
                        kMinSide, kMaxSide);
         mk->add_option("--rule", m->rules, "rule variant NAME=VALUE (repeatable)")
             ->take_all()
             ->allow_extra_args(false);
         add_int_option(mk, "--count", m->count, "puzzles wanted", 1, 100000)->required();
         add_int_option(mk, "--seed", m->seed, "random seed (same seed, same puzzles)", uint64_t{0},
                        std::numeric_limits<uint64_t>::max())
             ->required();
         mk->add_option("--out", m->out, "output directory")->required();
         add_int_option(mk, "--max-positions", m->max_positions,
                        "exact search budget per candidate (default 200000)", uint64_t{1},
                        uint64_t{1} << 32);
         add_int_option(mk, "--max-checkers", m->max_checkers,
                        "nardy: no side has more checkers on the board (default 6)", 1, 15);
         add_decimal_option(mk, "--min-gap", m->min_gap,
                            "nardy: the best turn's winning chance ahead of the second best "
                            "(default 0.02)",
                            1e-6, 0.999, "a chance 0.000001..0.999, e.g. 0.02");
         mk->add_flag("--race-wrong", m->race_wrong,
                      "nardy: keep only puzzles whose answer is not the race move (fewest "
                      "expected turns)");
         mk->add_option("--db", m->db, "nardy: bear-off database directory (default cache)")
             ->check(non_empty_name("a directory name"));
         add_int_option(mk, "--max-games", m->max_games,
                        "give up after this many candidate games (default 40 per puzzle; "
                        "nardy 200)",
                        1, 10'000'000);
         add_seconds_option(mk, "--checkpoint-interval", m->checkpoint_interval,
                            "seconds between saves of DIR/puzzles.progress, which a rerun "
                            "resumes from (default 10)",
                            0.001, 1e9);
         add_int_option(mk, "--stop-after", m->stop_after,
                        "testing: stop as if interrupted after N games (progress saved)",
                        uint64_t{0}, std::numeric_limits<uint64_t>::max())
             ->group("");
         auto* ck = cmd->add_subcommand(
             "check", "re-prove puzzles independently (files, or DIR/puzzles.jsonl)");
         auto c = std::make_shared<CheckArgs>();
         ck->add_option("path", c->paths, "puzzle files or collection directories")->required();
         add_int_option(ck, "--max-positions", c->max_positions,
                        "budget of the independent search per puzzle (default 5000000)",
                        uint64_t{1}, uint64_t{1} << 34);
         ck->add_flag("--no-spec", c->no_spec,
                      "skip the Z3 confirmation of the legal moves (faster)");
         return Action([=](std::ostream& out, std::ostream& err) {
           if (*mk)
             make(*m, mk, out, err);
           else
             check(*c, out, err);
         });
       }}};
}

}  // namespace loom
