#include "onramp/audit/probe_step.h"

#include <fmt/format.h>

#include "onramp/integration/groups.h"
#include "onramp/integration/scorecard.h"
#include "onramp/probe/api_probe.h"
#include "onramp/python/scripts.h"
#include "onramp/probe/import_probe.h"
#include "onramp/report/section_keys.h"
#include "onramp/util/jobs.h"
#include "onramp/util/progress.h"

namespace onramp::audit {
namespace {

// The importtime tables list the top 10 modules: enough to name the slow ones.
constexpr size_t kImportTimeTop = 10;

// What the runs after the cold import leave, each in a place of its own, so
// that the section is built in one order whichever run ends first.
struct LaterRuns {
  std::vector<probe::ImportRun> imports;  // cold first (run before these), warm ones, importtime last
  python::ScriptRun api;
  python::ScriptRun sites;
  integration::GroupRun runtime;
  integration::GroupRun autoload_on;
};

void add_import_jobs(util::JobGroup& jobs, python::Sandbox& sandbox, const ProbeOptions& options, LaterRuns& out) {
  for (int i = 2; i <= options.runs; ++i) {
    jobs.add([&sandbox, &options, &out, i] {
      sandbox.progress(fmt::format("import {}: run {}/{}", options.module, i, options.runs));
      out.imports[static_cast<size_t>(i - 1)] = probe::run_import(sandbox, options.module, "warm", i, options.import_facts);
    });
  }
  jobs.add([&sandbox, &options, &out] {
    sandbox.progress(fmt::format("import {}: -X importtime", options.module));
    out.imports.back() = probe::run_import(sandbox, options.module, "importtime", 0, options.import_facts);
  });
}

// With the scorecard, the runtime group runs the matrix first in its own
// interpreter, after its import torch (integration/groups.h MatrixFirst),
// then its checks on the device the matrix chose: the longest chain, added
// first. Without, the matrix alone. The autoload group needs nothing of the
// matrix: it starts at once (it may wait out its own limits, as a backend that
// stalls CPU work makes it: its slot is lent meanwhile,
// integration/lend_watch.h).
void add_api_jobs(util::JobGroup& jobs, python::Sandbox& sandbox, const ProbeOptions& options,
                  const probe::ApiProbeOptions& api, bool scorecard, LaterRuns& out) {
  if (!scorecard) {
    jobs.add([&sandbox, &api, &out] { out.api = probe::run_api_matrix(sandbox, api); });
    return;
  }
  integration::ScorecardOptions card{options.module, options.device};
  jobs.add_lending([&sandbox, &api, card, &out](util::SlotLease& lease) {
    sandbox.progress("device-API matrix for " + api.module + ", run first by the runtime group");
    integration::MatrixFirst matrix{python::scripts::kApiProbe, probe::kApiProbeResult, probe::api_matrix_args(api),
                                    sandbox.limits().wall_seconds};
    auto group = integration::runtime_group(sandbox, card, std::move(matrix));
    group.lease = &lease;
    out.runtime = integration::run_group(sandbox, group);
    if (out.runtime.matrix) {
      out.api = std::move(*out.runtime.matrix);
      out.runtime.matrix.reset();
    }
  });
  jobs.add_lending([&sandbox, card, &out](util::SlotLease& lease) {
    auto group = integration::autoload_group(sandbox, card);
    group.lease = &lease;
    out.autoload_on = integration::run_group(sandbox, group);
  });
}

// The rename sites: a static read of the package (no torch import), the
// shortest run, queued last so that it fills the end rather than leaving one
// core to a long run alone.
void add_sites_job(util::JobGroup& jobs, python::Sandbox& sandbox, const ProbeOptions& options, LaterRuns& out) {
  if (options.module.empty()) return;
  jobs.add([&sandbox, &options, &out] { out.sites = probe::run_rename_sites(sandbox, options.module); });
}

}  // namespace

ProbeSections probe_sections(python::Sandbox& sandbox, const ProbeOptions& options) {
  ProbeSections out{report::Section{probe::keys::kSection, "Import and device probes", {}, {}, {}}, std::nullopt, std::nullopt};
  bool imports = !options.module.empty() && options.import_runs;
  bool scorecard = options.device_api && options.integration && !options.module.empty();
  bool routes = scorecard || !options.more_routes.empty();
  probe::ApiProbeOptions api{options.module, options.device,
                             routes ? integration::write_routes_file(sandbox, options.more_routes) : ""};
  LaterRuns later;
  if (imports) {
    later.imports.resize(static_cast<size_t>(options.runs) + 1);
    // The cold import runs first and alone: nothing of onramp's shares the machine with it.
    sandbox.progress(fmt::format("import {}: run 1/{}", options.module, options.runs));
    later.imports.front() = probe::run_import(sandbox, options.module, "cold", 1, options.import_facts);
  }
  {
    // Slots are taken in the order tasks are added: the matrix (the head of
    // the longest chain) first, the shortest run last.
    util::JobGroup jobs(options.jobs);
    if (options.device_api) add_api_jobs(jobs, sandbox, options, api, scorecard, later);
    if (imports) add_import_jobs(jobs, sandbox, options, later);
    if (options.device_api) add_sites_job(jobs, sandbox, options, later);
    for (const auto& task : options.beside) jobs.add(task);
    jobs.wait();
  }
  if (imports) {
    probe::add_import_results(out.probe, std::move(later.imports), {options.module, options.runs, kImportTimeTop, options.import_facts});
  }
  if (!options.device_api) return out;
  probe::add_host_figure(out.probe, sandbox);
  diagnosis::Facts facts;
  probe::add_api_records(out.probe, later.api, api, options.module.empty() ? nullptr : &later.sites, &facts);
  if (options.facts) *options.facts = facts;
  if (scorecard) out.integration = integration::scorecard_from_runs(later.api, later.runtime, later.autoload_on, facts);
  out.api = std::move(later.api);
  return out;
}

}  // namespace onramp::audit
