#include "onramp/install/install_section.h"

#include <fmt/format.h>

#include "onramp/packaging/pip_lines.h"
#include "onramp/report/section_keys.h"
#include "onramp/util/text.h"
#include "onramp/packaging/metadata.h"
#include "onramp/report/finding_graph.h"
#include "onramp/report/writing.h"

#include <algorithm>
#include <cmath>

namespace onramp::install {
namespace {

using namespace report::writing;

// The last non-empty line of pip's stderr: where pip says what went wrong.
std::string last_line(const std::string& text) {
  size_t end = text.find_last_not_of("\r\n ");
  if (end == std::string::npos) return "";
  size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

// The host's requirement that a newly installed distribution meets
// ("torch 2.6.0+debian requires sympy==1.13.1; ..."); empty when it meets none.
std::string host_requirement_met_by(const std::vector<PipConflict>& conflicts, const std::string& name) {
  std::string wanted = wheel::normalize_name(name);
  for (const auto& c : conflicts) {
    if (requirement_name(c.requirement) == wanted) return c.package + " " + c.version + " requires " + c.requirement;
  }
  return "";
}

void add_preflight(report::Section& s, const InstallFacts& f) {
  const auto& d = f.decision;
  std::string wheels = f.estimate.wheels.empty() ? "no local wheels (overhead only)" : util::join(f.estimate.wheels, ", ");
  s.add(Figure{keys::kTempEstimateBytes, "Temp space needed (estimate)", f.estimate.bytes, "bytes", kEstimateRule, wheels, ""})
      .better = "lower";
  s.add(Figure{"temp_dir_default", "Where pip would unpack", d.where.path.string(), "",
               "TMPDIR of onramp's environment, else /tmp, as pip's tempfile module chooses", "TMPDIR", ""});
  s.add(Figure{"temp_fs_type", "Its filesystem", d.where.fs_type, "",
               "the mount holding that directory, from /proc/self/mountinfo; where that file does not show it (a chroot), "
               "statfs(2)'s f_type", "/proc/self/mountinfo", ""});
  s.add(Figure{"temp_is_tmpfs", "Held in memory (tmpfs)", d.where.is_tmpfs, "", "filesystem type tmpfs or ramfs",
               "/proc/self/mountinfo", ""});
  s.add(Figure{"temp_free_bytes", "Free space there", d.where.free_bytes, "bytes", "statvfs: f_bavail x f_frsize",
               "statvfs(" + d.where.path.string() + ")", ""});
  s.add(Figure{"temp_fits", "Estimate fits", d.fits, "", "estimate <= free space", "the two figures above", ""});
  s.add(Figure{"temp_moved", "TMPDIR moved", d.moved_to.has_value(), "",
               "when the estimate does not fit, the first of the run directory, /var/tmp and the current directory "
               "that is not a tmpfs and has room",
               d.reason, ""});
  s.add(Figure{"temp_dir_used", "pip's TMPDIR", f.pip_tmp.string(), "",
               "a fresh directory for this run, removed afterwards", f.pip_command, ""});
  if (d.moved_to) {
    s.add(report::stated(Severity::friction, "pip's temporary files would not fit where pip puts them", d.reason,
                         fmt::format("outside onramp, run pip with TMPDIR={}", d.moved_to->path.string()), "preflight"));
  } else if (!d.fits) {
    s.add(report::stated(Severity::blocker, "pip's temporary files will not fit", d.reason,
                         "free some space or set TMPDIR to a roomy directory on a real disk", "preflight"));
  }
}

Table conflict_table(std::string key, std::string title, std::string method, std::string evidence,
                     const std::vector<PipConflict>& conflicts, const std::vector<PipConflict>* named = nullptr) {
  Table t{std::move(key), std::move(title), std::move(method), std::move(evidence),
          {{"package", "Distribution", ""}, {"version", "Version", ""}, {"requirement", "Requires", ""},
           {"found", "Has instead", ""}},
          {}};
  if (named) t.columns.push_back({"in_pip_failure", "Named by pip's failure", ""});
  for (const auto& c : conflicts) {
    Json row{{"package", c.package}, {"version", c.version}, {"requirement", c.requirement},
             {"found", c.found.empty() ? "not installed" : c.found}};
    if (named) row["in_pip_failure"] = std::find(named->begin(), named->end(), c) != named->end();
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::string conflict_lines(const std::vector<PipConflict>& conflicts) {
  std::string out;
  for (const auto& c : conflicts) out += (out.empty() ? "" : "; ") + c.line;
  return out;
}

// The venv sees the interpreter's packages: pip check says whether they
// agree. When they do not and pip's resolver failed on it, the install was
// measured again with --no-deps.
void add_host_conflicts(report::Section& s, const InstallFacts& f) {
  if (f.check_command.empty()) return;
  s.add(Figure{"host_conflicts", "Requirements the interpreter's own packages do not meet", f.host_conflicts.size(),
               "requirements", "pip check in a fresh venv made like the install's (it sees the interpreter's packages and nothing "
               "installed), beside the install, then removed",
               f.check_command, ""});
  if (!f.check_unread.empty()) {
    s.add(report::stated(Severity::info, "pip check printed lines onramp does not read", util::join(f.check_unread, ", "),
                         "", f.check_command));
  }
  if (f.host_conflicts.empty()) return;
  bool resolver_failed = !f.resolver_pip_command.empty() || !f.pip.ok();
  s.add(conflict_table("host_conflicts", "The interpreter's packages that disagree (pip check)",
                       "pip check in a fresh venv made like the install's, beside it; named by pip's failure: the requirement's "
                       "distribution is the one pip's resolver found no version of",
                       f.check_command, f.host_conflicts, resolver_failed ? &f.resolver_conflicts : nullptr));
  if (f.resolver_conflicts.empty()) {
    s.add(Finding{Severity::info,
                  report::Title{resolver_failed
                                    ? fmt::format("The interpreter's own packages disagree on {} requirement(s); pip failed "
                                                  "for another reason",
                                                  f.host_conflicts.size())
                                    : fmt::format("The interpreter's own packages disagree on {} requirement(s)",
                                                  f.host_conflicts.size())},
                  "The interpreter's own packages disagree (" + conflict_lines(f.host_conflicts) + ")" +
                      (resolver_failed ? ", but pip's failure is about something else: no --no-deps run" : ""),
                  "", f.check_command});
    return;
  }
  s.add(Figure{"resolver_outcome", "pip's resolver", f.resolver_pip.outcome() + ": " + last_line(f.resolver_pip.err.text()),
               "", "the pip install run with dependencies, before the --no-deps one", f.resolver_pip_command, ""});
  s.add(Finding{Severity::friction,
                report::Title{fmt::format("The interpreter's own packages disagree on {} requirement(s); pip's resolver "
                                          "repairs them first",
                                          f.resolver_conflicts.size())},
                "The interpreter's own packages disagree (" + conflict_lines(f.resolver_conflicts) +
                    "): pip's resolver tries to repair them before it installs anything, so offline it fails (" +
                    last_line(f.resolver_pip.err.text()) + ") and online it fetches the missing versions into the "
                    "venv. The install was measured again with --no-deps",
                "users of this interpreter will see pip fetch or fail on the host's own requirements; an interpreter "
                "whose packages agree (pip check prints \"No broken requirements found.\") avoids it",
                f.check_command});
  if (!f.pip.ok()) return;
  if (!f.rest_pip_command.empty()) {
    s.add(Figure{"rest_pip_seconds", "Install time of what --no-deps left unmet",
                 std::round(f.rest_pip.wall_seconds * 1000) / 1000, "s",
                 "wall time of a pip install, with its resolver, of the requirements pip check found unmet after the "
                 "--no-deps run: " + f.rest_pip.outcome(), f.rest_pip_command, ""})
        .ran_at_once = f.rest_pip.ran_at_once;
  }
  s.add(conflict_table("unmet_requirements", "Requirements of the installed wheels still unmet (pip check)",
                       "pip check after the --no-deps install (and the run of what it left unmet), less the host's "
                       "own lines", f.check_command, f.unmet));
  if (!f.unmet.empty()) {
    s.add(Finding{Severity::blocker,
                  report::Title{fmt::format("The installed wheels still lack {} requirement(s), even with --no-deps",
                                            f.unmet.size())},
                  "With the host's disagreement set aside (--no-deps), the installed wheels still lack: " +
                      conflict_lines(f.unmet),
                  "give pip the missing wheels with --find-links, or install from the package index", f.check_command});
  }
}

void add_run(report::Section& s, const InstallFacts& f) {
  s.add(Figure{"interpreter", "Interpreter", fmt::format("Python {} ({})", f.interpreter.python_version, f.interpreter.executable),
               "", "sys.version_info of the chosen interpreter", f.interpreter.command, ""});
  s.add(Figure{"venv", "Virtual environment", f.venv.string(), "", "a fresh venv in the run directory", f.venv_command, ""});
  s.add(Figure{"system_site_packages", "Sees system site-packages", f.system_site_packages, "",
               "whether the venv was made with --system-site-packages", f.venv_command, ""});
  if (!f.host_site_dirs.empty()) {
    s.add(Figure{"host_site_packages", "Sees the host venv's site-packages", util::join(f.host_site_dirs, ", "), "",
                 "the interpreter is itself a venv, whose packages (its torch, pip) --system-site-packages does not "
                 "reach: the new venv is made --without-pip and a .pth file in it names them",
                 (f.site_packages / kHostSitePth).string(), ""});
  }
  s.add(Figure{"venv_seconds", "Venv creation time", std::round(f.venv_seconds * 1000) / 1000, "s",
               "wall time of python -m venv, pip bootstrap included", f.venv_command, ""})
      .ran_at_once = f.venv_ran_at_once;
  if (!f.first_pip_command.empty()) {
    s.add(Figure{"first_pip_seconds", "Install time of the wheels installed first (torch)",
                 std::round(f.first_pip.wall_seconds * 1000) / 1000, "s",
                 "wall time of a pip install process of those wheels alone (--no-deps), before the rest: "
                 + f.first_pip.outcome(), f.first_pip_command, ""})
        .ran_at_once = f.first_pip.ran_at_once;
  }
  s.add(Figure{"pip_outcome", "pip outcome", f.pip.outcome(), "",
               f.resolver_pip_command.empty() ? "pip's exit status in the sandbox"
                                              : "pip's exit status in the sandbox, of the --no-deps run",
               f.pip_command, ""});
  auto& pip_seconds = s.add(Figure{"pip_seconds", "Install time", std::round(f.pip.wall_seconds * 1000) / 1000, "s",
               "wall time of the pip install process, from start to exit", f.pip_command, ""});
  pip_seconds.better = "lower";
  pip_seconds.ran_at_once = f.pip.ran_at_once;
  s.add(Figure{"peak_temp_bytes", "Peak temp usage", f.peak_temp_bytes, "bytes",
               "largest disk usage (st_blocks, as du counts) of pip's TMPDIR, sampled every 100 ms while pip ran",
               f.pip_tmp.string(), ""});
  add_host_conflicts(s, f);
  if (!f.pip.ok()) {
    // pip's lines that say why (a conflict, a build's error), never its closing hint.
    std::string last = last_line(f.pip.err.text());
    auto said = index::refusal_lines(f.pip.out.text() + "\n" + f.pip.err.text());
    std::string why = said.empty() ? last : "pip says \"" + util::join(said, "\" / \"") + "\"";
    Finding failed{Severity::blocker,
                   report::Title{fmt::format("pip install failed ({})", util::shortened(f.pip.outcome(), 78))},
                   fmt::format("pip install failed ({}): {}", f.pip.outcome(), why),
                   last.find("No space left on device") != std::string::npos ? "set TMPDIR to a directory on a roomy disk"
                                                                              : "",
                   f.pip_command};
    // pip's own line for a wheel whose Requires-Python excludes the interpreter.
    if (why.find("requires a different Python") != std::string::npos) failed.fact = report::kPythonExcludedFact;
    s.add(failed);
  }
}

void add_footprint(report::Section& s, const InstallFacts& f) {
  uint64_t bytes = 0, native = 0, files = 0;
  std::string ev = f.site_packages.string() + "/*.dist-info/RECORD";
  Table dists{"installed", "Installed distributions", "dist-info directories that pip added to the venv; sizes by stat(2) of each file their RECORD lists; "
              "repairs: the interpreter's own requirement (pip check before the install) that this distribution meets",
              ev, {{"name", "Name", ""}, {"version", "Version", ""}, {"files", "Files", "files"}, {"bytes", "Bytes", "bytes"},
                   {"native_bytes", "Native bytes", "bytes"}, {"missing_files", "Missing", "files"}, {"repairs", "Repairs the host's", ""}}, {}};
  uint64_t repair_bytes = 0;
  std::vector<std::string> repaired;
  dists.chart = {"name", "bytes"};
  Table dirs{"footprint_dirs", "Footprint per top-level directory", "RECORD paths grouped by their first component under site-packages (bin for scripts); largest first within each distribution",
             ev, {{"distribution", "Distribution", ""}, {"directory", "Directory", ""}, {"files", "Files", "files"},
                  {"bytes", "Bytes", "bytes"}, {"native_bytes", "Native bytes", "bytes"}}, {}};
  for (const auto& d : f.footprints) {
    bytes += d.bytes;
    native += d.native_bytes;
    files += d.files;
    std::string repairs = host_requirement_met_by(f.host_conflicts, d.name);
    if (!repairs.empty()) {
      repair_bytes += d.bytes;
      repaired.push_back(fmt::format("{} {} ({} bytes) for {}", d.name, d.version, d.bytes, repairs));
    }
    dists.rows.push_back(Json{{"name", d.name}, {"version", d.version}, {"files", d.files}, {"bytes", d.bytes},
                              {"native_bytes", d.native_bytes}, {"missing_files", d.missing_files}, {"repairs", repairs}});
    for (const auto& dir : d.directories) {
      dirs.rows.push_back(Json{{"distribution", d.name}, {"directory", dir.directory}, {"files", dir.files},
                               {"bytes", dir.bytes}, {"native_bytes", dir.native_bytes}});
    }
  }
  s.add(Figure{"installed_count", "Distributions installed", f.footprints.size(), "distributions", dists.method, ev, ""});
  s.add(Figure{"footprint_files", "Files installed", files, "files", "files listed in the new RECORDs and present on disk", ev, ""});
  s.add(Figure{keys::kFootprintBytes, "Footprint on disk", bytes, "bytes", "sum of the apparent sizes of those files", ev, ""}).better = "lower";
  s.add(Figure{keys::kNativeBytes, "Native payload installed", native, "bytes",
               "sum of the sizes of those files that start with the ELF magic", ev, ""})
      .better = "lower";
  if (!f.check_command.empty()) {
    s.add(Figure{"host_repair_bytes", "Footprint that repairs the interpreter's own packages", repair_bytes, "bytes",
                 "sum of the sizes of the installed distributions that meet a requirement pip check found unmet "
                 "before the install", f.check_command, ""});
  }
  if (!repaired.empty()) {
    s.add(report::stated(Severity::friction,
                         "pip installed what the interpreter's own packages lack, not what the target needs",
                         util::join(repaired, ", "),
                         "a cost of this interpreter: one whose packages agree (pip check) does not pay it",
                         f.check_command));
  }
  s.add(std::move(dists));
  s.add(std::move(dirs));
}

}  // namespace

report::Section install_section(const InstallFacts& f) {
  report::Section s;
  s.key = keys::kSection;
  s.title = "Install: " + f.plan.pip_targets.front();
  s.add(Figure{"target_kind", "Target", std::string(to_string(f.plan.kind)), "", "a .whl file, a directory of wheels, a project directory, or a requirement",
               util::join(f.plan.pip_targets, ", "), ""});
  add_preflight(s, f);
  add_run(s, f);
  add_footprint(s, f);
  return s;
}

}  // namespace onramp::install
