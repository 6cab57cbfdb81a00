#include <memory>

#include "onramp/cli/command.h"
#include "onramp/cli/path_arg.h"
#include "onramp/cli/output.h"
#include "onramp/report/budget.h"
#include "onramp/report/report_file.h"
#include "onramp/util/text_file.h"

namespace onramp::cli {
namespace {

struct BudgetArgs {
  std::string report_path;
  std::string budget_path;
  std::string junit_path;
  OutputOptions output;
};

int run_budget(const BudgetArgs& args) {
  report::Json document = value_or_fatal(report::load_report_json(args.report_path));
  std::string budget_text = value_or_fatal(util::read_text_file(args.budget_path));
  auto applied = value_or_fatal(
      report::apply_budgets(document, budget_text, args.budget_path, args.report_path, args.junit_path));
  args.output.emit(document.value("target", report::Json::object()), {std::move(applied.section)});
  return applied.passed ? 0 : 1;
}

void declare_budget(CLI::App& app, BudgetArgs& args) {
  app.add_option("REPORT", args.report_path, "A report.json written by any onramp command (--json)")->check(path_arg())
      ->required();
  app.add_option("-b,--budget", args.budget_path, "The budget file (TOML, [[budget]] tables; docs/ci.md)")->check(path_arg())
      ->required();
  app.add_option("--junit", args.junit_path, "Also write the results as JUnit XML to FILE")->check(path_arg())
      ->type_name("FILE");
}

}  // namespace

Command budget_command() {
  return make_command<BudgetArgs>("budget", "Hold a saved report to the limits in a budget.toml; exit 1 when one fails (for CI)",
                           R"(Exit status: 0 when every budget holds, 1 when one fails, 2 on bad input.

Example budget.toml:
  [[budget]]
  name = "import stays fast"
  figure = "probe.import_cold_s"      # section.key of a figure
  max = 5.0
  why = "A slow import is the first thing a newcomer meets."

  [[budget]]
  table = "examples.statements_*"     # count the rows of tables (* ends a prefix)
  where = { outcome = "error" }       # that match every column given
  max = 0

Examples:
  onramp budget audit/report.json --budget budget.toml --junit onramp-junit.xml
  onramp probe --module torch_tpu --json -o probe.json && onramp budget probe.json -b budget.toml)",
                           declare_budget, run_budget);
}

}  // namespace onramp::cli
