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
  if (args.output.json) {
    args.output.write(report::render_diff_json(diff));
  } else {
    args.output.emit(report::diff_as_report(diff));
  }
  return 0;
}

}  // namespace

Command diff_command() {
  return {"diff", "Show what changed between two saved reports: two versions, or two backends",
          [](CLI::App& app) -> Action {
            auto args = std::make_shared<DiffArgs>();
            app.add_option("OLD", args->old_path, "The earlier (or baseline) report.json")->check(path_arg())->required();
            app.add_option("NEW", args->new_path, "The later (or compared) report.json")->check(path_arg())->required();
            args->output.declare(app);
            app.footer(R"(Figures are matched by section and key, table rows by their leading text
columns (language, op name, path, statement), findings by severity and text.
--json writes an "onramp.diff/1" document (docs/report-schema.md).

Examples:
  onramp ops --json -o v0.1.json ~/src/torch_tpu-0.1 && onramp ops --json -o v0.2.json ~/src/torch_tpu
  onramp diff v0.1.json v0.2.json
  onramp diff --markdown -o changes.md audit-xla/report.json audit-tpu/report.json)");
            return [args] { return run_diff(*args); };
          }};
}

}  // namespace onramp::cli
