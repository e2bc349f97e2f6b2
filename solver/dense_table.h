// The table a finished dense solve leaves (`loom solve --method dense
// --save-table FILE`), and its reader (`--table FILE`): every stored
// position's value in 2 bits and its plies to the end in a byte, so that
// any position of the job can be answered later (value, openings, best
// play) without solving again.
//
// File: a checkpoint file (solver/checkpoint.h: written atomically, a
// checksum, kind "dense-table"; the signature names the game, board,
// rules and symmetry, not the record: one table answers every position in
// it). Payload: format version; the record the table was solved from;
// the solve's figures (moves, moves to an end, layers);
// the neutral value's kind; the keys in increasing order, in blocks of
// kBlock (each block's first key and the byte offset of its gaps; then
// each later key as a varint of its gap to the one before, less one); the
// values, 2 bits a position (0 draw: undecided at the fixed point, 1 the
// side to move wins, 2 it loses, 3 neutral); the plies, a byte a position
// (255: none, a draw). Every field's form is checked when the file is read
// (sizes, keys in order and in range, plies that fit their values), and
// the values a report reads are checked against each other and against the
// rules' results at the ends it meets; a damaged file is reported as
// corrupt, never half used. An edit that keeps all of that consistent (the
// checksum recomputed) is detected only by the whole check of
// solver/dense_table_check.h (`--check-table`; docs/robustness.md).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "solver/value.h"

namespace loom::solver {

class DenseTable {
 public:
  static constexpr uint32_t kBlock = 64;
  static constexpr uint8_t kNoPlies = 0xff;
  /// Value codes (the side to move's view), as the dense solver's.
  enum Code : uint8_t { kDraw = 0, kWin = 1, kLoss = 2, kNeutral = 3 };

  /// The solve that made the table, as its report gave them.
  struct Stats {
    uint64_t moves = 0, ends = 0, layers = 0;
  };

  /// An empty table, to be filled with add() in increasing key order.
  DenseTable() = default;
  /// Reads and checks FILE: InputError (exit 2) naming it if it is not a
  /// sound table of this signature, or holds a key >= key_limit.
  DenseTable(const std::string& path, std::string_view signature, uint64_t key_limit);

  /// Appends a position (keys strictly increasing).
  void add(uint32_t key, uint8_t code, uint8_t plies);
  /// Writes the table atomically to path.
  void save(const std::string& path, std::string_view signature) const;
  /// Before a solve that will save its table at `path` (checked under the
  /// table's lock, before any work): why the file there must not be
  /// written over, or "" if it may be: no file, an empty one, or this
  /// job's table solved from `root_record` (the solve writes the same
  /// table again). Anything else (another job's table, one solved from
  /// another position, a damaged one, a file that is no table) holds work
  /// the solve would destroy.
  static std::string why_not_replace(const std::string& path, std::string_view signature,
                                     std::string_view root_record);
  /// Where a table was solved from, in messages: "the start", or "the
  /// position after \"RECORD\"".
  static std::string solved_from(std::string_view record);

  /// The position number of a key, or -1 if it is not in the table.
  int64_t find(uint32_t key) const;
  uint8_t code(uint64_t i) const { return (values_[i / 4] >> (2 * (i % 4))) & 3; }
  uint8_t plies(uint64_t i) const { return plies_[i]; }
  uint64_t size() const { return n_; }
  /// Blocks of kBlock positions (the last one may hold fewer).
  uint64_t blocks() const { return first_.size(); }
  /// The keys of block b (positions b * kBlock on), in order, into out;
  /// returns how many.
  uint32_t block_keys(uint64_t b, uint32_t* out) const;
  /// The arrays' bytes, as the file holds them.
  uint64_t bytes() const {
    return first_.size() * sizeof(uint32_t) + offset_.size() * sizeof(uint64_t) + gaps_.size() +
           values_.size() + plies_.size();
  }

  std::string root_record;  ///< the record the table was solved from ("" = the start)
  Stats stats;
  Value::Kind neutral = Value::Kind::kUnknown;  ///< what code kNeutral means

 private:
  uint64_t n_ = 0;
  uint32_t last_ = 0;
  std::vector<uint32_t> first_;   ///< each block's first key
  std::vector<uint64_t> offset_;  ///< each block's first gap in gaps_
  std::vector<uint8_t> gaps_;     ///< varints: key - previous key - 1
  std::vector<uint8_t> values_;   ///< 2 bits a position
  std::vector<uint8_t> plies_;
};

}  // namespace loom::solver
