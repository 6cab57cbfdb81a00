#include <fmt/format.h>

#include <memory>

#include "onramp/cli/run_dir_arg.h"
#include "onramp/cli/command.h"
#include "onramp/cli/index_args.h"
#include "onramp/cli/output.h"
#include "onramp/cli/shared_options.h"
#include "onramp/index/resolve.h"
#include "onramp/util/progress.h"
#include "onramp/util/sandbox.h"

namespace onramp::cli {
namespace {

struct ResolveArgs {
  index::ResolveOptions options;
  std::string out;
  OutputOptions output;
};

int run_resolve_command(const ResolveArgs& args) {
  index::ResolveOptions o = args.options;
  o.make_run_dir = [&args] { return run_dir_from(args.out); };
  o.progress = stderr_progress();
  SandboxRunner runner;
  python::Interpreters interpreters(runner, o.limits);
  auto outcome = value_or_fatal(index::run_resolve(interpreters, o));
  args.output.emit(report::Json{{"kind", "requirement"}, {"requirement", o.requirement}}, {std::move(outcome.section)},
                    outcome.run_dir.string());
  return outcome.resolved && outcome.downloads_ok ? 0 : 1;
}

void declare_resolve(CLI::App& app, ResolveArgs& args) {
  app.add_option("REQUIREMENT", args.options.requirement, "A PEP 508 requirement, e.g. 'torch-tpu==0.2.0'")->required();
  add_python_option(app, args.options.python, "pip resolves for it");
  declare_index_options(app, args.options);
  app.add_flag("--download", args.options.download,
               "Download every file of the resolution into onramp's cache ($XDG_CACHE_HOME/onramp)");
  add_out_option(app, args.out);
  add_timeout_option(app, args.options.limits, timeout_option("resolve"));
}

}  // namespace

Command resolve_command() {
  return make_command<ResolveArgs>("resolve", "What a requirement pulls in from the index, the release's files and why each is (not) taken",
                           R"(Examples:
  onramp resolve 'torch-tpu==0.2.0' --ignore-requires-python
  onramp resolve 'mybackend>=1' --index-url http://127.0.0.1:8080/simple/ --download --json -o index.json

Exit status: 0 resolved (and downloaded); 1 pip could not resolve or a download was refused (the report says why);
2 bad input or environment.)",
                           declare_resolve, run_resolve_command);
}

}  // namespace onramp::cli
