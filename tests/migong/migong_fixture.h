// Test helpers for Migong: contexts, records and board diagrams.
//
// Diagram: rows top (row 2n-1) to bottom (row 1), one whitespace-separated
// token per site, any indentation:
//   .          an empty cell
//   *          the centre (required at the centre, nowhere else)
//   BYYBBY     a piece (wedges E NE NW W SW SE) from Blue's set if it has a
//              B, else from Yellow's
//   y:BYYBBY   a piece from Yellow's set (b: for Blue's, explicitly)
#pragma once

#include <algorithm>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "model/migong/migong.h"

namespace loom::testing {

template <int W>
struct MigongBoard {
  using State = migong::State<W>;
  using Move = typename State::Move;
  std::shared_ptr<const migong::Context<W>> ctx;

  explicit MigongBoard(int side, migong::Options o = {}) : ctx(migong::Context<W>::make(side, o)) {}
  MigongBoard(int side, migong::Options o, const migong::EdgeColouring& e)
      : ctx(migong::Context<W>::make(side, o, e)) {}

  const HexGeometry& geo() const { return ctx->geo(); }
  State start() const { return State(ctx.get()); }
  int site(std::string_view name) const {
    auto s = geo().parse(name);
    if (!s) throw std::invalid_argument("no site " + std::string(name));
    return *s;
  }
  Move move(std::string_view token) const {
    auto m = start().parse_move(token);
    if (!m) throw std::invalid_argument("malformed token " + std::string(token));
    return *m;
  }

  static bool is_legal(const State& s, const Move& m) {
    std::vector<Move> ms;
    s.legal_moves(ms);
    return std::binary_search(ms.begin(), ms.end(), m);
  }
  bool legal(const State& s, std::string_view token) const { return is_legal(s, move(token)); }

  /// Plays a record; throws on an illegal token.
  State play(std::string_view record, State s) const {
    std::istringstream in{std::string(record)};
    std::string tok;
    while (in >> tok) {
      Move m = move(tok);
      if (!is_legal(s, m)) throw std::invalid_argument("illegal token in test record: " + tok);
      typename State::Undo u;
      s.apply(m, u);
    }
    return s;
  }
  State play(std::string_view record) const { return play(record, start()); }

  /// Builds a position from a diagram (pieces put without checking legality).
  State from_diagram(std::string_view text, Color to_move = Color::kBlack) const {
    const HexGeometry& g = geo();
    const int n = g.side();
    std::vector<std::vector<std::string>> rows;
    std::istringstream in{std::string(text)};
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream ls(line);
      std::vector<std::string> row;
      std::string tok;
      while (ls >> tok) row.push_back(tok);
      if (!row.empty()) rows.push_back(row);
    }
    if (static_cast<int>(rows.size()) != 2 * n - 1)
      throw std::invalid_argument("diagram needs " + std::to_string(2 * n - 1) + " rows");
    State s = start();
    for (int i = 0; i < 2 * n - 1; ++i) {
      int r = 2 * n - 2 - i;
      int qlo = std::max(0, r - (n - 1)), qhi = std::min(2 * n - 2, r + n - 1);
      if (static_cast<int>(rows[i].size()) != qhi - qlo + 1)
        throw std::invalid_argument("diagram row " + std::to_string(r + 1) + ": wrong length");
      for (int q = qlo; q <= qhi; ++q) {
        std::string tok = rows[i][q - qlo];
        int site = g.site(q, r);
        if ((tok == "*") != (site == g.centre()))
          throw std::invalid_argument("diagram: '*' marks exactly the centre");
        if (tok == "." || tok == "*") continue;
        Color owner = tok.find('B') != std::string::npos ? Color::kBlack : Color::kWhite;
        if (tok.size() == 8 && tok[1] == ':') {
          owner = tok[0] == 'y' ? Color::kWhite : Color::kBlack;
          tok = tok.substr(2);
        }
        auto p = migong::parse_pattern(tok);
        if (!p) throw std::invalid_argument("diagram: bad token " + tok);
        s.put(site, owner, *p);
      }
    }
    s.set_to_move(to_move);
    return s;
  }
};

}  // namespace loom::testing
