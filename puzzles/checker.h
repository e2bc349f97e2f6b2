// check_puzzle (puzzles.h): re-proves a puzzle from its record alone, by the
// checker's own route (NaiveSolver in search.h, the Z3 specification), never
// reading what the generator computed except the claims it checks.
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "model/common/errors.h"
#include "puzzles/puzzles.h"
#include "puzzles/search.h"
#include "puzzles/traits.h"

namespace loom::puzzles {

namespace detail {

inline std::vector<std::string> split_tokens(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string t;
  while (in >> t) out.push_back(t);
  return out;
}

/// Plays one token if legal; false (s untouched) otherwise.
template <Game S>
bool play_token(S& s, const std::string& tok) {
  auto m = s.parse_move(tok);
  if (!m || s.is_terminal()) return false;
  std::vector<typename S::Move> ms;
  s.legal_moves(ms);
  if (!std::binary_search(ms.begin(), ms.end(), *m)) return false;
  typename S::Undo u;
  s.apply(*m, u);
  return true;
}

/// The listed value of a move as the checker's MoveValue kind, or nullopt.
inline std::optional<MoveValue> listed_value(const nlohmann::json& v) {
  MoveValue r;
  if (v.is_number()) {
    double x = v.get<double>() * 2;
    // A margin is a whole number of half points that fits the solver's
    // score (no wrap-around: 2^31 + m must not read as m).
    if (!std::isfinite(x) || std::abs(x) > 1e9 || std::abs(x - std::round(x)) > 1e-9)
      return std::nullopt;
    r.kind = MoveValue::Kind::kMargin;
    r.margin2 = static_cast<int32_t>(std::lround(x));
    return r;
  }
  if (!v.is_string()) return std::nullopt;
  const std::string s = v.get<std::string>();
  if (s == "win")
    r.kind = MoveValue::Kind::kWin;
  else if (s == "loss")
    r.kind = MoveValue::Kind::kLoss;
  else if (s == "draw")
    r.kind = MoveValue::Kind::kDraw;
  else if (s == "stall")
    r.kind = MoveValue::Kind::kStall;
  else
    return std::nullopt;
  return r;
}

inline std::string value_text(const MoveValue& v) {
  return value_json(v).dump();
}

/// value_text() with the plies to the end where there is one ("loss" in 6
/// plies): two lines of different lengths differ only there.
inline std::string value_with_plies(const MoveValue& v) {
  std::string t = value_text(v);
  if (v.plies >= 0 && (v.kind == MoveValue::Kind::kWin || v.kind == MoveValue::Kind::kLoss))
    t += " in " + std::to_string(v.plies) + " plies";
  return t;
}

/// The check proper; `spec` false skips the Z3 step (the generator's
/// self-check on boards where it would be slow).
template <Game S>
CheckResult check_impl(const S& start, const nlohmann::json& p, const CheckOptions& opt) {
  using T = PuzzleTraits<S>;
  using Move = typename S::Move;
  validate_shape(p);
  CheckResult res;
  auto fail = [&](std::string why) {
    res.confirmed = false;
    res.reason = std::move(why);
    return res;
  };
  const std::string question = p["question"].get<std::string>();
  if (question != question_name(T::kQuestion))
    return fail("question '" + clip_token(question) + "' is not this game's (" +
                question_name(T::kQuestion) + ")");

  // 1. The position, from the record alone.
  S s = start;
  const auto record = split_tokens(p["record"].get<std::string>());
  for (size_t i = 0; i < record.size(); ++i)
    if (!play_token(s, record[i]))
      return fail("record move " + std::to_string(i + 1) + " '" + clip_token(record[i]) +
                  "' is illegal");
  if (s.is_terminal()) return fail("the game is over after the record");
  if (p["to_move"].get<std::string>() != color_name(T::colour_to_move(s)))
    return fail("to_move is " + p["to_move"].get<std::string>() + " but " +
                color_name(T::colour_to_move(s)) + " is to move");

  // 2. The listed moves are exactly the legal moves.
  std::vector<Move> legal;
  s.legal_moves(legal);
  std::map<std::string, nlohmann::json> listed;
  std::vector<Move> listed_moves;
  for (const auto& e : p["moves"]) {
    const std::string tok = e["move"].get<std::string>();
    if (!listed.emplace(tok, e).second)
      return fail("move '" + clip_token(tok) + "' is listed twice");
    auto m = s.parse_move(tok);
    if (!m || !std::binary_search(legal.begin(), legal.end(), *m))
      return fail("listed move '" + clip_token(tok) + "' is not legal");
    listed_moves.push_back(*m);
  }
  for (const auto& m : legal)
    if (!listed.count(s.move_name(m)))
      return fail("legal move " + s.move_name(m) + " is missing from the list");
  if (legal.size() < 2) return fail("fewer than two legal moves");

  // 3. The Z3 specification allows exactly these moves, with these results.
  if (opt.spec) {
    std::sort(listed_moves.begin(), listed_moves.end());
    std::string why = T::spec_confirm(s, listed_moves);
    if (!why.empty()) return fail("the specification disagrees: " + why);
  }

  // 4. Every value re-derived by the independent search.
  NaiveSolver<S> naive(T::kQuestion, opt.max_positions);
  typename S::Undo u;
  std::map<std::string, MoveValue> proved;
  try {
    for (const auto& m : legal) {
      S c = s;
      c.apply(m, u);
      // From the view of the side that moved, one ply longer.
      proved[s.move_name(m)] = naive.value(c).lifted(c.to_move() == s.to_move());
    }
  } catch (const SearchBudget&) {
    res.positions = naive.positions();
    return fail("the independent search went over its budget (" +
                std::to_string(opt.max_positions) + " positions)");
  }
  res.positions = naive.positions();
  for (const auto& [tok, v] : proved) {
    const nlohmann::json& e = listed.at(tok);
    auto lv = listed_value(e["value"]);
    if (!lv)
      return fail("move " + tok + ": value " + clip_token(e["value"].dump()) + " is not a value");
    bool same =
        lv->kind == v.kind && (v.kind != MoveValue::Kind::kMargin || lv->margin2 == v.margin2);
    if (!same)
      return fail("move " + tok + ": listed " + clip_token(e["value"].dump()) + ", proved " +
                  value_text(v));
    // Plies to the end: a draw (play goes on for ever) has none; a stall
    // is an end, but its plies are not counted (puzzles give plies for wins
    // and losses only), so a claim of them could not be checked.
    if (e.contains("plies")) {
      const std::string listed_plies = "move " + tok + ": listed " + clip_token(e["plies"].dump());
      if (v.kind == MoveValue::Kind::kDraw)
        return fail(listed_plies + " plies, but " + value_text(v) + " has no end");
      if (v.plies < 0)
        return fail(listed_plies + " plies for " + value_text(v) +
                    ", which puzzles give only for wins and losses");
      // Compared as 64-bit integers (get<int>() would wrap 2^32 + p to p).
      if (!e["plies"].is_number_integer() || e["plies"].get<int64_t>() != v.plies)
        return fail(listed_plies + " plies, proved " + std::to_string(v.plies));
    }
  }

  // 5. The answer is the only winning (best) move.
  std::vector<std::string> top;
  MoveValue best_v;
  for (const auto& [tok, v] : proved) {
    bool is_top = false;
    if (T::kQuestion == Question::kWin) {
      is_top = v.kind == MoveValue::Kind::kWin;
    } else {
      if (top.empty() || v.margin2 > best_v.margin2) {
        top.clear();
        best_v = v;
      }
      is_top = v.margin2 == best_v.margin2;
    }
    if (is_top) top.push_back(tok);
  }
  const std::string answer = p["answer"].get<std::string>();
  if (top.empty()) return fail("no move wins");
  if (top.size() > 1)
    return fail("moves " + top[0] + " and " + top[1] + " both " +
                (T::kQuestion == Question::kWin ? "win" : "reach the best margin"));
  if (top[0] != answer)
    return fail("the answer '" + clip_token(answer) + "' is not the solution " + top[0]);

  // 6. The line: legal, starts with the answer, each move optimal for its
  //    mover (wins fastest / resists longest / keeps the margin), to the end.
  const auto& line = p["line"];
  if (line.empty() || line[0].get<std::string>() != answer)
    return fail("the line does not start with the answer");
  S t = s;
  MoveValue cur;
  try {
    cur = naive.value(t);
    for (size_t i = 0; i < line.size(); ++i) {
      const std::string tok = line[i].get<std::string>();
      S before = t;
      if (!play_token(t, tok))
        return fail("line move " + std::to_string(i + 1) + " '" + clip_token(tok) + "' is illegal");
      MoveValue v = naive.value(t);
      MoveValue seen = v;  // from the view of the side that moved
      if (t.to_move() != before.to_move()) {
        if (seen.kind == MoveValue::Kind::kWin)
          seen.kind = MoveValue::Kind::kLoss;
        else if (seen.kind == MoveValue::Kind::kLoss)
          seen.kind = MoveValue::Kind::kWin;
        seen.margin2 = -seen.margin2;
      }
      if (seen.plies >= 0) ++seen.plies;
      if (!(seen == cur))
        return fail("line move " + std::to_string(i + 1) + " '" + tok + "' is not optimal (" +
                    value_with_plies(seen) + " instead of " + value_with_plies(cur) + ")");
      cur = v;
    }
  } catch (const SearchBudget&) {
    return fail("the independent search went over its budget on the line");
  }
  if (!t.is_terminal()) return fail("the line does not reach the end of the game");
  res.positions = naive.positions();
  res.confirmed = true;
  return res;
}

}  // namespace detail

template <class S>
CheckResult check_puzzle(const S& start, const nlohmann::json& puzzle, const CheckOptions& opt) {
  return detail::check_impl(start, puzzle, opt);
}

template <class S>
std::string spec_confirm(const S& s, const std::vector<typename S::Move>& listed) {
  return PuzzleTraits<S>::spec_confirm(s, listed);
}

}  // namespace loom::puzzles
