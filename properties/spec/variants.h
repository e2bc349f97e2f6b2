// Rule variants of RULES.md as the specification reads them. The command line
// validates --rule against the model's own option table when the game is
// built (the public contract), and against these tables otherwise; either way
// the specification only asks "is the variant value in force?".
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "model/common/rules.h"  // RuleSpec: a plain data struct, no game code

namespace loom::spec {

using InForce = std::vector<std::pair<std::string, std::string>>;

/// True if `key` is set to `value` in `rules`.
inline bool selected(const InForce& rules, const std::string& key, const std::string& value) {
  for (const auto& [k, v] : rules)
    if (k == key) return v == value;
  return false;
}

struct GadurRules {
  bool subset = false;      ///< exception=subset
  bool merge_only = false;  ///< capture=merge-only
  static GadurRules from(const InForce& r) {
    return {selected(r, "exception", "subset"), selected(r, "capture", "merge-only")};
  }
};

struct FiodarRules {
  bool gap = false;            ///< cut=gap
  bool capture_first = false;  ///< suicide=capture-first
  static FiodarRules from(const InForce& r) {
    return {selected(r, "cut", "gap"), selected(r, "suicide", "capture-first")};
  }
};

struct EnfargarRules {
  bool touch = false;  ///< edge=touch
  static EnfargarRules from(const InForce& r) { return {selected(r, "edge", "touch")}; }
};

struct MigongRules {
  bool wedges = false;  ///< measure=wedges (scoring only; placements do not depend on it)
  static MigongRules from(const InForce& r) { return {selected(r, "measure", "wedges")}; }
};

struct NardyRules {
  bool block_end_of_turn = false;  ///< block=end-of-turn
  bool last_roll = false;          ///< end=last-roll
  int checkers = 15;               ///< checkers=K: checkers a side ("all 15" reads "all K")
  static NardyRules from(const InForce& r) {
    NardyRules n{selected(r, "block", "end-of-turn"), selected(r, "end", "last-roll")};
    for (const auto& [k, v] : r)
      if (k == "checkers") n.checkers = std::stoi(v);  // 1..15, checked by the rule table
    return n;
  }
};

/// The variants each game has in RULES.md (the default value first). Used by
/// `loom verify` when the game's model is not in the build.
std::vector<RuleSpec> spec_rule_table(const std::string& game);

}  // namespace loom::spec
