#include <memory>

#include "onramp/cli/command.h"
#include "onramp/cli/index_args.h"
#include "onramp/cli/output.h"
#include "onramp/host/hosts_section.h"

namespace onramp::cli {
namespace {

struct HostsArgs {
  std::vector<std::string> names;  // remove only
  bool all = false;
  CLI::App* remove = nullptr;
  OutputOptions output;
};

report::Report hosts_report(report::Section section) {
  report::Report report;
  report.target = {{"kind", "hosts"}, {"path", (download_cache_root() / "hosts").string()}};
  report.sections.push_back(std::move(section));
  return report;
}

int run_hosts(const HostsArgs& args) {
  if (!args.remove->parsed()) {
    args.output.emit(hosts_report(host::hosts_section(download_cache_root())));
    return 0;
  }
  if (args.names.empty() == !args.all) throw FatalError("onramp hosts remove: name hosts, or give --all (not both)");
  auto root = download_cache_root();
  auto removed = value_or_fatal(host::remove_hosts(root, args.names, args.all));
  args.output.emit(hosts_report(host::removed_section(root, removed)));
  return 0;
}

void declare_hosts(CLI::App& app, HostsArgs& args) {
  args.remove = app.add_subcommand("remove", "Remove hosts by name, or all of them");
  args.remove->add_option("NAME", args.names, "A host's name as `onramp hosts` lists it");
  args.remove->add_flag("--all", args.all, "Remove every host");
  args.output.declare(*args.remove);
}

}  // namespace

Command hosts_command() {
  return make_command<HostsArgs>("hosts", "List onramp's own hosts (the venvs audits make when no --python is given), and remove them",
                                 R"(A host is a venv under $XDG_CACHE_HOME/onramp/hosts/<py>-torch<version>/ (else
~/.cache/onramp/hosts/), made by `onramp audit REQUIREMENT` when no --python is given and reused
by every later audit; it records when it was made and how long that took (onramp-host.json).
A host removed is made again by the next audit that needs it.

Examples:
  onramp hosts
  onramp hosts --json
  onramp hosts remove py3.11.7-torch2.13.0+cpu
  onramp hosts remove --all)",
                                 declare_hosts, run_hosts);
}

}  // namespace onramp::cli
