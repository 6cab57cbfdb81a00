#pragma once
// Budgets for CI: limits on a report's figures, or on how many rows of a
// table match a condition, read from a budget.toml (docs/ci.md). Evaluating
// them against any onramp report gives pass, fail or not measured per budget,
// a "budgets" section for the report and, through junit.h, a JUnit file.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onramp/report/model.h"
#include "onramp/util/error.h"

namespace onramp::report {

struct Budget {
  std::string name;  // what CI shows; defaults to what it reads and its limit
  std::string why;   // why the limit matters, shown with a failure
  std::string figure;  // "section.key" of a figure, or empty
  std::string table;   // "section.key" of a table whose matching rows are counted, or empty
  Json where = Json::object();  // column -> value, or array of accepted values
  std::optional<double> max;
  std::optional<double> min;
  Json equals;                 // null: no equality limit
  bool allow_missing = false;  // an absent or null figure passes as not measured
  int line = 0;                // where it starts in its file
};

enum class BudgetStatus { pass, fail, not_measured };
std::string_view to_string(BudgetStatus status);

struct BudgetResult {
  Budget budget;
  BudgetStatus status = BudgetStatus::not_measured;
  Json value;          // the figure's value or the row count; null when not measured
  std::string unit;    // the figure's unit, "rows" for a table count
  std::string method;  // how the value was measured, from the report
  std::string evidence;
  std::string limit;    // "max 5 s", "min 1 rows, max 10 rows", "equals true"
  std::string message;  // one line: the value against the limit, or why it is missing

  // A missing value fails unless the budget allows it.
  bool failed() const;
};

struct BudgetEvaluation {
  std::string budget_origin;  // the budget file, as named to the user
  std::string report_origin;  // the report, as named to the user
  std::vector<BudgetResult> results;

  size_t failures() const;
  bool passed() const { return failures() == 0; }
};

// Parses budget.toml; errors name `origin`, the line and the problem.
Result<std::vector<Budget>> parse_budgets(std::string_view toml_text, const std::string& origin);

BudgetEvaluation evaluate_budgets(const Json& report_json, const std::vector<Budget>& budgets);

// What `onramp audit --budget FILE` calls: parse, then evaluate against the
// report's JSON (to_json(report) for a Report in memory).
Result<BudgetEvaluation> evaluate_budgets(const Json& report_json, std::string_view budget_toml_text,
                                          const std::string& budget_origin = "budget.toml",
                                          const std::string& report_origin = "report");

// The "budgets" section: counts as figures, one table row per budget, a
// finding per failure.
Section budget_section(const BudgetEvaluation& evaluation);

// What `onramp budget` and `onramp audit --budget` do with a report: its
// budgets section, and the results as JUnit XML (junit.h) written to
// `junit_path` unless it is empty.
struct AppliedBudgets {
  Section section;
  bool passed = false;
};
Result<AppliedBudgets> apply_budgets(const Json& report_json, std::string_view budget_toml_text,
                                     const std::string& budget_origin, const std::string& report_origin,
                                     const std::string& junit_path);

}  // namespace onramp::report
