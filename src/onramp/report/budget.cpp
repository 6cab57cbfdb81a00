#include "onramp/report/budget.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "onramp/report/json_fields.h"
#include "onramp/report/render.h"

namespace onramp::report {
namespace {

struct Address {
  std::string section;
  std::string key;
};

Address split(const std::string& target) {
  auto dot = target.find('.');
  return {target.substr(0, dot), target.substr(dot + 1)};
}

const Json* find_keyed(const Json& report, const Address& a, const char* part) {
  const Json& sections = report.at("sections");
  if (!sections.contains(a.section) || !sections[a.section].contains(part)) return nullptr;
  for (const auto& item : sections[a.section][part]) {
    if (text_field(item, "key") == a.key) return &item;
  }
  return nullptr;
}

std::string limit_text(const Budget& b, const std::string& unit) {
  std::vector<std::string> parts;
  if (b.min) parts.push_back("min " + format_value(Json(*b.min), unit));
  if (b.max) parts.push_back("max " + format_value(Json(*b.max), unit));
  if (!b.equals.is_null()) parts.push_back("equals " + format_value(b.equals, unit));
  return fmt::format("{}", fmt::join(parts, ", "));
}

// Compares a measured value with the budget's limits; the message says which one failed.
void judge(BudgetResult& r) {
  const Budget& b = r.budget;
  std::string shown = format_value(r.value, r.unit);
  if (!b.equals.is_null()) {
    bool same = r.value == b.equals;
    r.status = same ? BudgetStatus::pass : BudgetStatus::fail;
    r.message = fmt::format("{} {} {}", shown, same ? "equals" : "does not equal", format_value(b.equals, r.unit));
    if (!same || (!b.max && !b.min)) return;
  }
  if (!r.value.is_number()) {
    r.status = BudgetStatus::fail;
    r.message = fmt::format("{} is not a number, so it cannot be held to {}", shown, r.limit);
    return;
  }
  double v = r.value.get<double>();
  if (b.max && v > *b.max) {
    r.status = BudgetStatus::fail;
    r.message = fmt::format("{} is above max {}", shown, format_value(Json(*b.max), r.unit));
  } else if (b.min && v < *b.min) {
    r.status = BudgetStatus::fail;
    r.message = fmt::format("{} is below min {}", shown, format_value(Json(*b.min), r.unit));
  } else {
    r.status = BudgetStatus::pass;
    r.message = fmt::format("{} is within {}", shown, r.limit);
  }
}

void measure_figure(BudgetResult& r, const Json& report) {
  const Json* figure = find_keyed(report, split(r.budget.figure), "figures");
  if (!figure) {
    r.message = "the report has no figure " + r.budget.figure;
    return;
  }
  r.unit = text_field(*figure, "unit");
  r.method = text_field(*figure, "method");
  r.evidence = text_field(*figure, "evidence");
  r.value = value_field(*figure, "value");
  if (r.value.is_null()) r.message = "not measured: " + text_field(*figure, "not_measured", "no reason given");
}

bool row_matches(const Json& row, const Json& where) {
  for (const auto& [column, accepted] : where.items()) {
    const Json cell = value_field(row, column.c_str());
    if (accepted.is_array() ? std::find(accepted.begin(), accepted.end(), cell) == accepted.end() : cell != accepted) {
      return false;
    }
  }
  return true;
}

// "section.key" names one table; "section.prefix*" every table whose key starts
// with prefix (examples has one statements_N table per file).
std::vector<const Json*> find_tables(const Json& report, const Address& a) {
  std::vector<const Json*> out;
  const Json& sections = report.at("sections");
  if (!sections.contains(a.section) || !sections[a.section].contains("tables")) return out;
  bool prefix = a.key.ends_with('*');
  std::string_view wanted(a.key.data(), a.key.size() - (prefix ? 1 : 0));
  for (const auto& table : sections[a.section]["tables"]) {
    std::string key = text_field(table, "key");
    if (prefix ? key.starts_with(wanted) : key == wanted) out.push_back(&table);
  }
  return out;
}

std::string missing_column(const Json& table, const Json& where) {
  for (const auto& [column, accepted] : where.items()) {
    bool known = false;
    for (const auto& c : array_field(table, "columns")) known = known || text_field(c, "key") == column;
    if (!known) return "table " + text_field(table, "key") + " has no column \"" + column + "\"";
  }
  return {};
}

void measure_table(BudgetResult& r, const Json& report) {
  std::vector<const Json*> tables = find_tables(report, split(r.budget.table));
  if (tables.empty()) {
    r.message = "the report has no table " + r.budget.table;
    return;
  }
  size_t count = 0;
  for (const Json* table : tables) {
    if (std::string problem = missing_column(*table, r.budget.where); !problem.empty()) {
      r.message = problem;
      return;
    }
    for (const auto& row : array_field(*table, "rows")) count += row_matches(row, r.budget.where) ? 1 : 0;
  }
  r.value = count;
  r.unit = "rows";
  r.method = text_field(*tables.front(), "method");
  if (tables.size() > 1) r.method += fmt::format(" Summed over {} tables {}.", tables.size(), r.budget.table);
  if (!r.budget.where.empty()) r.method += fmt::format(" Counted the rows where {}.", r.budget.where.dump());
  for (const Json* table : tables) {
    r.evidence += (r.evidence.empty() ? "" : "; ") + text_field(*table, "evidence");
  }
}

}  // namespace

std::string_view to_string(BudgetStatus status) {
  switch (status) {
    case BudgetStatus::pass: return "pass";
    case BudgetStatus::fail: return "fail";
    case BudgetStatus::not_measured: break;
  }
  return "not measured";
}

bool BudgetResult::failed() const {
  return status == BudgetStatus::fail || (status == BudgetStatus::not_measured && !budget.allow_missing);
}

size_t BudgetEvaluation::failures() const {
  size_t n = 0;
  for (const auto& r : results) n += r.failed() ? 1 : 0;
  return n;
}

BudgetEvaluation evaluate_budgets(const Json& report_json, const std::vector<Budget>& budgets) {
  BudgetEvaluation out;
  for (const auto& budget : budgets) {
    BudgetResult r;
    r.budget = budget;
    if (budget.figure.empty()) {
      measure_table(r, report_json);
    } else {
      measure_figure(r, report_json);
    }
    r.limit = limit_text(budget, r.unit);
    if (!r.value.is_null()) judge(r);
    out.results.push_back(std::move(r));
  }
  return out;
}

Result<BudgetEvaluation> evaluate_budgets(const Json& report_json, std::string_view budget_toml_text,
                                          const std::string& budget_origin, const std::string& report_origin) {
  auto budgets = parse_budgets(budget_toml_text, budget_origin);
  if (!budgets) return std::unexpected(budgets.error());
  if (!report_json.is_object() || !report_json.contains("sections") || !report_json["sections"].is_object()) {
    return fail(report_origin + ": not an onramp report (no \"sections\" object)");
  }
  BudgetEvaluation out = evaluate_budgets(report_json, *budgets);
  out.budget_origin = budget_origin;
  out.report_origin = report_origin;
  return out;
}

}  // namespace onramp::report
