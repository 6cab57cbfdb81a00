#include "onramp/ops/rules.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cctype>

#include "onramp/util/embedded.h"

namespace onramp::ops {
namespace {

std::vector<std::string> strings_of(const toml::node_view<const toml::node>& node) {
  std::vector<std::string> out;
  if (const auto* arr = node.as_array()) {
    for (const auto& v : *arr) {
      if (auto s = v.value<std::string>()) out.push_back(*s);
    }
  }
  return out;
}

}  // namespace

std::string to_lower(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

Result<OpsRules> OpsRules::parse(std::string_view toml_text, const std::string& origin) {
  toml::table table;
  try {
    table = toml::parse(toml_text, origin);
  } catch (const toml::parse_error& e) {
    return fail(origin + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
  }
  OpsRules rules;
  if (const auto* families = table["families"].as_array()) {
    for (const auto& f : *families) {
      const auto* t = f.as_table();
      if (!t) return fail(origin + ": families entries must be tables");
      toml::node_view<const toml::node> view(*t);
      FamilyRule rule{view["name"].value_or(std::string()), strings_of(view["prefixes"]),
                      strings_of(view["substrings"])};
      if (rule.name.empty()) return fail(origin + ": a family has no name");
      rules.families_.push_back(std::move(rule));
    }
  }
  const toml::table& ctable = table;
  for (const auto& p : strings_of(ctable["sentinels"]["patterns"])) {
    try {
      rules.sentinel_patterns_.emplace_back(p, std::regex::ECMAScript | std::regex::optimize);
      rules.sentinel_pattern_texts_.push_back(p);
    } catch (const std::regex_error& e) {
      return fail(origin + ": bad sentinel pattern " + p + ": " + e.what());
    }
  }
  for (const auto& h : strings_of(ctable["sentinels"]["hints"])) rules.sentinel_hints_.push_back(to_lower(h));
  for (const auto& p : strings_of(ctable["sentinels"]["comment_phrases"])) rules.sentinel_phrases_.push_back(to_lower(p));
  rules.pytorch_keys_ = strings_of(ctable["dispatch"]["pytorch_keys"]);
  rules.pytorch_key_prefixes_ = strings_of(ctable["dispatch"]["pytorch_key_prefixes"]);
  if (const auto* meanings = table["meanings"].as_array()) {
    for (const auto& m : *meanings) {
      const auto* t = m.as_table();
      if (!t) return fail(origin + ": meanings entries must be tables");
      toml::node_view<const toml::node> view(*t);
      MeaningRule rule{strings_of(view["words"]), view["meaning"].value_or(std::string())};
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
  std::string lowered_name = to_lower(member);
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
  std::string lowered = to_lower(comment);
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
  std::string lowered = to_lower(name);
  for (const auto& rule : meanings_) {
    for (const auto& w : rule.words) {
      if (lowered.find(w) != std::string::npos) return rule.meaning;
    }
  }
  return {};
}

}  // namespace onramp::ops
