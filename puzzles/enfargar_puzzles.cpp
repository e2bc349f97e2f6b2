// Enfargar puzzles: question `win`; a move that leads to two passes in a row
// has the value "stall" (or, under stall=more-stones, the scored result).
// Values come from the retrograde analysis; boards of side <= 4 (W = 1) and
// the recommended 9 (W = 5).
#include "model/enfargar/enfargar.h"
#include "properties/spec/enfargar_spec.h"
#include "puzzles/checker.h"
#include "puzzles/generator.h"
#include "puzzles/spec_glue.h"

namespace loom::puzzles {

template <int W>
struct PuzzleTraits<enfargar::State<W>> {
  using S = enfargar::State<W>;
  using Move = typename S::Move;
  static constexpr Question kQuestion = Question::kWin;
  static Color colour_to_move(const S& s) { return s.to_move(); }
  static int greedy_weight(const S& s, const Move& m) {
    return m.is_pass() ? 0 : s.analyse(m.site).flips.count();
  }
  static bool attractive(const S& s, const Move& m) { return greedy_weight(s, m) > 0; }
  static bool playout_allows(const S&, const Move&, size_t) { return true; }
  static void events(const S& before, const Move& m, const S& after, std::set<std::string>& tags) {
    if (m.is_pass()) {
      tags.insert("forced pass");
      return;
    }
    if (before.analyse(m.site).flips.any()) tags.insert("flip");
    if (after.is_terminal() && after.passes() < 2) tags.insert("annihilation");
  }

  /// The position in the mover's frame, by the spec's site order.
  static spec::Cells frame(const spec::HexBoard& b, const S& s, Color me) {
    return mover_frame(b, s.geo(), s.stones(me), s.stones(other(me)));
  }
  /// The spec relation covers placements; a listed pass must be the only
  /// move, and is then right exactly when the spec allows no placement.
  static std::string spec_confirm(const S& s, const std::vector<Move>& listed) {
    bool pass =
        std::any_of(listed.begin(), listed.end(), [](const Move& m) { return m.is_pass(); });
    if (pass && listed.size() != 1) return "pass is listed beside placements";
    spec::HexBoard b(s.geo().side());
    z3::context ctx;
    z3::solver solver(ctx);
    spec::Encoder e(ctx);
    spec::EnfargarMove rel =
        spec::encode_enfargar_move(e, b, spec::EnfargarRules{s.context().opt.touch});
    const Color me = s.to_move();
    std::vector<SpecCandidate> cands;
    typename S::Undo u;
    for (int i = 0; i < b.size(); ++i) {
      Move m{static_cast<int16_t>(*s.geo().parse(b.name(i)))};
      std::optional<z3::expr> result;
      if (std::binary_search(listed.begin(), listed.end(), m)) {
        S t = s;
        t.apply(m, u);
        result = spec::equals(e, rel.after, frame(b, t, me)) &&
                 (t.is_terminal() ? rel.annihilates : !rel.annihilates);
      }
      cands.push_back({b.name(i), rel.at[i], result});
    }
    return spec_disagreement(solver, e, spec::equals(e, rel.before, frame(b, s, me)), rel.legal,
                             cands);
  }
};

#define LOOM_ENFARGAR_PUZZLES(W)                                                  \
  template MakeReport make_puzzles<enfargar::State<W>>(const enfargar::State<W>&, \
                                                       const MakeOptions&);       \
  template CheckResult check_puzzle<enfargar::State<W>>(                          \
      const enfargar::State<W>&, const nlohmann::json&, const CheckOptions&);     \
  template std::string spec_confirm<enfargar::State<W>>(                          \
      const enfargar::State<W>&, const std::vector<typename enfargar::State<W>::Move>&);
LOOM_ENFARGAR_PUZZLES(1)
LOOM_ENFARGAR_PUZZLES(5)

}  // namespace loom::puzzles
