// Fiodar queries (RULES.md section 2 and 7).
//
// As for Gadur: first over every board whose weaves are all uncut (the state
// of play at the start of a turn under the default rules); if one exists,
// the shortest game from the empty board reaching one (placements only,
// superko enforced), so the witness comes with a record.
#include <stdexcept>

#include "properties/spec/fiodar_spec.h"
#include "properties/spec/query_util.h"

namespace loom::spec {

namespace {

/// No weave of either colour is cut. Under the default rules every turn
/// starts so: the opponent's suicide check left none of its weaves cut, and
/// the mover's cut weaves were removed (removing stones of one colour cannot
/// cut another weave of that colour when cutters must be adjacent).
z3::expr no_cut_weaves(Encoder& e, const HexBoard& b, const HexPosition& p, bool gap) {
  Exprs own = fiodar_cut_weave_stones(e, b, "fiodar_inv_own", p.own, p.opp, gap);
  Exprs opp = fiodar_cut_weave_stones(e, b, "fiodar_inv_opp", p.opp, p.own, gap);
  return !e.any(own) && !e.any(opp);
}

/// Superko against the same player's earlier end-of-turn boards.
z3::expr new_board(const Encoder& e, const HexPosition& after, int ply,
                   const std::vector<Ply>& earlier) {
  Exprs differ;
  for (int k = ply - 2; k >= 0; k -= 2)
    differ.push_back(
        !(e.same(after.own, earlier[k].after.own) && e.same(after.opp, earlier[k].after.opp)));
  return e.all(differ);
}

PlyFn fiodar_ply(const HexBoard& b, const FiodarRules& rules,
                 std::shared_ptr<std::vector<Ply>> plies) {
  return [&b, rules, plies](Encoder& e, const HexPosition& before, int t,
                            const std::vector<HexPosition>&) {
    if (t == 0) plies->clear();
    FiodarMove m = encode_fiodar_move(e, b, rules, &before);
    Ply p{m.after, m.at, m.pass, m.legal && !m.pass && new_board(e, m.after, t, *plies)};
    plies->push_back(p);
    return p;
  };
}

struct Found {
  QueryAnswer answer;
  std::optional<Reached> line;
};

/// The shared flow: `property(e, pos, plies_before)` states the question on a
/// position (plies_before: the game so far, for superko; empty when the
/// position is arbitrary). Returns the answer with the line, if any.
Found search(
    const HexBoard& b, const FiodarRules& rules,
    const std::function<z3::expr(Encoder&, const HexPosition&, const std::vector<Ply>&)>& property,
    z3::context& c) {
  Stopwatch clock;
  Found f;
  {
    Encoder e(c);
    HexPosition pos = fresh_position(e, b, "fiodar_pos");
    z3::expr goal = no_cut_weaves(e, b, pos, rules.gap) && property(e, pos, {});
    if (!solve(c, e, goal).sat) {
      f.answer.seconds = clock.seconds();
      return f;
    }
  }
  f.answer.witness = true;
  auto plies = std::make_shared<std::vector<Ply>>();
  f.line = shortest_line(
      c, b, b.size(), 120, fiodar_ply(b, rules, plies),
      [&](Encoder& e, const Unrolled& u) { return property(e, u.positions.back(), u.plies); });
  f.answer.seconds = clock.seconds();
  if (!f.line)
    f.answer.lines.push_back("exists on some board, but no game of up to " +
                             std::to_string(b.size()) +
                             " placements reaches one within the time budget");
  return f;
}

QueryAnswer legal_by_removal(int size, const FiodarRules& rules) {
  HexBoard b(size);
  z3::context c;
  std::optional<FiodarMove> move;
  Found f = search(
      b, rules,
      [&](Encoder& e, const HexPosition& pos, const std::vector<Ply>& before) {
        FiodarMove m = encode_fiodar_move(e, b, rules, &pos);
        move = m;
        return !m.pass && m.legal && m.friendly_cut_before_removal && !m.friendly_cut_after &&
               new_board(e, m.after, static_cast<int>(before.size()), before);
      },
      c);
  QueryAnswer& a = f.answer;
  if (!f.line) return a;
  const z3::model& z = *f.line->model;
  int site = read_site(z, move->at);
  bool black = f.line->black_to_move;
  HexPicture p =
      picture_bw(b, f.line->final_black_white,
                 std::string("after the record, ") + (black ? "Black (X)" : "White (O)") +
                     " plays * (removed stones in lower case)");
  p.cells[site] = '*';
  int removed = 0;
  for (int i = 0; i < b.size(); ++i)
    if (value_of(z, move->removed[i])) p.cells[i] = black ? 'o' : 'x', ++removed;
  a.pictures.push_back(p);
  a.lines.push_back("record: " + record_text(f.line->record) + " (" + plies_text(f.line->plies) +
                    ", the shortest game that reaches one)");
  a.lines.push_back(std::string(black ? "Black" : "White") + " plays " + b.name(site) +
                    ": right after the placement one of its weaves is cut (suicide if judged "
                    "then), but the cut enemy weave goes first (" +
                    std::to_string(removed) + (removed == 1 ? " stone" : " stones") +
                    ") and afterwards no friendly weave is cut");
  a.record = f.line->record;
  a.move = b.name(site);
  a.facts = {{"record", record_text(f.line->record)},
             {"move", b.name(site)},
             {"removed", std::to_string(removed)}};
  return a;
}

QueryAnswer cut_without_full_thread(int size, const FiodarRules& rules) {
  HexBoard b(size);
  z3::context c;
  std::optional<FiodarMove> move;
  std::optional<Exprs> weave;
  Found f = search(
      b, rules,
      [&](Encoder& e, const HexPosition& pos, const std::vector<Ply>& before) {
        FiodarMove m = encode_fiodar_move(e, b, rules, &pos);
        // W: the enemy weave of a chosen stone, judged right after the
        // placement; it is cut (so removed), and no line holds all of it (a
        // weave within one line is a single thread).
        Exprs seed = e.booleans("fiodar_seed", b.size());
        e.require(e.exactly_one(seed));
        Exprs w = reach(e, b, "fiodar_W", seed, pos.opp);
        Exprs parts{!m.pass, m.legal,
                    new_board(e, m.after, static_cast<int>(before.size()), before)};
        for (int i = 0; i < b.size(); ++i) parts.push_back(z3::implies(seed[i], m.removed[i]));
        for (int l = 0; l < 3; ++l)
          for (int v = -(size - 1); v <= 2 * size - 2; ++v) {
            Exprs off_line;
            for (int i = 0; i < b.size(); ++i)
              if (b.line_of(i, l) != v) off_line.push_back(w[i]);
            parts.push_back(e.any(off_line));
          }
        move = m;
        weave = w;
        return e.all(parts);
      },
      c);
  QueryAnswer& a = f.answer;
  if (!f.line) return a;
  const z3::model& z = *f.line->model;
  int site = read_site(z, move->at);
  bool black = f.line->black_to_move;
  HexPicture p =
      picture_bw(b, f.line->final_black_white,
                 std::string("after the record, ") + (black ? "Black (X)" : "White (O)") +
                     " plays *; the cut weave W is in lower case");
  p.cells[site] = '*';
  int size_w = 0;
  for (int i = 0; i < b.size(); ++i)
    if (value_of(z, (*weave)[i])) p.cells[i] = black ? 'o' : 'x', ++size_w;
  a.pictures.push_back(p);
  a.lines.push_back("record: " + record_text(f.line->record) + " (" + plies_text(f.line->plies) +
                    ", the shortest game that reaches one)");
  a.lines.push_back("after " + b.name(site) + " every stone of the " + std::to_string(size_w) +
                    "-stone weave W lies on a cut thread, yet no thread holds all of W (it spans "
                    "more than one line): W is cut and removed");
  a.record = f.line->record;
  a.move = b.name(site);
  a.facts = {{"record", record_text(f.line->record)},
             {"move", b.name(site)},
             {"weave_size", std::to_string(size_w)}};
  return a;
}

}  // namespace

QueryAnswer fiodar_query(const std::string& name, int size, const FiodarRules& rules) {
  if (name == "legal-by-removal") return legal_by_removal(size, rules);
  if (name == "cut-without-full-thread") return cut_without_full_thread(size, rules);
  throw std::invalid_argument("unknown fiodar query " + name);
}

}  // namespace loom::spec
