#include <memory>

#include "onramp/cli/command.h"
#include "onramp/cli/path_arg.h"
#include "onramp/cli/output.h"
#include "onramp/report/diff.h"
#include "onramp/report/report_file.h"

namespace onramp::cli {
namespace {

struct DiffArgs {
  std::string old_path;
  std::string new_path;
  OutputOptions output;
};

int run_diff(const DiffArgs& args) {
  report::Json old_report = value_or_fatal(report::load_report_json(args.old_path));
  report::Json new_report = value_or_fatal(report::load_report_json(args.new_path));
  report::ReportDiff diff = report::diff_reports(old_report, new_report, args.old_path, args.new_path);
  args.output.emit_document([&] { return report::render_diff_json(diff); }, nullptr,
                            [&] { return report::diff_as_report(diff); });
  return 0;
}

void declare_diff(CLI::App& app, DiffArgs& args) {
  app.add_option("OLD", args.old_path, "The earlier (or baseline) report.json")->check(path_arg())->required();
  app.add_option("NEW", args.new_path, "The later (or compared) report.json")->check(path_arg())->required();
}

}  // namespace

Command diff_command() {
  return make_command<DiffArgs>("diff", "Show what changed between two saved reports: two versions, or two backends",
                           R"(Figures are matched by section and key, table rows by their leading text
columns (language, op name, path, statement), findings by severity and text.
--json writes an "onramp.diff/1" document (docs/report-schema.md).

Examples:
  onramp ops --json -o v0.1.json ~/src/torch_tpu-0.1 && onramp ops --json -o v0.2.json ~/src/torch_tpu
  onramp diff v0.1.json v0.2.json
  onramp diff --markdown -o changes.md audit-xla/report.json audit-tpu/report.json)",
                           declare_diff, run_diff);
}

}  // namespace onramp::cli
