#include <fstream>

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

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FatalError(path + ": cannot read");
  auto doc = nlohmann::json::parse(in, nullptr, false);
  if (doc.is_discarded()) throw FatalError(path + ": not JSON");
  return doc;
}

int run_merge(const MergeArgs& args) {
  std::vector<port::TraceRun> runs;
  for (const auto& path : args.reports) runs.push_back(value_or_fatal(port::read_trace_report(read_json(path), path)));
  auto merged = value_or_fatal(port::merge_trace_runs(std::move(runs), args.reports));
  report::Report report;
  report.target = port::trace_target(merged);
  report.sections.push_back(port::trace_section(merged));
  args.output.emit(report);
  return 0;
}

}  // namespace

void declare_merge(CLI::App& port, const Chosen& chosen) {
  auto args = std::make_shared<MergeArgs>();
  CLI::App* app = port.add_subcommand("merge", "Join the JSON reports of every shard of a port trace sweep into "
                                               "the report of the whole sweep");
  app->add_option("REPORT", args->reports, "JSON reports of `port trace --models FILE --shard K/N --json`")->check(path_arg())
      ->required();
  args->output.declare(*app);
  app->footer(R"(Example:
  onramp port merge shard-0.json shard-1.json shard-2.json shard-3.json --json -o zoo.json)");
  app->callback([chosen, args] { *chosen = [args] { return run_merge(*args); }; });
}

}  // namespace onramp::cli::port_cli
