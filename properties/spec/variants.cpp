#include "properties/spec/variants.h"

namespace loom::spec {

std::vector<RuleSpec> spec_rule_table(const std::string& game) {
  // RULES.md names only the variant values; the default values' names here
  // are this table's own (the model's table, when built, is what `loom` uses).
  if (game == "gadur")
    return {{"exception", {"whole", "subset"}, "merge exception over the whole E or a subset"},
            {"capture", {"any", "merge-only"}, "whether a lone stone captures"}};
  if (game == "fiodar")
    return {
        {"cut", {"adjacent", "gap"}, "cutters adjacent to the thread, or across empty points"},
        {"suicide", {"forbidden", "capture-first"}, "a capturing placement may leave a cut weave"},
        {"half", {"final-pass", "first-pass-of-game"}, "who gets the half point"}};
  if (game == "enfargar")
    return {{"edge", {"step", "touch"}, "whether an edge stone reaches the edge at once"},
            {"stall", {"unresolved", "more-stones"}, "the result after two passes"}};
  if (game == "migong") return {{"measure", {"extent", "wedges"}, "how groups are measured"}};
  if (game == "nardy")
    return {{"block", {"every-step", "end-of-turn"}, "when the 6-block rule is checked"},
            {"end", {"oin-mars", "last-roll"}, "whether Black gets a last roll"},
            {"checkers",
             {"15", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14"},
             "checkers a side"}};
  return {};
}

}  // namespace loom::spec
