#include "onramp/diagnosis/diagnosis.h"

#include <algorithm>
#include <map>
#include <toml++/toml.h>

#include "onramp/util/embedded.h"
#include "onramp/util/toml_file.h"

namespace onramp::diagnosis {
namespace {

const std::map<std::string, report::Severity, std::less<>> kSeverities{
    {"good", report::Severity::good},
    {"info", report::Severity::info},
    {"friction", report::Severity::friction},
    {"blocker", report::Severity::blocker},
};

Result<DiagnosisRule> parse_rule(const toml::table& t, const std::string& where) {
  DiagnosisRule rule;
  rule.id = t["id"].value_or(std::string());
  rule.type = t["type"].value_or(std::string());
  rule.contains = util::toml_strings(t, "contains");
  rule.any = util::toml_strings(t, "any");
  rule.cause = t["cause"].value_or(std::string());
  rule.explanation = t["explanation"].value_or(std::string());
  rule.remedy = t["remedy"].value_or(std::string());
  rule.title = t["title"].value_or(std::string());
  auto subject = util::toml_strings(t, "subject");
  if (!subject.empty()) rule.subject_after = subject[0];
  if (subject.size() > 1) rule.subject_before = subject[1];
  rule.subject_from = t["subject_from"].value_or(std::string());
  if (!rule.subject_from.empty() && rule.subject_from != "service") {
    return fail(where + ": rule " + rule.id + ": subject_from is \"service\" or absent");
  }
  rule.when = util::toml_strings(t, "when");
  if (rule.id.empty() || rule.cause.empty() || rule.explanation.empty()) {
    return fail(where + ": a rule needs id, cause and explanation");
  }
  for (const std::string* text : {&rule.explanation, &rule.remedy, &rule.title}) {
    for (const auto& key : placeholders(*text)) {
      if (text == &rule.title && key == kSubjectFact) continue;  // the title may name the failure's subject
      if (std::find(rule.when.begin(), rule.when.end(), key) == rule.when.end()) {
        return fail(where + ": rule " + rule.id + " quotes {" + key + "} but its `when` does not require it");
      }
    }
  }
  auto severity = kSeverities.find(t["severity"].value_or(std::string("blocker")));
  if (severity == kSeverities.end()) return fail(where + ": rule " + rule.id + ": unknown severity");
  rule.severity = severity->second;
  return rule;
}

}  // namespace

bool DiagnosisRule::matches(std::string_view type_name, std::string_view message) const {
  if (!type.empty() && type != type_name) return false;
  for (const auto& s : contains) {
    if (message.find(s) == std::string_view::npos) return false;
  }
  if (any.empty()) return true;
  for (const auto& s : any) {
    if (message.find(s) != std::string_view::npos) return true;
  }
  return false;
}

std::string DiagnosisRule::subject(std::string_view message) const {
  if (subject_after.empty()) return "";
  auto start = message.find(subject_after);
  if (start == std::string_view::npos) return "";
  message.remove_prefix(start + subject_after.size());
  auto end = message.find(subject_before.empty() ? std::string_view("\n") : std::string_view(subject_before));
  return std::string(message.substr(0, end));
}

Result<Diagnoses> Diagnoses::parse(std::string_view toml_text, const std::string& origin) {
  auto parsed = util::parse_toml(toml_text, origin);
  if (!parsed) return std::unexpected(parsed.error());
  const toml::table& doc = *parsed;
  Diagnoses out;
  const auto* rules = doc["rule"].as_array();
  if (!rules) return fail(origin + ": no [[rule]] tables");
  for (size_t i = 0; i < rules->size(); ++i) {
    const auto* table = (*rules)[i].as_table();
    if (!table) return fail(origin + ": rule " + std::to_string(i + 1) + " is not a table");
    auto rule = parse_rule(*table, origin);
    if (!rule) return std::unexpected(rule.error());
    out.rules_.push_back(std::move(*rule));
  }
  return out;
}

const Diagnoses& Diagnoses::builtin() {
  static const Diagnoses rules =
      value_or_fatal(parse(embedded::get("data/diagnoses.toml"), "data/diagnoses.toml"));
  return rules;
}

const DiagnosisRule* Diagnoses::find(std::string_view type_name, std::string_view message, const Facts& facts) const {
  for (const auto& rule : rules_) {
    if (rule.matches(type_name, message) && facts.hold_all(rule.when)) return &rule;
  }
  return nullptr;
}

std::string diagnosis_cell(const DiagnosisRule* rule) {
  return rule ? rule->cause + " (" + rule->id + ")" : "none matched";
}

}  // namespace onramp::diagnosis
