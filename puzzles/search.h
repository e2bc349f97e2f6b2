// The two exact searches behind puzzles, kept apart on purpose:
//
// - evaluate(): the GENERATOR's route, through the solver's public headers —
//   retrograde analysis (solver/retrograde.h: cycle-sound, symmetry-reduced,
//   exact plies to the end) for the win/loss games, alpha-beta with a
//   transposition table (solver/dfs.h) for Fiodar's margins.
// - NaiveSolver: the CHECKER's route, written here from the game concept
//   alone: full minimax (no pruning, no symmetry, moves in reverse order),
//   memoised in a table of its own keyed by the exact position (found by
//   its from-scratch hash, recompute_hash); where a line of play repeats a
//   position (Gadur as written) it switches to an explicit graph of whole
//   states and a plain fixed-point iteration. It shares no table, ordering
//   or code path with the solver.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/common/game.h"
#include "solver/control.h"
#include "solver/dfs.h"
#include "solver/retrograde.h"
#include "solver/value.h"

namespace loom::puzzles {

enum class Question { kWin, kBest };

/// A value from the side to move's view (after a move: from the view of the
/// side that made it, as CONVENTIONS.md lists `moves`).
struct MoveValue {
  enum class Kind : uint8_t { kWin, kLoss, kDraw, kStall, kMargin };
  Kind kind = Kind::kDraw;
  int plies = -1;       ///< kWin/kLoss: plies to the end under fast-win, slow-loss play
  int32_t margin2 = 0;  ///< kMargin: the mover's score minus the opponent's, half points
  bool operator==(const MoveValue&) const = default;

  /// This value of a child seen from the parent's mover, one ply longer
  /// (`same_mover`: the child has the parent's side to move, e.g. after a
  /// swap).
  MoveValue lifted(bool same_mover) const {
    MoveValue v = *this;
    if (!same_mover) {
      if (v.kind == Kind::kWin)
        v.kind = Kind::kLoss;
      else if (v.kind == Kind::kLoss)
        v.kind = Kind::kWin;
      v.margin2 = -v.margin2;
    }
    if (v.plies >= 0) ++v.plies;
    return v;
  }
};

/// "win", "loss", "draw", "stall" or the margin in points.
inline nlohmann::json value_json(const MoveValue& v) {
  switch (v.kind) {
    case MoveValue::Kind::kWin:
      return "win";
    case MoveValue::Kind::kLoss:
      return "loss";
    case MoveValue::Kind::kDraw:
      return "draw";
    case MoveValue::Kind::kStall:
      return "stall";
    case MoveValue::Kind::kMargin:
      break;
  }
  if (v.margin2 % 2 == 0) return v.margin2 / 2;
  return v.margin2 / 2.0;
}

/// The generator's evaluation of every legal move of one position.
template <Game S>
struct Evaluation {
  bool complete = false;  ///< false: the search went over its budget
  std::vector<typename S::Move> moves;
  std::vector<MoveValue> values;       ///< per move, from the mover's view
  std::vector<typename S::Move> line;  ///< from the position, the best move first
  uint64_t nodes = 0;                  ///< positions stored / nodes searched
  std::string method;
};

namespace detail {

/// A solver value (by colour) from `mover`'s view; plies as given.
inline MoveValue relative(const solver::Value& v, Color mover, int plies) {
  using K = solver::Value::Kind;
  MoveValue r;
  if (v == solver::Value::win(mover)) {
    r.kind = MoveValue::Kind::kWin;
    r.plies = plies;
  } else if (v == solver::Value::win(other(mover))) {
    r.kind = MoveValue::Kind::kLoss;
    r.plies = plies;
  } else if (v.kind == K::kStall) {
    r.kind = MoveValue::Kind::kStall;
  } else if (v.kind == K::kDraw) {
    r.kind = MoveValue::Kind::kDraw;
  } else {
    throw std::logic_error("puzzles: unexpected solver value " + v.text());
  }
  return r;
}

/// Symmetry reduction only on small boards (side <= 4). On the recommended
/// boards a late position is rarely symmetric, so the 12 transforms and
/// hashes per stored position cost three quarters of the time (measured:
/// Enfargar side 9, perf) and save almost nothing.
template <Game S>
bool use_symmetry(const S& p) {
  return p.geo().side() <= 4;
}

struct NoSave {
  void operator()() const {}
};

/// Retrograde analysis from p: every move's value and plies, the fast-win /
/// slow-loss line from p.
template <Game S>
Evaluation<S> evaluate_retrograde(const S& p, uint64_t max_positions) {
  using R = solver::Retrograde<S>;
  Evaluation<S> ev;
  ev.method = "retrograde";
  typename R::Config cfg;
  cfg.symmetry = use_symmetry(p);
  cfg.max_positions = max_positions;
  cfg.threads = 1;  // deterministic and polite on a shared machine
  R r(p, cfg);
  solver::RunControl ctl;
  if (!r.enumerate(ctl, NoSave{})) {
    ev.nodes = r.positions();
    return ev;
  }
  r.solve(ctl, NoSave{});
  ev.nodes = r.positions();
  auto plies_of = [&](const S& s) {
    auto i = r.index_of(s);
    if (!i || r.dist(*i) == R::kUndecided) return -1;
    return static_cast<int>(r.dist(*i));
  };
  p.legal_moves(ev.moves);
  typename S::Undo u;
  for (const auto& m : ev.moves) {
    S c = p;
    c.apply(m, u);
    MoveValue v = relative(r.value_of(c), p.to_move(), plies_of(c));
    if (v.plies >= 0) ++v.plies;  // the move itself
    ev.values.push_back(v);
  }
  // The line: the winner wins fastest, the loser loses slowest.
  S s = p;
  std::vector<typename S::Move> ms;
  for (int ply = 0; ply < 400; ++ply) {
    s.legal_moves(ms);
    if (ms.empty()) break;
    solver::Value v = r.value_of(s);
    if (v.kind != solver::Value::Kind::kBlack && v.kind != solver::Value::Kind::kWhite) break;
    std::optional<typename S::Move> pick;
    int pick_d = 0;
    bool mover_wins = v == solver::Value::win(s.to_move());
    for (const auto& m : ms) {
      S c = s;
      c.apply(m, u);
      if (!(r.value_of(c) == v)) continue;
      int d = plies_of(c);
      if (!pick || (mover_wins ? d < pick_d : d > pick_d)) {
        pick = m;
        pick_d = d;
      }
    }
    if (!pick) throw std::logic_error("puzzles: no move keeps the value");
    ev.line.push_back(*pick);
    s.apply(*pick, u);
  }
  ev.complete = true;
  return ev;
}

/// Alpha-beta from p (scored games): every move's final margin from the
/// mover's view and a principal variation after the best move.
template <Game S>
Evaluation<S> evaluate_dfs(const S& p, uint64_t max_nodes) {
  using D = solver::DfsSolver<S>;
  Evaluation<S> ev;
  ev.method = "alpha-beta";
  typename D::Config cfg;
  cfg.symmetry = use_symmetry(p);
  cfg.table_bytes = uint64_t{64} << 20;
  cfg.max_nodes = max_nodes;
  solver::RunControl ctl;
  D d(p, cfg, ctl);
  p.legal_moves(ev.moves);
  typename S::Undo u;
  try {
    size_t best = 0;
    for (size_t i = 0; i < ev.moves.size(); ++i) {
      S c = p;
      c.apply(ev.moves[i], u);
      int32_t sc = d.solve(c);
      if (c.to_move() != p.to_move()) sc = -sc;
      MoveValue v;
      if (sc > solver::kWinScore / 2)
        sc -= solver::kWinScore;
      else if (sc < -solver::kWinScore / 2)
        sc += solver::kWinScore;
      v.kind = MoveValue::Kind::kMargin;
      v.margin2 = sc;
      ev.values.push_back(v);
      if (v.margin2 > ev.values[best].margin2) best = i;
    }
    if (!ev.moves.empty()) {
      S c = p;
      c.apply(ev.moves[best], u);
      ev.line.push_back(ev.moves[best]);
      for (const auto& m : d.principal_variation(c)) ev.line.push_back(m);
    }
  } catch (const solver::NodeLimit&) {
    ev.nodes = d.nodes();
    return ev;
  }
  ev.nodes = d.nodes();
  ev.complete = true;
  return ev;
}

}  // namespace detail

/// The generator's evaluation (see the file comment).
template <Game S>
Evaluation<S> evaluate(const S& p, Question q, uint64_t budget) {
  return q == Question::kWin ? detail::evaluate_retrograde(p, budget)
                             : detail::evaluate_dfs(p, budget);
}

/// The checker's memo key: the position itself, compared exactly (the
/// model's packed image where it has one, else the whole state), with its
/// from-scratch hash to find it; two positions that share a hash are two
/// entries.
template <class S>
struct ExactKey {
  static S of(const S& s) { return s; }
};
template <class S>
requires requires(const S& s) {
  s.pack();
}
struct ExactKey<S> {
  static auto of(const S& s) { return s.pack(); }
};
template <class S>
struct Keyed {
  uint64_t hash;
  decltype(ExactKey<S>::of(std::declval<const S&>())) key;
  bool operator==(const Keyed& o) const { return hash == o.hash && key == o.key; }
};
template <class S>
struct KeyedHash {
  size_t operator()(const Keyed<S>& k) const { return static_cast<size_t>(k.hash); }
};

/// Thrown by NaiveSolver when its position budget is spent.
class SearchBudget : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The checker's exact values (see the file comment). value(s) is the value
/// of s for its side to move; plies for wins and losses count the plies to
/// the end when the winner wins fastest and the loser resists longest.
template <Game S>
class NaiveSolver {
 public:
  using Move = typename S::Move;
  NaiveSolver(Question q, uint64_t max_positions) : q_(q), max_(max_positions) {}

  MoveValue value(const S& s) {
    if (!cyclic_) {
      try {
        S t = s;
        return dfs(t);
      } catch (const Cycle&) {
        cyclic_ = true;
      }
    }
    return graph_value(s);
  }
  /// Positions stored so far.
  uint64_t positions() const { return memo_.size() + states_.size(); }
  bool used_graph() const { return cyclic_; }

 private:
  struct Cycle {};

  /// A terminal position's value for its side to move.
  MoveValue terminal(const S& s) const {
    Outcome o = s.outcome();
    MoveValue v;
    if (q_ == Question::kBest) {
      v.kind = MoveValue::Kind::kMargin;
      v.margin2 = s.to_move() == Color::kBlack ? o.margin2 : -o.margin2;
      return v;
    }
    v.plies = 0;
    if (o.kind == Outcome::Kind::kBlackWins || o.kind == Outcome::Kind::kWhiteWins) {
      bool black = o.kind == Outcome::Kind::kBlackWins;
      v.kind =
          black == (s.to_move() == Color::kBlack) ? MoveValue::Kind::kWin : MoveValue::Kind::kLoss;
    } else {
      v.kind =
          o.kind == Outcome::Kind::kUnresolved ? MoveValue::Kind::kStall : MoveValue::Kind::kDraw;
      v.plies = -1;
    }
    return v;
  }

  /// Mover's preference: win (faster first) > neutral > loss (slower first);
  /// margins by size.
  static bool better(const MoveValue& a, const MoveValue& b) {
    if (a.kind == MoveValue::Kind::kMargin) return a.margin2 > b.margin2;
    auto rank = [](const MoveValue& v) {
      switch (v.kind) {
        case MoveValue::Kind::kWin:
          return 1'000'000 - v.plies;
        case MoveValue::Kind::kLoss:
          return -1'000'000 + v.plies;
        default:
          return 0;
      }
    };
    return rank(a) > rank(b);
  }

  /// Memory of one memo entry: the key, the value, the hash node, and what
  /// the key holds on the heap (Fiodar's superko histories).
  static uint64_t entry_bytes(const Keyed<S>& k) {
    uint64_t b = sizeof(Keyed<S>) + sizeof(MoveValue) + 4 * sizeof(void*);
    if constexpr (requires { k.key.heap_bytes(); }) b += k.key.heap_bytes();
    return b;
  }
  MoveValue remember(const Keyed<S>& h, const MoveValue& v) {
    memo_bytes_ += entry_bytes(h);
    return memo_[h] = v;
  }

  MoveValue dfs(S& s) {
    const Keyed<S> h{s.recompute_hash(), ExactKey<S>::of(s)};
    if (auto it = memo_.find(h); it != memo_.end()) return it->second;
    if (s.is_terminal()) return remember(h, terminal(s));
    // The line so far by hashes: a collision reads as a repetition, which
    // only sends the search to the exact graph below.
    if (!on_path_.insert(h.hash).second) throw Cycle{};
    // The budget counts positions, and their bytes where positions are
    // stored whole (a Fiodar key holds its histories).
    if (memo_.size() >= max_ || memo_bytes_ >= kMaxMemoBytes)
      throw SearchBudget("the independent search went over its budget");
    std::vector<Move> ms;
    s.legal_moves(ms);
    std::optional<MoveValue> best;
    const Color me = s.to_move();
    typename S::Undo u;
    for (auto it = ms.rbegin(); it != ms.rend(); ++it) {
      S c = s;
      c.apply(*it, u);
      MoveValue v = dfs(c).lifted(c.to_move() == me);
      if (!best || better(v, *best)) best = v;
    }
    on_path_.erase(h.hash);
    return remember(h, *best);
  }

  // --- cyclic graphs: whole states, plain fixed point ---------------------

  uint32_t intern(const S& s) {
    uint64_t h = s.recompute_hash();
    auto& bucket = index_[h];
    for (uint32_t i : bucket)
      if (states_[i] == s) return i;
    if (states_.size() >= max_) throw SearchBudget("the independent search went over its budget");
    bucket.push_back(static_cast<uint32_t>(states_.size()));
    states_.push_back(s);
    succ_.emplace_back();
    return bucket.back();
  }

  MoveValue graph_value(const S& root) {
    uint32_t r = intern(root);
    if (expanded_ == states_.size() && val_.size() == states_.size()) return decided(r);
    // Expand everything reachable (breadth first, in index order).
    std::vector<Move> ms;
    typename S::Undo u;
    for (size_t i = expanded_; i < states_.size(); ++i) {
      states_[i].legal_moves(ms);
      std::vector<uint32_t> next;
      for (auto it = ms.rbegin(); it != ms.rend(); ++it) {
        S c = states_[i];
        c.apply(*it, u);
        next.push_back(intern(c));
      }
      succ_[i] = std::move(next);
      expanded_ = i + 1;
    }
    // Values by rounds: round k decides from positions decided before it.
    const size_t n = states_.size();
    std::vector<std::optional<MoveValue>>& val = val_;
    val.assign(n, std::nullopt);
    for (size_t i = 0; i < n; ++i)
      if (succ_[i].empty()) val[i] = terminal(states_[i]);
    for (bool changed = true; changed;) {
      changed = false;
      std::vector<std::optional<MoveValue>> next = val;
      for (size_t i = 0; i < n; ++i) {
        if (val[i]) continue;
        const Color me = states_[i].to_move();
        std::optional<MoveValue> best;
        bool all = true, win = false;
        for (uint32_t j : succ_[i]) {
          if (!val[j]) {
            all = false;
            continue;
          }
          MoveValue v = val[j]->lifted(states_[j].to_move() == me);
          if (v.kind == MoveValue::Kind::kWin) win = true;
          if (!best || better(v, *best)) best = v;
        }
        if (win || (all && best)) {
          next[i] = best;
          changed = true;
        }
      }
      val.swap(next);
    }
    return decided(r);
  }

  MoveValue decided(uint32_t r) const {
    MoveValue out;
    out.kind = MoveValue::Kind::kDraw;  // undecided: play can go on for ever
    if (val_[r]) out = *val_[r];
    return out;
  }

  Question q_;
  uint64_t max_;
  std::unordered_map<Keyed<S>, MoveValue, KeyedHash<S>> memo_;
  std::unordered_set<uint64_t> on_path_;
  uint64_t memo_bytes_ = 0;
  static constexpr uint64_t kMaxMemoBytes = uint64_t{2} << 30;
  bool cyclic_ = false;
  std::vector<S> states_;
  std::vector<std::vector<uint32_t>> succ_;
  std::unordered_map<uint64_t, std::vector<uint32_t>> index_;
  size_t expanded_ = 0;
  std::vector<std::optional<MoveValue>> val_;
};

}  // namespace loom::puzzles
