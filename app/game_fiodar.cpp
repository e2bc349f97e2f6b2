// Fiodar on the command line: the 2-stone pie setup (--setup "BLACK WHITE"),
// diagrams with both scores, and `loom score`.
#include "app/registry.h"
#include "model/common/diagram.h"
#include "model/common/errors.h"
#include "model/fiodar/fiodar.h"

namespace loom {

namespace {

std::string half_points(int total2) {
  return std::to_string(total2 / 2) + (total2 % 2 ? ".5" : "");
}

template <int W>
std::string score_line(const fiodar::State<W>& s, Color c) {
  auto sc = s.scores()[idx(c)];
  bool known = s.half_point_holder().has_value();
  return std::string(color_name(c)) + ": territory " + std::to_string(sc.territory) +
         ", prisoners " + std::to_string(sc.prisoners) + ", half point " +
         (known ? (sc.half ? "0.5" : "0") : "undecided") + ", total " + half_points(sc.total2()) +
         "\n";
}

template <int W>
std::string result_line(const fiodar::State<W>& s) {
  Outcome o = s.outcome();
  if (o.ongoing()) {
    std::string why = s.half_point_holder() ? "" : "; the half point is not yet decided";
    return std::string("game not over: ") + color_name(s.to_move()) + " to move" +
           (s.last_move_was_pass() ? " after a pass" : "") + why + "\n";
  }
  Color w = o.kind == Outcome::Kind::kBlackWins ? Color::kBlack : Color::kWhite;
  int m = o.margin2 < 0 ? -o.margin2 : o.margin2;
  return std::string("game over: ") + color_name(w) + " wins by " + half_points(m) + "\n";
}

template <int W>
std::string draw_fiodar(const fiodar::State<W>& s) {
  std::string out = hex_diagram(s.geo(), [&](int site) {
    if (s.stones(Color::kBlack).test(site)) return 'X';
    if (s.stones(Color::kWhite).test(site)) return 'O';
    return '.';
  });
  out += "X = black (" + std::to_string(s.stones(Color::kBlack).count()) + " stones), O = white (" +
         std::to_string(s.stones(Color::kWhite).count()) + " stones)\n";
  out += score_line(s, Color::kBlack);
  out += score_line(s, Color::kWhite);
  if (!s.is_terminal())
    out += std::string(color_name(s.to_move())) + " to move, " +
           std::to_string(s.legal_sites().count()) + " legal placements and pass\n";
  out += result_line(s);
  return out;
}

template <int W>
class FiodarAdapter : public GameAdapter<fiodar::State<W>> {
 public:
  using GameAdapter<fiodar::State<W>>::GameAdapter;
  std::string score_report() const override {
    const auto& s = this->state();
    return score_line(s, Color::kBlack) + score_line(s, Color::kWhite) + result_line(s);
  }
  /// RULES.md section 2: every 2-stone set-up "BLACK WHITE" on the empty
  /// board, Black to move, solved by alpha-beta up to symmetry.
  solver::SolveReport solve_pie(const solver::SolveOptions& options) const override {
    if constexpr (!kSolvableWidth<fiodar::State<W>>)
      throw InputError(
          "--pie solves the 2-stone set-ups on side 4 and below (above it, loom "
          "solve values late positions only)");
    else
      return solve_pie_small(options);
  }

 private:
  solver::SolveReport solve_pie_small(const solver::SolveOptions& options) const {
    const auto& s = this->state();
    if (s.stones(Color::kBlack).any() || s.stones(Color::kWhite).any() ||
        s.to_move() != Color::kBlack || s.is_terminal())
      throw InputError("--pie starts from the empty board: drop --setup and --record");
    std::vector<std::pair<std::string, fiodar::State<W>>> setups;
    const auto& sites = s.geo().sites();
    for (int b : sites)
      for (int w : sites) {
        if (b == w) continue;
        fiodar::State<W> t = s;
        t.put(b, Color::kBlack);
        t.put(w, Color::kWhite);
        setups.emplace_back(s.geo().name(b) + " " + s.geo().name(w), std::move(t));
      }
    return solver::solve_setups(std::move(setups), options);
  }
};

/// Places the pie setup "BLACK WHITE": two distinct points, Black then White.
template <int W>
void place_setup(fiodar::State<W>& s, const std::string& text, const std::string& name) {
  auto toks = detail::split_ws(text);
  std::optional<int> b, w;
  if (toks.size() == 2) {
    b = s.geo().parse(toks[0]);
    w = s.geo().parse(toks[1]);
  }
  if (!b || !w || *b == *w)
    throw InputError(
        name + " '" + detail::printable(text) +
        "': expected two distinct points \"BLACK WHITE\" on the board, e.g. \"d4 c3\"");
  s.put(*b, Color::kBlack);
  s.put(*w, Color::kWhite);
}

}  // namespace

GameInfo fiodar_info() {
  GameInfo g;
  g.name = "fiodar";
  g.title = "Fiodar: weave-cutting territory game on hex points, with passes and superko";
  g.default_size = fiodar::kDefaultSide;
  g.min_size = kMinSide;
  g.max_size = kMaxSide;
  g.accepts_setup = true;
  g.rule_specs = &fiodar::Options::specs;
  g.make = [](int size, const RuleSet& rules,
              const StartOptions& start) -> std::unique_ptr<AnyGame> {
    return dispatch_width(size, [&](auto w) -> std::unique_ptr<AnyGame> {
      constexpr int W = decltype(w)::value;
      auto ctx = std::make_shared<const fiodar::Context<W>>(size, fiodar::Options::from(rules));
      fiodar::State<W> s(ctx.get());
      if (start.setup) place_setup(s, *start.setup, start.setup_name);
      return std::make_unique<FiodarAdapter<W>>("fiodar", ctx, s, &draw_fiodar<W>);
    });
  };
  return g;
}

}  // namespace loom
