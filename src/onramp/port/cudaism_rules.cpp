#include "onramp/port/cudaism_rules.h"

#include <fnmatch.h>

#include <set>
#include <toml++/toml.h>

#include "onramp/util/embedded.h"
#include "onramp/util/toml_file.h"

namespace onramp::port {
namespace {

bool glob_matches(const std::string& glob, const std::string& text) {
  return ::fnmatch(glob.c_str(), text.c_str(), 0) == 0;
}

Result<SiteKind> site_kind(const std::string& text) {
  if (text == "name") return SiteKind::name;
  if (text == "method") return SiteKind::method;
  if (text == "string") return SiteKind::string;
  return fail("unknown site kind \"" + text + "\" (name, method, string)");
}

std::vector<std::string> strings_of(toml::node_view<const toml::node> node) {
  std::vector<std::string> out;
  if (const auto* list = node.as_array()) {
    for (const auto& item : *list) out.push_back(item.value_or(std::string()));
  }
  return out;
}

Result<CudaismRule> parse_rule(const toml::table& t, const std::string& where) {
  CudaismRule rule;
  rule.id = t["id"].value_or(std::string());
  rule.match = t["match"].value_or(std::string());
  if (rule.id.empty() || rule.match.empty()) return fail(where + ": a rule needs id and match");
  auto kind = site_kind(t["site"].value_or(std::string()));
  if (!kind) return fail(where + ": rule " + rule.id + ": " + kind.error().message);
  rule.site = *kind;
  rule.category = t["category"].value_or(std::string("other"));
  rule.in_call = t["in_call"].value_or(std::string());
  rule.keyword = t["keyword"].value_or(std::string());
  rule.replacement = t["replacement"].value_or(std::string("no equivalent"));
  rule.portable = t["portable"].value_or(false);
  rule.effort = t["effort"].value_or(1.0);
  rule.note = t["note"].value_or(std::string());
  if (rule.effort < 0) return fail(where + ": rule " + rule.id + ": effort must not be negative");
  return rule;
}

}  // namespace

std::string_view to_string(SiteKind kind) {
  switch (kind) {
    case SiteKind::name: return "name";
    case SiteKind::method: return "method";
    case SiteKind::string: return "string";
  }
  return "name";
}

const CudaismRule* CudaismRules::match(const Site& site) const {
  for (const auto& rule : rules) {
    if (rule.site != site.kind || !glob_matches(rule.match, site.text)) continue;
    if (!rule.in_call.empty() && !glob_matches(rule.in_call, site.in_call)) continue;
    if (!rule.keyword.empty() && rule.keyword != site.keyword) continue;
    return &rule;
  }
  return nullptr;
}

nlohmann::json CudaismRules::scanner_interest() const {
  std::set<std::string> names, methods, strings;
  for (const auto& rule : rules) {
    auto& set = rule.site == SiteKind::name ? names : rule.site == SiteKind::method ? methods : strings;
    set.insert(rule.match);
  }
  return {{"names", names}, {"methods", methods}, {"strings", strings}};
}

nlohmann::json CudaismRules::scanner_guards() const {
  return {{"names", guard_names}, {"strings", guard_strings}};
}

Result<CudaismRules> parse_cudaism_rules(std::string_view toml_text, const std::string& origin) {
  auto parsed = util::parse_toml(toml_text, origin);
  if (!parsed) return std::unexpected(parsed.error());
  const toml::table& doc = *parsed;
  CudaismRules table;
  table.origin = origin;
  table.guard_names = strings_of(doc["guards"]["names"]);
  table.guard_strings = strings_of(doc["guards"]["strings"]);
  std::set<std::string> ids;
  if (const auto* list = doc["rule"].as_array()) {
    for (const auto& node : *list) {
      const auto* t = node.as_table();
      if (!t) return fail(origin + ": [[rule]] must be a table");
      auto rule = parse_rule(*t, origin);
      if (!rule) return std::unexpected(rule.error());
      if (!ids.insert(rule->id).second) return fail(origin + ": duplicate rule id " + rule->id);
      table.rules.push_back(std::move(*rule));
    }
  }
  if (table.rules.empty()) return fail(origin + ": no [[rule]] entries");
  return table;
}

const CudaismRules& builtin_cudaism_rules() {
  static const CudaismRules rules =
      value_or_fatal(parse_cudaism_rules(embedded::get("data/cudaisms.toml"), "data/cudaisms.toml"));
  return rules;
}

}  // namespace onramp::port
