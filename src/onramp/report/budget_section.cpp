// The "budgets" section of a report: what passed, what failed and why.
#include <fmt/format.h>

#include "onramp/report/budget.h"
#include "onramp/report/render.h"

namespace onramp::report {
namespace {

std::string status_cell(const BudgetResult& r) {
  if (r.status != BudgetStatus::not_measured) return std::string(to_string(r.status));
  return r.budget.allow_missing ? "not measured (allowed)" : "not measured (fails)";
}

Table budget_table(const BudgetEvaluation& e, const std::string& method, const std::string& evidence) {
  Table t{"budgets", "Budgets", method, evidence,
          {{"name", "Budget", ""}, {"reads", "Reads", ""}, {"status", "Status", ""}, {"measured", "Measured", ""},
           {"limit", "Limit", ""}, {"why", "Why", ""}}, {}};
  for (const auto& r : e.results) {
    t.rows.push_back(Json{{"name", r.budget.name},
                          {"reads", r.budget.figure.empty() ? r.budget.table : r.budget.figure},
                          {"status", status_cell(r)},
                          {"measured", format_value(r.value, r.unit)},
                          {"limit", r.limit},
                          {"why", r.budget.why}});
  }
  return t;
}

Finding result_finding(const BudgetResult& r) {
  if (!r.failed()) {
    return Finding{Severity::info, Title{fmt::format("Budget \"{}\" was not measured, and may be missing", r.budget.name)},
                   fmt::format("Budget \"{}\" was not measured and is allowed to be missing: {}.", r.budget.name, r.message),
                   "", r.evidence};
  }
  std::string text = fmt::format("Budget \"{}\" fails: {}.", r.budget.name, r.message);
  if (!r.budget.why.empty()) text += " Why it matters: " + r.budget.why;
  return Finding{Severity::blocker, Title{fmt::format("Budget \"{}\" fails", r.budget.name)}, text, "", r.evidence};
}

}  // namespace

Section budget_section(const BudgetEvaluation& e) {
  Section s{"budgets", "Budgets", {}, {}, {}};
  const std::string method = "Evaluated each [[budget]] of " + e.budget_origin +
                             " against the figures and tables of " + e.report_origin + ".";
  const std::string evidence = "onramp budget " + e.report_origin + " --budget " + e.budget_origin;
  size_t passed = 0, failed = e.failures(), missing = 0;
  for (const auto& r : e.results) {
    passed += r.status == BudgetStatus::pass ? 1 : 0;
    missing += r.status == BudgetStatus::not_measured ? 1 : 0;
  }
  auto count = [&](std::string key, std::string label, size_t value, std::string how) {
    s.add(Figure{std::move(key), std::move(label), Json(value), "budgets", method + " " + how, evidence, ""});
  };
  count("budgets_total", "Budgets", e.results.size(), "Counted every [[budget]].");
  count("budgets_passed", "Budgets passed", passed, "Counted budgets whose value is within its limits.");
  count("budgets_failed", "Budgets failed", failed,
        "Counted budgets over their limits, plus those not measured without allow_missing.");
  count("budgets_not_measured", "Budgets not measured", missing,
        "Counted budgets whose figure or table is absent or null in the report.");
  s.add(budget_table(e, method, evidence));
  for (const auto& r : e.results) {
    if (r.status != BudgetStatus::pass) s.add(result_finding(r));
  }
  if (failed == 0) {
    std::string text = missing == 0 ? fmt::format("All {} budgets pass.", passed)
                                    : fmt::format("No budget fails: {} pass, {} not measured and allowed to be.",
                                                  passed, missing);
    s.add(Finding{Severity::good, Title{text}, text, "", evidence});
  }
  return s;
}

}  // namespace onramp::report
