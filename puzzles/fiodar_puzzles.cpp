// Fiodar puzzles: question `best` (exactly one move reaches the best final
// margin). The superko histories are part of the state; the record from the
// empty board defines them, so no set-up is needed. Values come from the
// solver's alpha-beta; boards of side <= 4 (W = 1) and the recommended 7 (W = 3).
#include "model/fiodar/fiodar.h"
#include "properties/spec/fiodar_spec.h"
#include "puzzles/checker.h"
#include "puzzles/generator.h"
#include "puzzles/spec_glue.h"

namespace loom::puzzles {

template <int W>
struct PuzzleTraits<fiodar::State<W>> {
  using S = fiodar::State<W>;
  using Move = typename S::Move;
  static constexpr Question kQuestion = Question::kBest;
  static Color colour_to_move(const S& s) { return s.to_move(); }
  static int greedy_weight(const S& s, const Move& m) {
    return m.is_pass() ? 0 : s.analyse(m.site).removed.count();
  }
  static bool attractive(const S& s, const Move& m) { return greedy_weight(s, m) > 0; }
  /// Candidate games pass only once few placements are left (a pass among
  /// many placements would end most games at once).
  static bool playout_allows(const S&, const Move& m, size_t legal) {
    return !m.is_pass() || legal <= 3;
  }
  static void events(const S& before, const Move& m, const S& after, std::set<std::string>& tags) {
    if (m.is_pass()) {
      if (!after.is_terminal()) tags.insert("pass");
    } else if (before.analyse(m.site).removed.any()) {
      tags.insert("capture");
    }
    if (after.is_terminal() && std::abs(after.outcome().margin2) == 1) tags.insert("half point");
  }

  static spec::Cells frame(const spec::HexBoard& b, const HexGeometry& g,
                           const fiodar::Board<W>& board, Color me) {
    return mover_frame(b, g, board[idx(me)], board[idx(other(me))]);
  }
  static std::string spec_confirm(const S& s, const std::vector<Move>& listed) {
    spec::HexBoard b(s.geo().side());
    z3::context ctx;
    z3::solver solver(ctx);
    spec::Encoder e(ctx);
    const Color me = s.to_move();
    std::vector<spec::Cells> forbidden;
    for (const auto& h : s.history(me)) forbidden.push_back(frame(b, s.geo(), h.board, me));
    const auto& o = s.options();
    spec::FiodarMove rel = spec::encode_fiodar_move(
        e, b, spec::FiodarRules{o.cut_gap, o.capture_first}, nullptr, -1, forbidden);
    typename S::Undo u;
    auto result = [&](const Move& m) -> std::optional<z3::expr> {
      if (!std::binary_search(listed.begin(), listed.end(), m)) return std::nullopt;
      S t = s;
      t.apply(m, u);
      int removed = t.prisoners(me) - s.prisoners(me);
      return spec::equals(e, rel.after, frame(b, s.geo(), t.board(), me)) &&
             rel.removed_count == ctx.int_val(removed);
    };
    std::vector<SpecCandidate> cands;
    for (int i = 0; i < b.size(); ++i)
      cands.push_back(
          {b.name(i), rel.at[i], result(Move{static_cast<int16_t>(*s.geo().parse(b.name(i)))})});
    cands.push_back({"pass", rel.pass, result(Move::pass())});
    return spec_disagreement(
        solver, e, spec::equals(e, rel.before, frame(b, s.geo(), s.board(), me)), rel.legal, cands);
  }
};

#define LOOM_FIODAR_PUZZLES(W)                                                                     \
  template MakeReport make_puzzles<fiodar::State<W>>(const fiodar::State<W>&, const MakeOptions&); \
  template CheckResult check_puzzle<fiodar::State<W>>(const fiodar::State<W>&,                     \
                                                      const nlohmann::json&, const CheckOptions&); \
  template std::string spec_confirm<fiodar::State<W>>(                                             \
      const fiodar::State<W>&, const std::vector<typename fiodar::State<W>::Move>&);
LOOM_FIODAR_PUZZLES(1)
LOOM_FIODAR_PUZZLES(3)

}  // namespace loom::puzzles
