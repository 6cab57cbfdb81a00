#include <memory>

#include "onramp/cli/command.h"
#include "onramp/cli/path_arg.h"
#include "onramp/cli/output.h"
#include "onramp/cli/shared_options.h"
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
  size_t min_members = ops::OpsRunOptions{}.min_members;
  int jobs = 0;  // set by add_jobs_option
  uint64_t max_paths = source::kDefaultMaxPaths;
  uint64_t max_file_size = ops::OpsRunOptions{}.max_file_size;
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
  ops::OpsRunOptions options{args.aten, args.python, args.claim, args.min_members, static_cast<unsigned>(args.jobs),
                             profile.get(), report.target.value("path", args.target)};
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
  add_rev_option(app, args.rev);
  app.add_flag("--all", args.all, "Also read files that .gitignore excludes");
  add_profile_option(app, args.profile);
  add_aten_option(app, args.aten);
  add_python_option(app, args.python, "It is asked only where its torchgen holds the ATen schema");
  app.add_option("--claim", args.claim, "A claim to set against every counting method, e.g. \"450 core ATen ops\"");
  app.add_option("--min-members", args.min_members, "Smallest collection that counts as an inventory")
      ->check(positive_number())
      ->capture_default_str();
  add_jobs_option(app, args.jobs, "Here: files read at once (--threads: its former name)", ThreadsAlias::yes);
  add_max_paths_option(app, args.max_paths, "The list: the files an extractor reads");
  add_max_file_size_option(app, args.max_file_size);
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
