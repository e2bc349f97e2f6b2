// The interface every deterministic game implements (a C++20 concept), the
// shared result types, and generic perft.
//
// A game state is a value type: copying it clones the position. Hot paths use
// apply(m, undo) / undo(m, undo) with an undo record holding only what cannot
// be recomputed (the Stockfish pattern); a copy is the always-correct fallback.
#pragma once

#include <concepts>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/common/errors.h"

namespace loom {

enum class Color : uint8_t { kBlack = 0, kWhite = 1 };
constexpr Color other(Color c) {
  return c == Color::kBlack ? Color::kWhite : Color::kBlack;
}
constexpr int idx(Color c) {
  return static_cast<int>(c);
}
inline const char* color_name(Color c) {
  return c == Color::kBlack ? "black" : "white";
}

/// Result of a position. kOngoing for a position still in play.
struct Outcome {
  enum class Kind : uint8_t {
    kOngoing,
    kBlackWins,
    kWhiteWins,
    kDraw,        ///< a drawn end the rules define (e.g. Long Nardy end=last-roll)
    kUnresolved,  ///< an end the rules give no result for (Enfargar stall)
  };
  Kind kind = Kind::kOngoing;
  /// Black's score minus White's, in half points (Fiodar); 0 for other games.
  int32_t margin2 = 0;

  static Outcome win(Color c) { return {c == Color::kBlack ? Kind::kBlackWins : Kind::kWhiteWins}; }
  bool ongoing() const { return kind == Kind::kOngoing; }
  bool operator==(const Outcome&) const = default;
};
const char* outcome_name(Outcome::Kind k);

/// A deterministic two-player game state.
///
/// - operator==: same position (and history, where a rule depends on it).
/// - legal_moves(out): clears `out` and fills it with the legal moves, sorted
///   ascending by Move's operator< and without duplicates; empty iff terminal.
/// - apply(m, u): plays legal move m, saving what undo needs in u.
/// - undo(m, u): restores the state before apply(m, u) exactly (hash included).
/// - hash(): incrementally maintained; recompute_hash() recomputes it from scratch.
/// - check_invariants(): "" if the state is consistent, else a description.
/// - move_name / parse_move: text tokens (CONVENTIONS.md); parse_move checks
///   the syntax and the board, not legality (nullopt if malformed).
template <class S>
concept Game = std::copyable<S> && std::equality_comparable<S> &&
    requires(S& s, const S& cs, const typename S::Move& m, typename S::Undo& u,
             std::vector<typename S::Move>& ms, std::string_view token) {
  typename S::Move;
  typename S::Undo;
  requires std::totally_ordered<typename S::Move>;
  { cs.legal_moves(ms) } -> std::same_as<void>;
  { s.apply(m, u) } -> std::same_as<void>;
  { s.undo(m, u) } -> std::same_as<void>;
  { cs.hash() } -> std::same_as<uint64_t>;
  { cs.recompute_hash() } -> std::same_as<uint64_t>;
  { cs.is_terminal() } -> std::same_as<bool>;
  { cs.outcome() } -> std::same_as<Outcome>;
  { cs.to_move() } -> std::same_as<Color>;
  { cs.move_name(m) } -> std::same_as<std::string>;
  { cs.parse_move(token) } -> std::same_as<std::optional<typename S::Move>>;
  { cs.check_invariants() } -> std::same_as<std::string>;
};

/// A game on a hex board that knows how the 12 board symmetries act on it.
/// transformed(k) is the position mapped by symmetry k (HexGeometry::map_site);
/// map_move(k, m) maps a move the same way.
template <class S>
concept SymmetricGame = Game<S> && requires(const S& cs, const typename S::Move& m, int k) {
  { cs.transformed(k) } -> std::same_as<S>;
  { cs.map_move(k, m) } -> std::same_as<typename S::Move>;
};

/// A game that can count its legal moves faster than listing them (bulk perft).
template <class S>
concept CountsMoves = requires(const S& cs) {
  { cs.count_legal_moves() } -> std::convertible_to<uint64_t>;
};

/// Scratch move lists, one per ply, reused so that perft allocates nothing
/// per move once warmed up. A deque: growing it keeps earlier lists in place.
template <class Move>
struct MoveStack {
  std::deque<std::vector<Move>> lists;
  std::vector<Move>& at(int ply) {
    if (static_cast<int>(lists.size()) <= ply) lists.resize(ply + 1);
    return lists[ply];
  }
};

/// The deepest perft the toolkit runs (issue 17): the recursion is one stack
/// frame a ply, and games that can loop (Gadur) have no natural depth bound.
/// Every board's longest game without a loop is shorter (469 cells on side 13).
inline constexpr int kMaxPerftDepth = 1000;

namespace detail {
template <Game S>
uint64_t perft_rec(S& s, int depth, int ply, MoveStack<typename S::Move>& stack, bool bulk) {
  if (depth == 0) return 1;
  if constexpr (CountsMoves<S>) {
    if (bulk && depth == 1) return s.count_legal_moves();
  }
  auto& moves = stack.at(ply);
  s.legal_moves(moves);
  if (depth == 1) return moves.size();
  uint64_t total = 0;
  typename S::Undo u;
  for (size_t i = 0; i < moves.size(); ++i) {
    const auto m = moves[i];
    s.apply(m, u);
    uint64_t n = perft_rec(s, depth - 1, ply + 1, stack, bulk);
    s.undo(m, u);
    if (__builtin_add_overflow(total, n, &total))
      throw InputError("perft: the count exceeds 2^64 - 1 (choose a smaller depth)");
  }
  return total;
}

inline void check_perft_depth(int depth) {
  if (depth < 0 || depth > kMaxPerftDepth)
    throw InputError("perft depth must be 0.." + std::to_string(kMaxPerftDepth) + ", got " +
                     std::to_string(depth));
}
}  // namespace detail

/// Number of leaf nodes at `depth` (CONVENTIONS.md): perft(p, 0) = 1, a
/// finished game has no moves. `bulk` lets the last ply be counted without
/// listing moves where the game supports it.
template <Game S>
uint64_t perft(S s, int depth, bool bulk = true) {
  detail::check_perft_depth(depth);
  MoveStack<typename S::Move> stack;
  return detail::perft_rec(s, depth, 0, stack, bulk);
}

/// Per-move split of perft: (move, perft(after move, depth-1)), in legal_moves order.
template <Game S>
std::vector<std::pair<typename S::Move, uint64_t>> perft_divide(S s, int depth) {
  std::vector<std::pair<typename S::Move, uint64_t>> out;
  if (depth <= 0) return out;
  detail::check_perft_depth(depth);
  std::vector<typename S::Move> moves;
  s.legal_moves(moves);
  MoveStack<typename S::Move> stack;
  typename S::Undo u;
  for (const auto& m : moves) {
    s.apply(m, u);
    out.emplace_back(m, detail::perft_rec(s, depth - 1, 1, stack, true));
    s.undo(m, u);
  }
  return out;
}

}  // namespace loom
