#include <memory>

#include "onramp/cli/command.h"
#include "onramp/cli/output.h"
#include "onramp/cli/path_arg.h"
#include "onramp/report/compare.h"
#include "onramp/report/report_file.h"
#include "onramp/util/error.h"

namespace onramp::cli {
namespace {

struct CompareArgs {
  std::vector<std::string> paths;
  OutputOptions output;
};

int run_compare(const CompareArgs& args) {
  std::vector<std::pair<std::string, report::Json>> reports;
  for (const auto& path : args.paths) reports.emplace_back(path, value_or_fatal(report::load_report_json(path)));
  auto comparison = report::compare_reports(reports);
  args.output.emit_document([&] { return report::render_comparison_json(comparison); },
                            [&] { return report::render_comparison_html(comparison); },
                            [&] { return report::comparison_as_report(comparison); });
  return 0;
}

void declare_compare(CLI::App& app, CompareArgs& args) {
  app.add_option("REPORTS", args.paths, "Saved report.json files (audits, or ops, wheel, install, probe reports)")
      ->check(path_arg())
      ->required()
      ->expected(2, 64);
}

}  // namespace

Command compare_command() {
  return make_command<CompareArgs>("compare", "Set several saved reports side by side: backends, releases or hosts, one column each",
                           R"X(One row per figure that any report has, plus each device-API call, device string and op
counting method; a value is compared only under the same method (the method with each report's own
module, project and device names set aside). "(best)" marks the best value where the figure declares
which way is better. --html writes one page: per family of rows, a grouped bar chart for each unit
(sizes, times, counts), then the table. --json writes an "onramp.compare/1" document (docs/report-schema.md).

Examples:
  onramp compare runs/torch-tpu/report.json runs/torch-xla/report.json runs/torch-npu/report.json
  onramp compare --markdown -o backends.md a/report.json b/report.json
  onramp compare --html -o backends.html a/report.json b/report.json)X",
                           declare_compare, run_compare);
}

}  // namespace onramp::cli
