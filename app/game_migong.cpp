// Migong on the command line: the game, `--edges FILE`, the text drawing and
// `loom score`.
#include "app/game_migong.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "app/registry.h"
#include "model/common/files.h"
#include "model/migong/migong.h"

namespace loom {

namespace {

const char* colour_word(Color c) {
  return c == Color::kBlack ? "blue" : "yellow";
}
std::string colour_title(Color c) {
  return c == Color::kBlack ? "Blue" : "Yellow";
}

/// One cell as a 3-line block of 5 characters (cells 8 columns apart):
///    NW NE          " a b "
///   W  o  E   ->    "c o d"
///    SW SE          " e f "
/// Pieces: wedges B/Y, o = the set it came from (b or y). Empty cells: b/y =
/// the colour an edge or neighbour requires of that wedge, '.' = free.
/// Centre: the border's colours, o = '#'.
template <int W>
std::array<std::string, 3> cell_block(const migong::State<W>& s, int site) {
  char w[6], o;
  const auto& ctx = s.context();
  if (site == s.geo().centre()) {
    const auto& e = ctx.edges();
    for (int j = 0; j < 6; ++j) {
      int cell = s.geo().neighbour(site, j);
      w[j] = e.is_blue(cell, opposite(j)) ? 'B' : 'Y';
    }
    o = '#';
  } else if (s.occupied().test(site)) {
    int p = s.pattern_at(site);
    for (int i = 0; i < 6; ++i) w[i] = (p >> i) & 1 ? 'B' : 'Y';
    o = s.placed_from(Color::kBlack).test(site) ? 'b' : 'y';
  } else {
    int c = s.constraint(site);
    for (int i = 0; i < 6; ++i) w[i] = (c >> (6 + i)) & 1 ? ((c >> i) & 1 ? 'b' : 'y') : '.';
    o = '.';
  }
  return {std::string{' ', w[2], ' ', w[1], ' '}, std::string{w[3], ' ', o, ' ', w[0]},
          std::string{' ', w[4], ' ', w[5], ' '}};
}

template <int W>
std::string status_line(const migong::State<W>& s) {
  using migong::State;
  Color seat = s.to_move();
  Color col = s.colour_to_move();
  std::string who = colour_title(col);
  if (s.swapped()) who += seat == Color::kBlack ? " (the first player)" : " (the second player)";
  if (!s.is_terminal()) {
    if (s.can_place())
      return who + " to move, " + std::to_string(s.count_legal_moves()) + " legal moves\n";
    return who + " to move, no legal placement: must pass" +
           (s.passes() == 1 ? " (a second pass ends the game)" : "") + "\n";
  }
  Outcome o = s.outcome();
  Color winner_seat = o.kind == Outcome::Kind::kBlackWins ? Color::kBlack : Color::kWhite;
  migong::ScoreSheet sh = s.score();
  return "game over (two passes): score Blue " + std::to_string(sh.score[0]) + ", Yellow " +
         std::to_string(sh.score[1]) + ": " + colour_title(s.colour_of(winner_seat)) + " wins\n";
}

template <int W>
std::string draw_migong(const migong::State<W>& s) {
  const auto& g = s.geo();
  const int n = g.side();
  std::string out;
  for (int r = 2 * n - 2; r >= 0; --r) {
    int qlo = std::max(0, r - (n - 1)), qhi = std::min(2 * n - 2, r + n - 1);
    std::array<std::string, 3> lines;
    std::string indent(4 * (2 * qlo - r + n - 1), ' ');
    for (auto& l : lines) l = "    " + indent;
    std::string label = std::to_string(r + 1);
    lines[1].replace(0, label.size() + 1, (label.size() < 2 ? " " : "") + label + " ");
    for (int q = qlo; q <= qhi; ++q) {
      auto b = cell_block(s, g.site(q, r));
      for (int i = 0; i < 3; ++i) lines[i] += b[i] + (q < qhi ? "   " : "");
    }
    lines[1] += "   " + g.name(g.site(qlo, r)) + "-" + g.name(g.site(qhi, r));
    for (auto& l : lines) {
      while (!l.empty() && l.back() == ' ') l.pop_back();
      out += l + "\n";
    }
  }
  out +=
      "pieces: wedges B/Y around the set mark (b Blue's set, y Yellow's); empty cells: b/y = "
      "required colour, . = free; # = centre border\n";
  for (Color c : {Color::kBlack, Color::kWhite}) {
    int placed = s.placed_from(c).count();
    out += colour_title(c) + ": " + std::to_string(placed) + " pieces placed, " +
           std::to_string(63 - placed) + " left" + (c == Color::kBlack ? "; " : "\n");
  }
  if (s.swapped()) out += "pie: swapped (the first player holds Yellow)\n";
  out += status_line(s);
  return out;
}

template <int W>
std::string score_text(const migong::State<W>& s) {
  migong::ScoreSheet sh = s.score();
  std::ostringstream out;
  out << "measure " << (sh.by_wedges ? "wedges" : "extent") << "\n";
  for (Color c : {Color::kBlack, Color::kWhite}) {
    std::vector<int> ms;
    for (const auto& gr : sh.groups)
      if (gr.colour == c) ms.push_back(sh.measure(gr));
    std::sort(ms.rbegin(), ms.rend());
    out << colour_word(c) << " groups " << ms.size() << ":";
    for (int m : ms) out << " " << m;
    out << "\n";
  }
  out << "measure blue yellow\n";
  std::map<int, std::array<int, 2>> rows;
  for (int c = 0; c < 2; ++c)
    for (auto [m, k] : sh.counts[c]) rows[m][c] = k;
  for (auto it = rows.rbegin(); it != rows.rend(); ++it)
    out << it->first << " " << it->second[0] << " " << it->second[1] << "\n";
  out << "score blue " << sh.score[0] << " yellow " << sh.score[1] << "\n";
  Color last = s.last_placer() ? s.colour_of(*s.last_placer()) : Color::kBlack;
  Color w = migong::decide(sh.score[0], sh.score[1], last);
  std::string why = sh.score[0] != sh.score[1]
                        ? "higher score"
                        : std::string("0-0, ") + colour_word(last) + " made the last placement";
  if (s.is_terminal())
    out << "winner " << colour_word(w) << " (" << why << ")\n";
  else
    out << "winner none yet (the game is not over; if it ended now: " << colour_word(w) << ", "
        << why << ")\n";
  if (s.swapped()) out << "pie: swapped, the first player holds yellow\n";
  return out.str();
}

template <int W>
class MigongAdapter : public GameAdapter<migong::State<W>> {
 public:
  using GameAdapter<migong::State<W>>::GameAdapter;
  std::string score_report() const override { return score_text(this->s_); }
};

}  // namespace

migong::EdgeColouring migong_edges(int size, const std::optional<std::string>& path) {
  if (!path) return migong::EdgeColouring::standard(size);
  // A regular file only (a FIFO would block, a directory is no colouring),
  // at most 1 MiB (a side-13 colouring is about 2 KB).
  std::string text = read_regular_file(*path, "--edges", 1u << 20);
  try {
    return migong::EdgeColouring::parse(text, size);
  } catch (const InputError& e) {
    throw InputError("--edges '" + clip_token(*path, 200) + "': " + e.what());
  }
}

GameInfo migong_info() {
  GameInfo g;
  g.name = "migong";
  g.title =
      "Migong: placing patterned hexagons on hex cells, matching wedge colours; largest "
      "winning group measure scores";
  g.default_size = migong::kDefaultSide;
  g.min_size = kMinSide;
  g.max_size = kMaxSide;
  g.accepts_edges = true;
  g.rule_specs = &migong::Options::specs;
  g.make = [](int size, const RuleSet& rules,
              const StartOptions& start) -> std::unique_ptr<AnyGame> {
    migong::EdgeColouring edges = migong_edges(size, start.edges_file);
    return dispatch_width(size, [&](auto w) -> std::unique_ptr<AnyGame> {
      constexpr int W = decltype(w)::value;
      auto ctx = migong::Context<W>::make(size, migong::Options::from(rules), edges);
      migong::State<W> s(ctx.get());
      return std::make_unique<MigongAdapter<W>>("migong", ctx, s, &draw_migong<W>);
    });
  };
  return g;
}

}  // namespace loom
