// Rule options as data (RULES.md variants): every game declares its options as
// a table of RuleSpec; a RuleSet holds the values in force, parsed from
// "key=value" text with unknown keys and values rejected.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace loom {

struct RuleSpec {
  std::string key;
  std::vector<std::string> values;  ///< allowed values; values[0] is the default
  std::string help;                 ///< one line: what the option changes
};

class RuleSet {
 public:
  RuleSet() = default;
  explicit RuleSet(std::vector<RuleSpec> specs);

  /// Applies one "key=value" assignment. Throws InputError for a malformed
  /// assignment, an unknown key or a value the key does not allow.
  void set(std::string_view assignment);
  /// Applies every assignment in order (later ones win).
  void set_all(const std::vector<std::string>& assignments);

  /// Value in force for a declared key (throws std::logic_error if undeclared).
  const std::string& get(std::string_view key) const;
  bool is(std::string_view key, std::string_view value) const { return get(key) == value; }

  /// Every option in force, defaults included, in declaration order.
  std::vector<std::pair<std::string, std::string>> in_force() const;
  /// "key=value" pairs joined by spaces (for messages and checkpoints).
  std::string to_string() const;
  const std::vector<RuleSpec>& specs() const { return specs_; }

 private:
  std::vector<RuleSpec> specs_;
  std::vector<std::string> values_;
};

}  // namespace loom
