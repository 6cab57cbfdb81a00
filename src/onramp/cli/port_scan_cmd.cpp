#include "onramp/cli/output.h"
#include "onramp/cli/path_arg.h"
#include "onramp/cli/port_cmds.h"
#include "onramp/port/scan.h"
#include "onramp/port/scan_report.h"
#include "onramp/port/scan_stats.h"
#include "onramp/util/command_line.h"
#include "onramp/util/progress.h"

namespace onramp::cli::port_cli {
namespace {

struct ScanArgs {
  std::vector<std::string> paths;
  SandboxCliOptions sandbox;
  OutputOptions output;
};

int run_scan(const ScanArgs& args) {
  auto inputs = value_or_fatal(port::collect_python_files(args.paths));
  SandboxRunner runner;
  python::Interpreters interpreters(runner, args.sandbox.sandbox.limits);
  auto box = python::Sandbox::open(interpreters, args.sandbox.sandbox, args.sandbox.create_run_dir());
  const auto& rules = port::builtin_cudaism_rules();
  box.progress("scanning " + std::to_string(inputs.size()) + " Python files with " + box.python());
  auto scan = value_or_fatal(port::run_scan(box, inputs, rules));
  report::Report report;
  report.target = {{"kind", "python_files"}, {"paths", args.paths}, {"python", box.python()},
                   {"python_version", scan.python_version}};
  report.run_dir = box.run_dir().string();
  // The command line as typed, for evidence: "onramp port scan a b".
  std::vector<std::string> argv{"onramp", "port", "scan"};
  argv.insert(argv.end(), args.paths.begin(), args.paths.end());
  report.sections.push_back(port::scan_section(port::tally_scan(scan, rules), scan, rules, util::command_line(argv)));
  args.output.emit(report);
  return 0;
}

void declare_scan(CLI::App& app, ScanArgs& args) {
  app.add_option("PATH", args.paths, "Python files or directories (walked for *.py)")->check(path_arg())->required();
  args.sandbox.declare(app, {.command = "port scan",
                             .timeout_note = "Here the scanner's, which parses the files and never runs them",
                             .memory_note = "It bounds the scanner"});
}

}  // namespace

Command scan_command() {
  return make_command<ScanArgs>("scan", "Find CUDA-only calls in Python files, each with its backend-neutral replacement, and HIPIFY-style statistics",
                          R"(Rules: data/cudaisms.toml (docs/port.md). Files are parsed with Python's ast in the sandbox, never run.
Examples:
  onramp port scan train.py
  onramp port scan src/ --json -o scan.json)",
                          declare_scan, run_scan);
}

}  // namespace onramp::cli::port_cli
