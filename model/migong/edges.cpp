#include "model/migong/edges.h"

#include <optional>

#include "model/common/errors.h"
#include "model/common/zobrist.h"

namespace loom::migong {

namespace {

/// A token echoed in an error message (model/common/errors.h).
std::string shown(std::string_view t) {
  return clip_token(t, 24);
}

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

std::optional<int> parse_dir(std::string_view t) {
  for (int d = 0; d < 6; ++d)
    if (t == kDirNames[d]) return d;
  return std::nullopt;
}

/// Off-board directions of a rim cell as a counter-clockwise arc: the arc
/// starts at the off-board direction whose clockwise predecessor is not off.
std::vector<int> off_board_arc(const HexGeometry& g, int site) {
  std::vector<int> out;
  auto off = [&](int d) { return g.neighbour(site, ((d % 6) + 6) % 6) < 0; };
  for (int d = 0; d < 6; ++d)
    if (off(d) && !off(d - 1))
      for (int e = d; off(e) && static_cast<int>(out.size()) < 6; ++e) out.push_back(e % 6);
  return out;
}

}  // namespace

std::vector<Segment> rim_walk(const HexGeometry& g) {
  const int n = g.side();
  std::vector<Segment> out;
  int q = 0, r = 0;  // corner c_0 = a1
  for (int s = 0; s < 6; ++s) {
    for (int step = 0; step < n - 1; ++step) {
      int site = g.site(q + step * kDirStep[s][0], r + step * kDirStep[s][1]);
      for (int d : off_board_arc(g, site)) out.push_back({site, d});
    }
    q += (n - 1) * kDirStep[s][0];
    r += (n - 1) * kDirStep[s][1];
  }
  return out;
}

std::vector<Segment> centre_sides(const HexGeometry& g) {
  std::vector<Segment> out;
  for (int j = 0; j < 6; ++j) out.push_back({g.neighbour(g.centre(), j), opposite(j)});
  return out;
}

EdgeColouring::EdgeColouring(int n)
    : n_(n), geo_(&HexGeometry::get(n)), mask_(geo_->slots(), 0), blue_(geo_->slots(), 0) {
  const int centre = geo_->centre();
  for (int s : geo_->sites()) {
    if (s == centre) continue;
    for (int d = 0; d < 6; ++d) {
      int t = geo_->neighbour(s, d);
      if (t < 0 || t == centre) mask_[s] |= static_cast<uint8_t>(1u << d);
    }
  }
}

void EdgeColouring::set(int site, int dir, bool blue) {
  if (blue)
    blue_[site] |= static_cast<uint8_t>(1u << dir);
  else
    blue_[site] &= static_cast<uint8_t>(~(1u << dir));
}

EdgeColouring EdgeColouring::standard(int n) {
  EdgeColouring e(n);
  auto cs = centre_sides(*e.geo_);
  for (int j = 0; j < 6; ++j) e.set(cs[j].site, cs[j].dir, j % 2 == 0);
  auto rim = rim_walk(*e.geo_);
  for (size_t k = 0; k < rim.size(); ++k) e.set(rim[k].site, rim[k].dir, k % 2 == 0);
  return e;
}

EdgeColouring EdgeColouring::parse(std::string_view text, int n) {
  EdgeColouring e(n);
  const HexGeometry& g = *e.geo_;
  // Line on which each segment got its colour (0: not yet).
  std::vector<int> given(static_cast<size_t>(g.slots()) * 6, 0);
  bool have_size = false;
  int line_no = 0;
  auto fail = [&](const std::string& what) {
    throw InputError("line " + std::to_string(line_no) + ": " + what);
  };
  auto assign = [&](int site, int dir, bool blue) {
    int& at = given[static_cast<size_t>(site) * 6 + dir];
    if (at != 0)
      fail("segment " + g.name(site) + " " + kDirNames[dir] + " is given twice (first on line " +
           std::to_string(at) + ")");
    at = line_no;
    e.set(site, dir, blue);
  };
  auto colours = [&](std::string_view letters, size_t want, const char* what) {
    if (letters.size() != want)
      fail(std::string(what) + " needs " + std::to_string(want) + " letters B/Y for side " +
           std::to_string(n) + ", got " + std::to_string(letters.size()));
    for (char c : letters)
      if (c != 'B' && c != 'Y')
        fail(std::string(what) + " letters must be B or Y, got '" + shown(std::string_view(&c, 1)) +
             "'");
  };

  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    auto w = words(line);
    if (w.empty()) continue;
    if (!have_size) {
      if (w.size() != 2 || w[0] != "size")
        fail("the file must start with 'size N' (the board side it is for)");
      std::string_view v = w[1];
      int side = 0;
      bool digits = !v.empty() && v.size() <= 3 && v[0] != '0';
      for (char c : v) digits = digits && c >= '0' && c <= '9';
      if (!digits) fail("'size " + shown(v) + "': the side must be a number");
      for (char c : v) side = side * 10 + (c - '0');
      if (side != n)
        fail("the file is for side " + std::to_string(side) + " but the board has side " +
             std::to_string(n));
      have_size = true;
      continue;
    }
    if (w[0] == "size") fail("'size' given twice");
    if (w[0] == "rim") {
      if (w.size() != 2) fail("expected 'rim LETTERS'");
      auto rim = rim_walk(g);
      colours(w[1], rim.size(), "rim");
      for (size_t k = 0; k < rim.size(); ++k) assign(rim[k].site, rim[k].dir, w[1][k] == 'B');
      continue;
    }
    if (w[0] == "centre") {
      if (w.size() != 2) fail("expected 'centre LETTERS'");
      auto cs = centre_sides(g);
      colours(w[1], 6, "centre");
      for (int j = 0; j < 6; ++j) assign(cs[j].site, cs[j].dir, w[1][j] == 'B');
      continue;
    }
    if (w.size() != 3)
      fail("expected 'SITE DIR COLOUR' (such as 'a1 W B'), 'rim LETTERS' or 'centre LETTERS'");
    auto site = g.parse(w[0]);
    if (!site)
      fail("'" + shown(w[0]) + "' is not a site of a side-" + std::to_string(n) + " board");
    if (*site == g.centre()) fail("'" + shown(w[0]) + "' is the centre, not a cell");
    auto dir = parse_dir(w[1]);
    if (!dir) fail("'" + shown(w[1]) + "' is not a direction (E NE NW W SW SE)");
    if (!e.is_edge(*site, *dir))
      fail(std::string(w[0]) + " " + kDirNames[*dir] + " is not an edge segment (" +
           std::string(w[0]) + " has a neighbouring cell there)");
    if (w[2] != "B" && w[2] != "Y") fail("colour must be B or Y, got '" + shown(w[2]) + "'");
    assign(*site, *dir, w[2] == "B");
  }
  if (!have_size) {
    line_no = 0;
    throw InputError("empty edge colouring (expected 'size N' and the segments)");
  }
  int missing = 0;
  std::string first;
  auto check = [&](const Segment& s) {
    if (given[static_cast<size_t>(s.site) * 6 + s.dir] == 0) {
      if (missing++ == 0) first = g.name(s.site) + " " + kDirNames[s.dir];
    }
  };
  for (const auto& s : rim_walk(g)) check(s);
  for (const auto& s : centre_sides(g)) check(s);
  if (missing > 0)
    throw InputError(std::to_string(missing) + " segment" + (missing > 1 ? "s have" : " has") +
                     " no colour (first: " + first + ")");
  return e;
}

std::string EdgeColouring::to_text() const {
  const HexGeometry& g = *geo_;
  std::string out = "# Migong edge colouring (format: model/migong/edges.h, docs/rules.md)\n";
  out += "size " + std::to_string(n_) + "\n";
  out += "# rim, in rim-walk order (RULES.md section 7)\n";
  auto line = [&](const Segment& s) {
    out +=
        g.name(s.site) + " " + kDirNames[s.dir] + " " + (is_blue(s.site, s.dir) ? "B" : "Y") + "\n";
  };
  for (const auto& s : rim_walk(g)) line(s);
  out += "# centre border, sides facing E NE NW W SW SE from the centre\n";
  for (const auto& s : centre_sides(g)) line(s);
  return out;
}

EdgeColouring EdgeColouring::mapped(int k) const {
  EdgeColouring e(n_);
  for (int s : geo_->sites())
    for (int d = 0; d < 6; ++d)
      if (is_edge(s, d)) e.set(geo_->map_site(k, s), HexGeometry::map_dir(k, d), is_blue(s, d));
  return e;
}

EdgeColouring EdgeColouring::inverted() const {
  EdgeColouring e = *this;
  for (size_t s = 0; s < blue_.size(); ++s) e.blue_[s] = mask_[s] & ~blue_[s];
  return e;
}

uint64_t EdgeColouring::digest() const {
  uint64_t state = 0x65646765ull + static_cast<uint64_t>(n_);  // "edge"
  uint64_t h = splitmix64(state);
  for (size_t s = 0; s < blue_.size(); ++s) {
    if (!mask_[s]) continue;
    uint64_t x = (static_cast<uint64_t>(s) << 8 | blue_[s]) ^ h;
    h = splitmix64(x);
  }
  return h;
}

}  // namespace loom::migong
