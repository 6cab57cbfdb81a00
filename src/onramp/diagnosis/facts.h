#pragma once
// Facts of a run that a diagnosis rule may require and its words may quote:
// what was measured (the backend's module imported, the PrivateUse1 name
// after the import, where the package renames it, an op's route), so that a
// remedy never contradicts the run. The keys a rule can test are documented
// at the top of data/diagnoses.toml.
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace onramp::diagnosis {

class Facts {
 public:
  void set(std::string key, std::string value) { values_[std::move(key)] = std::move(value); }
  void set_flag(std::string key, bool value) { set(std::move(key), value ? "true" : "false"); }
  // The value of a fact, or "" when it was not measured.
  std::string get(std::string_view key) const;
  bool known(std::string_view key) const { return values_.find(key) != values_.end(); }

  // One condition of a rule's `when`: "key" (measured, and neither "" nor
  // "false"), "!key" (measured, and "" or "false"), or "key=value". A fact
  // that was not measured satisfies no condition, so a rule that needs it
  // never matches on a guess.
  bool holds(std::string_view condition) const;
  bool hold_all(const std::vector<std::string>& conditions) const;

  // `text` with each "{key}" replaced by the fact's value.
  std::string fill(std::string_view text) const;

 private:
  std::map<std::string, std::string, std::less<>> values_;
};

// The keys a text's "{key}" placeholders name, in order of appearance.
std::vector<std::string> placeholders(std::string_view text);

// The key a condition tests ("!imported" -> "imported", "name=ref" -> "name").
std::string_view condition_key(std::string_view condition);

}  // namespace onramp::diagnosis
