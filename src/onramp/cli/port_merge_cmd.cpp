#include "onramp/report/report_file.h"

#include "onramp/cli/output.h"
#include "onramp/cli/path_arg.h"
#include "onramp/cli/port_cmds.h"
#include "onramp/port/trace_merge.h"

namespace onramp::cli::port_cli {
namespace {

struct MergeArgs {
  std::vector<std::string> reports;
  OutputOptions output;
};

int run_merge(const MergeArgs& args) {
  std::vector<port::TraceRun> runs;
  for (const auto& path : args.reports) runs.push_back(value_or_fatal(port::read_trace_report(value_or_fatal(report::load_report_json(path)), path)));
  auto merged = value_or_fatal(port::merge_trace_runs(std::move(runs), args.reports));
  args.output.emit(port::trace_target(merged), {port::trace_section(merged)});
  return 0;
}

void declare_merge(CLI::App& app, MergeArgs& args) {
  app.add_option("REPORT", args.reports, "JSON reports of `port trace --models FILE --shard K/N --json`")->check(path_arg())
      ->required();
}

}  // namespace

Command merge_command() {
  return make_command<MergeArgs>("merge", "Join the JSON reports of every shard of a port trace sweep into the report of the whole sweep",
                          R"(Example:
  onramp port merge shard-0.json shard-1.json shard-2.json shard-3.json --json -o zoo.json)",
                          declare_merge, run_merge);
}

}  // namespace onramp::cli::port_cli
