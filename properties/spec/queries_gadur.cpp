// Gadur queries (RULES.md section 4).
//
// Each query first asks over every board (with the stated constraints): if
// none exists there, none exists in play either. If one exists, it then
// looks for the shortest game from the empty board that reaches one
// (bounded model checking), so the witness comes with a record.
#include <stdexcept>

#include "properties/spec/gadur_spec.h"
#include "properties/spec/query_util.h"

namespace loom::spec {

namespace {

std::string count_text(int n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

PlyFn gadur_ply(const HexBoard& b, const GadurRules& rules) {
  return [&b, rules](Encoder& e, const HexPosition& before, int, const std::vector<HexPosition>&) {
    GadurMove m = encode_gadur_move(e, b, rules, &before);
    return Ply{m.after, m.at, e.no(), m.legal};
  };
}

/// A merge placement that captures at least two groups.
QueryAnswer merge_capture_two(int size, const GadurRules& rules) {
  HexBoard b(size);
  z3::context c;
  Stopwatch clock;
  auto property = [&](Encoder& e, const HexPosition& pos) {
    GroupLabels labels = group_labels(e, b, "gadur_pos_opp", pos.opp);
    GadurMove m = encode_gadur_move(e, b, rules, &pos, -1, &labels);
    return std::make_pair(m, m.legal && m.merges && m.captures && m.enemy_groups >= 2);
  };
  QueryAnswer a;
  {
    Encoder e(c);
    HexPosition pos = fresh_position(e, b, "gadur_pos");
    if (!solve(c, e, property(e, pos).second).sat) {
      a.seconds = clock.seconds();
      return a;
    }
  }
  a.witness = true;
  std::optional<GadurMove> move;
  auto line =
      shortest_line(c, b, b.size(), 120, gadur_ply(b, rules), [&](Encoder& e, const Unrolled& u) {
        auto [m, goal] = property(e, u.positions.back());
        move = m;
        return goal;
      });
  a.seconds = clock.seconds();
  if (!line) {
    a.lines.push_back("exists on some board, but no game of up to " + std::to_string(b.size()) +
                      " plies reaches one within the time budget");
    return a;
  }
  const z3::model& z = *line->model;
  int site = read_site(z, move->at);
  const char mover = line->black_to_move ? 'X' : 'O';
  HexPicture p = picture_bw(b, line->final_black_white,
                            std::string("after the record, ") +
                                (line->black_to_move ? "Black (X)" : "White (O)") +
                                " plays * (captured stones in lower case)");
  p.cells[site] = '*';
  for (int i = 0; i < b.size(); ++i)
    if (value_of(z, move->enemies[i])) p.cells[i] = mover == 'X' ? 'o' : 'x';
  a.pictures.push_back(p);
  int g = int_of(z, move->group_size), sz = int_of(z, move->enemy_size),
      k = int_of(z, move->enemy_groups);
  a.lines.push_back("record: " + record_text(line->record) + " (" + plies_text(line->plies) +
                    ", the shortest game that reaches one)");
  a.lines.push_back(std::string(line->black_to_move ? "Black" : "White") + " plays " +
                    b.name(site) + ": the merged group G has " + count_text(g, "stone") +
                    " and touches " + count_text(k, "enemy group") + " of " +
                    count_text(sz, "stone") + " in all (S = |G|): legal, and all " +
                    std::to_string(k) + " are captured");
  a.record = line->record;
  a.move = b.name(site);
  a.facts = {{"record", record_text(line->record)},
             {"move", b.name(site)},
             {"group_size", std::to_string(g)},
             {"captured_groups", std::to_string(k)}};
  return a;
}

/// A position with an empty cell where the mover has no legal placement.
QueryAnswer no_legal_placement(int size, const GadurRules& rules) {
  HexBoard b(size);
  z3::context c;
  Stopwatch clock;
  auto property = [&](Encoder& e, const HexPosition& pos) {
    GroupLabels labels = group_labels(e, b, "gadur_pos_opp", pos.opp);
    Exprs none, empty;
    for (int i = 0; i < b.size(); ++i) {
      none.push_back(!encode_gadur_move(e, b, rules, &pos, i, &labels).legal);
      empty.push_back(!pos.own[i] && !pos.opp[i]);
    }
    return e.all(none) && e.any(empty);
  };
  QueryAnswer a;
  {
    Encoder e(c);
    HexPosition pos = fresh_position(e, b, "gadur_pos");
    if (!solve(c, e, property(e, pos)).sat) {
      a.seconds = clock.seconds();
      return a;
    }
  }
  a.witness = true;
  auto line =
      shortest_line(c, b, b.size(), 120, gadur_ply(b, rules),
                    [&](Encoder& e, const Unrolled& u) { return property(e, u.positions.back()); });
  a.seconds = clock.seconds();
  if (!line) {
    a.lines.push_back("exists on some board, but no game of up to " + std::to_string(b.size()) +
                      " plies reaches one within the time budget");
    return a;
  }
  std::string who = line->black_to_move ? "Black" : "White";
  a.pictures.push_back(
      picture_bw(b, line->final_black_white, who + " to move has no legal placement and wins"));
  int black = 0, white = 0, free = 0;
  for (int v : line->final_black_white) (v == 1 ? black : v == 2 ? white : free)++;
  a.lines.push_back("record: " + record_text(line->record) + " (" + plies_text(line->plies) +
                    ", the shortest game that reaches one)");
  a.lines.push_back("Black " + count_text(black, "stone") + ", White " +
                    count_text(white, "stone") + "; each of the " + count_text(free, "empty cell") +
                    " touches a " + who + " stone and no merge there meets the exception");
  a.record = line->record;
  a.facts = {{"record", record_text(line->record)}, {"winner", who == "Black" ? "black" : "white"}};
  return a;
}

}  // namespace

QueryAnswer gadur_query(const std::string& name, int size, const GadurRules& rules) {
  if (name == "merge-capture-two") return merge_capture_two(size, rules);
  if (name == "no-legal-placement") return no_legal_placement(size, rules);
  throw std::invalid_argument("unknown gadur query " + name);
}

}  // namespace loom::spec
