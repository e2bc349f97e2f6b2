// Enfargar queries (RULES.md section 3 and 7).
#include <memory>
#include <stdexcept>

#include "properties/spec/enfargar_spec.h"
#include "properties/spec/query_util.h"

namespace loom::spec {

namespace {

/// Every stone of both colours has a lifeline. Play keeps this at the start
/// of every turn: condition (2) gives it to the mover's stones, and an enemy
/// stone that keeps its colour had a lifeline right after the placement,
/// which the flips (enemy stones turning friendly) cannot take away: they
/// had no lifeline, so no enemy lifeline rests on them, and a flip changes
/// no empty point.
z3::expr all_lifelines(Encoder& e, const HexBoard& b, const HexPosition& p, bool touch) {
  Exprs own = enfargar_lifelines(e, b, "enf_inv_own", p.own, p.opp, touch);
  Exprs opp = enfargar_lifelines(e, b, "enf_inv_opp", p.opp, p.own, touch);
  Exprs all;
  for (int i = 0; i < b.size(); ++i) {
    all.push_back(z3::implies(p.own[i], own[i]));
    all.push_back(z3::implies(p.opp[i], opp[i]));
  }
  return e.all(all);
}

/// Placements only (a pass is forced only when no placement exists), and no
/// turn before the last may end the game by annihilation.
PlyFn enfargar_ply(const HexBoard& b, const EnfargarRules& rules) {
  return [&b, rules](Encoder& e, const HexPosition& before, int, const std::vector<HexPosition>&) {
    EnfargarMove m = encode_enfargar_move(e, b, rules, &before);
    return Ply{m.after, m.at, e.no(), m.legal && !m.annihilates};
  };
}

std::string count_stones(const Cells& bw) {
  int black = 0, white = 0, free = 0;
  for (int v : bw) (v == 1 ? black : v == 2 ? white : free)++;
  return "Black " + std::to_string(black) + " stones, White " + std::to_string(white) +
         " stones, " + std::to_string(free) + " empty points";
}

QueryAnswer no_placement_both(int size, const EnfargarRules& rules) {
  HexBoard b(size);
  z3::context c;
  Stopwatch clock;
  auto property = [&](Encoder& e, const HexPosition& pos) {
    HexPosition swapped{pos.opp, pos.own};
    Exprs parts{e.any(pos.own), e.any(pos.opp)};
    Exprs empty;
    for (int i = 0; i < b.size(); ++i) {
      empty.push_back(!pos.own[i] && !pos.opp[i]);
      parts.push_back(!encode_enfargar_move(e, b, rules, &pos, i).legal);
      parts.push_back(!encode_enfargar_move(e, b, rules, &swapped, i).legal);
    }
    parts.push_back(e.any(empty));
    return e.all(parts);
  };
  QueryAnswer a;
  {
    Encoder e(c);
    HexPosition pos = fresh_position(e, b, "enf_pos");
    if (!solve(c, e, all_lifelines(e, b, pos, rules.touch) && property(e, pos)).sat) {
      a.seconds = clock.seconds();
      a.lines.push_back("searched: every position of side " + std::to_string(size) +
                        " with both colours, an empty point, and a lifeline for every stone");
      return a;
    }
  }
  a.witness = true;
  auto line =
      shortest_line(c, b, b.size(), 120, enfargar_ply(b, rules),
                    [&](Encoder& e, const Unrolled& u) { return property(e, u.positions.back()); });
  a.seconds = clock.seconds();
  if (!line) {
    a.lines.push_back("exists on some board, but no game of up to " + std::to_string(b.size()) +
                      " placements reaches one within the time budget");
    return a;
  }
  a.pictures.push_back(picture_bw(b, line->final_black_white,
                                  "neither Black (X) nor White (O) has a legal placement"));
  a.lines.push_back("record: " + record_text(line->record) + " (" + plies_text(line->plies) +
                    ", the shortest game that reaches one)");
  a.lines.push_back(count_stones(line->final_black_white) +
                    "; a stone on any empty point, by either player, fails condition (1) or (2): "
                    "both must pass and the game stalls");
  a.record = line->record;
  a.facts = {{"record", record_text(line->record)}};
  return a;
}

QueryAnswer end_clause_redundant(int size, const EnfargarRules& rules) {
  HexBoard b(size);
  z3::context c;
  Stopwatch clock;
  std::optional<EnfargarMove> move;
  // The witness would be a placement that clause (2) alone rejects: empty
  // point, condition (1), and afterwards some friendly stone without a lifeline.
  auto property = [&](Encoder& e, const HexPosition& pos) {
    EnfargarMove m = encode_enfargar_move(e, b, rules, &pos, -1, /*clause2=*/false);
    move = m;
    return m.legal && !m.all_have_lifeline;
  };
  QueryAnswer a;
  std::optional<Cells> before, after;
  int site = -1;
  if (size == 2) {
    // The one-move relation itself, every site at once.
    Encoder e(c);
    HexPosition pos = fresh_position(e, b, "enf_pos");
    Solved s = solve(c, e, all_lifelines(e, b, pos, rules.touch) && property(e, pos));
    a.lines.push_back(
        "checked with the one-move relation: every position of side 2 whose "
        "stones all have lifelines, every placement on an empty point");
    if (s.sat) {
      before = read_cells(*s.model, pos);
      after = read_cells(*s.model, move->after);
      site = read_site(*s.model, move->at);
    }
  } else {
    // The relation takes too long here; the witness form (see
    // encode_enfargar_clause_probe) decides the same question, one placement
    // site per class of the 12 symmetries (the rules do not depend on them).
    std::vector<int> reps = b.orbit_representatives();
    std::string times;
    for (int r : reps) {
      Stopwatch one;
      Encoder e(c);
      EnfargarClauseProbe probe = encode_enfargar_clause_probe(e, b, rules, r);
      Solved s = solve(c, e, probe.claim_fails);
      times += (times.empty() ? "" : ", ") + b.name(r) + " " +
               std::to_string(one.seconds()).substr(0, 5) + " s";
      if (s.sat) {
        before = read_cells(*s.model, probe.before);
        after = read_cells(*s.model, probe.after);
        site = r;
        break;
      }
    }
    a.lines.push_back("checked in witness form, one placement site per symmetry class (" +
                      std::to_string(reps.size()) + " classes: " + times + ")");
  }
  a.seconds = clock.seconds();
  if (!before) return a;
  a.witness = true;
  HexPicture p = picture(b, *before, "X to move plays * (every stone has a lifeline)");
  p.cells[site] = '*';
  a.pictures.push_back(p);
  a.pictures.push_back(picture(b, *after, "after the flips: some X stone has no lifeline"));
  a.facts = {{"move", b.name(site)}};
  return a;
}

}  // namespace

QueryAnswer enfargar_query(const std::string& name, int size, const EnfargarRules& rules) {
  if (name == "no-placement-both") return no_placement_both(size, rules);
  if (name == "end-clause-redundant") return end_clause_redundant(size, rules);
  throw std::invalid_argument("unknown enfargar query " + name);
}

}  // namespace loom::spec
