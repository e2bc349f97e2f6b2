#include "model/common/rules.h"

#include <stdexcept>

#include "model/common/errors.h"

namespace loom {

RuleSet::RuleSet(std::vector<RuleSpec> specs) : specs_(std::move(specs)) {
  for (const auto& s : specs_) values_.push_back(s.values.at(0));
}

void RuleSet::set(std::string_view a) {
  auto eq = a.find('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == a.size())
    throw InputError("malformed rule '" + clip_token(a) + "' (expected NAME=VALUE)");
  std::string_view key = a.substr(0, eq), value = a.substr(eq + 1);
  for (size_t i = 0; i < specs_.size(); ++i) {
    if (specs_[i].key != key) continue;
    for (const auto& v : specs_[i].values)
      if (v == value) {
        values_[i] = v;
        return;
      }
    std::string allowed;
    for (const auto& v : specs_[i].values) allowed += (allowed.empty() ? "" : ", ") + v;
    throw InputError("rule " + clip_token(key) + " has no value '" + clip_token(value) +
                     "' (allowed: " + allowed + ")");
  }
  std::string known;
  for (const auto& s : specs_) known += (known.empty() ? "" : ", ") + s.key;
  throw InputError(
      "unknown rule '" + clip_token(key) + "'" +
      (known.empty() ? " (this game has no rule options)" : " (known: " + known + ")"));
}

void RuleSet::set_all(const std::vector<std::string>& assignments) {
  for (const auto& a : assignments) set(a);
}

const std::string& RuleSet::get(std::string_view key) const {
  for (size_t i = 0; i < specs_.size(); ++i)
    if (specs_[i].key == key) return values_[i];
  throw std::logic_error("undeclared rule key " + std::string(key));
}

std::vector<std::pair<std::string, std::string>> RuleSet::in_force() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (size_t i = 0; i < specs_.size(); ++i) out.emplace_back(specs_[i].key, values_[i]);
  return out;
}

std::string RuleSet::to_string() const {
  std::string out;
  for (const auto& [k, v] : in_force()) out += (out.empty() ? "" : " ") + k + "=" + v;
  return out;
}

}  // namespace loom
