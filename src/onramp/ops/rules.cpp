#include "onramp/ops/rules.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cctype>

#include "onramp/util/embedded.h"
#include "onramp/util/text.h"
#include "onramp/util/toml_file.h"

namespace onramp::ops {
Result<OpsRules> OpsRules::parse(std::string_view toml_text, const std::string& origin) {
  auto parsed = util::parse_toml(toml_text, origin);
  if (!parsed) return std::unexpected(parsed.error());
  const toml::table& table = *parsed;
  OpsRules rules;
  if (const auto* families = table["families"].as_array()) {
    for (const auto& f : *families) {
      const auto* t = f.as_table();
      if (!t) return fail(origin + ": families entries must be tables");
      toml::node_view<const toml::node> view(*t);
      FamilyRule rule{view["name"].value_or(std::string()), util::toml_strings(view["prefixes"]),
                      util::toml_strings(view["substrings"])};
      if (rule.name.empty()) return fail(origin + ": a family has no name");
      rules.families_.push_back(std::move(rule));
    }
  }
  for (const auto& p : util::toml_strings(table["sentinels"]["patterns"])) {
    try {
      rules.sentinel_patterns_.emplace_back(p, std::regex::ECMAScript | std::regex::optimize);
      rules.sentinel_pattern_texts_.push_back(p);
    } catch (const std::regex_error& e) {
      return fail(origin + ": bad sentinel pattern " + util::one_line(p) + ": " + util::one_line(e.what()));
    }
  }
  for (const auto& h : util::toml_strings(table["sentinels"]["hints"])) rules.sentinel_hints_.push_back(util::lowercase(h));
  for (const auto& p : util::toml_strings(table["sentinels"]["comment_phrases"])) rules.sentinel_phrases_.push_back(util::lowercase(p));
  rules.pytorch_keys_ = util::toml_strings(table["dispatch"]["pytorch_keys"]);
  rules.pytorch_key_prefixes_ = util::toml_strings(table["dispatch"]["pytorch_key_prefixes"]);
  if (const auto* meanings = table["meanings"].as_array()) {
    for (const auto& m : *meanings) {
      const auto* t = m.as_table();
      if (!t) return fail(origin + ": meanings entries must be tables");
      toml::node_view<const toml::node> view(*t);
      MeaningRule rule{util::toml_strings(view["words"]), view["meaning"].value_or(std::string())};
      if (rule.meaning.empty()) return fail(origin + ": a meanings rule has no meaning");
      rules.meanings_.push_back(std::move(rule));
    }
  }
  return rules;
}

const OpsRules& OpsRules::builtin() {
  static const OpsRules rules =
      value_or_fatal(parse(embedded::get("data/ops_rules.toml"), "data/ops_rules.toml"));
  return rules;
}

std::string_view OpsRules::family_of(std::string_view op_name) const {
  for (const auto& f : families_) {
    for (const auto& p : f.prefixes) {
      if (op_name.starts_with(p)) return f.name;
    }
    for (const auto& s : f.substrings) {
      if (op_name.find(s) != std::string_view::npos) return f.name;
    }
  }
  return {};
}

std::string OpsRules::sentinel_reason(std::string_view member, std::string_view comment) const {
  std::string name(member);
  std::string lowered_name = util::lowercase(member);
  bool hinted = sentinel_hints_.empty() || std::any_of(sentinel_hints_.begin(), sentinel_hints_.end(), [&](const auto& h) {
                  return lowered_name.find(h) != std::string::npos;
                });
  // std::regex recurses once per character: a hostile header's identifier of
  // megabytes overflowed the stack. No real enum member is this long.
  constexpr size_t kMaxPatternInput = 256;
  hinted = hinted && name.size() <= kMaxPatternInput;
  for (size_t i = 0; hinted && i < sentinel_patterns_.size(); ++i) {
    if (std::regex_match(name, sentinel_patterns_[i])) return "name matches " + sentinel_pattern_texts_[i];
  }
  if (comment.empty()) return {};
  std::string lowered = util::lowercase(comment);
  for (const auto& phrase : sentinel_phrases_) {
    if (lowered.find(phrase) != std::string::npos) return "comment says \"" + phrase + "\"";
  }
  return {};
}

bool OpsRules::is_pytorch_dispatch_key(std::string_view key) const {
  auto listed = [&](std::string_view k) { return std::find(pytorch_keys_.begin(), pytorch_keys_.end(), k) != pytorch_keys_.end(); };
  // SparseCPU is PyTorch's; SparsePrivateUse1 is a backend's.
  return listed(key) || std::any_of(pytorch_key_prefixes_.begin(), pytorch_key_prefixes_.end(), [&](const auto& p) {
           return key.starts_with(p) && key.size() > p.size() && listed(key.substr(p.size()));
         });
}

std::string_view OpsRules::guess_meaning(std::string_view name) const {
  std::string lowered = util::lowercase(name);
  for (const auto& rule : meanings_) {
    for (const auto& w : rule.words) {
      if (lowered.find(w) != std::string::npos) return rule.meaning;
    }
  }
  return {};
}

}  // namespace onramp::ops
