#include "onramp/install/install.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <future>

#include "onramp/install/install_plan.h"
#include "onramp/install/install_section.h"
#include "onramp/install/peak_usage.h"
#include "onramp/packaging/pip_check.h"
#include "onramp/python/interpreter.h"
#include "onramp/python/runner.h"
#include "onramp/util/command_line.h"
#include "onramp/util/sandbox.h"

namespace onramp::install {
namespace fs = std::filesystem;
namespace {

using python::Runner;

// A fresh directory for pip's temporary files under `parent`, removed after the run.
Result<fs::path> make_pip_tmp(const fs::path& parent) {
  std::string tmpl = (parent / "onramp-pip-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) return fail(fmt::format("{}: cannot create a temporary directory", parent.string()));
  return fs::path(tmpl);
}

Result<PreflightDecision> preflight(const InstallOptions& o, const TempEstimate& estimate, const SandboxDirs& dirs) {
  fs::path user_tmp = o.user_tmpdir.empty() ? fs::path("/tmp") : fs::path(o.user_tmpdir);
  auto where = filesystem_space(user_tmp);
  if (!where) return fail(fmt::format("TMPDIR {}: {}", user_tmp.string(), where.error().message));
  std::vector<FilesystemSpace> candidates;
  std::error_code ec;
  for (const fs::path& c : {dirs.tmp, fs::path("/var/tmp"), fs::current_path(ec)}) {
    if (auto space = filesystem_space(c)) candidates.push_back(*space);
  }
  return decide_temp_dir(estimate.bytes, *where, candidates, o.fix);
}

// "3.11" of "3.11.7": the venv's lib/pythonX.Y.
std::string python_minor(const python::InterpreterFacts& i) {
  return i.python_version.substr(0, i.python_version.rfind('.'));
}

// A pip command line as the report shows it: with the TMPDIR it ran under.
std::string pip_command_line(const fs::path& tmp, const std::vector<std::string>& argv) {
  return util::command_line(argv, {{"TMPDIR", tmp.string()}});
}

// Runs pip with its TMPDIR's peak usage sampled into `peak`.
Result<RunResult> run_watched(const Runner& pip, const std::vector<std::string>& argv, const fs::path& tmp,
                              uint64_t& peak) {
  PeakUsageWatcher watcher(tmp);
  auto ran = pip.run(argv, Child::kPipInstall);
  peak = watcher.stop();
  return ran;
}

std::vector<std::string> pip_check_argv(const fs::path& venv) {
  return python::pip_argv((venv / "bin" / "python").string(), {"check"});
}

// `python -m venv` for the install: with the host's packages visible. A venv
// host: the new venv reaches the host's packages through a .pth (below), pip
// and setuptools included, so it seeds none of its own: an older seeded
// setuptools would shadow the one the host's torch requires.
struct VenvMade {
  std::string command;
  RunResult run;
};
Result<VenvMade> make_venv(const Runner& pip, const InstallOptions& o, const InstallFacts& f, const fs::path& venv) {
  std::vector<std::string> argv{f.interpreter.executable, "-m", "venv"};
  bool layered = o.system_site_packages && f.interpreter.is_venv;
  if (o.system_site_packages) argv.push_back("--system-site-packages");
  if (layered) argv.push_back("--without-pip");
  argv.push_back(venv.string());
  auto ran = pip.run(argv, Child::kVenv);
  if (!ran || !ran->ok()) {
    return fail(fmt::format("{}: cannot create a venv: {}", venv.string(),
                            ran ? ran->outcome() + ": " + ran->err.ending() : ran.error().message));
  }
  if (layered) {
    // --system-site-packages reaches the base interpreter's packages, not
    // those of the venv onramp was given: name them in a .pth file.
    fs::path pth_path = venv / "lib" / ("python" + python_minor(f.interpreter)) / "site-packages" / kHostSitePth;
    std::ofstream pth(pth_path);
    for (const auto& dir : f.interpreter.site_dirs) pth << dir << "\n";
    if (!pth.flush()) return fail(pth_path.string() + ": cannot write");
  }
  return VenvMade{util::command_line(argv), *ran};
}

// What pip check says of the interpreter's own packages as a fresh venv sees
// them before anything is installed. It runs in a second venv made like the
// install's, beside the install (pip check takes as long as a small install),
// which is removed afterwards.
struct HostCheck {
  std::string command;
  PipCheck parsed;
};
Result<HostCheck> check_host(const Runner& pip, const InstallOptions& o, const InstallFacts& f,
                             const fs::path& venv) {
  auto made = make_venv(pip, o, f, venv);
  if (!made) return std::unexpected(made.error());
  auto argv = pip_check_argv(venv);
  HostCheck out{util::command_line(argv), {}};
  auto ran = pip.run(argv, Child::kPipCheck);
  std::error_code ec;
  fs::remove_all(venv, ec);
  if (!ran) return std::unexpected(ran.error());
  out.parsed = parse_pip_check(ran->out.text());
  return out;
}

// pip's resolver found no way, offline: when it failed on one of the
// interpreter's own disagreements (Debian 13's torch 2.6 pins a sympy Debian
// does not ship), pip was trying to repair the host, not to install the
// target. The install is then measured again with --no-deps, and pip check
// afterwards names the requirements of the installed wheels that are unmet,
// which one more pip run (with its resolver) installs where it can.
Result<void> set_aside_host_conflicts(const Runner& pip_runner, const InstallOptions& o, InstallFacts& f,
                                      std::vector<std::string> pip_argv, size_t targets) {
  for (const auto& c : f.host_conflicts) {
    if (failure_names(c, f.pip.err.text())) f.resolver_conflicts.push_back(c);
  }
  if (f.resolver_conflicts.empty()) return {};  // pip failed on something else
  // pip check's lines that the host did not already have.
  auto unmet_now = [&]() -> Result<std::vector<PipConflict>> {
    auto ran = pip_runner.run(pip_check_argv(f.venv), Child::kPipCheck);
    if (!ran) return std::unexpected(ran.error());
    return new_conflicts(f.host_conflicts, parse_pip_check(ran->out.text()).conflicts);
  };
  f.resolver_pip = f.pip;
  f.resolver_pip_command = f.pip_command;
  std::vector<std::string> rest_argv(pip_argv.begin(), pip_argv.end() - static_cast<std::ptrdiff_t>(targets));
  pip_argv.insert(pip_argv.begin() + 4, "--no-deps");  // after "python -m pip install"
  f.pip_command = pip_command_line(f.pip_tmp, pip_argv);
  o.progress(fmt::format("pip's failure is the interpreter's own packages disagreeing ({} of pip check's lines); "
                         "installing again with --no-deps: {}", f.resolver_conflicts.size(), f.pip_command));
  auto pip = run_watched(pip_runner, pip_argv, f.pip_tmp, f.peak_temp_bytes);
  if (!pip) return std::unexpected(pip.error());
  f.pip = *pip;
  o.progress(fmt::format("pip --no-deps finished: {} after {:.1f} s", f.pip.outcome(), f.pip.wall_seconds));
  if (!f.pip.ok()) return {};
  auto after = unmet_now();
  if (!after) return std::unexpected(after.error());
  f.unmet = *after;
  if (f.unmet.empty()) return {};
  // The wheels' own requirements (from the find-links, say), with pip's resolver.
  for (const auto& c : f.unmet) rest_argv.push_back(c.requirement);
  f.rest_pip_command = pip_command_line(f.pip_tmp, rest_argv);
  o.progress("installing what the --no-deps run left unmet: " + f.rest_pip_command);
  uint64_t peak = 0;
  auto rest = run_watched(pip_runner, rest_argv, f.pip_tmp, peak);
  if (!rest) return std::unexpected(rest.error());
  f.rest_pip = *rest;
  f.peak_temp_bytes = std::max(f.peak_temp_bytes, peak);
  auto last = unmet_now();
  if (!last) return std::unexpected(last.error());
  f.unmet = *last;
  return {};
}

}  // namespace

Result<InstallOutcome> run_install(python::Interpreters& interpreters, const InstallOptions& o) {
  InstallFacts f;
  auto plan = plan_install(o.target, o.pip_args);
  if (!plan) return std::unexpected(plan.error());
  f.plan = *plan;
  auto estimate = estimate_temp_space(f.plan);
  if (!estimate) return std::unexpected(estimate.error());
  f.estimate = *estimate;
  auto py = interpreters.choose(o.python);
  if (!py) return std::unexpected(py.error());
  f.interpreter = *py;
  auto run_dir = o.make_run_dir();
  if (!run_dir) return std::unexpected(run_dir.error());
  auto dirs = prepare_sandbox(*run_dir);
  if (!dirs) return std::unexpected(dirs.error());
  auto decision = preflight(o, f.estimate, *dirs);
  if (!decision) return std::unexpected(decision.error());
  f.decision = *decision;
  o.progress("preflight: " + f.decision.reason);
  if (!f.decision.fits && !o.fix) {
    return fail(fmt::format("{}: not enough temporary space: {} (--no-fix given; set TMPDIR to a roomy directory)",
                            o.target, f.decision.reason));
  }
  fs::path tmp_parent = f.decision.moved_to ? f.decision.moved_to->path : f.decision.where.path;
  auto tmp = tmp_parent == dirs->tmp ? Result<fs::path>(dirs->tmp) : make_pip_tmp(tmp_parent);
  if (!tmp) return std::unexpected(tmp.error());
  f.pip_tmp = *tmp;
  // pip's TMPDIR goes once pip has run, whatever happened.
  auto remove_pip_tmp = [&] {
    if (f.pip_tmp != dirs->tmp) fs::remove_all(f.pip_tmp);
  };
  python::EnvVars pip_env = o.env;
  pip_env.emplace_back("TMPDIR", f.pip_tmp.string());
  auto pip_runner = Runner::sandboxed(interpreters.runner(), *dirs, *run_dir, o.limits, pip_env);
  f.venv = *run_dir / "venv";
  f.system_site_packages = o.system_site_packages;
  // The host's own pip check, in a venv of its own, beside everything below.
  std::future<Result<HostCheck>> host_check;
  if (o.system_site_packages) {
    o.progress("asking, beside the install, whether the interpreter's own packages agree: pip check in " +
               (*run_dir / "host-check-venv").string());
    host_check = std::async(std::launch::async,
                            [&] { return check_host(pip_runner, o, f, *run_dir / "host-check-venv"); });
  }
  // The host check's answer, once: the install's section and its conflict rule need it.
  auto host_checked = [&]() -> Result<void> {
    if (!host_check.valid()) return {};
    auto checked = host_check.get();
    if (!checked) return std::unexpected(checked.error());
    f.check_command = checked->command;
    f.host_conflicts = checked->parsed.conflicts;
    f.check_unread = checked->parsed.unread;
    return {};
  };
  auto venv = make_venv(pip_runner, o, f, f.venv);
  if (!venv) {
    (void)host_checked();
    remove_pip_tmp();
    return std::unexpected(venv.error());
  }
  f.venv_command = venv->command;
  f.venv_seconds = venv->run.wall_seconds;
  f.venv_ran_at_once = venv->run.ran_at_once;
  f.site_packages = f.venv / "lib" / ("python" + python_minor(f.interpreter)) / "site-packages";
  if (o.system_site_packages && f.interpreter.is_venv) f.host_site_dirs = f.interpreter.site_dirs;
  auto before = dist_info_dirs(f.site_packages);
  auto pip_argv = python::pip_argv((f.venv / "bin" / "python").string(), {"install", "--progress-bar", "off"});
  std::vector<std::string> targets = f.plan.pip_targets;
  if (!o.first_wheels.empty()) {
    std::vector<std::string> first = pip_argv;
    first.insert(first.end(), {"--no-index", "--no-deps"});
    first.insert(first.end(), o.pip_args.begin(), o.pip_args.end());
    first.insert(first.end(), o.first_wheels.begin(), o.first_wheels.end());
    f.first_pip_command = pip_command_line(f.pip_tmp, first);
    o.progress("installing first, timed apart: " + f.first_pip_command);
    auto ran = pip_runner.run(first, Child::kPipInstall);
    if (!ran) return std::unexpected(ran.error());
    f.first_pip = *ran;
    std::erase_if(targets, [&](const std::string& t) {
      return std::find(o.first_wheels.begin(), o.first_wheels.end(), t) != o.first_wheels.end();
    });
  }
  pip_argv.insert(pip_argv.end(), f.plan.added_args.begin(), f.plan.added_args.end());
  pip_argv.insert(pip_argv.end(), o.pip_args.begin(), o.pip_args.end());
  pip_argv.insert(pip_argv.end(), targets.begin(), targets.end());
  f.pip_command = pip_command_line(f.pip_tmp, pip_argv);
  o.progress("running pip (this can take minutes): " + f.pip_command);
  auto pip = run_watched(pip_runner, pip_argv, f.pip_tmp, f.peak_temp_bytes);
  if (!pip) {
    remove_pip_tmp();
    return std::unexpected(pip.error());
  }
  f.pip = *pip;
  o.progress(fmt::format("pip finished: {} after {:.1f} s", f.pip.outcome(), f.pip.wall_seconds));
  if (auto checked = host_checked(); !checked) {
    remove_pip_tmp();
    return std::unexpected(checked.error());
  }
  if (!f.pip.ok() && is_resolution_failure(f.pip.err.text())) {
    auto aside = set_aside_host_conflicts(pip_runner, o, f, pip_argv, targets.size());
    if (!aside) {
      remove_pip_tmp();
      return std::unexpected(aside.error());
    }
  }
  remove_pip_tmp();
  std::set<std::string> added;
  for (const auto& d : dist_info_dirs(f.site_packages)) {
    if (!before.count(d)) added.insert(d);
  }
  auto footprints = measure_footprints(f.site_packages, added);
  if (!footprints) return std::unexpected(footprints.error());
  f.footprints = std::move(*footprints);
  return InstallOutcome{install_section(f), *run_dir, f.pip.ok() && f.unmet.empty()};
}

}  // namespace onramp::install
