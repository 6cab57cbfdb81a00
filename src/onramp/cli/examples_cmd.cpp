#include <fmt/format.h>

#include <memory>
#include <optional>

#include "onramp/cli/command.h"
#include "onramp/cli/path_arg.h"
#include "onramp/cli/output.h"
#include "onramp/cli/sandbox_options.h"
#include "onramp/cli/shared_options.h"
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
  python::Interpreters interpreters(runner, args.sandbox.sandbox.limits);
  auto python = python::Sandbox::open(interpreters, args.sandbox.sandbox, run_dir);
  report::Json target = {{"kind", "examples"}, {"path", args.target}, {"python", python.python()}};
  if (!args.options.module.empty()) target["module"] = args.options.module;
  args.output.emit(target, {examples::examples_section(python, files, args.options)}, run_dir.string());
  return 0;
}

void declare_examples(CLI::App& app, ExamplesArgs& args) {
  app.add_option("TARGET", args.target,
                 "A Markdown file, a .ipynb notebook, a marimo .py notebook, or a directory of them")->check(path_arg())
      ->required();
  app.add_option("-m,--module", args.options.module, "Import this backend module before the examples");
  add_profile_option(app, args.profile,
                     "Its module and the init calls that register its device name explain rejected device strings "
                     "(the profile's module is not imported)");
  app.add_option_function<double>(
         "--statement-timeout",
         [&args](double seconds) { args.sandbox.sandbox.limits.set(Child::kExampleStatement, seconds); },
         "Seconds one statement may take before it is reported as a timeout (the example-statement limit)")
      ->check(positive_number())
      ->default_str(fmt::format("{:g}", default_seconds(Child::kExampleStatement)))
      ->type_name("SECONDS");
  args.sandbox.declare(app, {.command = "examples"});
}

}  // namespace

Command examples_command() {
  return make_command<ExamplesArgs>("examples", "Run a README's or notebook's Python examples statement by statement in the sandbox",
                           R"(Examples:
  onramp examples ~/src/torch_tpu/README.md
  onramp examples ~/src/torch_tpu/docs --module torch_tpu --markdown -o examples.md
  onramp examples demo.ipynb --python ~/venvs/t2/bin/python --statement-timeout 30)",
                           declare_examples, run_examples);
}

}  // namespace onramp::cli
