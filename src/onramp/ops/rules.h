#pragma once
// The knowledge `onramp ops` reads inventories with (data/ops_rules.toml):
// op families, sentinel enum members, and meanings guessed from names.
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "onramp/util/error.h"

namespace onramp::ops {

struct FamilyRule {
  std::string name;
  std::vector<std::string> prefixes;
  std::vector<std::string> substrings;
};

struct MeaningRule {
  std::vector<std::string> words;
  std::string meaning;
};

class OpsRules {
 public:
  static Result<OpsRules> parse(std::string_view toml_text, const std::string& origin);
  static const OpsRules& builtin();

  // The family of an op name (no overload), or "" for none.
  std::string_view family_of(std::string_view op_name) const;
  // Why an enum member is a sentinel ("" when it is an op): its name or the
  // comment on its line.
  std::string sentinel_reason(std::string_view member, std::string_view comment) const;
  // The meaning guessed from a variable or key name; "" when no rule fits.
  std::string_view guess_meaning(std::string_view name) const;

  const std::vector<FamilyRule>& families() const { return families_; }
  // Whether a dispatch key is one of PyTorch's own (CPU, CUDA, Meta,
  // CompositeImplicitAutograd, ...), not a backend's: [dispatch] in the rules.
  bool is_pytorch_dispatch_key(std::string_view key) const;

 private:
  std::vector<FamilyRule> families_;
  std::vector<std::regex> sentinel_patterns_;
  std::vector<std::string> sentinel_pattern_texts_;
  std::vector<std::string> sentinel_hints_;
  std::vector<std::string> sentinel_phrases_;
  std::vector<MeaningRule> meanings_;
  std::vector<std::string> pytorch_keys_;
  std::vector<std::string> pytorch_key_prefixes_;
};

}  // namespace onramp::ops
