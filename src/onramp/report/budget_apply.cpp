// apply_budgets: the one place a report is held to its budgets, for
// `onramp budget` and `onramp audit --budget`.
#include "onramp/report/budget.h"
#include "onramp/report/junit.h"
#include "onramp/report/report_file.h"

namespace onramp::report {

Result<AppliedBudgets> apply_budgets(const Json& report_json, std::string_view budget_toml_text,
                                     const std::string& budget_origin, const std::string& report_origin,
                                     const std::string& junit_path) {
  auto evaluation = evaluate_budgets(report_json, budget_toml_text, budget_origin, report_origin);
  if (!evaluation) return std::unexpected(evaluation.error());
  if (!junit_path.empty()) {
    if (auto written = write_report_file(junit_path, budgets_junit_xml(*evaluation)); !written) {
      return std::unexpected(written.error());
    }
  }
  return AppliedBudgets{budget_section(*evaluation), evaluation->passed()};
}

}  // namespace onramp::report
