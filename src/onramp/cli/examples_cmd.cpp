#include <memory>
#include <optional>

#include "onramp/cli/command.h"
#include "onramp/cli/path_arg.h"
#include "onramp/cli/output.h"
#include "onramp/cli/sandbox_options.h"
#include "onramp/profile/profile.h"
#include "onramp/examples/example_sources.h"
#include "onramp/examples/examples_run.h"
#include "onramp/util/error.h"

namespace onramp::cli {
namespace {

struct ExamplesArgs {
  std::string target;
  examples::ExamplesOptions options;
  SandboxCliOptions sandbox;
  OutputOptions output;
  std::string profile;
};

int run_examples(const ExamplesArgs& given) {
  ExamplesArgs args = given;
  std::optional<profile::BackendProfile> profile;
  if (!args.profile.empty()) profile = value_or_fatal(profile::load_profile(args.profile));
  args.options.registration = examples::device_registration(args.options.module, profile ? &*profile : nullptr);
  auto files = value_or_fatal(examples::collect_examples(args.target));
  auto run_dir = args.sandbox.create_run_dir();
  SandboxRunner runner;
  auto python = python::Sandbox::open(runner, args.sandbox.sandbox, run_dir);
  report::Report report;
  report.target = {{"kind", "examples"}, {"path", args.target}, {"python", python.python()}};
  if (!args.options.module.empty()) report.target["module"] = args.options.module;
  report.run_dir = run_dir.string();
  report.sections.push_back(examples::examples_section(python, files, args.options));
  args.output.emit(report);
  return 0;
}

}  // namespace

Command examples_command() {
  return {"examples", "Run a README's or notebook's Python examples statement by statement in the sandbox",
          [](CLI::App& app) -> Action {
            auto args = std::make_shared<ExamplesArgs>();
            app.add_option("TARGET", args->target,
                           "A Markdown file, a .ipynb notebook, a marimo .py notebook, or a directory of them")->check(path_arg())
                ->required();
            app.add_option("-m,--module", args->options.module, "Import this backend module before the examples");
            app.add_option("--profile", args->profile,
                           "A backend profile (name or .toml): its module and the init calls that register its "
                           "device name explain rejected device strings (the profile's module is not imported)");
            app.add_option("--statement-timeout", args->options.statement_timeout,
                           "Seconds one statement may take before it is reported as a timeout")
                ->check(CLI::PositiveNumber)
                ->capture_default_str();
            args->sandbox.declare(app, 300);
            args->output.declare(app);
            app.footer(R"(Examples:
  onramp examples ~/src/torch_tpu/README.md
  onramp examples ~/src/torch_tpu/docs --module torch_tpu --markdown -o examples.md
  onramp examples demo.ipynb --python ~/venvs/t2/bin/python --statement-timeout 30)");
            return [args] { return run_examples(*args); };
          }};
}

}  // namespace onramp::cli
