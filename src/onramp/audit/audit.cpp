#include "onramp/audit/audit.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <fstream>
#include <functional>
#include <future>
#include <memory>
#include <optional>

#include "onramp/audit/causes.h"
#include "onramp/audit/import_failure.h"
#include "onramp/audit/last_resolution.h"
#include "onramp/audit/probe_step.h"
#include "onramp/audit/registrations_vs_source.h"
#include "onramp/audit/requirement_step.h"
#include "onramp/audit/served_view.h"
#include "onramp/audit/steps.h"
#include "onramp/audit/verdict.h"
#include "onramp/census/census.h"
#include "onramp/index/resolve.h"
#include "onramp/ops/aten_locator.h"
#include "onramp/ops/ops_run.h"
#include "onramp/port/aten_dispatch.h"
#include "onramp/port/backend_coverage.h"
#include "onramp/profile/profile.h"
#include "onramp/examples/example_sources.h"
#include "onramp/examples/examples_run.h"
#include "onramp/probe/ask_routes.h"
#include "onramp/report/render.h"
#include "onramp/install/install.h"
#include "onramp/install/sdist_build.h"
#include "onramp/python/sandbox.h"
#include "onramp/report/finding_graph.h"
#include "onramp/source/source.h"
#include "onramp/util/jobs.h"
#include "onramp/util/time_ledger.h"
#include "onramp/report/section_keys.h"
#include "onramp/audit/run_context.h"
#include "onramp/packaging/metadata.h"
#include "onramp/wheel/wheel_facts.h"
#include "onramp/wheel/wheel_run.h"

namespace onramp::audit {
namespace {

namespace fs = std::filesystem;

// What the served view asks: the ops of the source's inventories (and their
// delegates). Prepared before the probe, which records their routes in its
// matrix's run (ProbeOptions::more_routes); asked in an interpreter of its own
// when the probe did not.
struct RoutesJob {
  ServedViewInput in;
  std::vector<std::string> ops;
  probe::Delegates delegates;
};

// What the steps learn and hand on to later steps.
struct AuditState {
  AuditState(const AuditOptions& o, const RunContext& r) : options(o), run(r) {}
  const AuditOptions& options;
  RunContext run;                      // what the audit asks of the machine, asked once
  report::Report report;
  std::vector<StepRecord> steps;
  bool requirement = false;              // the target is a PEP 508 requirement
  std::vector<std::string> wheels;       // to read (and install, without an install target)
  std::string sdist;                     // the backend's sdist to build, when the release has no wheel here
  std::string build_stop;                // why the sdist did not build
  std::vector<std::string> index_args;   // where the resolution's pip looked
  fs::path install_target;               // a wheel directory to install, for a requirement
  std::string install_stop;              // why a requirement cannot be installed
  std::unique_ptr<source::Source> source;
  std::optional<profile::BackendProfile> profile;
  std::string module;
  python::PythonRequest python;         // interpreter for probe and examples: the install's venv once made
  python::PythonRequest host_python;    // interpreter for wheel, ops and the install: --python, or onramp's host
  double host_seconds = 0;              // spent making onramp's host: apart from the audit's own time
  std::vector<std::string> pythonpath;  // where the module is importable from, if not installed
  std::vector<fs::path> docs;
  std::string readme;
  bool install_failed = false;  // pip failed: without a source tree the module is nowhere to import
  bool installed = false;       // pip installed the target into the step's venv
  diagnosis::Facts facts;       // what the probe measured, for the examples' diagnoses
  // The runs of later steps that go beside the probe's (Step::phases).
  std::vector<std::function<void()>> beside_probe;
  // The served view's ops, prepared before the probe so that its matrix's run
  // records their routes (or why they could not be prepared), and that run.
  std::optional<RoutesJob> routes_job;
  std::string routes_stop;
  std::optional<python::ScriptRun> probe_api;
  // The wheel and install steps may run at once (--jobs): each keeps its
  // sections here until both are done, and they join the report in step order.
  std::vector<report::Section> wheel_sections;
  std::vector<report::Section> install_sections;
};

std::vector<std::string> claim_texts(const AuditState& s) {
  std::vector<std::string> out;
  if (s.profile) {
    for (const auto& c : s.profile->claims) out.push_back(c.text);
  }
  return out;
}

// A step that may run beside the probe, in three parts: what its phases()
// does at once reads what earlier steps left (before the probe starts);
// `run` holds its child processes and touches nothing shared; `finish` builds
// its section once the probe's facts are known and returns the step's detail.
struct Phases {
  std::function<void()> run;
  std::function<std::string(AuditState&)> finish;
};

// What an audit step lets run beside it, with --jobs over 1: the step after
// it (when that one applies too), the later steps' phases (Step::phases), or
// the pair of steps that may begin from the last resolution of the same
// request (those marked the_next_step) while it runs.
enum class RunsBeside { nothing, the_next_step, later_phases, steps_from_last_resolution };

struct Step {
  std::string name;
  // Empty when the step applies; otherwise why it is skipped.
  std::string (*skip_reason)(const AuditState&);
  // Runs the step; returns a one-line detail for the steps table.
  std::string (*run)(AuditState&);
  // For a step that may run beside the probe: its parts (run is then phases,
  // run, finish, one after another).
  Phases (*phases)(AuditState&) = nullptr;
  // What may run beside it, with --jobs over 1.
  RunsBeside beside = RunsBeside::nothing;
  // Its time excludes making onramp's host (the host section has it).
  bool host_making_apart = false;
  // It imports the backend's module in an interpreter of its own (StepRecord::imports_module).
  bool imports_module = false;
};

std::string needs_requirement(const AuditState& s) { return s.requirement ? "" : "the target is not a requirement"; }
std::string needs_source(const AuditState& s) {
  return s.source ? "" : s.requirement ? "no repository given (--repo)" : "the target is not a repository";
}
std::string needs_wheel(const AuditState& s) {
  if (!s.wheels.empty()) return "";
  if (!s.build_stop.empty()) return "the build step failed: " + s.build_stop;
  return s.requirement ? "no wheel of the requirement was fetched" : "no wheel given (--wheel, or a .whl target)";
}
std::string needs_install(const AuditState& s) {
  if (s.requirement && s.install_target.empty()) return "the resolve step stopped: " + s.install_stop;
  return needs_wheel(s);
}
// Without a source tree to import from, the module exists only if the install
// put it there: after a failed or skipped install there is nothing to probe or run.
std::string after_failed_install(const AuditState& s) {
  if (s.installed || !s.pythonpath.empty() || s.source) return "";
  return s.install_failed ? "the install failed: the module was never installed"
                          : "the install did not run: the module was never installed";
}
std::string needs_module(const AuditState& s) {
  if (auto stop = after_failed_install(s); !stop.empty()) return stop;
  return s.module.empty() ? "no module to import (--module, a profile, or a wheel with one importable module)" : "";
}
std::string needs_docs(const AuditState& s) {
  if (auto stop = after_failed_install(s); !stop.empty()) return stop;
  return s.docs.empty() ? "no documents with examples (a profile's docs, or README.md in the target)" : "";
}

// Whether an audit can begin its wheel read and install from the last
// resolution of the same request while pip resolves again: the interpreter
// is known before the resolution (--python; onramp's own host is made or
// checked by the resolve step itself), and work may run at once.
bool may_begin_early(const AuditState& s) {
  return s.requirement && s.options.jobs > 1 && s.options.sandbox.python.named() && !s.options.index.cache_root.empty();
}

// The resolution's outcome into the state; its detail for the steps table.
// A resolution whose install can go on is kept for the next audit of the
// same request (last_resolution.h).
std::string apply_resolution(AuditState& s, RequirementOutcome out) {
  if (out.host) s.report.sections.push_back(std::move(*out.host));
  if (!out.section.key.empty()) s.report.sections.push_back(std::move(out.section));
  if (out.python.named()) s.python = s.host_python = out.python;
  s.host_seconds = out.host_seconds;
  s.wheels = std::move(out.wheels);
  s.sdist = out.sdist;
  s.index_args = out.index_args;
  s.install_target = out.wheelhouse;
  s.install_stop = out.stop;
  if (!out.stop.empty()) throw FatalError(out.stop);
  if (may_begin_early(s) && s.sdist.empty()) {
    LastResolution last{s.host_python.path(), s.wheels, wheelhouse_files(s.install_target)};
    auto kept = write_last_resolution(s.options.index.cache_root, resolution_request(s.options), last);
    if (!kept) s.options.progress("the resolution is not kept for the next audit: " + kept.error().message);
  }
  std::string build = s.sdist.empty() ? "" : ", the sdist to build first";
  return fmt::format("{} wheel(s) to read{}, installing from {}", s.wheels.size(), build, s.install_target.string());
}

std::string run_resolve_step(AuditState& s) {
  return apply_resolution(s, run_requirement(s.run, s.options, s.options.run_dir));
}

std::string needs_sdist(const AuditState& s) {
  if (!s.requirement) return "the target is not a requirement";
  return s.sdist.empty() ? kNoSdistToBuild : "";
}

// The built wheel replaces the sdist: first among the wheels to read, and in the wheelhouse.
std::string run_build_step(AuditState& s) {
  install::SdistBuildOptions o{value_or_fatal(s.run.interpreters.choose(s.host_python)).executable, s.sdist, s.index_args, s.options.run_dir / "build", s.options.sandbox.limits,
                      s.options.sandbox.env};
  s.options.progress("building " + s.sdist + " (pip wheel --no-deps, in the sandbox)");
  install::SdistBuild built = install::build_sdist(s.run.runner(), s.run.wheels, o);
  s.report.sections.push_back(std::move(built.section));
  if (built.wheel.empty()) {
    s.build_stop = built.stop;
    throw FatalError(built.stop);
  }
  s.wheels.insert(s.wheels.begin(), built.wheel);
  if (!s.install_target.empty()) {
    std::error_code ec;
    fs::remove(s.install_target / fs::path(s.sdist).filename(), ec);
    fs::create_symlink(built.wheel, s.install_target / fs::path(built.wheel).filename(), ec);
    if (ec) throw FatalError((s.install_target / fs::path(built.wheel).filename()).string() + ": " + ec.message());
  }
  return "built " + fs::path(built.wheel).filename().string();
}

std::string run_census_step(AuditState& s) {
  s.report.sections.push_back(census::run_census(*s.source, {}));
  return s.source->describe().value("path", std::string());
}

std::string run_ops_step(AuditState& s) {
  std::string evidence = s.source->describe().value("path", s.options.target);
  if (!s.options.rev.empty()) evidence += " @ " + s.options.rev;
  ops::OpsRunOptions o;
  o.aten = s.options.aten;
  o.python = s.host_python;
  o.profile = s.profile ? &*s.profile : nullptr;
  o.source_evidence = evidence;
  s.report.sections.push_back(ops::run_ops_section(s.run.interpreters, *s.source, o));
  return s.profile ? "meanings from profile " + s.profile->name : "meanings guessed from names (no profile)";
}

// With no documents, the examples come from the first wheel's long
// description (METADATA), written to the run directory; returns what was done.
std::string docs_from_metadata(AuditState& s) {
  if (!s.docs.empty()) return "";
  auto facts = s.run.wheels.read(s.wheels.front());
  if (!facts) return "";
  const auto& m = facts->metadata;
  if (m.description.find_first_not_of(" \t\r\n") == std::string::npos) return "; its METADATA has no description";
  if (!m.description_content_type.empty() && !m.description_content_type.starts_with("text/markdown")) {
    return "; its METADATA description is " + m.description_content_type + ", not Markdown: no examples read from it";
  }
  fs::path dir = s.options.run_dir / "docs";
  fs::path file = dir / (wheel::normalize_name(m.name) + "-" + m.version + "-METADATA-description.md");
  std::error_code ec;
  fs::create_directories(dir, ec);
  std::ofstream out(file, std::ios::binary);
  out << m.description;
  if (!out.flush()) throw FatalError(file.string() + ": cannot write");
  s.docs.push_back(file);
  s.readme = file.string();
  return "; examples from its METADATA description (" + file.string() + ")";
}

// The module a wheel's users import: its one importable top-level module, or
// among several the one named as the distribution is (torch_npu beside torchnpugen).
std::string module_of(const report::Section& wheel) {
  std::vector<std::string> modules;
  std::string name;
  for (const auto& f : wheel.figures) {
    if (f.key == wheel::keys::kImportableModules && f.value.is_array()) modules = f.value.get<std::vector<std::string>>();
    if (f.key == wheel::keys::kName && f.value.is_string()) name = f.value.get<std::string>();
  }
  if (modules.size() == 1) return modules.front();
  std::string wanted = wheel::normalize_name(name);
  std::replace(wanted.begin(), wanted.end(), '-', '_');
  return std::find(modules.begin(), modules.end(), wanted) != modules.end() ? wanted : "";
}

std::string run_wheel_step(AuditState& s) {
  std::string docs = docs_from_metadata(s);
  // In-process work that may run beside the install: counted as running (util/jobs.h).
  util::WorkSpan reading(false);
  auto sections = wheel::run_wheel_sections(s.run.interpreters, s.run.wheels, {s.wheels, s.host_python, s.readme, {}});
  // The first wheel is the backend's: its module is the one to probe.
  if (s.module.empty() && !sections.empty()) s.module = module_of(sections.front());
  for (auto& section : sections) s.wheel_sections.push_back(std::move(section));
  auto kept = std::count_if(s.wheels.begin(), s.wheels.end(),
                             [&s](const std::string& w) { return s.run.wheels.came_from_store(w); });
  std::string store = kept == 0 ? ""
                                : fmt::format("; the facts of {} taken from an earlier read of the same file, unchanged, "
                                              "by this onramp (the cache's facts/)",
                                              kept);
  return fmt::format("{} wheel(s)", s.wheels.size()) + store + docs;
}

std::vector<std::string> torch_wheels_in(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.path().filename().string().starts_with("torch-")) out.push_back(fs::absolute(e.path()).string());
  }
  return out;
}

std::string run_install_step(AuditState& s) {
  install::InstallOptions o;
  o.target = s.install_target.empty() ? s.wheels.front() : s.install_target.string();
  o.python = s.host_python;
  o.pip_args = s.options.pip_args;
  if (s.requirement && s.options.index.ignore_requires_python) o.pip_args.push_back("--ignore-requires-python");
  // A torch the install brings (not the interpreter's) is installed first and timed apart.
  if (!s.install_target.empty()) o.first_wheels = torch_wheels_in(s.install_target);
  o.system_site_packages = s.options.system_site_packages;
  o.limits = s.options.sandbox.limits;
  if (const char* tmpdir = std::getenv("TMPDIR")) o.user_tmpdir = tmpdir;
  fs::path dir = s.options.run_dir / "install";
  o.make_run_dir = step_dir_maker(dir);
  o.progress = s.options.progress;
  auto outcome = value_or_fatal(install::run_install(s.run.interpreters, o));
  s.install_sections.push_back(std::move(outcome.section));
  if (!outcome.pip_ok) {
    s.install_failed = true;
    return s.pythonpath.empty() ? "the install failed: probe and examples cannot run"
                                : "the install failed: probe and examples use the source tree instead";
  }
  // Made from the host: who chose the host says who chose the venv (the answer is kept: no query).
  auto host = s.run.interpreters.choose(s.host_python);
  s.python = python::PythonRequest((dir / "venv" / "bin" / "python").string(),
                                   "the install step's venv, made from " + (host ? host->chosen_by : "its host"));
  s.pythonpath.clear();
  s.installed = true;
  return "installed into " + (dir / "venv").string();
}

// The user's --path comes first, then the source tree until an install replaces it.
python::Sandbox open_python(const AuditState& s, const std::string& step) {
  python::SandboxOptions o = s.options.sandbox;
  o.python = s.python;
  o.paths.insert(o.paths.end(), s.pythonpath.begin(), s.pythonpath.end());
  return python::Sandbox::open(s.run.interpreters, o, s.options.run_dir / step);
}

std::string needs_installed_backend(const AuditState& s);
RoutesJob prepare_routes(const AuditState& s);

std::string run_probe_step(AuditState& s) {
  auto python = open_python(s, "probe");
  ProbeOptions options;
  options.module = s.module;
  options.device = !s.options.device.empty() ? s.options.device : s.profile ? s.profile->device : "";
  options.runs = s.options.runs;
  options.jobs = s.options.jobs;
  options.integration = s.options.integration;
  std::string backend_wheel = s.wheels.empty() ? "" : s.wheels.front();
  options.import_facts = import_facts(s.run, backend_wheel, s.python);
  options.facts = &s.facts;
  options.beside = std::move(s.beside_probe);
  s.beside_probe.clear();
  if (needs_installed_backend(s).empty()) {
    try {
      s.routes_job = prepare_routes(s);
      options.more_routes = probe::ops_to_ask(s.routes_job->ops, s.routes_job->delegates);
    } catch (const FatalError& e) {
      s.routes_stop = e.what();  // the routes step's failure, not the probe's
    }
  }
  auto sections = probe_sections(python, options);
  s.probe_api = std::move(sections.api);
  s.report.sections.push_back(std::move(sections.probe));
  if (sections.integration) s.report.sections.push_back(std::move(*sections.integration));
  // Asked only for a requirement (index_args), whose host is always named.
  explain_missing_runtime(s.run, s.report,
                          {backend_wheel, s.host_python.named() ? s.host_python.path() : "", s.index_args, s.readme,
                           s.options.run_dir / "extras", s.options.sandbox.limits});
  s.report.target["python"] = python::describe(python.interpreter());
  const auto& host = python.interpreter();
  s.report.target["host"] = {{"python_version", host.python_version},
                             {"torch_version", host.torch_version ? report::Json(*host.torch_version) : report::Json()},
                             {"chosen_by", host.chosen_by}, {"executable", host.executable}};
  s.report.target["module"] = s.module;
  return "import " + s.module + " with " + python::describe(python.interpreter());
}

Phases examples_phases(AuditState& s) {
  struct Job {
    std::vector<examples::ExampleFile> files;
    std::optional<python::Sandbox> python;
    examples::ExamplesOptions options;
    std::vector<std::optional<python::ScriptRun>> runs;
  };
  auto job = std::make_shared<Job>();
  for (const auto& doc : s.docs) {
    auto found = value_or_fatal(examples::collect_examples(doc));
    job->files.insert(job->files.end(), found.begin(), found.end());
  }
  job->python.emplace(open_python(s, "examples"));
  job->options = {s.module, examples::device_registration(s.module, s.profile ? &*s.profile : nullptr), {}};
  return {[job] { job->runs = examples::run_examples(*job->python, job->files, job->options); },
          [job](AuditState& after) {
            job->options.facts = after.facts;
            after.report.sections.push_back(examples::examples_section(job->files, job->runs, job->options));
            return fmt::format("{} document(s)", after.docs.size());
          }};
}

// The served view asks the installed backend: a module the install step put
// in a venv, and a source tree whose inventories name the ops to ask about.
std::string needs_installed_backend(const AuditState& s) {
  if (auto stop = needs_source(s); !stop.empty()) return stop;
  if (!s.installed) {
    if (auto stop = needs_install(s); !stop.empty()) return stop;
    return s.install_failed ? "the install failed: no installed backend to ask"
                            : "the install did not finish: no installed backend to ask";
  }
  return s.module.empty() ? "no module to import (--module, a profile, or a wheel with one importable module)" : "";
}

RoutesJob prepare_routes(const AuditState& s) {
  auto coverage = port::coverage_from_report(report::to_json(s.report), "the ops section");
  if (!coverage) throw FatalError("no op lists to ask about: " + coverage.error().message);
  auto schema = value_or_fatal(ops::locate_aten_schema(s.run.interpreters, s.options.aten, s.python));
  auto dispatch = value_or_fatal(port::load_aten_dispatch(schema.path));
  RoutesJob job;
  job.in = {coverage->registered, coverage->unregistered, coverage->source + ")", schema.evidence};
  job.ops = served_view_ops(job.in);
  job.delegates = dispatch.delegate;
  return job;
}

std::string run_routes_step(AuditState& s) {
  if (!s.routes_stop.empty()) throw FatalError(s.routes_stop);
  // The probe's matrix was given these ops when they were prepared before it.
  bool in_probe = s.routes_job && s.probe_api;
  RoutesJob job = s.routes_job ? *s.routes_job : prepare_routes(s);
  auto ask_alone = [&] {
    auto python = open_python(s, "routes");
    s.options.progress(fmt::format("asking the dispatcher how {} serves {} ops", s.module, job.ops.size()));
    return probe::ask_routes(python, s.module, job.ops, job.delegates, "routes");
  };
  auto asked = in_probe ? probe::read_asked_routes(*s.probe_api, job.ops, job.delegates) : ask_alone();
  if (!asked) throw FatalError("the dispatcher could not be asked: " + asked.error().message);
  s.report.sections.push_back(served_view_section(job.in, *asked));
  if (!asked->facts.measured) return "not measured: " + asked->facts.not_measured;
  return fmt::format("{} ops asked of the dispatcher after import {}, {}", job.ops.size(), s.module,
                     in_probe ? "in the probe's device-API run" : "in an interpreter of their own");
}

// A step with phases, run alone: its parts one after another.
template <Phases (*phases)(AuditState&)>
std::string run_phases(AuditState& s) {
  Phases p = phases(s);
  p.run();
  return p.finish(s);
}

const std::vector<Step>& steps() {
  static const std::vector<Step> table{
      {"resolve", needs_requirement, run_resolve_step, nullptr, RunsBeside::steps_from_last_resolution, true},
      {"build", needs_sdist, run_build_step},
      {"census", needs_source, run_census_step},
      {"ops", needs_source, run_ops_step},
      {"wheel", needs_wheel, run_wheel_step, nullptr, RunsBeside::the_next_step},
      {"install", needs_install, run_install_step},
      {"probe", needs_module, run_probe_step, nullptr, RunsBeside::later_phases},
      {"examples", needs_docs, run_phases<examples_phases>, examples_phases},
      {"routes", needs_installed_backend, run_routes_step, nullptr, RunsBeside::nothing, false, true},
  };
  return table;
}

// A requirement is a target that names nothing on disk and reads as PEP 508.
bool is_requirement(const std::string& target) {
  std::error_code ec;
  if (fs::exists(target, ec) || target.find('/') != std::string::npos) return false;
  return wheel::parse_requirement(target).has_value();
}

void open_source(AuditState& s, const std::string& path) {
  const auto& o = s.options;
  source::OpenOptions open;
  if (!o.rev.empty()) open.rev = o.rev;
  s.source = value_or_fatal(source::open(path, open));
  if (!fs::is_directory(path) || !o.rev.empty()) return;
  // A work tree: its docs hold the examples, and its in-place build is
  // importable until an install replaces it.
  s.pythonpath.push_back(fs::absolute(path).string());
  std::vector<std::string> docs = s.profile ? s.profile->docs : std::vector<std::string>{"README.md"};
  for (const auto& d : docs) {
    fs::path p = fs::path(path) / d;
    if (fs::exists(p)) s.docs.push_back(p);
  }
}

void open_target(AuditState& s) {
  const auto& o = s.options;
  if (!o.profile.empty()) s.profile = value_or_fatal(profile::load_profile(o.profile));
  s.module = !o.module.empty() ? o.module : s.profile ? s.profile->module : "";
  s.python = s.host_python = o.sandbox.python;
  s.wheels = o.wheels;
  if (o.kind == TargetKind::wheel) {
    s.report.target = {{"kind", "wheel"}, {"path", o.target}};
  } else if (o.kind == TargetKind::requirement) {
    s.requirement = true;
    s.report.target = {{"kind", "requirement"}, {"requirement", o.target}};
  } else {
    open_source(s, o.target);
    s.report.target = s.source->describe();
  }
  if (!o.repo.empty() && !s.source) {
    open_source(s, o.repo);
    s.report.target["repository"] = s.source->describe();
  }
  if (!o.docs.empty()) s.docs.assign(o.docs.begin(), o.docs.end());
  if (!s.docs.empty()) s.readme = s.docs.front().string();
}

// What onramp itself spent of the audit's wall time: the rest went to child
// processes (pip, venvs, the sandboxed Python steps) and the network.
void add_own_share(report::Section& verdict, double wall, double child, double network, double outside) {
  double own = std::max(0.0, wall - outside);
  std::string method = "(wall time - time during which a child process or a network transfer was running) / wall "
                       "time (a child and a transfer at once counted once); child processes (pip, venv, the "
                       "sandboxed Python steps) timed by onramp's process runner, transfers (index pages, "
                       "downloads) by its HTTP client";
  std::string ev = "steady_clock around the whole audit";
  verdict.add(report::Figure{keys::kWallSeconds, "Audit wall time", wall, "s", "steady_clock, start to verdict", ev, ""});
  verdict.add(report::Figure{"child_process_seconds", "Inside child processes", child, "s",
                             "wall time during which at least one child process onramp ran was running (children that "
                             "ran at once counted once)", ev, ""});
  verdict.add(report::Figure{"network_seconds", "In network transfers", network, "s",
                             "sum of the time in libcurl transfers", ev, ""});
  verdict.add(report::Figure{"onramp_share", "onramp's own share", wall > 0 ? own / wall * 100 : 0.0, "%", method, ev, ""});
}

// Runs one step and records how it went; a failure is recorded, not thrown.
template <typename Body>
StepRecord timed_step(const std::string& name, Body&& body) {
  auto start = std::chrono::steady_clock::now();
  StepRecord record{name, "ran", "", 0};
  try {
    record.reason = body();
  } catch (const FatalError& e) {
    record.status = "failed";
    record.reason = e.what();
  } catch (const std::exception& e) {
    // Not a foreseen failure: the other steps still run and the report says so.
    record.status = "failed";
    record.reason = std::string("internal error: ") + e.what();
  }
  record.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return record;
}

StepRecord run_step(AuditState& s, const Step& step) {
  StepRecord record = timed_step(step.name, [&] { return step.run(s); });
  if (step.host_making_apart) record.seconds = std::max(0.0, record.seconds - s.host_seconds);
  record.imports_module = step.imports_module;
  return record;
}

// The wheel and install steps' sections, in step order, into the report.
void flush_step_sections(AuditState& s) {
  for (auto* held : {&s.wheel_sections, &s.install_sections}) {
    for (auto& section : *held) s.report.sections.push_back(std::move(section));
    held->clear();
  }
}

// A step run beside the probe: its record times its three parts together.
struct Beside {
  const Step* step;
  StepRecord record;
  std::optional<Phases> phases;
  bool ran = false;          // its run went beside the probe's
  std::exception_ptr error;  // what its run threw, rethrown when it finishes
};

// The examples need nothing of the probe but its facts, which only their
// section reads: with --jobs over 1 their interpreters run beside the probe's
// later runs (after its cold import, which runs alone) and their section is
// built once the probe is done, in step order. Returns the index of the last
// step it ran.
size_t run_probe_with_beside(AuditState& s, const std::vector<Step>& table, size_t probe_at) {
  std::vector<Beside> beside;
  beside.reserve(table.size());
  size_t last = probe_at;
  for (size_t j = probe_at + 1; j < table.size() && table[j].phases; ++j, ++last) {
    auto& b = beside.emplace_back(Beside{&table[j], {table[j].name, "skipped", table[j].skip_reason(s), 0}, {}, false, {}});
    if (!b.record.reason.empty()) continue;
    b.record = timed_step(b.step->name, [&] {
      b.phases = b.step->phases(s);
      return std::string();
    });
    if (b.record.status != "ran") continue;
    s.beside_probe.push_back([&b] {
      auto start = std::chrono::steady_clock::now();
      try {
        b.phases->run();
      } catch (...) {
        b.error = std::current_exception();
      }
      b.ran = true;
      b.record.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    });
  }
  int at_once = 1 + static_cast<int>(s.beside_probe.size());
  std::string names;
  for (const auto& b : beside) {
    if (b.record.status == "ran") names += (names.empty() ? "" : ", ") + b.step->name;
  }
  s.options.progress(names.empty() ? fmt::format("[{}/{}] probe", probe_at + 1, table.size())
                                   : fmt::format("[{}-{}/{}] probe, and beside it: {}", probe_at + 1, last + 1,
                                                 table.size(), names));
  s.steps.push_back(run_step(s, table[probe_at]));
  s.beside_probe.clear();  // the probe may have stopped before taking them
  if (at_once > 1) s.steps.back().ran_at_once = at_once;
  for (auto& b : beside) {
    if (b.record.status == "ran") {
      double before = b.record.seconds;
      bool ran = b.ran;
      b.record = timed_step(b.step->name, [&] {
        if (!b.ran) b.phases->run();
        if (b.error) std::rethrow_exception(b.error);
        return b.phases->finish(s);
      });
      b.record.seconds += before;
      if (ran) b.record.ran_at_once = at_once;
    }
    s.steps.push_back(std::move(b.record));
    flush_step_sections(s);
  }
  return last;
}

// The wheel read and the install at once (they need nothing of each other).
std::pair<StepRecord, StepRecord> wheel_and_install(AuditState& s, const Step& wheel, const Step& install, int at_once) {
  StepRecord wheel_record, install_record;
  auto beside = std::async(std::launch::async, [&] { wheel_record = run_step(s, wheel); });
  install_record = run_step(s, install);
  beside.get();
  wheel_record.ran_at_once = install_record.ran_at_once = at_once;
  return {std::move(wheel_record), std::move(install_record)};
}

// What the wheel and install steps change in the state, to put back when
// an install begun from the last resolution is discarded.
struct BeforeInstall {
  std::vector<std::string> wheels;
  fs::path install_target;
  std::string module;
  python::PythonRequest python;
  std::string readme;
  std::vector<fs::path> docs;
  std::vector<std::string> pythonpath;
  bool installed, install_failed;
  explicit BeforeInstall(const AuditState& s)
      : wheels(s.wheels), install_target(s.install_target), module(s.module), python(s.python), readme(s.readme),
        docs(s.docs), pythonpath(s.pythonpath), installed(s.installed), install_failed(s.install_failed) {}
  void restore(AuditState& s) const {
    s.wheels = wheels;
    s.install_target = install_target;
    s.module = module;
    s.python = python;
    s.readme = readme;
    s.docs = docs;
    s.pythonpath = pythonpath;
    s.installed = installed;
    s.install_failed = install_failed;
    s.wheel_sections.clear();
    s.install_sections.clear();
  }
};

// The first step that lets the next run beside it: the pair begun early.
size_t first_pair(const std::vector<Step>& table) {
  for (size_t i = 0; i + 1 < table.size(); ++i) {
    if (table[i].beside == RunsBeside::the_next_step) return i;
  }
  throw std::logic_error("no pair of steps that may run at once");
}

// The resolve step, with the wheel and install steps begun beside it from
// the last resolution of the same request (last_resolution.h). When pip's
// resolution names the same files (the same links into the cache, the same
// wheels to read), their records are returned and the loop takes them in
// their place; else their work is discarded (the venv removed, the state put
// back) and they run again after the resolution, as without a record.
// Returns false when there is no usable record: the resolve step then runs as usual.
using EarlySteps = std::optional<std::pair<StepRecord, StepRecord>>;
bool resolve_beside_early_install(AuditState& s, const std::vector<Step>& table, size_t at, EarlySteps& kept) {
  if (!may_begin_early(s)) return false;
  const auto& o = s.options;
  auto request = resolution_request(o);
  auto last = read_last_resolution(o.index.cache_root, request);
  if (!last) return false;
  size_t wheel_at = first_pair(table), install_at = wheel_at + 1;
  fs::path house = o.run_dir / "wheelhouse", resolved_house = o.run_dir / "resolve" / "wheelhouse";
  std::error_code ec;
  // A run directory used before (--out) keeps what it holds: the resolve step says what it finds there.
  if (fs::exists(house, ec) || fs::exists(resolved_house, ec)) return false;
  if (!link_wheelhouse(house, last->files)) {
    fs::remove_all(house, ec);
    return false;
  }
  BeforeInstall before(s);
  s.wheels = last->wheels;
  s.install_target = house;
  o.progress(fmt::format("[{}/{}] resolve, and beside it [{}-{}/{}] wheel and install, begun from the last resolution "
                         "of the same request ({}): kept if pip's resolution names the same files",
                         at + 1, table.size(), wheel_at + 1, install_at + 1, table.size(),
                         last_resolution_file(o.index.cache_root, request).string()));
  std::pair<StepRecord, StepRecord> early;
  auto beside = std::async(std::launch::async, [&] { early = wheel_and_install(s, table[wheel_at], table[install_at], 3); });
  std::optional<RequirementOutcome> out;
  StepRecord resolve = timed_step(table[at].name, [&] {
    out = run_requirement(s.run, o, o.run_dir, resolved_house);
    return std::string();
  });
  beside.get();
  resolve.ran_at_once = 3;
  bool same = out && out->stop.empty() && out->sdist.empty() && !out->python.named() && out->wheels == last->wheels &&
              wheelhouse_files(resolved_house) == last->files;
  if (!same) {
    before.restore(s);
    fs::remove_all(o.run_dir / "install", ec);
    fs::remove_all(house, ec);
    if (out && !out->wheelhouse.empty()) {
      fs::rename(resolved_house, house, ec);
      if (ec) throw FatalError(house.string() + ": " + ec.message());
      out->wheelhouse = house;
    }
  } else {
    fs::remove_all(resolved_house, ec);
    out->wheelhouse = house;
  }
  if (resolve.status == "ran") {
    double seconds = resolve.seconds;
    resolve = timed_step(table[at].name, [&] { return apply_resolution(s, std::move(*out)); });
    resolve.seconds += seconds;
    resolve.ran_at_once = 3;
  }
  resolve.reason += same ? "; the wheel and install steps began beside it from the last resolution of the same request, "
                           "which named the same files"
                         : "; the wheel and install steps begun beside it from the last resolution of the same request "
                           "were discarded: pip's resolution named other files (or none)";
  s.steps.push_back(std::move(resolve));
  if (same) kept = std::move(early);
  return true;
}

}  // namespace

Result<TargetKind> check_audit_input(const AuditOptions& o) {
  std::error_code ec;
  bool requirement = is_requirement(o.target);
  if (!requirement && !fs::exists(o.target, ec)) {
    return fail(fmt::format("{}: no such file or directory, and not a PEP 508 requirement", o.target));
  }
  const auto& i = o.index;
  bool index_given = i.index_url || !i.extra_index_urls.empty() || !i.find_links.empty() || i.ignore_requires_python ||
                     !i.torch.empty() || i.allow_torch_download;
  if (!requirement) {
    if (index_given) {
      return fail(fmt::format("{}: --index-url, --extra-index-url, --find-links, --ignore-requires-python, --torch and "
                              "--allow-torch-download apply to a requirement target (use --pip-args for a wheel)",
                              o.target));
    }
    return fs::is_regular_file(o.target, ec) && o.target.ends_with(".whl") ? TargetKind::wheel : TargetKind::repository;
  }
  if (!o.wheels.empty()) return fail(fmt::format("{}: --wheel does not apply to a requirement target", o.target));
  if (!i.torch.empty() && !wheel::parse_requirement(torch_requirement(i.torch))) {
    return fail(fmt::format("--torch {}: not a version or a version specifier", i.torch));
  }
  index::ResolveOptions r;
  static_cast<index::IndexOptions&>(r) = i;
  r.requirement = o.target;
  if (auto ok = index::check_resolve_input(r); !ok) return std::unexpected(ok.error());
  return TargetKind::requirement;
}

report::Report run_audit(const AuditOptions& options) {
  auto started = std::chrono::steady_clock::now();
  double child0 = util::time_spent(util::Spent::child_processes), network0 = util::time_spent(util::Spent::network),
         outside0 = util::outside_time();
  SandboxRunner runner;
  python::Interpreters interpreters(runner, options.sandbox.limits);
  auto wheels = options.index.cache_root.empty() ? std::make_unique<wheel::WheelReads>()
                                                 : std::make_unique<wheel::WheelReads>(options.index.cache_root);
  AuditState s(options, RunContext{interpreters, *wheels});
  open_target(s);
  if (s.profile) {
    s.report.target["profile"] = s.profile->name;
    if (!s.profile->display_name.empty()) s.report.target["backend"] = s.profile->display_name;
  }
  s.report.run_dir = options.run_dir.string();
  const auto& table = steps();
  EarlySteps early_steps;  // the wheel and install steps, begun beside the resolution and kept
  for (size_t i = 0; i < table.size(); ++i) {
    const Step& step = table[i];
    std::string skip = step.skip_reason(s);
    if (!skip.empty()) {
      s.steps.push_back({step.name, "skipped", skip, 0});
      continue;
    }
    if (step.beside == RunsBeside::steps_from_last_resolution && resolve_beside_early_install(s, table, i, early_steps)) {
      continue;
    }
    // The wheel read and the install need nothing from each other: with
    // --jobs over 1 they run at once (the install's skip reason does not
    // depend on the wheel step), or they began beside the resolution.
    if (step.beside == RunsBeside::the_next_step && (early_steps || (options.jobs > 1 && i + 1 < table.size() &&
                                                                 table[i + 1].skip_reason(s).empty()))) {
      if (!early_steps) options.progress(fmt::format("[{}-{}/{}] wheel and install, at once", i + 1, i + 2, table.size()));
      auto [wheel_record, install_record] = early_steps ? std::move(*early_steps) : wheel_and_install(s, step, table[i + 1], 2);
      early_steps.reset();
      s.steps.push_back(std::move(wheel_record));
      s.steps.push_back(std::move(install_record));
      flush_step_sections(s);
      ++i;
      continue;
    }
    if (step.beside == RunsBeside::later_phases && options.jobs > 1) {
      i = run_probe_with_beside(s, table, i);
      continue;
    }
    options.progress(fmt::format("[{}/{}] {}", i + 1, table.size(), step.name));
    s.steps.push_back(run_step(s, step));
    flush_step_sections(s);
  }
  add_registrations_vs_source(s.report);
  report::assign_finding_ids(s.report);
  link_causes(s.report, s.module);
  std::vector<report::Finding> own = step_failures(s.report, s.steps);
  if (auto unmeasured = not_measured(s.steps)) own.insert(own.begin(), std::move(*unmeasured));
  report::Section verdict =
      build_verdict(s.report, s.profile ? s.profile->display_name : "", claim_texts(s), std::move(own));
  verdict.add(steps_table(s.steps));
  // Making onramp's host (a venv and pip: child processes) is shown apart, not as the audit's own time.
  add_own_share(verdict,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() - s.host_seconds,
                std::max(0.0, util::time_spent(util::Spent::child_processes) - child0 - s.host_seconds),
                util::time_spent(util::Spent::network) - network0,
                std::max(0.0, util::outside_time() - outside0 - s.host_seconds));
  if (s.host_seconds > 0) {
    verdict.add(report::Figure{"host_making_seconds", "Making onramp's host", s.host_seconds, "s",
                               "steady_clock around making the host venv in this audit; taken out of the audit's "
                               "wall time, its child-process time and the resolve step's time",
                               "the host section", ""});
  }
  s.report.sections.insert(s.report.sections.begin(), std::move(verdict));
  // Each interpreter is asked once per state, each wheel read once (run_context.h): said for the run's log.
  options.progress(fmt::format("asked of this machine: {} interpreter quer{}, {} wheel read{} from the file",
                               interpreters.queries(), interpreters.queries() == 1 ? "y" : "ies",
                               wheels->file_reads(), wheels->file_reads() == 1 ? "" : "s"));
  return std::move(s.report);
}

python::SandboxOptions audit_sandbox_defaults() {
  python::SandboxOptions o;
  const TimeoutOption& timeout = timeout_option("audit");
  timeout.apply(o.limits, timeout.seconds);
  return o;
}

}  // namespace onramp::audit
