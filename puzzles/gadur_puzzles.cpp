// Gadur puzzles: question `win`. Values come from the retrograde analysis
// (cycle-sound: Gadur as written can loop for ever, so a move's value may be
// "draw"); candidates on side <= 4 (W = 1), the recommended board included.
#include "model/gadur/gadur.h"
#include "properties/spec/gadur_spec.h"
#include "puzzles/checker.h"
#include "puzzles/generator.h"
#include "puzzles/spec_glue.h"

namespace loom::puzzles {

template <int W>
struct PuzzleTraits<gadur::State<W>> {
  using S = gadur::State<W>;
  using Move = typename S::Move;
  static constexpr Question kQuestion = Question::kWin;
  static Color colour_to_move(const S& s) { return s.to_move(); }
  static int greedy_weight(const S& s, const Move& m) {
    auto p = s.analyse(m.site);
    return p.captures ? 2 : p.group.count() > 1 ? 1 : 0;
  }
  static bool attractive(const S& s, const Move& m) { return greedy_weight(s, m) > 0; }
  static bool playout_allows(const S&, const Move&, size_t) { return true; }
  static void events(const S& before, const Move& m, const S&, std::set<std::string>& tags) {
    auto p = before.analyse(m.site);
    if (p.captures) tags.insert(p.num_enemy_groups >= 2 ? "merge capture" : "capture");
    if (p.group.count() > 1) tags.insert("merge");
  }

  /// The position in the mover's frame, by the spec's site order.
  static spec::Cells frame(const spec::HexBoard& b, const S& s, Color me) {
    return mover_frame(b, s.geo(), s.stones(me), s.stones(other(me)));
  }
  static std::string spec_confirm(const S& s, const std::vector<Move>& listed) {
    spec::HexBoard b(s.geo().side());
    z3::context ctx;
    z3::solver solver(ctx);
    spec::Encoder e(ctx);
    const auto& o = s.context().opt;
    spec::GadurMove rel = spec::encode_gadur_move(e, b, spec::GadurRules{o.subset, o.merge_only});
    const Color me = s.to_move();
    std::vector<SpecCandidate> cands;
    typename S::Undo u;
    for (int i = 0; i < b.size(); ++i) {
      Move m{static_cast<int16_t>(*s.geo().parse(b.name(i)))};
      std::optional<z3::expr> result;
      if (std::binary_search(listed.begin(), listed.end(), m)) {
        S t = s;
        t.apply(m, u);
        bool captured = t.stones(other(me)).count() < s.stones(other(me)).count();
        result = spec::equals(e, rel.after, frame(b, t, me)) &&
                 (captured ? rel.captures : !rel.captures);
      }
      cands.push_back({b.name(i), rel.at[i], result});
    }
    return spec_disagreement(solver, e, spec::equals(e, rel.before, frame(b, s, me)), rel.legal,
                             cands);
  }
};

template MakeReport make_puzzles<gadur::State<1>>(const gadur::State<1>&, const MakeOptions&);
template CheckResult check_puzzle<gadur::State<1>>(const gadur::State<1>&, const nlohmann::json&,
                                                   const CheckOptions&);
template std::string spec_confirm<gadur::State<1>>(const gadur::State<1>&,
                                                   const std::vector<gadur::State<1>::Move>&);

}  // namespace loom::puzzles
