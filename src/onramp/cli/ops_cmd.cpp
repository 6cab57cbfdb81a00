#include <memory>

#include "onramp/cli/command.h"
#include "onramp/cli/path_arg.h"
#include "onramp/cli/output.h"
#include "onramp/ops/ops_run.h"
#include "onramp/profile/profile.h"
#include "onramp/source/source.h"

namespace onramp::cli {
namespace {

struct OpsArgs {
  std::string target;
  std::string rev;
  bool all = false;
  std::string profile;
  std::string aten;
  python::PythonRequest python;
  std::string claim;
  size_t min_members = 10;
  unsigned threads = 0;
  uint64_t max_paths = source::kDefaultMaxPaths;
  uint64_t max_file_size = 100ull << 20;
  OutputOptions output;
};

int run_ops(const OpsArgs& args) {
  std::unique_ptr<profile::BackendProfile> profile;
  if (!args.profile.empty()) profile = std::make_unique<profile::BackendProfile>(value_or_fatal(profile::load_profile(args.profile)));
  source::OpenOptions open;
  if (!args.rev.empty()) open.rev = args.rev;
  open.include_ignored = args.all;
  open.max_paths = args.max_paths;
  auto src = value_or_fatal(source::open(args.target, open));
  report::Report report;
  report.target = src->describe();
  if (profile) {
    report.target["profile"] = profile->name;
    if (!profile->display_name.empty()) report.target["backend"] = profile->display_name;
  }
  ops::OpsRunOptions options{args.aten, args.python, args.claim, args.min_members, args.threads, profile.get(),
                             report.target.value("path", args.target)};
  options.max_file_size = args.max_file_size;
  if (!args.rev.empty()) options.source_evidence += " @ " + args.rev;
  SandboxRunner runner;
  python::Interpreters interpreters(runner, TimeLimits());
  report.sections.push_back(ops::run_ops_section(interpreters, *src, options));
  args.output.emit(report);
  return 0;
}

void declare_ops(CLI::App& app, OpsArgs& args) {
  app.add_option("TARGET", args.target, "A directory, or a git repository (bare or not)")->check(path_arg())->required();
  app.add_option("--rev", args.rev, "Read this revision from git objects (no checkout)");
  app.add_flag("--all", args.all, "Also read files that .gitignore excludes");
  app.add_option("--profile", args.profile,
                 "A backend profile: a name (torch_tpu, torch_xla) or a path to a .toml file");
  app.add_option("--aten", args.aten,
                 "native_functions.yaml (or its directory) to resolve names against; default: the "
                 "installed torchgen's")->check(path_arg());
  app.add_option_function<std::string>(
         "--python", [&args](const std::string& path) { args.python = python::PythonRequest(path); },
         "The Python whose torchgen holds the schema (default: python3, then /usr/bin/python3)")
      ->check(path_arg());
  app.add_option("--claim", args.claim, "A claim to set against every counting method, e.g. \"450 core ATen ops\"");
  app.add_option("--min-members", args.min_members, "Smallest collection that counts as an inventory (default 10)");
  app.add_option("--threads", args.threads, "Reading threads (default: all cores)");
  app.add_option("--max-paths", args.max_paths,
                 "Stop (exit 2) rather than read more files than this (default 1000000)");
  app.add_option("--max-file-size", args.max_file_size,
                 "Files larger than this many bytes are reported, not read (default 104857600)");
}

}  // namespace

Command ops_command() {
  return make_command<OpsArgs>("ops", "Find a backend's operator inventories in its source and count them every honest way",
                           R"(Examples:
  onramp ops ~/src/torch_tpu --profile torch_tpu
  onramp ops ~/src/xla --claim "450 core ATen ops" --aten pytorch/aten/src/ATen/native/native_functions.yaml
  onramp ops --rev v0.2.0 --json ~/mirrors/torch_tpu.git
  onramp ops ~/src/my_backend --markdown -o ops.md)",
                           declare_ops, run_ops);
}

}  // namespace onramp::cli
