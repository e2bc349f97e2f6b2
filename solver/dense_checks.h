// The property checks of solver/graph_checks.h over the dense index
// (solver/dense.h) instead of a hash table of positions: `loom verify
// --property ... --method dense`, and the method `auto` goes on by it where
// the hash check stops at its position limit. For the games the dense index
// takes (Gadur and Enfargar up to side 3), a position is its canonical
// base-3 key; the set of positions met is a bitmap over all keys (317 MiB on
// side 3 whatever the job), the successors come from DenseMoves::children
// (symmetric images merged, index arithmetic for the keys), and ends are not
// stored: a move into an end is seen as that end's value (a virtual child).
//
// - drawless: breadth-first by plies, a level at a time, its positions
//   expanded on several threads. A level is a set (which thread inserts a
//   key first does not matter), so the result is the same on any number of
//   threads: at the first level holding a position with a move into an end
//   without a winner, the witness is the one of those ends reached in the
//   fewest plies (then the smallest key), and its line back to the start
//   takes at each level the smallest key with a move to the next (found
//   by scanning the sorted level from its smallest key).
// - termination: depth-first from the start with a visited bitmap and the
//   keys on the line in a counting filter; a move to a key on the line closes
//   a cycle, lifted to real moves as in graph_checks.h.
//
// The witnesses are lifted to real moves and replayed from the start: the
// record reaches an end without a winner (drawless), or the cycle returns to
// the same position (termination); a lift that fails is a logic error.
// Counts differ from the hash check's: ends are not stored, a position after
// a pass that has a placement is the same board without the pass (dense.h),
// and `moves` counts each position's distinct successors.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/common/game.h"
#include "solver/control.h"
#include "solver/core.h"
#include "solver/dense.h"
#include "solver/graph_checks.h"

namespace loom::solver {

namespace dense_check_detail {

/// Keys are below 2 * 3^19 < 2^32 - 1: all ones is no stored position.
inline constexpr uint32_t kNoKey = ~uint32_t{0};

/// Real moves from x (updated) through the positions whose dense keys are
/// `chain` in turn, each a stored successor (not an end) of the one before.
template <DenseGame S>
std::vector<typename S::Move> lift(const DenseMoves<S>& dm, S& x,
                                   const std::vector<uint32_t>& chain) {
  return detail::lift_by(x, chain,
                         [&](const S& c) { return c.is_terminal() ? kNoKey : dm.key_of(c); });
}

inline constexpr uint64_t kNone = ~uint64_t{0};

/// A dense check's result before it runs; throws InputError where the
/// dense index cannot take the position.
template <DenseGame S>
PropertyResult start(const S& root, const char* property) {
  const std::string why = DenseMoves<S>::unsupported(root);
  if (!why.empty()) throw InputError("--method dense: " + why);
  PropertyResult r;
  r.property = property;
  r.method = "dense";
  return r;
}

}  // namespace dense_check_detail

/// drawless over the dense index (see the file comment); `threads` expand
/// each level's positions.
template <DenseGame S>
PropertyResult dense_drawless(const S& root, bool symmetry, RunControl& ctl, int threads) {
  using Moves = DenseMoves<S>;
  using Move = typename S::Move;
  PropertyResult r = dense_check_detail::start(root, "drawless");
  Moves dm(root, symmetry);
  DenseSet set(dm.codec().key_count());
  std::vector<std::vector<uint32_t>> levels{{dm.key_of(root)}};
  set.insert(levels[0][0]);
  uint64_t positions = 1;
  // A witness candidate: (plies past its position's level - 1) << 32 | key.
  using dense_check_detail::kNone;
  struct Part {
    uint64_t begin = 0, end = 0;
    std::vector<uint32_t> found;
    uint64_t moves = 0, best = kNone;
    // The line back: the part's first key with a move to the wanted one.
    uint32_t parent = dense_check_detail::kNoKey;
    std::exception_ptr error;
    typename Moves::Scratch sc;
  };
  const int t = std::max(1, threads);
  std::vector<OwnLines<Part>> parts(static_cast<size_t>(t));
  const auto done = [&](PropertyResult::Status st) {
    return detail::finish(r, st, positions, ctl, set.bytes() + positions * sizeof(uint32_t));
  };
  uint64_t best = kNone;
  size_t d = 0;
  for (;; ++d) {
    const std::vector<uint32_t>& level = levels[d];
    std::vector<uint32_t> next;
    r.depth = static_cast<int>(d);
    for (uint64_t i = 0; i < level.size();) {
      const uint64_t end = std::min<uint64_t>(level.size(), i + (uint64_t{1} << 16) * t);
      run_parts(i, end, parts, [&](Part& p) {
        try {
          auto& sc = p.sc;
          p.found.clear();
          p.moves = 0;
          p.best = kNone;
          std::vector<uint32_t>& pend = sc.pend;
          for (uint64_t base = p.begin; base < p.end; base += Moves::kChunk) {
            const uint64_t top = std::min<uint64_t>(p.end, base + Moves::kChunk);
            pend.clear();
            for (uint64_t j = base; j < top; ++j) {
              const S s = dm.decode(level[j]);
              dm.children(s, sc);
              p.moves += sc.kids.size();
              for (const auto& k : sc.kids) {
                if (k.code == Moves::kUnknown) {
                  set.prefetch(k.key);
                  pend.push_back(k.key);
                } else if (k.code == Moves::kNeutral) {
                  p.best = std::min(p.best, uint64_t{k.dist} << 32 | level[j]);
                }
              }
            }
            for (uint32_t k : pend)
              if (set.insert(k)) p.found.push_back(k);
          }
        } catch (...) {
          p.error = std::current_exception();
        }
      });
      for (const Part& p : parts) {
        r.moves += p.moves;
        best = std::min(best, p.best);
        next.insert(next.end(), p.found.begin(), p.found.end());
        positions += p.found.size();
      }
      ctl.work(end - i);
      i = end;
      ctl.status("drawless (dense): " + with_commas(positions) + " positions, depth " +
                 std::to_string(d));
      if (ctl.stop_requested()) {
        r.note = "stopped by the time budget after exploring every line of " +
                 std::to_string(d > 0 ? d - 1 : 0) + " plies (" + with_commas(positions) +
                 " positions)";
        return done(PropertyResult::Status::kIncomplete);
      }
    }
    if (best != kNone) break;
    if (next.empty()) return done(PropertyResult::Status::kHolds);
    levels.push_back(std::move(next));
  }
  // The witness: its position P at level d, then back a level at a time to
  // the smallest key with a move to the one after: the level sorted, and
  // scanned in increasing order (in batches over the threads, each part
  // stopping at its first hit) until a batch holds one.
  const int extra = static_cast<int>(best >> 32);
  std::vector<uint32_t> chain{static_cast<uint32_t>(best)};
  for (size_t j = d; j-- > 0;) {
    const uint32_t want = chain.back();
    std::vector<uint32_t>& level = levels[j];
    std::sort(level.begin(), level.end());
    const Part* hit = nullptr;
    for (uint64_t i = 0; i < level.size() && !hit;) {
      const uint64_t end = std::min<uint64_t>(level.size(), i + (uint64_t{1} << 12) * t);
      run_parts(i, end, parts, [&](Part& p) {
        try {
          p.parent = dense_check_detail::kNoKey;
          for (uint64_t q = p.begin; q < p.end && p.parent == dense_check_detail::kNoKey; ++q) {
            dm.children(dm.decode(level[q]), p.sc);
            for (const auto& k : p.sc.kids)
              if (k.code == Moves::kUnknown && k.key == want) p.parent = level[q];
          }
        } catch (...) {
          p.error = std::current_exception();
        }
      });
      // The parts hold increasing ranges: the first with a parent has the smallest.
      for (const Part& p : parts)
        if (p.parent != dense_check_detail::kNoKey) {
          hit = &p;
          break;
        }
      i = end;
    }
    if (!hit) throw std::logic_error("dense drawless: a level has no parent");
    chain.push_back(hit->parent);
  }
  chain.pop_back();  // the start
  std::reverse(chain.begin(), chain.end());
  S x = root;
  std::vector<Move> line = dense_check_detail::lift(dm, x, chain);
  // The move into the end (and after a pass the only answer, a pass that
  // ends the game): a virtual child of the position, as children() saw it.
  std::vector<Move> ms, answer;  // answer: not ms, which the loop walks
  typename S::Undo u;
  x.legal_moves(ms);
  bool found = false;
  for (const Move& m : ms) {
    S c = x;
    c.apply(m, u);
    const auto end = dm.end_code(c);
    if (!end || end->first != Moves::kNeutral || end->second != extra) continue;
    line.push_back(m);
    if (extra == 1) {  // the only answer
      c.legal_moves(answer);
      line.push_back(answer[0]);
      c.apply(answer[0], u);
    }
    r.outcome = outcome_name(c.outcome().kind);
    found = true;
    break;
  }
  if (!found) throw std::logic_error("dense drawless: the witness has no move into its end");
  r.record = detail::names(root, line);
  r.depth = static_cast<int>(line.size());
  return done(PropertyResult::Status::kFails);
}

/// termination over the dense index (see the file comment), on one thread.
template <DenseGame S>
PropertyResult dense_termination(const S& root, bool symmetry, RunControl& ctl) {
  using Moves = DenseMoves<S>;
  using Move = typename S::Move;
  PropertyResult r = dense_check_detail::start(root, "termination");
  Moves dm(root, symmetry);
  DenseSet seen(dm.codec().key_count());
  // The keys on the line: a counting filter (a key's count is nonzero
  // while a key of its bucket is on the line; the line is searched only
  // then).
  std::vector<uint32_t> on_line(1 << 16, 0);
  const auto bucket = [](uint32_t k) { return (k * uint64_t{0x9E3779B1}) >> 16 & 0xffff; };
  struct Frame {
    uint32_t key = 0;
    std::vector<uint32_t> kids;
    size_t next = 0;
  };
  std::vector<Frame> stack;  // frames [0, top) are the line
  size_t top = 0;
  typename Moves::Scratch sc;
  uint64_t positions = 0;
  const auto push = [&](uint32_t key) {
    if (top == stack.size()) stack.emplace_back();
    Frame& f = stack[top++];
    f.key = key;
    f.next = 0;
    f.kids.clear();
    dm.children(dm.decode(key), sc);
    r.moves += sc.kids.size();
    for (const auto& k : sc.kids)
      if (k.code == Moves::kUnknown) {
        f.kids.push_back(k.key);
        seen.prefetch(k.key);
      }
    ++on_line[bucket(key)];
    ++positions;
    r.depth = std::max(r.depth, static_cast<int>(top) - 1);
  };
  const auto done = [&](PropertyResult::Status st) {
    return detail::finish(r, st, positions, ctl, seen.bytes());
  };
  seen.insert(dm.key_of(root));
  push(dm.key_of(root));
  uint64_t steps = 0;
  while (top > 0) {
    Frame& f = stack[top - 1];
    if (f.next == f.kids.size()) {
      --on_line[bucket(f.key)];
      --top;
      continue;
    }
    const uint32_t k = f.kids[f.next++];
    if (seen.insert(k)) {
      push(k);  // (f may move)
    } else if (on_line[bucket(k)] != 0) {
      size_t d = 0;
      while (d < top && stack[d].key != k) ++d;
      if (d < top) {
        // A cycle: from frame d along the line, then the move to k (an
        // image of frame d's position).
        std::vector<uint32_t> pre, seg;
        for (size_t i = 1; i <= d; ++i) pre.push_back(stack[i].key);
        for (size_t i = d + 1; i < top; ++i) seg.push_back(stack[i].key);
        seg.push_back(k);
        S x = root;
        const std::vector<Move> prefix = dense_check_detail::lift(dm, x, pre);
        const S start = x;
        const std::vector<Move> loop = dense_check_detail::lift(dm, x, seg);
        r.record = detail::names(root, prefix);
        r.cycle = detail::names(start, detail::closed_cycle(start, x, loop));
        return done(PropertyResult::Status::kFails);
      }
    }
    if (++steps % 4096 == 0) {
      ctl.work(4096);
      ctl.status("termination (dense): " + with_commas(positions) + " positions, line of " +
                 std::to_string(top) + " plies");
      if (ctl.stop_requested()) {
        r.note = "stopped by the time budget after " + with_commas(positions) + " positions";
        return done(PropertyResult::Status::kIncomplete);
      }
    }
  }
  return done(PropertyResult::Status::kHolds);
}

}  // namespace loom::solver
