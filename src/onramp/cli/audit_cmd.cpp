#include <chrono>
#include <iostream>
#include <memory>
#include <sstream>

#include "onramp/audit/audit.h"
#include "onramp/audit/steps.h"
#include "onramp/cli/command.h"
#include "onramp/cli/index_args.h"
#include "onramp/cli/path_arg.h"
#include "onramp/cli/output.h"
#include "onramp/cli/sandbox_options.h"
#include "onramp/cli/shared_options.h"
#include "onramp/report/budget.h"
#include "onramp/report/render.h"
#include "onramp/report/report_file.h"
#include "onramp/util/progress.h"
#include "onramp/util/sandbox.h"
#include "onramp/util/text_file.h"

namespace onramp::cli {
namespace {

struct AuditArgs {
  audit::AuditOptions options;
  std::string pip_args;
  SandboxCliOptions sandbox;
  bool no_system_site_packages = false;
  bool no_integration = false;
  bool strict = false;
  std::string budget;
  std::string junit;
  OutputOptions output;
};

int run_audit(const AuditArgs& args) {
  audit::AuditOptions o = args.options;
  // Bad budgets are bad input: found before the long work starts.
  std::string budget_text;
  if (!args.budget.empty()) {
    budget_text = value_or_fatal(util::read_text_file(args.budget));
    value_or_fatal(report::parse_budgets(budget_text, args.budget));
  }
  std::istringstream words(args.pip_args);
  for (std::string w; words >> w;) o.pip_args.push_back(w);
  o.sandbox = args.sandbox.sandbox;
  o.system_site_packages = !args.no_system_site_packages;
  o.integration = !args.no_integration;
  o.kind = value_or_fatal(audit::check_audit_input(o));
  if (o.kind == audit::TargetKind::wheel) o.wheels.insert(o.wheels.begin(), o.target);
  o.run_dir = args.sandbox.create_run_dir();
  o.progress = stderr_progress();
  o.sandbox.progress = o.progress;
  report::Report report = audit::run_audit(o);
  bool within_budget = true;
  if (!args.budget.empty()) {
    auto applied = value_or_fatal(report::apply_budgets(report::to_json(report), budget_text, args.budget,
                                                        "the audit's report", args.junit));
    report.sections.push_back(std::move(applied.section));
    within_budget = applied.passed;
  }
  value_or_fatal(report::write_report_file((o.run_dir / "report.json").string(), report::render_json(report)));
  value_or_fatal(report::write_report_file((o.run_dir / "report.md").string(), report::render_markdown(report)));
  value_or_fatal(
      report::write_report_file((o.run_dir / "summary.md").string(), report::render_markdown_summary(report)));
  value_or_fatal(report::write_report_file((o.run_dir / "report.html").string(), report::render_html(report)));
  if (args.output.format() == report::Format::text) {
    report::TextStyle style = args.output.text_style();
    style.full_report = (o.run_dir / "report.html").string();
    report::Report shown = report;
    // On standard output the verdict alone: it restates every blocker and friction.
    if (args.output.output.empty()) shown.sections.resize(1);
    args.output.emit_text(shown, style);
  } else {
    args.output.emit(report);
  }
  std::cerr << "onramp: report written to " << (o.run_dir / "report.html").string()
            << " (and report.json, report.md, summary.md)\n";
  if (!within_budget) std::cerr << "onramp: over budget: see the budgets section\n";
  if (args.strict) {
    auto failed = audit::failed_steps(report);
    if (!failed.empty()) {
      std::string names;
      for (const auto& f : failed) names += (names.empty() ? "" : ", ") + f;
      std::cerr << "onramp: --strict: " << failed.size() << " step(s) could not run: " << names
                << " (see the verdict's steps table)\n";
      return 4;
    }
  }
  return within_budget ? 0 : 1;
}

void declare_audit(CLI::App& app, AuditArgs& args) {
  auto& o = args.options;
  app.add_option("TARGET", o.target,
                 "A backend's repository (work tree or bare git dir), its .whl, or a PEP 508 requirement "
                 "resolved from the package index ('torch-tpu==0.2.0')")
      ->check(path_arg())
      ->required();
  app.add_option("--repo", o.repo, "The backend's repository, for census and ops when TARGET is a requirement or "
                                   "a wheel (work tree or bare git dir)")->check(path_arg())->type_name("DIR");
  app.add_option("--docs", o.docs, "A document or folder with examples (Markdown, notebooks); repeatable "
                                   "(default: the repository's README.md, else the wheel's METADATA "
                                   "description)")->check(path_arg())->type_name("PATH");
  declare_index_options(app, o.index);
  app.add_option("--torch", o.index.torch, "For a requirement: the torch to install beside it, a version or a "
                                           "specifier (default: the interpreter's own, else the newest torch file on this machine "
                                           "that the backend accepts)")
      ->type_name("SPEC");
  app.add_flag("--allow-torch-download", o.index.allow_torch_download,
               "For a requirement: let pip download torch (several GB for a CUDA build); without it, a torch "
               "that is not on this machine stops the audit before the install");
  add_rev_option(app, o.rev);
  add_profile_option(app, o.profile);
  app.add_option("--wheel", o.wheels, "A wheel to read and install; repeatable")->check(path_arg())->type_name("WHEEL");
  app.add_option("--pip-args", args.pip_args, "More arguments for pip install, as one string");
  app.add_flag("--no-system-site-packages", args.no_system_site_packages,
               "Do not let the venv see the interpreter's site-packages (then torch must install too)");
  app.add_option("-m,--module", o.module, "The module users import (default: the profile's, else the wheel's)");
  app.add_option("--device", o.device, "The device string the docs use (default: the profile's)");
  add_aten_option(app, o.aten);
  app.add_flag("--no-integration", args.no_integration,
               "Skip the probe step's integration scorecard (docs/integration.md)");
  add_jobs_option(app, o.jobs,
                  "Here: the wheel read beside the install; with --python, both beside pip's resolution, begun "
                  "from the last resolution of the same request and kept only if pip names the same files "
                  "(docs/resolve.md); the probe's interpreters after its cold import, which runs first and alone");
  app.add_option("--runs", o.runs, "Import timing runs (first cold, rest warm)")->check(CLI::Range(1, 100))->capture_default_str();
  args.sandbox.declare(
      app, {.command = "audit",
            .memory_note = "It bounds the probe's and the examples' interpreters",
            .python_note = "It makes the venv and runs the probes; for a requirement the default is onramp's own "
                           "host instead (docs/hosts.md)",
            .env_note = "Here: the sandboxes of the probe and the examples, and of pip's build of an sdist (its "
                        "setup code); not pip's resolution or install"});
  app.add_option("--budget", args.budget, "Limits for CI (docs/ci.md); exit 1 when one is exceeded")->check(path_arg())
      ->type_name("budget.toml");
  app.add_option("--junit", args.junit, "Write the budgets as JUnit XML for CI")->check(path_arg())->type_name("FILE");
  app.add_flag("--strict", args.strict,
               "Exit 4 when any step it was asked to run could not run (the report names which)");
}

}  // namespace

Command audit_command() {
  return make_command<AuditArgs>(
      "audit", "The whole on-ramp in one run: census, ops, wheel, install, probe, examples, and the verdict",
      R"(Writes DIR/report.json, report.md, report.html and summary.md (the answer alone, for a CI job's
summary page); prints the verdict, the answer first.
Exit codes: 0 done; 1 a budget failed; 2 bad input; 4 with --strict, a step could not run
(4 wins over 1: budgets read from an incomplete report mean little).
Examples:
  onramp audit ~/src/torch_tpu --profile torch_tpu --wheel torch_tpu-0.2.0-cp312-cp312-linux_x86_64.whl
  onramp audit examples/reference-backend --profile reference --wheel dist/onramp_ref-0.1.0-*.whl \
      --pip-args --ignore-requires-python --out audit-ref
  onramp audit torch_tpu-0.2.0-cp312-cp312-linux_x86_64.whl --device tpu --json
  onramp audit 'torch-tpu==0.2.0' --ignore-requires-python --profile torch_tpu --strict
  onramp audit 'mybackend>=1' --index-url http://127.0.0.1:8080/simple/ --torch 2.13.0 --repo ~/src/mybackend
With no --python, a requirement is audited on onramp's own host, a venv it makes once per (Python, torch)
under $XDG_CACHE_HOME/onramp/hosts/ (`onramp hosts`). It is resolved by pip on top of the interpreter's
packages (its torch counts), fetched into
$XDG_CACHE_HOME/onramp (reused next time), read, installed into a fresh venv from the cache, probed, and its
examples run from --docs, the --repo's README.md, or the wheel's METADATA description.)",
      declare_audit, run_audit);
}

}  // namespace onramp::cli
