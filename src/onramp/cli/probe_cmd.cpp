#include <memory>

#include "onramp/audit/probe_step.h"
#include "onramp/cli/command.h"
#include "onramp/cli/output.h"
#include "onramp/cli/sandbox_options.h"
#include "onramp/cli/shared_options.h"
#include "onramp/util/error.h"

namespace onramp::cli {
namespace {

struct ProbeArgs {
  audit::ProbeOptions options;
  bool no_import = false;
  bool no_api = false;
  bool no_integration = false;
  SandboxCliOptions sandbox;
  OutputOptions output;
};

int run_probe(const ProbeArgs& args) {
  if (args.options.module.empty() && args.options.device.empty()) {
    throw FatalError("probe: give --module M, --device NAME, or both");
  }
  auto run_dir = args.sandbox.create_run_dir();
  SandboxRunner runner;
  python::Interpreters interpreters(runner, args.sandbox.sandbox.limits);
  auto python = python::Sandbox::open(interpreters, args.sandbox.sandbox, run_dir);
  audit::ProbeOptions options = args.options;
  options.import_runs = !args.no_import;
  options.device_api = !args.no_api;
  options.integration = !args.no_integration;
  report::Report report;
  report.target = {{"kind", "module"}, {"module", options.module}, {"python", python.python()}};
  if (!options.device.empty()) report.target["device"] = options.device;
  report.run_dir = run_dir.string();
  auto sections = audit::probe_sections(python, options);
  report.sections.push_back(std::move(sections.probe));
  if (sections.integration) report.sections.push_back(std::move(*sections.integration));
  args.output.emit(report);
  return 0;
}

void declare_probe(CLI::App& app, ProbeArgs& args) {
  app.add_option("-m,--module", args.options.module, "The backend module to import (e.g. torch_tpu)");
  app.add_option("--device", args.options.device,
                 "Device name to probe (default: the name the module gives PrivateUse1, else the module "
                 "name without 'torch_')")
      ->type_name("NAME");
  app.add_option("--runs", args.options.runs, "Fresh interpreters that import the module (first cold, rest warm)")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  add_jobs_option(app, args.options.jobs, "Here: interpreters after the cold import, which runs first and alone");
  auto* no_import =
      app.add_flag("--no-import", args.no_import, "Skip the import timing runs; only probe the device APIs");
  app.add_flag("--no-api", args.no_api, "Skip the device-API matrix; only time the import")->excludes(no_import);
  app.add_flag("--no-integration", args.no_integration,
               "Skip the integration scorecard (it needs --module and the device-API matrix)");
  args.sandbox.declare(app, {.command = "probe"});
}

}  // namespace

Command probe_command() {
  return make_command<ProbeArgs>("probe", "Import a backend in fresh sandboxed interpreters and ask its device APIs what they answer",
                                 R"(Examples:
  onramp probe --module torch_tpu
  onramp probe --device tpu                       # torch alone: what does 'tpu' mean to it?
  onramp probe --module torch_xla --device xla --runs 3 --json -o probe.json
  onramp probe --module mybackend --path ~/src/mybackend --python ~/venvs/t2/bin/python)",
                                 declare_probe, run_probe);
}

}  // namespace onramp::cli
