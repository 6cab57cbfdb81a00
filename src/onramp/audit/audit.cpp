#include "onramp/audit/audit.h"

#include <fmt/format.h>

#include <chrono>
#include <memory>
#include <optional>

#include "onramp/audit/registrations_vs_source.h"
#include "onramp/audit/steps.h"
#include "onramp/audit/verdict.h"
#include "onramp/census/census.h"
#include "onramp/ops/ops_run.h"
#include "onramp/ops/profile.h"
#include "onramp/runtime/api_probe.h"
#include "onramp/runtime/example_sources.h"
#include "onramp/runtime/examples_run.h"
#include "onramp/runtime/import_probe.h"
#include "onramp/runtime/install.h"
#include "onramp/python/sandbox.h"
#include "onramp/source/source.h"
#include "onramp/wheel/wheel_run.h"

namespace onramp::audit {
namespace {

namespace fs = std::filesystem;

// What the steps learn and hand on to later steps.
struct AuditState {
  const AuditOptions& options;
  report::Report report;
  std::vector<StepRecord> steps;
  std::unique_ptr<source::Source> source;
  std::optional<ops::BackendProfile> profile;
  std::string module;
  std::string python;                   // interpreter for probe and examples
  std::vector<std::string> pythonpath;  // where the module is importable from, if not installed
  std::vector<fs::path> docs;
  std::string readme;
};

std::vector<std::string> claim_texts(const AuditState& s) {
  std::vector<std::string> out;
  if (s.profile) {
    for (const auto& c : s.profile->claims) out.push_back(c.text);
  }
  return out;
}

struct Step {
  std::string name;
  // Empty when the step applies; otherwise why it is skipped.
  std::string (*skip_reason)(const AuditState&);
  // Runs the step; returns a one-line detail for the steps table.
  std::string (*run)(AuditState&);
};

std::string needs_source(const AuditState& s) { return s.source ? "" : "the target is not a repository"; }
std::string needs_wheel(const AuditState& s) {
  return s.options.wheels.empty() ? "no wheel given (--wheel, or a .whl target)" : "";
}
std::string needs_module(const AuditState& s) {
  return s.module.empty() ? "no module to import (--module, a profile, or a wheel with one importable module)" : "";
}
std::string needs_docs(const AuditState& s) {
  return s.docs.empty() ? "no documents with examples (a profile's docs, or README.md in the target)" : "";
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
  o.python = s.options.python;
  o.profile = s.profile ? &*s.profile : nullptr;
  o.source_evidence = evidence;
  s.report.sections.push_back(ops::run_ops_section(*s.source, o));
  return s.profile ? "meanings from profile " + s.profile->name : "meanings guessed from names (no profile)";
}

std::string run_wheel_step(AuditState& s) {
  for (auto& section : wheel::run_wheel_sections({s.options.wheels, s.options.python, s.readme, {}})) {
    if (s.module.empty()) {
      for (const auto& f : section.figures) {
        if (f.key == "importable_modules" && f.value.is_array() && f.value.size() == 1) s.module = f.value[0];
      }
    }
    s.report.sections.push_back(std::move(section));
  }
  return fmt::format("{} wheel(s)", s.options.wheels.size());
}

std::string run_install_step(AuditState& s) {
  runtime::InstallOptions o;
  o.target = s.options.wheels.front();
  o.python = s.options.python;
  o.pip_args = s.options.pip_args;
  o.system_site_packages = s.options.system_site_packages;
  o.pip_timeout_seconds = s.options.timeout_seconds;
  if (const char* tmpdir = std::getenv("TMPDIR")) o.user_tmpdir = tmpdir;
  fs::path dir = s.options.run_dir / "install";
  o.make_run_dir = [dir]() -> Result<fs::path> {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return fail(dir.string() + ": " + ec.message());
    return dir;
  };
  o.progress = s.options.progress;
  SandboxRunner runner;
  auto outcome = value_or_fatal(runtime::run_install(runner, o));
  s.report.sections.push_back(std::move(outcome.section));
  if (!outcome.pip_ok) return "pip failed: probe and examples use the source tree instead";
  s.python = (dir / "venv" / "bin" / "python").string();
  s.pythonpath.clear();
  return "installed into " + (dir / "venv").string();
}

python::Sandbox open_python(const AuditState& s, const std::string& step) {
  python::SandboxOptions o;
  o.python = s.python;
  o.paths = s.pythonpath;
  o.timeout_seconds = s.options.timeout_seconds;
  o.env = s.options.env;
  static SandboxRunner runner;
  return python::Sandbox::open(runner, o, s.options.run_dir / step);
}

std::string run_probe_step(AuditState& s) {
  auto python = open_python(s, "probe");
  report::Section section{"probe", "Import and device probes", {}, {}, {}};
  runtime::add_import_probe(section, python, {s.module, s.options.runs, 10});
  std::string device = !s.options.device.empty() ? s.options.device : s.profile ? s.profile->device : "";
  runtime::add_api_probe(section, python, {s.module, device});
  s.report.sections.push_back(std::move(section));
  s.report.target["python"] = python::describe(python.interpreter());
  return "import " + s.module + " with " + python::describe(python.interpreter());
}

std::string run_examples_step(AuditState& s) {
  std::vector<runtime::ExampleFile> files;
  for (const auto& doc : s.docs) {
    auto found = value_or_fatal(runtime::collect_examples(doc));
    files.insert(files.end(), found.begin(), found.end());
  }
  auto python = open_python(s, "examples");
  report::Section section{"examples", "Examples, statement by statement", {}, {}, {}};
  runtime::ExamplesOptions options{s.module, 60, {s.module, {}}};
  if (s.profile) options.registration.calls = s.profile->device_init_calls;
  runtime::add_examples(section, python, files, options);
  s.report.sections.push_back(std::move(section));
  return fmt::format("{} document(s)", s.docs.size());
}

const std::vector<Step>& steps() {
  static const std::vector<Step> table{
      {"census", needs_source, run_census_step},    {"ops", needs_source, run_ops_step},
      {"wheel", needs_wheel, run_wheel_step},       {"install", needs_wheel, run_install_step},
      {"probe", needs_module, run_probe_step},      {"examples", needs_docs, run_examples_step},
  };
  return table;
}

void open_target(AuditState& s) {
  const auto& o = s.options;
  if (!o.profile.empty()) s.profile = value_or_fatal(ops::load_profile(o.profile));
  s.module = !o.module.empty() ? o.module : s.profile ? s.profile->module : "";
  s.python = o.python;
  if (fs::is_regular_file(o.target) && o.target.ends_with(".whl")) {
    s.report.target = {{"kind", "wheel"}, {"path", o.target}};
    return;
  }
  source::OpenOptions open;
  if (!o.rev.empty()) open.rev = o.rev;
  s.source = value_or_fatal(source::open(o.target, open));
  s.report.target = s.source->describe();
  if (!fs::is_directory(o.target) || !o.rev.empty()) return;
  // A work tree: its docs hold the examples, and its in-place build is
  // importable until an install replaces it.
  s.pythonpath.push_back(fs::absolute(o.target).string());
  std::vector<std::string> docs = s.profile ? s.profile->docs : std::vector<std::string>{"README.md"};
  for (const auto& d : docs) {
    fs::path p = fs::path(o.target) / d;
    if (fs::exists(p)) s.docs.push_back(p);
  }
  if (!s.docs.empty()) s.readme = s.docs.front().string();
}

}  // namespace

report::Report run_audit(const AuditOptions& options) {
  AuditState s{options, {}, {}, {}, {}, {}, {}, {}, {}, {}};
  open_target(s);
  if (s.profile) {
    s.report.target["profile"] = s.profile->name;
    if (!s.profile->display_name.empty()) s.report.target["backend"] = s.profile->display_name;
  }
  s.report.run_dir = options.run_dir.string();
  const auto& table = steps();
  for (size_t i = 0; i < table.size(); ++i) {
    const Step& step = table[i];
    std::string skip = step.skip_reason(s);
    if (!skip.empty()) {
      s.steps.push_back({step.name, "skipped", skip, 0});
      continue;
    }
    options.progress(fmt::format("[{}/{}] {}", i + 1, table.size(), step.name));
    auto start = std::chrono::steady_clock::now();
    StepRecord record{step.name, "ran", "", 0};
    try {
      record.reason = step.run(s);
    } catch (const FatalError& e) {
      record.status = "failed";
      record.reason = e.what();
    } catch (const std::exception& e) {
      // Not a foreseen failure: the other steps still run and the report says so.
      record.status = "failed";
      record.reason = std::string("internal error: ") + e.what();
    }
    record.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    s.steps.push_back(std::move(record));
  }
  add_registrations_vs_source(s.report);
  report::Section verdict = build_verdict(s.report, s.profile ? s.profile->display_name : "", claim_texts(s));
  verdict.add(steps_table(s.steps));
  for (const auto& st : s.steps) {
    if (st.status == "failed") {
      verdict.add(report::Finding{report::Severity::friction, "The " + st.name + " step could not run: " + st.reason,
                                  "", "onramp audit"});
    }
  }
  s.report.sections.insert(s.report.sections.begin(), std::move(verdict));
  return std::move(s.report);
}

}  // namespace onramp::audit
