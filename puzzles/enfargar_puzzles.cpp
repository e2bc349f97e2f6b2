// Enfargar puzzles: question `win`; a move that leads to two passes in a row
// has the value "stall" (or, under stall=more-stones, the scored result).
// Values come from the retrograde analysis; boards of side <= 4 (W = 1) and
// the recommended 9 (W = 5).
#include <algorithm>

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
  ///
  /// One query per point, the site fixed in the encoding, each a witness
  /// (SAT) query: the relation is a function of the position and the site
  /// (its lifeline sets are fixed points that rest on strictly lower ranks,
  /// and only the least fixed point is both: Encoder::least_fixed_point;
  /// tests/spec checks it on small boards), so the one satisfying valuation
  /// a model shows is the spec's verdict. First clause (3) alone ("the point
  /// is empty", no fixed point built) for every point, which refuses the
  /// occupied ones; then each point the spec finds empty: "legal and the
  /// model's position after" for a listed move, "not legal" for an omitted
  /// one. Refutation queries (one UNSAT query for all points, as for the
  /// other games) did not finish in 900 s on Enfargar 9; a witness is found
  /// by propagation from the fixed position (docs/puzzles.md).
  static std::string spec_confirm(const S& s, const std::vector<Move>& listed) {
    bool pass =
        std::any_of(listed.begin(), listed.end(), [](const Move& m) { return m.is_pass(); });
    if (pass && listed.size() != 1) return "pass is listed beside placements";
    spec::HexBoard b(s.geo().side());
    const Color me = s.to_move();
    const spec::Cells before = frame(b, s, me);
    auto site_move = [&](int i) { return Move{static_cast<int16_t>(*s.geo().parse(b.name(i)))}; };
    auto is_listed = [&](int i) {
      return std::binary_search(listed.begin(), listed.end(), site_move(i));
    };
    std::vector<int> empty_points;
    {
      z3::context ctx;
      z3::solver solver(ctx);
      spec::Encoder e(ctx);
      const spec::HexPosition pos = spec::fresh_position(e, b, "enf_before");
      solver.add(e.definitions());
      solver.add(spec::equals(e, pos, before));
      for (int i = 0; i < b.size(); ++i) {
        solver.push();
        solver.add(spec::enfargar_point_empty(e, pos, spec::choose_site(e, b, i, "enf_at")));
        const z3::check_result r = solver.check();
        solver.pop();
        if (r == z3::unknown) return "Z3 answered unknown";
        if (r == z3::sat)
          empty_points.push_back(i);
        else if (is_listed(i))
          return "move " + b.name(i) +
                 ": the puzzle lists it, the specification forbids it (the point is not empty)";
      }
    }
    typename S::Undo u;
    for (int i : empty_points) {
      z3::context ctx;
      z3::solver solver(ctx);
      spec::Encoder e(ctx);
      const spec::EnfargarMove rel =
          spec::encode_enfargar_move(e, b, spec::EnfargarRules{s.context().opt.touch}, nullptr, i);
      solver.add(e.definitions());
      solver.add(spec::equals(e, rel.before, before));
      const bool lists = is_listed(i);
      if (lists) {
        S t = s;
        t.apply(site_move(i), u);
        solver.add(rel.legal && spec::equals(e, rel.after, frame(b, t, me)) &&
                   (t.is_terminal() ? rel.annihilates : !rel.annihilates));
      } else {
        solver.add(!rel.legal);
      }
      const z3::check_result r = solver.check();
      if (r == z3::unknown) return "Z3 answered unknown";
      if (r == z3::unsat)
        return "move " + b.name(i) + ": the puzzle " + (lists ? "lists it" : "omits it") +
               ", the specification " +
               (lists ? "forbids it or gives another result" : "allows it");
    }
    return "";
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
