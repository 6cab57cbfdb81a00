#include <memory>

#include "onramp/cli/command.h"
#include "onramp/cli/output.h"
#include "onramp/ops/aten_locator.h"
#include "onramp/ops/discovery.h"
#include "onramp/ops/methods.h"
#include "onramp/ops/ops_report.h"
#include "onramp/ops/profile.h"
#include "onramp/source/source.h"

namespace onramp::cli {
namespace {

struct OpsArgs {
  std::string target;
  std::string rev;
  bool all = false;
  std::string profile;
  std::string aten;
  std::string python;
  std::string claim;
  size_t min_members = 10;
  unsigned threads = 0;
  OutputOptions output;
};

int run_ops(const OpsArgs& args) {
  std::unique_ptr<ops::BackendProfile> profile;
  if (!args.profile.empty()) profile = std::make_unique<ops::BackendProfile>(value_or_fatal(ops::load_profile(args.profile)));
  const auto& rules = ops::OpsRules::builtin();
  auto where = value_or_fatal(ops::locate_aten_schema(args.aten, args.python));
  auto schema = value_or_fatal(ops::AtenSchema::load(where.path, rules));
  source::OpenOptions open;
  if (!args.rev.empty()) open.rev = args.rev;
  open.include_ignored = args.all;
  auto src = value_or_fatal(source::open(args.target, open));
  ops::DiscoveryOptions options;
  options.min_members = args.min_members;
  options.threads = args.threads;
  ops::Discovery found = ops::discover(*src, schema, rules, options, profile.get());

  ops::OpsReportInput in{found, schema, rules, where.evidence, profile.get(), args.claim, std::nullopt, "--claim", ""};
  if (in.claim.empty() && profile && !profile->claims.empty()) {
    in.claim = profile->claims.front().text;
    in.claim_value = profile->claims.front().value;
    in.claim_source = profile->origin + " (claim made in " + profile->claims.front().source + ")";
  }
  if (!in.claim_value && !in.claim.empty()) in.claim_value = ops::claim_number(in.claim);
  report::Report report;
  report.target = src->describe();
  if (profile) report.target["profile"] = profile->name;
  in.source_evidence = report.target.value("path", args.target);
  if (!args.rev.empty()) in.source_evidence += " @ " + args.rev;
  report.sections.push_back(ops::build_ops_section(in));
  args.output.emit(report);
  return 0;
}

}  // namespace

Command ops_command() {
  return {"ops", "Find a backend's operator inventories in its source and count them every honest way",
          [](CLI::App& app) -> Action {
            auto args = std::make_shared<OpsArgs>();
            app.add_option("TARGET", args->target, "A directory, or a git repository (bare or not)")->required();
            app.add_option("--rev", args->rev, "Read this revision from git objects (no checkout)");
            app.add_flag("--all", args->all, "Also read files that .gitignore excludes");
            app.add_option("--profile", args->profile,
                           "A backend profile: a name (torch_tpu, torch_xla) or a path to a .toml file");
            app.add_option("--aten", args->aten,
                           "native_functions.yaml (or its directory) to resolve names against; default: the "
                           "installed torchgen's");
            app.add_option("--python", args->python, "The Python whose torchgen holds the schema (default: python3, "
                                                      "then /usr/bin/python3)");
            app.add_option("--claim", args->claim, "A claim to set against every counting method, e.g. \"450 core ATen ops\"");
            app.add_option("--min-members", args->min_members, "Smallest collection that counts as an inventory (default 10)");
            app.add_option("--threads", args->threads, "Reading threads (default: all cores)");
            args->output.declare(app);
            app.footer(R"(Examples:
  onramp ops ~/src/torch_tpu --profile torch_tpu
  onramp ops ~/src/xla --claim "450 core ATen ops" --aten pytorch/aten/src/ATen/native/native_functions.yaml
  onramp ops --rev v0.2.0 --json ~/mirrors/torch_tpu.git
  onramp ops ~/src/my_backend --markdown -o ops.md)");
            return [args] { return run_ops(*args); };
          }};
}

}  // namespace onramp::cli
