// The check of a whole saved dense table (`loom solve --table FILE
// --check-table`): every stored position's value and plies must be what
// its successors' give, the successors found by the rules' own move
// generator (legal_moves, apply), the ends valued by the rules' result.
//
// Why that suffices. The solve's values are the least fixed point of the
// rule "a win if some successor is lost for its mover, at 1 + the fewest
// plies of those; else a draw if some successor is a draw; else neutral if
// some successor is neutral, else a loss, at 1 + the most plies of all";
// the check asks each position for exactly that. A table that passes is
// that fixed point: by induction on the plies a table gives, every position
// it calls decided is decided with those plies (its successors carry fewer
// and the ends are the rules'), and every truly decided position is called
// so (by induction on its true plies: its successors are called right, and
// the rule then leaves it no other value). So no edit of the values, the
// plies or the neutral value's kind, whatever checksum the file carries,
// passes unless it leaves them the solve's. The solve's figures the file
// also carries (moves, moves to an end, layers: how the solve went) are not
// derived again; the report prints them as the file gives them.
//
// It shares with the solver only the key codec (board digits and the 12
// symmetries) and DenseMoves::end_code (the rules' result at an end, and
// Enfargar's pass that ends the game); not its successor or predecessor
// generation, counters or layers.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "model/common/errors.h"
#include "model/common/game.h"
#include "solver/control.h"
#include "solver/dense.h"
#include "solver/dense_table.h"

namespace loom::solver {

struct TableCheckResult {
  uint64_t positions = 0;  ///< positions checked (all of the table's when it passes)
  uint64_t moves = 0;      ///< their legal moves
  std::string wrong;       ///< the first position (in key order) found wrong, and why
};

/// What table_entry finds wrong with a position's entry.
enum class EntryFault {
  kNone,
  kMissing,  ///< not an end and not in the table
  kNeutral,  ///< an end without a winner that the table's neutral value does not name
};

/// A position's value code (the side to move's view) and plies as a
/// finished table holds them: an end's (and a move that must end the game:
/// DenseMoves::end_code) by the rules, any other from the table. What the
/// report (`--table`) and the check read alike.
template <DenseGame S>
EntryFault table_entry(const DenseTable& t, const DenseMoves<S>& mv, const S& s, uint8_t& code,
                       int& plies) {
  using M = DenseMoves<S>;
  if (auto e = mv.end_code(s)) {
    std::tie(code, plies) = *e;
    if (code != M::kNeutral) return EntryFault::kNone;
    // The end itself: s, or after s's only move, a pass that ends the game
    // (Enfargar's stalls are all reached that way from a stored board).
    S end = s;
    if (!end.is_terminal()) {
      std::vector<typename S::Move> ms;
      end.legal_moves(ms);
      typename S::Undo u;
      end.apply(ms.at(0), u);
    }
    const Value::Kind kind =
        end.outcome().kind == Outcome::Kind::kDraw ? Value::Kind::kDraw : Value::Kind::kStall;
    return t.neutral == kind ? EntryFault::kNone : EntryFault::kNeutral;
  }
  const int64_t i = t.find(mv.key_of(s));
  if (i < 0) return EntryFault::kMissing;
  code = t.code(static_cast<uint64_t>(i));
  plies = t.plies(static_cast<uint64_t>(i));
  return EntryFault::kNone;
}

namespace detail {

/// "black a1 b2, white c3, white to move" ("the empty board, black to
/// move")
template <DenseGame S>
std::string describe_position(const S& s) {
  const std::string mover = s.to_move() == Color::kBlack ? "black" : "white";
  if (s.stones(Color::kBlack).none() && s.stones(Color::kWhite).none())
    return "the empty board, " + mover + " to move";
  std::string out;
  for (Color c : {Color::kBlack, Color::kWhite}) {
    out += (c == Color::kBlack ? "black" : ", white");
    const auto stones = s.stones(c);
    if (stones.none()) out += " none";
    stones.for_each([&](int site) {
      out.push_back(' ');
      out.append(s.geo().name(site));
    });
  }
  return out + ", " + mover + " to move";
}

inline std::string describe_code(uint8_t code, int plies) {
  const std::string in = " in " + std::to_string(plies) + (plies == 1 ? " ply" : " plies");
  switch (code) {
    case DenseTable::kWin:
      return "the side to move wins" + in;
    case DenseTable::kLoss:
      return "the side to move loses" + in;
    case DenseTable::kNeutral:
      return "neutral" + in;
    default:
      return plies == DenseTable::kNoPlies ? "a draw"
                                           : "a draw with plies " + std::to_string(plies);
  }
}

}  // namespace detail

/// Checks every position of t (a table of mv's job) on `threads` threads,
/// showing progress on ctl; stops with Interrupted on a stop request.
template <DenseGame S>
TableCheckResult check_dense_table(const DenseTable& t, const DenseMoves<S>& mv, int threads,
                                   RunControl& ctl) {
  using M = DenseMoves<S>;
  const uint64_t blocks = t.blocks();
  constexpr uint64_t kGrain = 64;  // blocks a grab: 4,096 positions
  std::atomic<uint64_t> next{0}, checked{0}, moves{0};
  std::atomic<bool> stop{false};
  std::mutex mu;
  uint64_t wrong_at = ~uint64_t{0};
  std::string wrong;
  std::exception_ptr error;

  // The expected (code, plies) of the position with key `key`, or a reason
  // it cannot be (a missing successor, an end the table calls otherwise).
  const auto expected = [&](uint32_t key, std::vector<typename S::Move>& ms, uint64_t& nmoves,
                            std::string& why) -> std::pair<uint8_t, uint8_t> {
    const S s = mv.decode(key);
    if (s.is_terminal()) {
      why = "the position is over, which a table does not store";
      return {0, 0};
    }
    s.legal_moves(ms);
    nmoves += ms.size();
    typename M::Fold f;
    bool draw = false;
    typename S::Undo u;
    for (const auto& m : ms) {
      S c = s;
      c.apply(m, u);
      uint8_t code = 0;
      int plies = 0;
      const EntryFault fault = table_entry(t, mv, c, code, plies);
      if (fault != EntryFault::kNone) {
        why = "after " + s.move_name(m) +
              (fault == EntryFault::kMissing
                   ? ", the position is not in the table"
                   : " the game ends without a winner, which the table's neutral value is not");
        return {0, 0};
      }
      if (code == DenseTable::kDraw)
        draw = true;
      else
        f.add(code, plies);
    }
    if (ms.empty()) {
      why = "the position has no move";
      return {0, 0};
    }
    if (!f.win && draw) return {DenseTable::kDraw, DenseTable::kNoPlies};
    if (1 + (f.win ? f.dmin_win : f.dmax) >= DenseTable::kNoPlies) {
      why = "its line to the end is longer than a table holds";
      return {0, 0};
    }
    return {f.code(), f.dist()};
  };

  const auto worker = [&] {
    try {
      std::vector<typename S::Move> ms;
      uint32_t keys[DenseTable::kBlock];
      for (;;) {
        const uint64_t b0 = next.fetch_add(kGrain);
        if (b0 >= blocks || stop.load(std::memory_order_relaxed)) return;
        uint64_t nmoves = 0, npos = 0;
        for (uint64_t b = b0; b < std::min(blocks, b0 + kGrain); ++b) {
          const uint32_t n = t.block_keys(b, keys);
          for (uint32_t j = 0; j < n; ++j) {
            const uint64_t i = b * DenseTable::kBlock + j;
            std::string why;
            const auto [code, plies] = expected(keys[j], ms, nmoves, why);
            ++npos;
            if (why.empty() && (code != t.code(i) || plies != t.plies(i)))
              why = "it holds " + detail::describe_code(t.code(i), t.plies(i)) +
                    ", its successors by the rules give " + detail::describe_code(code, plies);
            if (!why.empty()) {
              std::lock_guard<std::mutex> g(mu);
              if (i < wrong_at) {
                wrong_at = i;
                wrong =
                    "the position (" + detail::describe_position(mv.decode(keys[j])) + "): " + why;
              }
              // Blocks below this one may still be running: they finish.
              stop.store(true, std::memory_order_relaxed);
              break;
            }
          }
        }
        checked.fetch_add(npos, std::memory_order_relaxed);
        moves.fetch_add(nmoves, std::memory_order_relaxed);
      }
    } catch (...) {
      std::lock_guard<std::mutex> g(mu);
      if (!error) error = std::current_exception();
      stop.store(true);
    }
  };
  const int n = std::max(1, std::min<int>(threads, 64));
  std::vector<std::thread> pool;
  for (int i = 1; i < n; ++i) pool.emplace_back(worker);
  bool interrupted = false;
  std::thread watcher([&] {
    while (next.load() < blocks && !stop.load()) {
      ctl.status("dense: checking the table against the rules",
                 with_commas(checked.load()) + " of " + with_commas(t.size()) + " positions");
      if (ctl.stop_requested()) {
        interrupted = true;
        stop.store(true);
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  worker();
  for (auto& th : pool) th.join();
  next.store(blocks);
  watcher.join();
  if (error) std::rethrow_exception(error);
  if (interrupted)  // (a position found wrong may not be the first)
    throw Interrupted("the table check was stopped (nothing is saved: run it again)");
  return {checked.load(), moves.load(), wrong};
}

}  // namespace loom::solver
