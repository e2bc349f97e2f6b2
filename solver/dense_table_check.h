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
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/common/errors.h"
#include "model/common/game.h"
#include "solver/control.h"
#include "solver/dense.h"
#include "solver/dense_table.h"

namespace loom::solver {

/// What the check found: its figures, and the first position (in key
/// order) found wrong and why ("" if none).
struct TableCheckResult {
  uint64_t positions = 0;  ///< positions checked (all of the table's when it passes)
  uint64_t moves = 0;      ///< their legal moves
  double seconds = 0;
  std::string wrong;
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
    default:  // a draw has no plies (the reader and the check make sure)
      return "a draw";
  }
}

}  // namespace detail

/// Checks every position of t (a table of mv's job) on `threads` threads,
/// in pieces of the table with progress on ctl between them; stops with
/// Interrupted on a stop request (nothing to save).
template <DenseGame S>
TableCheckResult check_dense_table(const DenseTable& t, const DenseMoves<S>& mv, int threads,
                                   RunControl& ctl) {
  using M = DenseMoves<S>;
  const double start = ctl.elapsed();
  threads = std::clamp(threads, 1, 64);
  // The expected (code, plies) of the position s, or a reason it cannot be
  // (a missing successor, an end the table calls otherwise).
  const auto expected = [&](const S& s, std::vector<typename S::Move>& ms, uint64_t& moves,
                            std::string& why) -> std::pair<uint8_t, uint8_t> {
    if (s.is_terminal()) {
      why = "the position is over, which a table does not store";
      return {0, 0};
    }
    s.legal_moves(ms);
    moves += ms.size();
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
    if (!f.win && draw) return {DenseTable::kDraw, DenseTable::kNoPlies};
    if (1 + (f.win ? f.dmin_win : f.dmax) >= DenseTable::kNoPlies) {  // Fold::dist() throws
      why = "its line to the end is longer than a table holds";
      return {0, 0};
    }
    return {f.code(), f.dist()};
  };

  // Pieces of kPiece blocks, each shared out to the threads kGrain blocks
  // at a time. Each thread keeps the first position it finds wrong (its
  // slices come in key order); after a piece with any, the first of them
  // is the table's first.
  constexpr uint64_t kGrain = 64, kPiece = 8192;  // blocks (64 positions each)
  const uint64_t blocks = t.blocks();
  std::vector<std::vector<typename S::Move>> ms(threads);
  std::vector<uint64_t> moves(threads, 0);
  std::vector<std::pair<uint64_t, std::string>> wrong(threads);
  TableCheckResult r;
  for (uint64_t p0 = 0; p0 < blocks && r.wrong.empty(); p0 += kPiece) {
    ctl.status("dense: checking the table against the rules",
               with_commas(r.positions) + " of " + with_commas(t.size()) + " positions");
    if (ctl.stop_requested())
      throw Interrupted("the table check was stopped (nothing is saved: run it again)");
    const uint64_t p1 = std::min(blocks, p0 + kPiece);
    wrong.assign(threads, {~uint64_t{0}, ""});
    parallel_slices(threads, p1 - p0, kGrain, [&](int th, uint64_t lo, uint64_t hi) {
      uint32_t keys[DenseTable::kBlock];
      for (uint64_t b = p0 + lo; b < p0 + hi && wrong[th].second.empty(); ++b) {
        const uint32_t n = t.block_keys(b, keys);
        for (uint32_t j = 0; j < n; ++j) {
          const uint64_t i = b * DenseTable::kBlock + j;
          const S s = mv.decode(keys[j]);
          std::string why;
          const auto [code, plies] = expected(s, ms[th], moves[th], why);
          if (why.empty() && (code != t.code(i) || plies != t.plies(i)))
            why = "it holds " + detail::describe_code(t.code(i), t.plies(i)) +
                  ", its successors by the rules give " + detail::describe_code(code, plies);
          if (!why.empty()) {
            wrong[th] = {i, "the position (" + detail::describe_position(s) + "): " + why};
            break;
          }
        }
      }
    });
    r.positions = std::min(t.size(), p1 * DenseTable::kBlock);
    r.wrong = std::min_element(wrong.begin(), wrong.end())->second;  // by index; "" if none
  }
  for (uint64_t m : moves) r.moves += m;
  r.seconds = ctl.elapsed() - start;
  return r;
}

}  // namespace loom::solver
