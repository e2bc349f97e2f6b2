#include "model/migong/score.h"

#include <stdexcept>

namespace loom::migong {

int score_of(const std::vector<int>& mine, const std::vector<int>& theirs) {
  std::map<int, int> balance;  // measure -> mine minus theirs
  for (int m : mine) ++balance[m];
  for (int m : theirs) --balance[m];
  for (auto it = balance.rbegin(); it != balance.rend(); ++it)
    if (it->second > 0) return it->first;
  return 0;
}

void tally(ScoreSheet& sheet) {
  std::array<std::vector<int>, 2> measures;
  for (auto& c : sheet.counts) c.clear();
  for (const auto& g : sheet.groups) {
    int m = sheet.measure(g);
    measures[idx(g.colour)].push_back(m);
    ++sheet.counts[idx(g.colour)][m];
  }
  sheet.score[0] = score_of(measures[0], measures[1]);
  sheet.score[1] = score_of(measures[1], measures[0]);
}

Color decide(int blue_score, int yellow_score, Color last_placer_colour) {
  if (blue_score > yellow_score) return Color::kBlack;
  if (yellow_score > blue_score) return Color::kWhite;
  if (blue_score != 0) throw std::logic_error("Migong: equal nonzero scores");
  return other(last_placer_colour);
}

}  // namespace loom::migong
