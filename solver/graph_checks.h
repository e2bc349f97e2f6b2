// Exhaustive invariant checks over the reachable position graph (reduced by
// the board symmetries), each returning a witness record when it fails:
//
// - termination: the graph has no cycle (every game ends). Depth-first
//   search with grey/black marks; a move into a grey position closes a cycle.
//   A cycle between symmetry classes is a real cycle: if a line leads from P
//   to an image T(P), repeating the line mapped by T, T^2, ... returns to P
//   itself because T has finite order. The witness is lifted that way and
//   replayed before it is reported.
// - drawless: no reachable end lacks a winner (Outcome kDraw / kUnresolved).
//   Breadth-first, so the witness record is a shortest one.
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "model/common/game.h"
#include "solver/control.h"
#include "solver/core.h"

namespace loom::solver {

struct PropertyResult {
  enum class Status { kHolds, kFails, kIncomplete };
  std::string property;
  Status status = Status::kIncomplete;
  uint64_t positions = 0;  ///< positions stored (up to symmetry)
  uint64_t moves = 0;      ///< moves examined
  int depth = 0;           ///< drawless: plies explored completely; termination: longest line
  double seconds = 0;
  std::vector<std::string> record;  ///< moves from the start to the witness position
  std::vector<std::string> cycle;   ///< termination: moves from there back to it
  std::string outcome;              ///< drawless: the result at the witness end
  std::string note;                 ///< why a run is incomplete
  /// "hash" (a table of the positions met) or "dense" (the board's base-3
  /// index: solver/dense_checks.h, which stores no end position and counts
  /// each position's distinct successors as its moves).
  std::string method = "hash";
  bool at_limit = false;  ///< stopped at the position limit (the hash table's)
  uint64_t bytes = 0;     ///< memory of the tables
};

namespace detail {

/// Fills in how a check ended and returns the result.
inline PropertyResult finish(PropertyResult& r, PropertyResult::Status st, uint64_t positions,
                             const RunControl& ctl, uint64_t bytes = 0) {
  r.status = st;
  r.positions = positions;
  r.bytes = bytes;
  r.seconds = ctl.elapsed();
  return r;
}

/// Moves from x (a real position, updated) to positions whose keys
/// key_of(child) are `chain` in turn: the lift of a path in a reduced graph
/// to real moves.
template <Game S, class Key, class KeyOf>
std::vector<typename S::Move> lift_by(S& x, const std::vector<Key>& chain, KeyOf&& key_of) {
  std::vector<typename S::Move> out, ms;
  typename S::Undo u;
  for (const auto& want : chain) {
    x.legal_moves(ms);
    bool found = false;
    for (const auto& m : ms) {
      S c = x;
      c.apply(m, u);
      if (key_of(c) == want) {
        out.push_back(m);
        x = c;
        found = true;
        break;
      }
    }
    if (!found) throw std::logic_error("lift: no move reaches the next position");
  }
  return out;
}

/// lift_by() from `from` by canonical keys.
template <Game S>
std::vector<typename S::Move> lift_path(const S& from, const Canonicalizer<S>& canon,
                                        const std::vector<typename KeyTraits<S>::Key>& chain) {
  S x = from;
  return lift_by(x, chain, [&](const S& c) { return KeyTraits<S>::key(canon.canonical(c)); });
}

/// A cycle's moves from `start`: `seg` leads from start to `end`, which is
/// start or an image T(start) under the board symmetries; the segment
/// mapped by T, T^2, ... is repeated until start itself recurs.
template <Game S>
std::vector<typename S::Move> closed_cycle(const S& start, const S& end,
                                           std::vector<typename S::Move> seg) {
  std::vector<typename S::Move> cyc = seg;
  S x = end;
  typename S::Undo u;
  if constexpr (SymmetricGame<S>) {
    int t = -1;
    for (int j = 0; j < 12 && t < 0; ++j)
      if (start.transformed(j) == end) t = j;
    if (t < 0) throw std::logic_error("termination: cycle closes on no symmetric image");
    for (int rounds = 0; !(x == start); ++rounds) {
      if (rounds > 12) throw std::logic_error("termination: cycle does not close");
      for (auto& mv : seg) mv = x.map_move(t, mv);  // images under T^(rounds+1)
      for (const auto& mv : seg) {
        cyc.push_back(mv);
        x.apply(mv, u);
      }
    }
  }
  if (!(x == start)) throw std::logic_error("termination: lifted cycle does not close");
  return cyc;
}

template <Game S>
std::vector<std::string> names(S s, const std::vector<typename S::Move>& ms) {
  std::vector<std::string> out;
  typename S::Undo u;
  for (const auto& m : ms) {
    out.push_back(s.move_name(m));
    s.apply(m, u);
  }
  return out;
}

}  // namespace detail

/// Does every line of play from `root` end? Explores up to max_positions
/// positions (0: no limit but the table's). A position's children are keyed
/// when it is entered, their table slots loaded ahead; the frames of the
/// line are reused (no allocation a node once the line is as deep as it
/// gets).
template <Game S>
PropertyResult check_termination(const S& root, bool symmetry, uint64_t max_positions,
                                 RunControl& ctl) {
  using Traits = KeyTraits<S>;
  using Key = typename Traits::Key;
  using Move = typename S::Move;
  PropertyResult r;
  r.property = "termination";
  Canonicalizer<S> canon(symmetry);
  PositionTable<Key> table;
  ChunkedVector<uint8_t> colour;  // 1 grey (on the stack), 2 black (finished)
  struct Frame {
    S state;
    std::vector<Move> moves;
    std::vector<Key> keys;  // the children's canonical keys and hashes
    std::vector<uint64_t> hashes;
    size_t next = 0;
    uint32_t idx = 0;
  };
  std::vector<Frame> stack;  // frames [0, top) are the line
  size_t top = 0;
  uint64_t limit = max_positions ? max_positions : PositionTable<Key>::kMaxPositions;
  typename S::Undo u;
  const auto done = [&](PropertyResult::Status st) {
    return detail::finish(r, st, table.size(), ctl, table.bytes() + colour.size());
  };

  auto push = [&](const S& s, uint32_t idx) {
    if (top == stack.size()) stack.push_back(Frame{s, {}, {}, {}, 0, idx});
    Frame& f = stack[top++];
    f.state = s;
    f.next = 0;
    f.idx = idx;
    f.state.legal_moves(f.moves);
    f.keys.clear();
    f.hashes.clear();
    S x = s;
    for (const Move& m : f.moves) {
      x.apply(m, u);
      const S c = canon.canonical(x);
      x.undo(m, u);
      f.keys.push_back(Traits::key(c));
      f.hashes.push_back(c.hash());
      table.prefetch(f.hashes.back());
    }
    r.depth = std::max(r.depth, static_cast<int>(top) - 1);
  };
  {
    S c = canon.canonical(root);
    table.insert(Traits::key(c), c.hash());
    colour.push_back(1);
    push(root, 0);
  }
  uint64_t steps = 0;
  while (top > 0) {
    Frame& f = stack[top - 1];
    if (f.next == f.moves.size()) {
      colour[f.idx] = 2;
      --top;
      continue;
    }
    const size_t k = f.next++;
    const Move m = f.moves[k];
    ++r.moves;
    auto [idx, fresh] = table.insert(f.keys[k], f.hashes[k]);
    if (fresh) {
      colour.push_back(1);
      S child = f.state;
      child.apply(m, u);
      push(child, idx);  // (f may move: not used below)
    } else if (colour[idx] == 1) {
      S child = f.state;
      child.apply(m, u);
      // A cycle: from the frame holding idx, along the stack, then m.
      size_t d = 0;
      while (stack[d].idx != idx) ++d;
      const S start = stack[d].state;
      std::vector<Move> seg;
      for (size_t i = d; i < top; ++i) seg.push_back(stack[i].moves[stack[i].next - 1]);
      std::vector<Move> prefix;
      for (size_t i = 0; i < d; ++i) prefix.push_back(stack[i].moves[stack[i].next - 1]);
      r.record = detail::names(root, prefix);
      r.cycle = detail::names(start, detail::closed_cycle(start, child, seg));
      return done(PropertyResult::Status::kFails);
    }
    if (++steps % 4096 == 0) {
      ctl.work(4096);
      ctl.status("termination: " + with_commas(table.size()) + " positions, line of " +
                 std::to_string(top) + " plies");
      // The only stop is a deadline (loom audit's budget; nothing is
      // saved): report how far it got, as at the position limit.
      if (ctl.stop_requested()) {
        r.note = "stopped by the time budget after " + with_commas(table.size()) + " positions";
        return done(PropertyResult::Status::kIncomplete);
      }
    }
    if (table.size() > limit) {
      r.at_limit = true;
      r.note = "stopped at the position limit (" + with_commas(limit) + ")";
      return done(PropertyResult::Status::kIncomplete);
    }
  }
  return done(PropertyResult::Status::kHolds);
}

/// Does every reachable end have a winner? Breadth-first; the witness is a
/// shortest record reaching an end without one. Positions are expanded in
/// batches, on `threads` threads (their moves and their children's
/// canonical keys), and then taken in order, their children inserted with
/// their table slots loaded ahead: the table, the counts, the note and the
/// witness are those of a breadth-first search one position at a time, on
/// any number of threads.
template <Game S>
PropertyResult check_drawless(const S& root, bool symmetry, uint64_t max_positions, RunControl& ctl,
                              int threads = 1) {
  using Traits = KeyTraits<S>;
  using Key = typename Traits::Key;
  using Move = typename S::Move;
  PropertyResult r;
  r.property = "drawless";
  Canonicalizer<S> canon(symmetry);
  PositionTable<Key> table;
  ChunkedVector<uint32_t> parent;
  ChunkedVector<uint16_t> depth;
  uint64_t limit = max_positions ? max_positions : PositionTable<Key>::kMaxPositions;
  const auto done = [&](PropertyResult::Status st) {
    return detail::finish(r, st, table.size(), ctl, table.bytes() + parent.size() * 6);
  };
  {
    S c = canon.canonical(root);
    table.insert(Traits::key(c), c.hash());
    parent.push_back(0);
    depth.push_back(0);
  }
  // One thread's share of a batch: each position's child count and, for an
  // end without a winner, its outcome (else kNoDraw), and the children's
  // keys in order.
  static constexpr int8_t kNoDraw = -1;
  struct Part {
    uint64_t begin = 0, end = 0;
    std::vector<uint32_t> degree;
    std::vector<int8_t> draw;
    std::vector<Key> keys;
    std::vector<uint64_t> hashes;
    std::exception_ptr error;
  };
  const int t = std::max(1, threads);
  std::vector<OwnLines<Part>> parts(static_cast<size_t>(t));
  const auto expand = [&](Part& p) {
    try {
      std::vector<Move> ms;
      typename S::Undo u;
      p.degree.clear();
      p.draw.clear();
      p.keys.clear();
      p.hashes.clear();
      for (uint64_t i = p.begin; i < p.end; ++i) {
        S s = Traits::state(root, table.key(i));
        s.legal_moves(ms);
        p.degree.push_back(static_cast<uint32_t>(ms.size()));
        int8_t draw = kNoDraw;
        if (ms.empty()) {
          const Outcome::Kind o = s.outcome().kind;
          if (o != Outcome::Kind::kBlackWins && o != Outcome::Kind::kWhiteWins)
            draw = static_cast<int8_t>(o);
        }
        p.draw.push_back(draw);
        for (const Move& m : ms) {
          s.apply(m, u);
          S c = canon.canonical(s);
          s.undo(m, u);
          p.keys.push_back(Traits::key(c));
          p.hashes.push_back(c.hash());
        }
      }
    } catch (...) {
      p.error = std::current_exception();
    }
  };
  constexpr size_t kAhead = PositionTable<Key>::kPrefetchAhead;
  for (uint64_t i = 0; i < table.size();) {
    // The batch: positions already in the table (their keys do not move
    // while the workers read them; the table grows only below, after).
    run_parts(i, batch_end(i, table.size(), t), parts, expand);
    for (const Part& p : parts) {
      size_t c = 0;
      for (uint64_t j = 0; j < p.end - p.begin; ++j, ++i) {
        r.depth = depth[i];
        if (p.draw[j] != kNoDraw) {
          std::vector<Key> chain;
          for (uint64_t x = i; x != 0; x = parent[x]) chain.push_back(table.key(x));
          std::reverse(chain.begin(), chain.end());
          r.record = detail::names(root, detail::lift_path(root, canon, chain));
          r.outcome = outcome_name(static_cast<Outcome::Kind>(p.draw[j]));
          return done(PropertyResult::Status::kFails);
        }
        for (uint32_t d = 0; d < p.degree[j]; ++d, ++c) {
          if (c + kAhead < p.hashes.size()) table.prefetch(p.hashes[c + kAhead]);
          ++r.moves;
          if (table.insert(p.keys[c], p.hashes[c]).second) {
            parent.push_back(static_cast<uint32_t>(i));
            depth.push_back(static_cast<uint16_t>(std::min<int>(depth[i] + 1, 0xffff)));
          }
        }
        if ((i & 4095) == 4095) {
          ctl.work(4096);
          ctl.status("drawless: " + with_commas(i) + " of " + with_commas(table.size()) +
                     " positions, depth " + std::to_string(depth[i]));
          if (ctl.stop_requested()) {
            r.note = "stopped by the time budget after exploring every line of " +
                     std::to_string(depth[i] > 0 ? depth[i] - 1 : 0) + " plies (" +
                     with_commas(table.size()) + " positions)";
            return done(PropertyResult::Status::kIncomplete);
          }
        }
        if (table.size() > limit) {
          r.at_limit = true;
          r.note = "stopped at the position limit (" + with_commas(limit) +
                   ") after exploring every line of " +
                   std::to_string(depth[i] > 0 ? depth[i] - 1 : 0) + " plies";
          return done(PropertyResult::Status::kIncomplete);
        }
      }
    }
  }
  return done(PropertyResult::Status::kHolds);
}

}  // namespace loom::solver
