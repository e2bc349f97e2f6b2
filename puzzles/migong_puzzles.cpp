// Migong puzzles: question `win` (no draws: at 0-0 the last placer loses).
// Values come from the retrograde analysis; boards of side <= 4 (W = 1) and
// the recommended 7 (W = 3), default edge colouring (the specification
// computes its own from RULES.md and must agree).
#include "model/migong/migong.h"
#include "properties/spec/migong_spec.h"
#include "puzzles/checker.h"
#include "puzzles/generator.h"
#include "puzzles/spec_glue.h"

namespace loom::puzzles {

template <int W>
struct PuzzleTraits<migong::State<W>> {
  using S = migong::State<W>;
  using Move = typename S::Move;
  static constexpr Question kQuestion = Question::kWin;
  static Color colour_to_move(const S& s) { return s.colour_to_move(); }
  /// The greedy policy joins pieces: the number of occupied neighbours.
  static int greedy_weight(const S& s, const Move& m) {
    if (!m.is_placement()) return 0;
    int n = 0;
    for (int d = 0; d < 6; ++d) {
      int nb = s.geo().neighbour(m.site, d);
      if (nb >= 0 && s.occupied().test(nb)) ++n;
    }
    return n;
  }
  /// A move after which the mover leads on the score as it stands.
  static bool attractive(const S& s, const Move& m) {
    if (!m.is_placement()) return false;
    S t = s;
    typename S::Undo u;
    t.apply(m, u);
    auto sheet = t.score();
    Color me = s.colour_to_move();
    return sheet.score[idx(me)] > sheet.score[idx(other(me))];
  }
  static bool playout_allows(const S&, const Move&, size_t) { return true; }
  static void events(const S&, const Move& m, const S& after, std::set<std::string>& tags) {
    if (m.is_pass() && !after.is_terminal()) tags.insert("forced pass");
    if (after.is_terminal()) {
      auto sheet = after.score();
      tags.insert(sheet.score[0] == 0 && sheet.score[1] == 0 ? "last placer loses"
                                                             : "score decides");
    }
  }

  static z3::expr same_position(const spec::Encoder& e, const spec::MigongBoard& b,
                                const spec::MigongPosition& p, const S& s) {
    spec::Exprs eq;
    for (int c = 0; c < b.cells(); ++c) {
      int site = *s.geo().parse(b.name(c));
      bool occ = s.occupied().test(site);
      bool blue = s.placed_from(Color::kBlack).test(site);
      eq.push_back(occ ? p.occupied[c] : !p.occupied[c]);
      eq.push_back(blue ? p.blue[c] : !p.blue[c]);
      for (int d = 0; d < 6; ++d) {
        bool wedge = occ && (s.pattern_at(site) >> d & 1);
        eq.push_back(wedge ? p.wedge[c * 6 + d] : !p.wedge[c * 6 + d]);
      }
    }
    return e.all(eq);
  }
  static std::string spec_confirm(const S& s, const std::vector<Move>& listed) {
    bool pass =
        std::any_of(listed.begin(), listed.end(), [](const Move& m) { return m.is_pass(); });
    if (pass && listed.size() != 1) return "pass is listed beside placements";
    if (std::any_of(listed.begin(), listed.end(), [](const Move& m) { return m.is_swap(); }))
      return "swap (pie) is outside the specification's placement relation";
    spec::MigongBoard b(s.geo().side());
    z3::context ctx;
    z3::solver solver(ctx);
    spec::Encoder e(ctx);
    z3::expr blue_moves = ctx.bool_const("blue_moves");
    spec::MigongMove rel =
        spec::encode_migong_move(e, b, spec::migong_default_edges(b), blue_moves);
    std::vector<SpecCandidate> cands;
    typename S::Undo u;
    for (int c = 0; c < b.cells(); ++c) {
      int site = *s.geo().parse(b.name(c));
      for (int pat = 0; pat < 64; ++pat) {
        Move m{static_cast<int16_t>(site), static_cast<uint8_t>(pat)};
        z3::expr move = rel.at[c];
        for (int d = 0; d < 6; ++d)
          move = move && (pat >> d & 1 ? rel.pattern[d] : !rel.pattern[d]);
        std::optional<z3::expr> result;
        if (std::binary_search(listed.begin(), listed.end(), m)) {
          S t = s;
          t.apply(m, u);
          result = same_position(e, b, rel.after, t);
        }
        cands.push_back({migong::pattern_name(pat) + "@" + b.name(c), move, result});
      }
    }
    bool blue = s.colour_to_move() == Color::kBlack;
    z3::expr fixed = same_position(e, b, rel.before, s) && (blue ? blue_moves : !blue_moves);
    return spec_disagreement(solver, e, fixed, rel.legal, cands);
  }
};

#define LOOM_MIGONG_PUZZLES(W)                                                                     \
  template MakeReport make_puzzles<migong::State<W>>(const migong::State<W>&, const MakeOptions&); \
  template CheckResult check_puzzle<migong::State<W>>(const migong::State<W>&,                     \
                                                      const nlohmann::json&, const CheckOptions&); \
  template std::string spec_confirm<migong::State<W>>(                                             \
      const migong::State<W>&, const std::vector<typename migong::State<W>::Move>&);
LOOM_MIGONG_PUZZLES(1)
LOOM_MIGONG_PUZZLES(3)

}  // namespace loom::puzzles
