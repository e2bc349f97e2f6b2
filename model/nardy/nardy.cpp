#include "model/nardy/nardy.h"

#include <algorithm>
#include <charconv>

#include "model/common/errors.h"
#include "model/common/zobrist.h"

namespace loom::nardy {

std::vector<RuleSpec> Options::specs() {
  return {
      {"block",
       {"every-step", "end-of-turn"},
       "when the 6-block rule is checked: after every step, or only on the turn's final position"},
      {"end",
       {"first-off", "last-roll"},
       "first-off: the first to bear off 15 wins; last-roll: Black answers White's last turn and "
       "draws by bearing off all 15 on it"},
      {"checkers",
       {"15", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14"},
       "checkers a side (1..15); every rule that says 15 reads this number"},
  };
}

Options Options::from(const RuleSet& rules) {
  Options o;
  o.block_end_of_turn = rules.is("block", "end-of-turn");
  o.last_roll = rules.is("end", "last-roll");
  o.checkers = std::stoi(rules.get("checkers"));
  return o;
}

std::string Options::to_string() const {
  return std::string("block=") + (block_end_of_turn ? "end-of-turn" : "every-step") +
         " end=" + (last_roll ? "last-roll" : "first-off") +
         " checkers=" + std::to_string(checkers);
}

std::string Roll::name() const {
  return {static_cast<char>('0' + hi), static_cast<char>('0' + lo)};
}

std::optional<Roll> Roll::parse(std::string_view t) {
  if (t.size() != 2) return std::nullopt;
  int a = t[0] - '0', b = t[1] - '0';
  if (a < 1 || a > 6 || b < 1 || b > 6) return std::nullopt;
  return Roll{static_cast<uint8_t>(std::max(a, b)), static_cast<uint8_t>(std::min(a, b))};
}

const std::array<Roll, 21>& all_rolls() {
  static const std::array<Roll, 21> rolls = [] {
    std::array<Roll, 21> r{};
    int i = 0;
    for (int hi = 1; hi <= 6; ++hi)
      for (int lo = 1; lo <= hi; ++lo)
        r[i++] = Roll{static_cast<uint8_t>(hi), static_cast<uint8_t>(lo)};
    return r;
  }();
  return rolls;
}

std::string Step::text() const {
  return std::to_string(from) + "/" + (to == 0 ? std::string("off") : std::to_string(to));
}

std::string Turn::text() const {
  std::string out;
  for (int i = 0; i < size; ++i) {
    if (i) out += ' ';
    out += steps[i].text();
  }
  return out;
}

std::optional<Turn> Turn::parse(std::string_view text) {
  // A point 1..24 written as the toolkit writes it (no sign, no leading 0).
  const auto point = [](std::string_view w) -> int {
    if (w.empty() || w.size() > 2 || w[0] < '1' || w[0] > '9') return 0;
    int v = w[0] - '0';
    if (w.size() == 2) {
      if (w[1] < '0' || w[1] > '9') return 0;
      v = v * 10 + (w[1] - '0');
    }
    return v <= 24 ? v : 0;
  };
  // As the toolkit writes it: steps separated by single spaces, nothing
  // before or after.
  Turn t;
  if (text.empty()) return t;
  for (size_t i = 0;;) {
    const size_t j = std::min(text.find(' ', i), text.size());
    const std::string_view w = text.substr(i, j - i);
    const size_t slash = w.find('/');
    if (slash == std::string_view::npos || t.size == 4) return std::nullopt;
    const int from = point(w.substr(0, slash));
    const std::string_view to_text = w.substr(slash + 1);
    const int to = to_text == "off" ? 0 : point(to_text);
    if (from == 0 || (to == 0 && to_text != "off")) return std::nullopt;
    t.steps[t.size++] = Step{static_cast<int8_t>(from), static_cast<int8_t>(to)};
    if (j == text.size()) return t;
    i = j + 1;
  }
}

Position Position::start(int checkers) {
  Position p;
  p.pts_[23] = static_cast<int8_t>(checkers);
  p.pts_[11] = static_cast<int8_t>(-checkers);
  p.to_move_ = Color::kWhite;
  return p;
}

Position Position::parse(std::string_view text) {
  auto fail = [&](const std::string& why) -> InputError {
    return InputError("position '" + clip_token(text, 100) + "': " + why);
  };
  if (text.size() < 2 || (text[0] != 'W' && text[0] != 'B') || text[1] != ':')
    throw fail("expected S:c1,...,c24 with S = W or B");
  Position p;
  p.to_move_ = text[0] == 'W' ? Color::kWhite : Color::kBlack;
  std::string_view rest = text.substr(2);
  int k = 0;
  size_t i = 0;
  while (true) {
    size_t j = rest.find(',', i);
    std::string_view f =
        rest.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i);
    if (k >= kPoints) throw fail("more than 24 point counts");
    // -?(0|[1-9][0-9]?): no sign on positives, no leading zeros, no "-0".
    bool neg = !f.empty() && f[0] == '-';
    std::string_view digits = neg ? f.substr(1) : f;
    bool ok =
        !digits.empty() && digits.size() <= 2 &&
        std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
        !(digits.size() > 1 && digits[0] == '0') && !(neg && digits == "0");
    if (!ok)
      throw fail("count " + std::to_string(k + 1) + " '" + clip_token(f, 12) +
                 "' is not an integer");
    int v = 0;
    std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (v > kCheckers) throw fail("point " + std::to_string(k + 1) + " holds more than 15");
    p.pts_[k++] = static_cast<int8_t>(neg ? -v : v);
    if (j == std::string_view::npos) break;
    i = j + 1;
  }
  if (k != kPoints) throw fail("expected 24 point counts, got " + std::to_string(k));
  std::string bad = p.check_invariants();
  if (!bad.empty()) throw fail(bad);
  return p;
}

std::string Position::to_string() const {
  std::string out = to_move_ == Color::kWhite ? "W:" : "B:";
  for (int i = 0; i < kPoints; ++i) {
    if (i) out += ',';
    out += std::to_string(pts_[i]);
  }
  return out;
}

int Position::on_board(Color c) const {
  int n = 0;
  for (int v : pts_) n += c == Color::kWhite ? (v > 0 ? v : 0) : (v < 0 ? -v : 0);
  return n;
}

int Position::pips(Color c) const {
  int n = 0;
  for (int p = 1; p <= kPoints; ++p) n += count(c, p) * (kOffRoute - route_of(c, p));
  return n;
}

bool Position::first_turn(int checkers) const {
  Color c = to_move_;
  return count(c, point_of(c, 0)) == checkers;
}

Position Position::mirrored() const {
  Position m;
  for (int p = 1; p <= kPoints; ++p)
    m.pts_[(p + 12 - 1) % kPoints] = static_cast<int8_t>(-pts_[p - 1]);
  m.to_move_ = other(to_move_);
  return m;
}

Position Position::with_to_move(Color c) const {
  Position p = *this;
  p.to_move_ = c;
  return p;
}

namespace {
const std::vector<uint64_t>& position_keys() {
  // [point * 31 + count + 15], last = White to move. Seed: "nardy".
  static const std::vector<uint64_t> keys = zobrist_keys(0x6e61726479ull, kPoints * 31 + 1);
  return keys;
}
}  // namespace

uint64_t Position::hash() const {
  const auto& k = position_keys();
  uint64_t h = to_move_ == Color::kWhite ? k.back() : 0;
  for (int i = 0; i < kPoints; ++i)
    if (pts_[i] != 0) h ^= k[i * 31 + pts_[i] + 15];
  return h;
}

std::string Position::check_invariants() const {
  for (int i = 0; i < kPoints; ++i)
    if (pts_[i] > kCheckers || pts_[i] < -kCheckers)
      return "point " + std::to_string(i + 1) + " holds more than 15";
  if (on_board(Color::kWhite) > kCheckers) return "White has more than 15 checkers on the board";
  if (on_board(Color::kBlack) > kCheckers) return "Black has more than 15 checkers on the board";
  return "";
}

int Result::value(Color c) const {
  if (kind == Kind::kWhiteWins) return c == Color::kWhite ? points : -points;
  if (kind == Kind::kBlackWins) return c == Color::kBlack ? points : -points;
  return 0;
}

Outcome Result::outcome() const {
  switch (kind) {
    case Kind::kWhiteWins:
      return Outcome::win(Color::kWhite);
    case Kind::kBlackWins:
      return Outcome::win(Color::kBlack);
    case Kind::kDraw:
      return Outcome{Outcome::Kind::kDraw};
    case Kind::kOngoing:
      break;
  }
  return Outcome{};
}

std::string Result::text() const {
  switch (kind) {
    case Kind::kOngoing:
      return "ongoing";
    case Kind::kDraw:
      return "draw";
    case Kind::kWhiteWins:
    case Kind::kBlackWins:
      return std::string(kind == Kind::kWhiteWins ? "white" : "black") + " wins " +
             std::to_string(points) + (points == 2 ? " points (mars)" : " point (oin)");
  }
  return "?";
}

Result result(const Position& p, const Options& opt) {
  int w = p.on_board(Color::kWhite), b = p.on_board(Color::kBlack);
  auto win = [&](Color c, int loser_on_board) {
    return Result{c == Color::kWhite ? Result::Kind::kWhiteWins : Result::Kind::kBlackWins,
                  loser_on_board >= opt.checkers ? 2 : 1};
  };
  if (w == 0 && b == 0) return Result{Result::Kind::kDraw, 0};  // end=last-roll draw
  if (b == 0) return win(Color::kBlack, w);
  if (w == 0) {
    // end=last-roll: White's win waits for Black's one more turn.
    if (opt.last_roll && p.to_move() == Color::kBlack) return Result{};
    return win(Color::kWhite, b);
  }
  return Result{};
}

std::string check_playable(const Position& p, const Options& opt) {
  std::string bad = p.check_invariants();
  if (!bad.empty()) return bad;
  for (Color c : {Color::kWhite, Color::kBlack})
    if (p.on_board(c) > opt.checkers)
      return std::string(c == Color::kWhite ? "White" : "Black") + " has " +
             std::to_string(p.on_board(c)) +
             " checkers on the board, more than checkers=" + std::to_string(opt.checkers);
  if (p.on_board(Color::kWhite) == 0 && p.on_board(Color::kBlack) == 0 &&
      !(opt.last_roll && p.to_move() == Color::kWhite))
    return "both sides have borne off all " + std::to_string(opt.checkers) +
           " (only the end=last-roll draw, White to move, has that)";
  return "";
}

}  // namespace loom::nardy
