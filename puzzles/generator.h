// make_puzzles (puzzles.h): candidates from played games, the generator's
// exact evaluation (search.h), the rejections, the solution line, tags and
// difficulty, then the checker's independent re-proof of every accepted
// puzzle (checker.h, without the Z3 step, which `loom puzzle check` adds).
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "model/common/errors.h"
#include "puzzles/checker.h"
#include "puzzles/html.h"
#include "puzzles/progress.h"
#include "puzzles/puzzles.h"
#include "puzzles/render.h"
#include "puzzles/rng.h"
#include "puzzles/search.h"
#include "puzzles/traits.h"
#include "solver/control.h"
#include "solver/core.h"

namespace loom::puzzles {

namespace detail {

enum class Policy { kRandom, kGreedy };
inline const char* policy_name(Policy p) {
  return p == Policy::kRandom ? "random" : "greedy";
}

/// One candidate game from `start`: its moves to the end, at most
/// `max_plies` (Gadur as written can loop for ever).
template <Game S>
std::vector<typename S::Move> play_game(const S& start, Policy policy, Rng& rng, int max_plies) {
  using T = PuzzleTraits<S>;
  using Move = typename S::Move;
  std::vector<Move> record, ms, pick;
  S s = start;
  typename S::Undo u;
  for (int ply = 0; ply < max_plies; ++ply) {
    s.legal_moves(ms);
    if (ms.empty()) break;
    pick.clear();
    for (const auto& m : ms)
      if (T::playout_allows(s, m, ms.size())) pick.push_back(m);
    if (pick.empty()) pick = ms;
    if (policy == Policy::kGreedy && rng.below(10) < 8) {
      // Prefer the moves of the highest weight (captures, flips, merges).
      int best = 0;
      for (const auto& m : pick) best = std::max(best, T::greedy_weight(s, m));
      if (best > 0) {
        std::vector<Move> top;
        for (const auto& m : pick)
          if (T::greedy_weight(s, m) == best) top.push_back(m);
        pick.swap(top);
      }
    }
    Move m = pick[rng.below(pick.size())];
    record.push_back(m);
    s.apply(m, u);
  }
  return record;
}

template <Game S>
std::string record_text(const S& start, const std::vector<typename S::Move>& moves, size_t n) {
  std::string out;
  S s = start;
  typename S::Undo u;
  for (size_t i = 0; i < n; ++i) {
    out += (i ? " " : "") + s.move_name(moves[i]);
    s.apply(moves[i], u);
  }
  return out;
}

/// A puzzle object for position s (reached by record), evaluated by ev.
/// Returns the rejection reason, or "" with `out` filled.
template <Game S>
std::string build(const S& s, const Evaluation<S>& ev, const MakeOptions& opt,
                  const std::string& record, Policy policy, nlohmann::json& out) {
  using T = PuzzleTraits<S>;
  // Which moves reach the top value.
  std::vector<size_t> top;
  for (size_t i = 0; i < ev.moves.size(); ++i) {
    const MoveValue& v = ev.values[i];
    bool is_top = T::kQuestion == Question::kWin
                      ? v.kind == MoveValue::Kind::kWin
                      : std::all_of(ev.values.begin(), ev.values.end(),
                                    [&](const MoveValue& w) { return w.margin2 <= v.margin2; });
    if (is_top) top.push_back(i);
  }
  if (top.empty()) return "no winning move";
  if (top.size() == ev.moves.size())
    return T::kQuestion == Question::kWin ? "every move wins" : "every move is best";
  if (top.size() > 1)
    return T::kQuestion == Question::kWin ? "several winning moves" : "several best moves";
  const auto& answer = ev.moves[top[0]];
  // "Pass" is a poor answer to show a solver (late Fiodar 7 positions gave
  // nothing else): a puzzle's answer is a placement.
  if (s.move_name(answer) == "pass") return "answer is a pass";

  nlohmann::json j;
  j["game"] = opt.game;
  j["size"] = opt.size;
  nlohmann::json rules = nlohmann::json::object();
  for (const auto& [k, v] : opt.rules) rules[k] = v;
  j["rules"] = rules;
  j["record"] = record;
  j["to_move"] = color_name(T::colour_to_move(s));
  j["question"] = question_name(T::kQuestion);
  j["answer"] = s.move_name(answer);
  // Moves in byte order of their tokens (the order of `loom moves`).
  std::vector<std::pair<std::string, size_t>> order;
  for (size_t i = 0; i < ev.moves.size(); ++i) order.emplace_back(s.move_name(ev.moves[i]), i);
  std::sort(order.begin(), order.end());
  nlohmann::json moves = nlohmann::json::array();
  int attractive = 0;
  bool stall_alt = false, draw_alt = false;
  for (const auto& [tok, i] : order) {
    nlohmann::json e{{"move", tok}, {"value", value_json(ev.values[i])}};
    if (ev.values[i].plies >= 0) e["plies"] = ev.values[i].plies;
    moves.push_back(e);
    if (i != top[0] && T::attractive(s, ev.moves[i])) ++attractive;
    if (ev.values[i].kind == MoveValue::Kind::kStall) stall_alt = true;
    if (ev.values[i].kind == MoveValue::Kind::kDraw) draw_alt = true;
  }
  j["moves"] = moves;
  // The line and the rule events along it.
  std::set<std::string> tags;
  nlohmann::json line = nlohmann::json::array();
  S t = s;
  typename S::Undo u;
  for (const auto& m : ev.line) {
    line.push_back(t.move_name(m));
    S before = t;
    t.apply(m, u);
    T::events(before, m, t, tags);
  }
  if (stall_alt) tags.insert("stall avoided");
  if (draw_alt) tags.insert("draw avoided");
  if (attractive > 0) tags.insert("tempting alternatives");
  j["line"] = line;
  // Difficulty (docs/puzzles.md): line length + half the bits of search
  // effort + two per tempting wrong move, rounded to a tenth.
  double d = static_cast<double>(ev.line.size()) +
             0.5 * std::log2(1.0 + static_cast<double>(ev.nodes)) + 2.0 * attractive;
  j["difficulty"] = std::round(d * 10) / 10;
  j["proof"] = {{"method", ev.method}, {"nodes", ev.nodes}, {"seconds", 0.0}};
  j["tags"] = std::vector<std::string>(tags.begin(), tags.end());
  j["source"] = policy_name(policy);
  j["ply"] = static_cast<int>(split_tokens(record).size());
  j["attractive"] = attractive;
  j["id"] = "";  // assigned after sorting
  out = std::move(j);
  return "";
}

}  // namespace detail

template <class S>
MakeReport make_puzzles(const S& start, const MakeOptions& opt) {
  using T = PuzzleTraits<S>;
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  solver::RunControl ctl(
      make_control(opt.tty, opt.checkpoint_interval, opt.stop_after, opt.progress_file));
  MakeReport rep;
  detail::Rng rng(opt.seed);
  solver::Canonicalizer<S> canon(true);
  std::unordered_set<uint64_t> seen;  // canonical hashes of examined positions
  struct Found {
    nlohmann::json j;
    S state;
    std::string last;
    double difficulty;
  };
  std::vector<Found> found;
  const int max_games = opt.max_games > 0 ? opt.max_games : 40 * std::max(1, opt.count);
  auto reject = [&](const std::string& why) { ++rep.rejected[why]; };
  typename S::Undo u;
  int g = 0;
  // The checker's re-proof of every puzzle kept, new or resumed (Z3 left
  // to `loom puzzle check`).
  CheckOptions check_options;
  check_options.max_positions = opt.check_positions;
  check_options.spec = false;
  // The progress file: resume from it, save to it at game boundaries.
  const std::string signature = opt.progress_file.empty() ? "" : make_signature(opt, max_games);
  rep.job = signature;
  if (!opt.progress_file.empty()) {
    auto check = [&](const nlohmann::json& j) -> std::string {
      Found f{j, start, "", 0.0};
      if (!j.contains("record") || !j["record"].is_string() || !j.contains("difficulty") ||
          !j["difficulty"].is_number())
        return "no record or difficulty";
      std::vector<typename S::Move> ms;
      for (const auto& tok : detail::split_tokens(j["record"].template get<std::string>())) {
        auto m = f.state.parse_move(tok);
        f.state.legal_moves(ms);
        if (!m || !std::binary_search(ms.begin(), ms.end(), *m))
          return "record token '" + clip_token(tok) + "' is not a legal move";
        f.last = tok;
        f.state.apply(*m, u);
      }
      // Proved again, as a new puzzle is: the file is a claim (an older
      // build's, or edited), and the collection is written from it.
      try {
        if (CheckResult cr = detail::check_impl(start, j, check_options); !cr.confirmed)
          return "not confirmed: " + cr.reason;
      } catch (const InputError& e) {
        return e.what();
      }
      f.difficulty = j["difficulty"].template get<double>();
      found.push_back(std::move(f));
      return "";
    };
    if (auto p = load_progress(opt.progress_file, kProgressKind, signature, check)) {
      rng = detail::Rng(p->rng);
      g = resume_counters(*p, rep, opt.progress_file, found.size(), opt.count, opt.notes);
      seen.insert(p->seen_hashes.begin(), p->seen_hashes.end());
    } else {
      found.clear();
    }
  }
  auto save = [&] {
    Progress p = progress_of(rng.state(), g, rep);
    p.seen_hashes.assign(seen.begin(), seen.end());
    for (const auto& f : found) p.found.push_back(f.j);
    save_progress(opt.progress_file, kProgressKind, signature, p);
    ctl.checkpoint_written();
  };
  for (; g < max_games && static_cast<int>(found.size()) < opt.count;) {
    const detail::Policy policy = g % 2 == 0 ? detail::Policy::kRandom : detail::Policy::kGreedy;
    auto moves = detail::play_game(start, policy, rng, 4 * start.geo().num_sites());
    ++rep.games;
    std::vector<S> states{start};
    for (const auto& m : moves) {
      S n = states.back();
      n.apply(m, u);
      states.push_back(std::move(n));
    }
    // Latest positions first: each earlier one needs more search; stop at
    // the first over the budget. Keep the earliest accepted ones.
    std::vector<Found> here;
    for (size_t k = moves.size(); k-- > 0;) {
      const S& s = states[k];
      ++rep.candidates;
      std::vector<typename S::Move> ms;
      s.legal_moves(ms);
      if (ms.size() < 2) {
        reject("single legal move");
        continue;
      }
      if (!seen.insert(canon.canonical(s).hash()).second) {
        reject("duplicate");
        continue;
      }
      ctl.status(opt.game + " side " + std::to_string(opt.size) + ": " +
                 std::to_string(found.size()) + " of " + std::to_string(opt.count) + " puzzles, " +
                 std::to_string(rep.games) + " games, " + std::to_string(rep.candidates) +
                 " positions examined");
      const auto t1 = Clock::now();
      Evaluation<S> ev = evaluate(s, T::kQuestion, opt.max_positions);
      if (!ev.complete) {
        reject("over budget");
        break;
      }
      nlohmann::json j;
      std::string why = detail::build(s, ev, opt, detail::record_text(start, moves, k), policy, j);
      if (!why.empty()) {
        reject(why);
        continue;
      }
      // The checker's independent re-proof.
      CheckResult cr = detail::check_impl(start, j, check_options);
      if (!cr.confirmed) {
        reject(cr.reason.find("budget") != std::string::npos ? "check over budget"
                                                             : "not confirmed: " + cr.reason);
        continue;
      }
      j["proof"]["seconds"] = std::chrono::duration<double>(Clock::now() - t1).count();
      j["check"] = {{"method", "memoised minimax"}, {"positions", cr.positions}};
      const double d = j["difficulty"].template get<double>();
      here.push_back({std::move(j), s, k > 0 ? states[k - 1].move_name(moves[k - 1]) : "", d});
    }
    // `here` runs from late to early: take the earliest (hardest) ones.
    int take = std::min<int>(opt.per_game, opt.count - static_cast<int>(found.size()));
    for (int i = 0; i < take && !here.empty(); ++i) {
      found.push_back(std::move(here.back()));
      here.pop_back();
    }
    // Proved puzzles left over: counted, so that candidates = rejections +
    // puzzles kept.
    if (!here.empty()) rep.rejected["proved, not kept (per-game or count limit)"] += here.size();
    ++g;
    ctl.work(1);
    if (!opt.progress_file.empty() && ctl.checkpoint_due()) save();
    if (ctl.stop_requested() && g < max_games && static_cast<int>(found.size()) < opt.count) {
      // Saved just above (a stop makes the checkpoint due).
      throw Interrupted("stopped after " + std::to_string(g) + " games" +
                        (!opt.progress_file.empty() ? "; rerun the same command to resume" : ""));
    }
  }
  // Once more at the end: a kill while the collection is written loses no game.
  if (!opt.progress_file.empty()) save();
  ctl.clear_status();
  order_and_name(found,
                 opt.game + "-" + std::to_string(opt.size) + "-s" + std::to_string(opt.seed));
  for (size_t i = 0; i < found.size(); ++i) {
    RenderOptions ro;
    ro.last_move = found[i].last;
    ro.caption = side_title(opt.game, color_name(T::colour_to_move(found[i].state))) +
                 " to move: " +
                 (T::kQuestion == Question::kWin ? "find the only winning move"
                                                 : "find the only move to the best margin") +
                 rules_suffix(opt.variant);
    rep.svgs.push_back(render_svg(found[i].state, ro));
    rep.puzzles.push_back(std::move(found[i].j));
  }
  rep.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return rep;
}

}  // namespace loom::puzzles
