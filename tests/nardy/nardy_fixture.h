// Test helpers for Long Nardy: board diagrams as raw strings and turn lists.
//
// A diagram is the board as `loom show nardy` draws it: a row of points
// 13..24 above a row of points 12..1, each cell `.` or a count with W/B
// (`15W`, `2B`); `|` and rows of point labels are ignored. So
//
//      13  14  15  16  17  18 |  19  20  21  22  23  24
//       .   .   .   .   .   . |   .   .   .   .   . 15W
//     15B   .   .   .   .   . |   .   .   .   .   .   .
//      12  11  10   9   8   7 |   6   5   4   3   2   1
//
// is the start position.
#pragma once

#include <algorithm>
#include <cctype>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "model/nardy/movegen.h"
#include "model/nardy/nardy.h"

namespace loom::testing {

inline nardy::Position nardy_diagram(std::string_view text, Color to_move) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::vector<std::string> cells;
    std::string tok;
    bool labels = true;
    while (ls >> tok) {
      if (tok == "|") continue;
      cells.push_back(tok);
      labels &= std::all_of(tok.begin(), tok.end(), [](char c) { return std::isdigit(c); });
    }
    if (cells.empty() || labels) continue;
    rows.push_back(cells);
  }
  if (rows.size() != 2 || rows[0].size() != 12 || rows[1].size() != 12)
    throw std::invalid_argument("a nardy diagram needs two rows of 12 cells");
  nardy::Position p;
  for (int i = 0; i < 12; ++i) {
    for (int row = 0; row < 2; ++row) {
      const std::string& c = rows[row][i];
      int point = row == 0 ? 13 + i : 12 - i;
      int v = 0;
      if (c != ".") {
        char colour = c.back();
        int n = std::stoi(c.substr(0, c.size() - 1));
        if (colour == 'W')
          v = n;
        else if (colour == 'B')
          v = -n;
        else
          throw std::invalid_argument("bad diagram cell " + c);
      }
      p.set(point, v);
    }
  }
  p.set_to_move(to_move);
  std::string bad = p.check_invariants();
  if (!bad.empty()) throw std::invalid_argument(bad);
  return p;
}

/// Applies the steps of `turn` ("24/18 18/13", "5/off") for the side to move
/// without checking legality, then passes the turn. For building expectations.
inline nardy::Position after_steps(nardy::Position p, std::string_view turn) {
  Color me = p.to_move();
  int sign = me == Color::kWhite ? 1 : -1;
  std::istringstream in{std::string(turn)};
  std::string step;
  while (in >> step) {
    auto slash = step.find('/');
    int from = std::stoi(step.substr(0, slash));
    std::string to = step.substr(slash + 1);
    p.set(from, p.at(from) - sign);
    if (to != "off") p.set(std::stoi(to), p.at(std::stoi(to)) + sign);
  }
  p.set_to_move(other(me));
  return p;
}

/// The generator's children of `roll`, sorted by "POSITION TURN".
inline std::vector<nardy::Child> children_of(const nardy::Position& p, const char* dice,
                                             nardy::Options opt = {}) {
  nardy::TurnGenerator g(opt);
  std::vector<nardy::Child> out;
  g.turns(p, *nardy::Roll::parse(dice), out);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.position.to_string() + " " + a.turn.text() <
           b.position.to_string() + " " + b.turn.text();
  });
  return out;
}

/// The canonical turn texts of `roll`, sorted.
inline std::vector<std::string> turn_texts(const nardy::Position& p, const char* dice,
                                           nardy::Options opt = {}) {
  std::vector<std::string> out;
  for (const auto& c : children_of(p, dice, opt)) out.push_back(c.turn.text());
  std::sort(out.begin(), out.end());
  return out;
}

/// Whether some legal turn of `roll` ends in the position `turn` leads to.
inline bool reaches(const nardy::Position& p, const char* dice, std::string_view turn,
                    nardy::Options opt = {}) {
  nardy::Position target = after_steps(p, turn);
  for (const auto& c : children_of(p, dice, opt))
    if (c.position == target) return true;
  return false;
}

}  // namespace loom::testing
