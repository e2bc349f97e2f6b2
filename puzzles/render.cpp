// SVG diagrams (puzzles/render.h). The per-game templates only copy what is
// on the board into a plain BoardView; one non-template writer draws it, so
// the sixteen instantiations stay cheap to compile.
//
// SVG conventions: presentation attributes only (no <style>), so that many
// diagrams inlined in one HTML page cannot restyle each other; every text is
// XML-escaped; y grows downwards, so row 1 (r = 0) is drawn at the bottom.
#include "puzzles/render.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "model/enfargar/enfargar.h"
#include "model/fiodar/fiodar.h"
#include "model/gadur/gadur.h"
#include "model/migong/migong.h"

namespace loom::puzzles {

namespace {

/// Length of the well-formed UTF-8 sequence at s[i] that XML 1.0 allows
/// (no surrogate, no overlong form, at most U+10FFFF, not U+FFFE or
/// U+FFFF), or 0.
size_t utf8_char(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned c = b(0);
  size_t n;
  uint32_t cp;
  if (c >= 0xc2 && c <= 0xdf) {
    n = 2;
    cp = c & 0x1f;
  } else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    cp = c & 0x0f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xc0) != 0x80) return 0;
    cp = cp << 6 | (b(k) & 0x3f);
  }
  const uint32_t least = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
  if (cp < least || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff)
    return 0;
  return n;
}

}  // namespace

std::string markup_escape(std::string_view s) {
  std::string o;
  o.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    switch (c) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      case '\'':
        o += "&apos;";
        break;
      default:
        if (static_cast<unsigned char>(c) >= 0x80) {
          // Bytes that are not UTF-8 (a caption given in another encoding)
          // would make the file invalid XML: each becomes U+FFFD.
          if (const size_t n = utf8_char(s, i)) {
            o.append(s.substr(i, n));
            i += n - 1;
          } else {
            o += "\xEF\xBF\xBD";
          }
        } else if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') {
          // Control characters are not allowed in XML 1.0 text.
          o += ' ';
        } else {
          o += c;
        }
    }
  }
  return o;
}

namespace {

constexpr double kUnit = 40.0;  // pixels between neighbouring sites
const double kSqrt3 = std::sqrt(3.0);

constexpr const char* kBlackFill = "#1d1d1f";
constexpr const char* kWhiteFill = "#fbfbf8";
constexpr const char* kBlue = "#2f6fd6";
constexpr const char* kYellow = "#f2c230";
constexpr const char* kMark = "#d62d20";

enum class Look { kPoints, kCells, kMigong };

/// What a hex diagram shows, independent of the game's state type.
struct BoardView {
  const HexGeometry* geo = nullptr;
  Look look = Look::kPoints;
  std::string title;         ///< "Gadur, side 3"
  std::string status;        ///< "Black to move", "game over: ..."
  std::vector<int> stone;    ///< per padded site: -1 none, 0 black, 1 white
  std::vector<int> pattern;  ///< Migong: per padded site, -1 empty or 0..63
  /// Migong: per padded site, the set a piece came from (0 Blue's, 1
  /// Yellow's): a mixed pattern can be in either, and which pieces a side
  /// still has depends on it.
  std::vector<int> owner;
  const migong::EdgeColouring* edges = nullptr;
  int centre_border = -1;  ///< Migong: the centre site (not a cell)
};

/// Half the width a centred line of 13 px text needs (about 7 px a
/// character), at least `least`: long captions were cut at the sides.
double text_half_width(const std::string& a, const std::string& b, double least) {
  return std::max(least, 3.6 * static_cast<double>(std::max(a.size(), b.size())) + 10);
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", std::abs(v) < 0.005 ? 0.0 : v);
  return buf;
}

struct Pt {
  double x, y;
};

/// Pixel position of axial (q, r) (RULES.md section 1, y flipped).
Pt at(double q, double r) {
  return {(q - r / 2.0) * kUnit, -(r * kSqrt3 / 2.0) * kUnit};
}

/// Corner k of the cell around p: corners sit at 60k - 30 degrees, so side d
/// (facing direction d, at 60d degrees) runs from corner d to corner d+1.
Pt corner(Pt p, int k, double radius) {
  double a = (60.0 * k - 30.0) * M_PI / 180.0;
  return {p.x + radius * std::cos(a), p.y - radius * std::sin(a)};
}

std::string points_attr(const std::vector<Pt>& pts) {
  std::string s;
  for (const Pt& p : pts) s += (s.empty() ? "" : " ") + num(p.x) + "," + num(p.y);
  return s;
}

/// The site a token names: "d4", "BYYBBY@d4"; -1 if none (pass, swap, junk).
int token_site(const HexGeometry& g, const std::string& token) {
  auto at_pos = token.find('@');
  std::string name = at_pos == std::string::npos ? token : token.substr(at_pos + 1);
  auto s = g.parse(name);
  return s ? *s : -1;
}

struct Bounds {
  double x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
  void add(Pt p, double pad) {
    x0 = std::min(x0, p.x - pad);
    y0 = std::min(y0, p.y - pad);
    x1 = std::max(x1, p.x + pad);
    y1 = std::max(y1, p.y + pad);
  }
};

void text(std::ostringstream& o, Pt p, const std::string& s, double size, const char* fill,
          const char* extra = "") {
  o << "<text x=\"" << num(p.x) << "\" y=\"" << num(p.y) << "\" font-size=\"" << num(size)
    << "\" text-anchor=\"middle\" dominant-baseline=\"central\" font-family=\"sans-serif\" fill=\""
    << fill << "\"" << extra << ">" << markup_escape(s) << "</text>";
}

std::string draw_hex(const BoardView& v, const RenderOptions& o) {
  const HexGeometry& g = *v.geo;
  const int n = g.side();
  const double cell_r = kUnit / kSqrt3;  // circumradius of a cell (inradius kUnit/2)
  std::ostringstream body;

  // Rim labels: letters beyond the lowest site of each constant-q line (one
  // step SE), row numbers beyond both ends of each row.
  Bounds b;
  for (int s : g.sites()) b.add(at(g.q_of(s), g.r_of(s)), cell_r + 4);
  std::ostringstream labels;
  for (int q = 0; q <= 2 * n - 2; ++q) {
    int rmin = std::max(0, q - (n - 1));
    Pt p = at(q, rmin - 0.95);
    b.add(p, 10);
    text(labels, p, std::string(1, static_cast<char>('a' + q)), 12, "#555");
  }
  for (int r = 0; r <= 2 * n - 2; ++r) {
    int qmin = std::max(0, r - (n - 1)), qmax = std::min(2 * n - 2, r + n - 1);
    Pt l = at(qmin - 0.95, r), rt = at(qmax + 0.95, r);
    b.add(l, 10);
    text(labels, l, std::to_string(r + 1), 12, "#555");
    // East ends of the lower rows are where the letters of the SE side stand.
    if (r >= n - 1) {
      b.add(rt, 10);
      text(labels, rt, std::to_string(r + 1), 12, "#555");
    }
  }

  // Triangular-grid lines for the point games (E, NE, NW to each neighbour).
  if (v.look == Look::kPoints) {
    body << "<g stroke=\"#7a5a2a\" stroke-width=\"1.5\">";
    for (int s : g.sites())
      for (int d = 0; d < 3; ++d) {
        int t = g.neighbour(s, d);
        if (t < 0) continue;
        Pt a = at(g.q_of(s), g.r_of(s)), c = at(g.q_of(t), g.r_of(t));
        body << "<line x1=\"" << num(a.x) << "\" y1=\"" << num(a.y) << "\" x2=\"" << num(c.x)
             << "\" y2=\"" << num(c.y) << "\"/>";
      }
    body << "</g>";
  }

  // Migong: the centre border (not a site) as a grey hexagon.
  if (v.look == Look::kMigong && v.centre_border >= 0) {
    Pt p = at(g.q_of(v.centre_border), g.r_of(v.centre_border));
    std::vector<Pt> hex;
    for (int k = 0; k < 6; ++k) hex.push_back(corner(p, k, cell_r));
    body << "<polygon class=\"border\" points=\"" << points_attr(hex)
         << "\" fill=\"#8a8a8a\" stroke=\"#444\" stroke-width=\"1\"/>";
  }

  // The sites.
  for (int s : g.sites()) {
    if (v.look == Look::kMigong && s == v.centre_border) continue;
    Pt p = at(g.q_of(s), g.r_of(s));
    body << "<g class=\"site\" data-site=\"" << g.name(s) << "\">";
    if (v.look == Look::kPoints) {
      // A transparent target so the whole neighbourhood of a point is clickable.
      body << "<circle cx=\"" << num(p.x) << "\" cy=\"" << num(p.y) << "\" r=\""
           << num(kUnit * 0.48) << "\" fill=\"#000\" fill-opacity=\"0\"/>";
      if (v.stone[s] >= 0)
        body << "<circle cx=\"" << num(p.x) << "\" cy=\"" << num(p.y) << "\" r=\""
             << num(kUnit * 0.42) << "\" fill=\"" << (v.stone[s] == 0 ? kBlackFill : kWhiteFill)
             << "\" stroke=\"#111\" stroke-width=\"1.2\"/>";
    } else if (v.look == Look::kCells) {
      std::vector<Pt> hex;
      for (int k = 0; k < 6; ++k) hex.push_back(corner(p, k, cell_r));
      body << "<polygon points=\"" << points_attr(hex)
           << "\" fill=\"#e9d3a4\" stroke=\"#7a5a2a\" stroke-width=\"1.2\"/>";
      if (v.stone[s] >= 0)
        body << "<circle cx=\"" << num(p.x) << "\" cy=\"" << num(p.y) << "\" r=\""
             << num(kUnit * 0.36) << "\" fill=\"" << (v.stone[s] == 0 ? kBlackFill : kWhiteFill)
             << "\" stroke=\"#111\" stroke-width=\"1.2\"/>";
    } else {
      if (v.pattern[s] < 0) {
        std::vector<Pt> hex;
        for (int k = 0; k < 6; ++k) hex.push_back(corner(p, k, cell_r));
        body << "<polygon points=\"" << points_attr(hex)
             << "\" fill=\"#f1f1ee\" stroke=\"#9a9a9a\" stroke-width=\"1\"/>";
      } else {
        // Six wedges: wedge i is the triangle from the centre to side i.
        for (int i = 0; i < 6; ++i) {
          bool blue = (v.pattern[s] >> i) & 1;
          std::vector<Pt> w = {p, corner(p, i, cell_r), corner(p, i + 1, cell_r)};
          body << "<polygon points=\"" << points_attr(w) << "\" fill=\"" << (blue ? kBlue : kYellow)
               << "\" stroke=\"#333\" stroke-width=\"0.6\"/>";
        }
        // The set it came from: a disc of that colour at the centre.
        if (static_cast<size_t>(s) < v.owner.size() && v.owner[s] >= 0)
          body << "<circle class=\"set-" << (v.owner[s] == 0 ? "blue" : "yellow") << "\" cx=\""
               << num(p.x) << "\" cy=\"" << num(p.y) << "\" r=\"" << num(cell_r * 0.3)
               << "\" fill=\"" << (v.owner[s] == 0 ? kBlue : kYellow)
               << "\" stroke=\"#111\" stroke-width=\"1.2\"/>";
      }
    }
    body << "</g>";
  }

  // Migong board edges (rim and the centre border's sides), drawn just
  // outside the cell side they colour.
  if (v.look == Look::kMigong && v.edges != nullptr) {
    body << "<g class=\"edges\" stroke-width=\"5\" stroke-linecap=\"butt\">";
    for (int s : g.sites()) {
      if (s == v.centre_border) continue;
      Pt p = at(g.q_of(s), g.r_of(s));
      for (int d = 0; d < 6; ++d) {
        if (!v.edges->is_edge(s, d)) continue;
        double a = 60.0 * d * M_PI / 180.0;
        Pt shift{3.0 * std::cos(a), -3.0 * std::sin(a)};
        Pt c0 = corner(p, d, cell_r * 0.97), c1 = corner(p, d + 1, cell_r * 0.97);
        body << "<line x1=\"" << num(c0.x + shift.x) << "\" y1=\"" << num(c0.y + shift.y)
             << "\" x2=\"" << num(c1.x + shift.x) << "\" y2=\"" << num(c1.y + shift.y)
             << "\" stroke=\"" << (v.edges->is_blue(s, d) ? kBlue : kYellow) << "\"/>";
      }
    }
    body << "</g>";
  }

  // Marks: the last move and the numbered steps.
  std::ostringstream marks;
  if (int s = o.last_move.empty() ? -1 : token_site(g, o.last_move); s >= 0) {
    Pt p = at(g.q_of(s), g.r_of(s));
    marks << "<circle class=\"last-move\" cx=\"" << num(p.x) << "\" cy=\"" << num(p.y) << "\" r=\""
          << num(kUnit * 0.14) << "\" fill=\"" << kMark
          << "\" stroke=\"#fff\" stroke-width=\"1\"/>";
  }
  for (size_t i = 0; i < o.numbered.size(); ++i) {
    int s = token_site(g, o.numbered[i]);
    if (s < 0) continue;
    Pt p = at(g.q_of(s), g.r_of(s));
    marks << "<g class=\"step\" data-step=\"" << i + 1 << "\"><circle cx=\"" << num(p.x)
          << "\" cy=\"" << num(p.y) << "\" r=\"" << num(kUnit * 0.26)
          << "\" fill=\"#fff\" fill-opacity=\"0.9\" stroke=\"" << kMark
          << "\" stroke-width=\"2\"/>";
    text(marks, p, std::to_string(i + 1), 13, kMark, " font-weight=\"bold\"");
    marks << "</g>";
  }

  // Title above, status and caption below.
  double top = b.y0 - 30, bottom = b.y1 + 24 + (o.caption.empty() ? 0 : 20);
  double cx = (b.x0 + b.x1) / 2;
  std::ostringstream head;
  text(head, {cx, b.y0 - 16}, v.title, 15, "#222", " font-weight=\"bold\"");
  text(head, {cx, b.y1 + 12}, v.status, 13, "#222");
  if (!o.caption.empty()) text(head, {cx, b.y1 + 32}, o.caption, 13, "#444");

  const double half = text_half_width(v.status, o.caption, 130);
  double x0 = std::min(b.x0, cx - half), x1 = std::max(b.x1, cx + half);
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" viewBox=\"" << num(x0) << " "
      << num(top) << " " << num(x1 - x0) << " " << num(bottom - top) << "\" width=\""
      << num(x1 - x0) << "\" height=\"" << num(bottom - top) << "\">"
      << "<rect x=\"" << num(x0) << "\" y=\"" << num(top) << "\" width=\"" << num(x1 - x0)
      << "\" height=\"" << num(bottom - top) << "\" fill=\""
      << (v.look == Look::kPoints ? "#e8c98e" : "#ffffff") << "\"/>" << head.str() << labels.str()
      << body.str() << "<g class=\"marks\" pointer-events=\"none\">" << marks.str()
      << "</g></svg>\n";
  return svg.str();
}

const char* side_name(Color c) {
  return c == Color::kBlack ? "Black" : "White";
}

std::string over_text(const Outcome& out) {
  switch (out.kind) {
    case Outcome::Kind::kBlackWins:
      return "game over: Black wins";
    case Outcome::Kind::kWhiteWins:
      return "game over: White wins";
    case Outcome::Kind::kDraw:
      return "game over: draw";
    case Outcome::Kind::kUnresolved:
      return "game over: stall (no result)";
    default:
      return "";
  }
}

template <class S>
BoardView stone_view(const S& s, Look look, const char* game) {
  BoardView v;
  v.geo = &s.geo();
  v.look = look;
  v.title = std::string(game) + ", side " + std::to_string(s.geo().side());
  v.stone.assign(s.geo().slots(), -1);
  s.stones(Color::kBlack).for_each([&](int i) { v.stone[i] = 0; });
  s.stones(Color::kWhite).for_each([&](int i) { v.stone[i] = 1; });
  return v;
}

template <int W>
BoardView make_view(const gadur::State<W>& s) {
  BoardView v = stone_view(s, Look::kCells, "Gadur");
  v.status = s.is_terminal() ? std::string("game over: ") + side_name(s.to_move()) +
                                   " has no placement and wins"
                             : std::string(side_name(s.to_move())) + " to move";
  return v;
}

template <int W>
BoardView make_view(const fiodar::State<W>& s) {
  BoardView v = stone_view(s, Look::kPoints, "Fiodar");
  // Prisoners are the stones each player has taken ("captured: Black 58"
  // read as Black's stones lost). After a pass another pass ends the game:
  // that changes the question, and a pass leaves no mark on the board.
  std::string captured = "stones taken: by Black " + std::to_string(s.prisoners(Color::kBlack)) +
                         ", by White " + std::to_string(s.prisoners(Color::kWhite));
  v.status = s.is_terminal()
                 ? over_text(s.outcome()) + " (" + captured + ")"
                 : std::string(side_name(s.to_move())) + " to move" +
                       (s.last_move_was_pass() ? " after a pass (a pass ends the game)" : "") +
                       "; " + captured;
  return v;
}

template <int W>
BoardView make_view(const enfargar::State<W>& s) {
  BoardView v = stone_view(s, Look::kPoints, "Enfargar");
  v.status =
      s.is_terminal() ? over_text(s.outcome()) : std::string(side_name(s.to_move())) + " to move";
  return v;
}

template <int W>
BoardView make_view(const migong::State<W>& s) {
  BoardView v;
  v.geo = &s.geo();
  v.look = Look::kMigong;
  v.title = "Migong, side " + std::to_string(s.geo().side());
  v.pattern.assign(s.geo().slots(), -1);
  v.owner.assign(s.geo().slots(), -1);
  s.occupied().for_each([&](int i) {
    v.pattern[i] = s.pattern_at(i);
    v.owner[i] = s.placed_from(Color::kBlack).test(i) ? 0 : 1;
  });
  v.edges = &s.context().edges();
  v.centre_border = s.geo().centre();
  if (s.is_terminal()) {
    Outcome out = s.outcome();
    // Seats and colours differ after a pie swap; name the winning colour.
    if (out.kind == Outcome::Kind::kBlackWins || out.kind == Outcome::Kind::kWhiteWins) {
      Color seat = out.kind == Outcome::Kind::kBlackWins ? Color::kBlack : Color::kWhite;
      v.status = std::string("game over: ") +
                 (s.colour_of(seat) == Color::kBlack ? "Blue" : "Yellow") + " wins";
    } else {
      v.status = over_text(out);
    }
  } else {
    v.status = std::string(s.colour_to_move() == Color::kBlack ? "Blue" : "Yellow") + " to move";
  }
  if (s.occupied().any()) v.status += " (centre disc: the set a piece came from)";
  return v;
}

}  // namespace

template <class S>
std::string render_svg(const S& state, const RenderOptions& o) {
  return draw_hex(make_view(state), o);
}

#define LOOM_RENDER_INSTANTIATE(GAME)                                           \
  template std::string render_svg(const GAME::State<1>&, const RenderOptions&); \
  template std::string render_svg(const GAME::State<3>&, const RenderOptions&); \
  template std::string render_svg(const GAME::State<5>&, const RenderOptions&); \
  template std::string render_svg(const GAME::State<10>&, const RenderOptions&);
LOOM_RENDER_INSTANTIATE(gadur)
LOOM_RENDER_INSTANTIATE(fiodar)
LOOM_RENDER_INSTANTIATE(enfargar)
LOOM_RENDER_INSTANTIATE(migong)
#undef LOOM_RENDER_INSTANTIATE

// ---------------------------------------------------------------------------
// Long Nardy: a tables board seen from White. Top row points 13..24 left to
// right, bottom row 12..1 left to right (as `loom show nardy`), a bar after
// six points; White's stacks grow from the rim like Black's. A tray on the
// right holds the borne-off counts and the dice.

namespace {

constexpr double kPw = 34.0;   // point width
constexpr double kPh = 150.0;  // point (triangle) height
constexpr double kBar = 22.0;  // bar width
constexpr int kFit = 5;        // checkers drawn per stack before a count
constexpr double kBoardX = 30.0, kBoardY = 44.0;

/// Left x of point k's column and whether it is on the top row.
std::pair<double, bool> column(int k) {
  bool top = k >= 13;
  int col = top ? k - 13 : 12 - k;  // 0..11 left to right
  return {kBoardX + col * kPw + (col >= 6 ? kBar : 0.0), top};
}

void draw_die(std::ostringstream& o, double x, double y, int v) {
  const double s = 30;
  o << "<g class=\"die\" data-value=\"" << v << "\"><rect x=\"" << num(x) << "\" y=\"" << num(y)
    << "\" width=\"" << s << "\" height=\"" << s
    << "\" rx=\"5\" fill=\"#fff\" stroke=\"#222\" stroke-width=\"1.5\"/>";
  // Pip positions on a 3x3 grid.
  static const int kPips[7][7][2] = {{},
                                     {{1, 1}},
                                     {{0, 0}, {2, 2}},
                                     {{0, 0}, {1, 1}, {2, 2}},
                                     {{0, 0}, {2, 0}, {0, 2}, {2, 2}},
                                     {{0, 0}, {2, 0}, {1, 1}, {0, 2}, {2, 2}},
                                     {{0, 0}, {2, 0}, {0, 1}, {2, 1}, {0, 2}, {2, 2}}};
  for (int i = 0; i < v; ++i)
    o << "<circle cx=\"" << num(x + 7 + kPips[v][i][0] * 8) << "\" cy=\""
      << num(y + 7 + kPips[v][i][1] * 8) << "\" r=\"3\" fill=\"#222\"/>";
  o << "</g>";
}

std::vector<nardy::Step> parse_steps(const std::string& turn) {
  std::vector<nardy::Step> out;
  std::istringstream in(turn);
  std::string tok;
  while (in >> tok) {
    auto slash = tok.find('/');
    if (slash == std::string::npos) continue;
    try {
      int from = std::stoi(tok.substr(0, slash));
      std::string t = tok.substr(slash + 1);
      int to = t == "off" ? 0 : std::stoi(t);
      if (from >= 1 && from <= 24 && to >= 0 && to <= 24)
        out.push_back({static_cast<int8_t>(from), static_cast<int8_t>(to)});
    } catch (const std::exception&) {
    }
  }
  return out;
}

}  // namespace

std::string render_nardy_svg(const nardy::Position& p, const nardy::Options& opt,
                             std::optional<nardy::Roll> dice, const RenderOptions& o) {
  const double board_w = 12 * kPw + kBar, board_h = 2 * kPh + 40;
  const double tray_x = kBoardX + board_w + 16, tray_w = 92;
  const double width = tray_x + tray_w + 14;
  const double height = kBoardY + board_h + 44 + (o.caption.empty() ? 0 : 20);
  nardy::Result res = nardy::result(p, opt);
  std::string status = res.over() ? "game over: " + res.text()
                                  : std::string(side_name(p.to_move())) + " to move (pips White " +
                                        std::to_string(p.pips(Color::kWhite)) + ", Black " +
                                        std::to_string(p.pips(Color::kBlack)) + ")";
  // The picture widens on both sides for a long line of text.
  const double half = text_half_width(status, o.caption, width / 2);
  const double x0 = width / 2 - half;
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" viewBox=\"" << num(x0) << " 0 "
    << num(2 * half) << " " << num(height) << "\" width=\"" << num(2 * half) << "\" height=\""
    << num(height) << "\">";
  s << "<rect x=\"" << num(x0) << "\" y=\"0\" width=\"" << num(2 * half) << "\" height=\""
    << num(height) << "\" fill=\"#fff\"/>";
  text(s, {width / 2, 16}, "Long Nardy", 15, "#222", " font-weight=\"bold\"");
  s << "<rect x=\"" << num(kBoardX) << "\" y=\"" << num(kBoardY) << "\" width=\"" << num(board_w)
    << "\" height=\"" << num(board_h)
    << "\" fill=\"#d8b779\" stroke=\"#5a3d16\" stroke-width=\"3\"/>";
  s << "<rect x=\"" << num(kBoardX + 6 * kPw) << "\" y=\"" << num(kBoardY) << "\" width=\""
    << num(kBar) << "\" height=\"" << num(board_h) << "\" fill=\"#7a5a2a\"/>";

  std::vector<int> marked(25, 0);  // 1 = last move touches the point
  for (const auto& st : parse_steps(o.last_move)) {
    marked[st.from] = 1;
    if (st.to > 0) marked[st.to] = 1;
  }
  for (int k = 1; k <= 24; ++k) {
    auto [x, top] = column(k);
    double base = top ? kBoardY : kBoardY + board_h;
    double tip = top ? kBoardY + kPh : kBoardY + board_h - kPh;
    const char* fill = (k % 2 == 0) ? "#8c2f1b" : "#f4e6c4";
    s << "<g class=\"point\" data-point=\"" << k << "\">";
    s << "<polygon points=\"" << num(x) << "," << num(base) << " " << num(x + kPw) << ","
      << num(base) << " " << num(x + kPw / 2) << "," << num(tip) << "\" fill=\"" << fill
      << "\" stroke=\"" << (marked[k] ? kMark : "#5a3d16") << "\" stroke-width=\""
      << (marked[k] ? 3 : 0.8) << "\"/>";
    int v = p.at(k);
    int cnt = std::abs(v);
    const char* cf = v > 0 ? kWhiteFill : kBlackFill;
    const char* tf = v > 0 ? "#111" : "#fff";
    int shown = std::min(cnt, kFit);
    for (int i = 0; i < shown; ++i) {
      double cy = top ? base + kPw / 2 + i * (kPw - 4) + 2 : base - kPw / 2 - i * (kPw - 4) - 2;
      s << "<circle class=\"checker\" cx=\"" << num(x + kPw / 2) << "\" cy=\"" << num(cy)
        << "\" r=\"" << num(kPw / 2 - 2) << "\" fill=\"" << cf
        << "\" stroke=\"#111\" stroke-width=\"1.2\"/>";
      if (cnt > kFit && i == shown - 1)
        text(s, {x + kPw / 2, cy}, std::to_string(cnt), 14, tf, " font-weight=\"bold\"");
    }
    s << "</g>";
    // Point numbers on the rim.
    text(s, {x + kPw / 2, top ? kBoardY - 9 : kBoardY + board_h + 11}, std::to_string(k), 11,
         "#444");
  }
  // Numbered turns: the numbers at the destination points (the edge tray for off).
  for (size_t i = 0; i < o.numbered.size(); ++i)
    for (const auto& st : parse_steps(o.numbered[i])) {
      double cx, cy;
      if (st.to == 0) {
        cx = tray_x + tray_w / 2;
        cy = kBoardY + board_h - 20;
      } else {
        auto [x, top] = column(st.to);
        cx = x + kPw / 2;
        cy = top ? kBoardY + kPh + 12 : kBoardY + board_h - kPh - 12;
      }
      s << "<g class=\"step\" pointer-events=\"none\" data-step=\"" << i + 1 << "\"><circle cx=\""
        << num(cx) << "\" cy=\"" << num(cy) << "\" r=\"10\" fill=\"#fff\" stroke=\"" << kMark
        << "\" stroke-width=\"2\"/>";
      text(s, {cx, cy}, std::to_string(i + 1), 12, kMark, " font-weight=\"bold\"");
      s << "</g>";
    }

  // Tray: borne-off counts (Black's tray at the top by its home 13..18, White's
  // at the bottom by 1..6), the dice and the side to move.
  s << "<rect x=\"" << num(tray_x) << "\" y=\"" << num(kBoardY) << "\" width=\"" << num(tray_w)
    << "\" height=\"" << num(board_h)
    << "\" fill=\"#efe3c8\" stroke=\"#5a3d16\" stroke-width=\"2\"/>";
  text(s, {tray_x + tray_w / 2, kBoardY + 16}, "Black off", 11, "#222");
  s << "<g class=\"off\" data-side=\"black\">";
  text(s, {tray_x + tray_w / 2, kBoardY + 36},
       std::to_string(p.borne_off(Color::kBlack, opt.checkers)), 18, "#111",
       " font-weight=\"bold\"");
  s << "</g>";
  text(s, {tray_x + tray_w / 2, kBoardY + board_h - 36}, "White off", 11, "#222");
  s << "<g class=\"off\" data-side=\"white\">";
  text(s, {tray_x + tray_w / 2, kBoardY + board_h - 16},
       std::to_string(p.borne_off(Color::kWhite, opt.checkers)), 18, "#111",
       " font-weight=\"bold\"");
  s << "</g>";
  if (dice) {
    double dy = kBoardY + board_h / 2 - 15;
    draw_die(s, tray_x + 10, dy, dice->hi);
    draw_die(s, tray_x + tray_w - 40, dy, dice->lo);
  }
  text(s, {width / 2, kBoardY + board_h + 28}, status, 13, "#222");
  if (!o.caption.empty()) text(s, {width / 2, kBoardY + board_h + 48}, o.caption, 13, "#444");
  s << "</svg>\n";
  return s.str();
}

}  // namespace loom::puzzles
