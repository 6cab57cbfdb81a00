#include <iostream>
#include <memory>

#include "onramp/cli/command.h"
#include "onramp/cli/path_arg.h"
#include "onramp/plan/cells.h"
#include "onramp/plan/jobs.h"
#include "onramp/plan/workflow.h"
#include "onramp/report/report_file.h"
#include "onramp/util/error.h"

namespace onramp::cli {
namespace {

struct PlanArgs {
  std::string cells;
  bool matrix = false;
  std::string output_file;  // -o; empty: standard output
};

int run_plan(const PlanArgs& args) {
  auto plan = plan::make_plan(value_or_fatal(plan::load_cells(args.cells)));
  std::string text = args.matrix ? plan::matrix_json(plan).dump(2) + "\n" : plan::workflow_yaml(plan);
  if (args.output_file.empty()) {
    std::cout << text << std::flush;
  } else {
    value_or_fatal(report::write_report_file(args.output_file, text));
  }
  return 0;
}

void declare_plan(CLI::App& app, PlanArgs& args) {
  app.add_option("CELLS", args.cells, "A cells file: [[audit]] and [[trace]] tables (docs/plan.md)")
      ->check(path_arg())
      ->required()
      ->type_name("CELLS.toml");
  app.add_flag("--matrix", args.matrix, "Write only the job matrix, the JSON that strategy.matrix takes");
  app.add_option("-o,--output", args.output_file, "Write to FILE instead of standard output")->check(path_arg());
}

}  // namespace

Command plan_command() {
  return make_command<PlanArgs>(
      "plan", "Write a CI workflow (or its job matrix) that runs one audit or port-trace shard per cell, then compare",
      R"(A GitHub Actions workflow: one job builds onramp and hands it on as an artifact; one job per
cell (a venv of its Python and torch, then one `onramp audit` or `onramp port trace --shard`) keeps its
report as an artifact; a last job runs `onramp port merge` per trace and `onramp compare` of the audits.
Each command calls onramp as "$ONRAMP", so the same matrix runs in a shell loop (docs/plan.md).

Examples:
  onramp plan docs/examples/cells.toml -o .github/workflows/onramp-plan.yml
  onramp plan docs/examples/cells.toml --matrix)",
      declare_plan, run_plan);
}

}  // namespace onramp::cli
