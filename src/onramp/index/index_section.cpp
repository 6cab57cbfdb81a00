#include "onramp/index/index_section.h"

#include <fmt/format.h>

#include <cmath>

#include "onramp/diagnosis/diagnosis.h"
#include "onramp/packaging/pip_lines.h"
#include "onramp/packaging/temp_space.h"
#include "onramp/util/text.h"
#include "onramp/report/finding_graph.h"
#include "onramp/report/writing.h"

namespace onramp::index {
namespace {

using namespace report::writing;

Json optional_bytes(const std::optional<uint64_t>& v) { return v ? Json(*v) : Json(nullptr); }

void add_resolution(report::Section& s, const IndexFacts& f) {
  s.add(Figure{"pip_outcome", "pip's resolution", f.pip.outcome(), "",
               "exit status of pip install --dry-run --report in the sandbox (nothing installed)", f.pip_command, ""});
  if (!f.report) {
    s.add(Figure{"resolved_count", "Distributions resolved", nullptr, "distributions", "entries of pip's report",
                 f.pip_command, f.report_error.empty() ? "pip did not resolve the requirement" : f.report_error});
    return;
  }
  std::string ev = f.pip_command + " (run directory: pip-report.json)";
  std::string what = f.ignore_installed ? "every distribution it would install (--ignore-installed: as on an empty "
                                          "environment)"
                                        : "every distribution it would install on top of the interpreter's own packages "
                                          "(those it has already are in the next table)";
  Table t{"resolution", "What the requirement pulls in",
          "pip's installation report: " + what + "; 'asked by' is the top-level requirement or "
          "the resolved distributions whose Requires-Dist names it (entries under an extra only when that extra was "
          "asked for); sizes from the cache, the local file or the index's page, null when none gives it",
          ev,
          {{"name", "Name", ""}, {"version", "Version", ""}, {"file_name", "File", ""}, {"size", "Size", "bytes"},
           {"asked_by", "Asked by", ""}}, {}};
  for (const auto& d : f.report->install) {
    t.rows.push_back(Json{{"name", d.name}, {"version", d.version}, {"file_name", d.file_name},
                          {"size", optional_bytes(d.size)}, {"asked_by", util::join(d.asked_by, "; ")}});
  }
  s.add(Figure{"resolved_count", "Distributions resolved", f.report->install.size(), "distributions",
               "entries of the \"install\" list of pip's report", ev, ""});
  s.add(std::move(t));
  if (f.ignore_installed) return;
  Table host{"host_satisfied", "Already installed in the interpreter",
             "pip's \"Requirement already satisfied\" lines of the same resolution: what the interpreter (and a venv "
             "layered on it) already has, so nothing is downloaded or installed for it",
             f.pip_command,
             {{"name", "Name", ""}, {"version", "Version", ""}, {"requirement", "Requirement", ""},
              {"asked_by", "Asked by", ""}, {"location", "Location", ""}}, {}};
  for (const auto& r : f.satisfied) {
    host.rows.push_back(Json{{"name", r.name}, {"version", r.version}, {"requirement", r.requirement},
                             {"asked_by", r.asked_by.empty() ? f.requirement : r.asked_by}, {"location", r.location}});
  }
  s.add(std::move(host));
}

// pip's refusal in its own words: the lines that say why (the conflict, the
// requirement, the versions), never its closing hint; diagnosed as pip output.
Finding refusal_finding(const IndexFacts& f) {
  std::string output = f.pip.out.text() + "\n" + f.pip.err.text();
  auto why = refusal_lines(output);
  std::string text = fmt::format("pip could not resolve {} ({})", f.requirement, f.pip.outcome());
  if (!why.empty()) text += fmt::format(": pip says \"{}\"", util::join(why, "\" / \""));
  Finding finding{Severity::blocker,
                  report::Title{fmt::format("pip could not resolve {} ({})", util::shortened(f.requirement, 50),
                                            util::shortened(f.pip.outcome(), 25))},
                  text, "", f.pip_command + "\n" + util::join(f.pip_last_lines, "\n")};
  finding.role = report::kResolutionRefusedRole;
  if (const auto* rule = diagnosis::Diagnoses::builtin().find("PipOutput", output)) {
    finding.remedy = rule->remedy;
    finding.diagnosis = rule->id;
    // The rule's claim, with what was asked: its title quotes no fact (none is known here).
    if (!rule->title.empty()) finding.title = rule->title + " for " + f.requirement;
  }
  return finding;
}

void add_pip_findings(report::Section& s, const IndexFacts& f) {
  if (!f.requires_python_line.empty()) {
    s.add(report::stated(Severity::blocker,
                         fmt::format("Requires-Python refuses this interpreter (Python {})", f.interpreter.python_version),
                         fmt::format("pip says \"{}\"", f.requires_python_line),
                         "check the project's documented Python versions against its metadata; "
                         "--ignore-requires-python lets the resolution go on",
                         f.pip_command));
  }
  if (!f.pip.ok()) {
    s.add(refusal_finding(f));
  } else if (!f.report_error.empty()) {
    s.add(report::stated(Severity::blocker, "pip's report could not be read", f.report_error, "", f.pip_command));
  }
}

void add_index(report::Section& s, const IndexFacts& f) {
  s.add(Figure{"index_url", "Index", f.index_url, "", "where the release's files were listed from: " + f.index_url_source,
               f.config_ignored ? "PIP_CONFIG_FILE=/dev/null: --index-url given, pip's configuration ignored"
                                : f.config_command, ""});
  Table pages{"index_pages", "Project pages read",
              "GET INDEX/NAME/ with Accept: application/vnd.pypi.simple.v1+json (PEP 691), else the PEP 503 HTML; a "
              "file:// index's NAME/index.html read from disk (anchors, #sha256= and data-requires-python only)",
              "libcurl",
              {{"index", "Index", ""}, {"page", "Page", ""}, {"form", "Form", ""}, {"files", "Files", "files"},
               {"error", "Error", ""}}, {}};
  for (const auto& p : f.pages) {
    pages.rows.push_back(Json{{"index", p.index_url}, {"page", p.page_url}, {"form", p.form},
                              {"files", p.page.files.size()}, {"error", p.error}});
  }
  s.add(std::move(pages));
}

void add_release_files(report::Section& s, const IndexFacts& f) {
  s.add(Figure{"python", "Interpreter", fmt::format("Python {} ({})", f.interpreter.python_version, f.interpreter.executable),
               "", "sys.version_info of the chosen interpreter", f.interpreter.command, ""});
  s.add(Figure{"glibc", "This machine's glibc", f.glibc, "", "gnu_get_libc_version()", "gnu_get_libc_version()", ""});
  s.add(Figure{"compatible_tags", "Tags pip accepts", f.tags_error.empty() ? Json(f.tags.tags.size()) : Json(nullptr),
               "tags", "lines of the \"Compatible tags\" section", f.tags_command, f.tags_error});
  s.add(Figure{"release_version", "Release", f.release.version, "", f.release.how, f.pip_command, ""});
  Table t{"release_files", "Files of the release",
          "every file of the release on the indexes read (first index wins for a name); a wheel is installable iff one "
          "of its tags is in pip's compatible-tag list, and pip takes the one whose tag comes first; the reason names "
          "the first tag part that fails (Python tag, ABI, platform, glibc floor), then Requires-Python",
          f.tags_command,
          {{"file_name", "File", ""}, {"kind", "Kind", ""}, {"python_tag", "Python", ""}, {"abi_tag", "ABI", ""},
           {"platform_tag", "Platform", ""}, {"size", "Size", "bytes"}, {"sha256", "SHA-256", ""},
           {"requires_python", "Requires-Python", ""}, {"status", "Status", ""}, {"reason", "Why", ""},
           {"pip_chose", "pip took it", ""}, {"index", "Index", ""}}, {}};
  uint64_t bytes = 0;
  size_t unknown = 0;
  std::string taken;
  for (const auto& r : f.files) {
    t.rows.push_back(Json{{"file_name", r.file.file_name}, {"kind", r.kind}, {"python_tag", r.python_tag},
                          {"abi_tag", r.abi_tag}, {"platform_tag", r.platform_tag}, {"size", optional_bytes(r.file.size)},
                          {"sha256", r.file.sha256}, {"requires_python", r.file.requires_python},
                          {"status", std::string(to_string(r.status))}, {"reason", r.reason}, {"pip_chose", r.pip_chose},
                          {"index", r.index_url}});
    if (r.file.size) bytes += *r.file.size; else ++unknown;
    if (r.status == FileStatus::taken) taken = r.file.file_name;
    if (r.status == FileStatus::refused) {
      s.add(Finding{Severity::blocker, report::Title{"the index lists a file onramp refuses"},
                    fmt::format("the index lists a file onramp refuses: {}", r.reason),
                    "", r.index_url, r.file.file_name});
    }
  }
  s.add(Figure{"release_files", "Files in the release", f.files.size(), "files", t.method, t.evidence, ""});
  s.add(Figure{"release_bytes", "Release size", bytes, "bytes",
               fmt::format("sum of the sizes the index gives for the release's files ({} without a size)", unknown),
               f.pages.empty() ? "" : f.pages.front().page_url, ""});
  s.add(Figure{"taken_file", "This interpreter takes", taken.empty() ? Json(nullptr) : Json(taken), "",
               "the installable file whose tag ranks first in pip's list", f.tags_command,
               taken.empty() ? "no file of the release fits this interpreter" : ""});
  if (taken.empty() && !f.files.empty()) {
    s.add(report::stated(Severity::blocker,
                         fmt::format("no file of {} {} fits this interpreter (Python {}, glibc {})", f.project,
                                     f.release.version, f.interpreter.python_version, f.glibc),
                         "", "", f.tags_command));
  }
  s.add(std::move(t));
}

void add_releases(report::Section& s, const IndexFacts& f) {
  Table t{"releases", "Releases of the project",
          "versions on the project's pages with their files and the sum of the sizes given; a release whose version "
          "is all zeros is a placeholder",
          f.pages.empty() ? "" : f.pages.front().page_url,
          {{"version", "Version", ""}, {"files", "Files", "files"}, {"bytes", "Bytes", "bytes"},
           {"placeholder", "Placeholder", ""}}, {}};
  for (const auto& r : f.releases) {
    t.rows.push_back(Json{{"version", r.version}, {"files", r.files}, {"bytes", r.bytes}, {"placeholder", r.placeholder}});
    if (r.placeholder) {
      s.add(report::stated(Severity::info, fmt::format("{} {} is a placeholder release", f.project, r.version), "",
                           "pin the real version", t.evidence));
    }
  }
  s.add(std::move(t));
}

void add_cache(report::Section& s, const IndexFacts& f) {
  uint64_t downloaded = 0, hits = 0;
  Table t{"downloads", "Downloads into the cache",
          "each file of the resolution fetched with libcurl into \"<file name>.partial\" (locked while written; "
          "what an interrupted run left is resumed with a range request), its SHA-256 (OpenSSL libcrypto) checked "
          "against pip's report, then renamed into place; a file already there is not fetched",
          f.cache_root,
          {{"file_name", "File", ""}, {"bytes", "Bytes", "bytes"}, {"cache_hit", "From cache", ""},
           {"resumed_from", "Resumed from", "bytes"}, {"path", "Path", ""}, {"error", "Error", ""}}, {}};
  for (const auto& d : f.downloads) {
    if (d.error.empty()) {
      if (d.hit) hits += d.bytes;
      else downloaded += d.bytes - d.resumed_from, hits += d.resumed_from;
    }
    t.rows.push_back(Json{{"file_name", d.file_name}, {"bytes", d.bytes}, {"cache_hit", d.hit},
                          {"resumed_from", d.resumed_from}, {"path", d.path}, {"error", d.error}});
    if (!d.error.empty()) {
      s.add(Finding{Severity::blocker,
                    report::Title{fmt::format("The download of {} was refused", util::shortened(d.file_name, 70))},
                    "download refused: " + d.error, "", f.cache_root, d.file_name});
    }
  }
  bool ran = !f.downloads.empty();
  std::string none = "--download not given";
  s.add(Figure{"cache_dir", "Download cache", f.cache_root, "", "$XDG_CACHE_HOME/onramp, else ~/.cache/onramp",
               "files/sha256/<first 2>/<sha256>/<file name>", ""});
  s.add(Figure{"downloaded_bytes", "Downloaded", ran ? Json(downloaded) : Json(nullptr), "bytes",
               "bytes fetched over the network in this run", f.cache_root, ran ? "" : none});
  s.add(Figure{"cache_hit_bytes", "Reused from the cache", ran ? Json(hits) : Json(nullptr), "bytes",
               "bytes of the resolution's files already in the cache, whole or as an interrupted run's part", f.cache_root, ran ? "" : none});
  if (ran) s.add(std::move(t));
}

void add_forecast(report::Section& s, const IndexFacts& f) {
  if (!f.report) return;
  std::string method = fmt::format(
      "{} over the whole resolution; a wheel's unpacked size is read from its central directory when it is in the "
      "cache, else estimated as its compressed size x {}; {} distribution(s) of unknown size not counted",
      install::kEstimateRule, install::kAssumedUnpackRatio, f.forecast.unknown);
  Table t{"temp_forecast", "Temp space, per distribution", method, f.cache_root,
          {{"name", "Name", ""}, {"file_name", "File", ""}, {"compressed", "Compressed", "bytes"},
           {"unpacked", "Unpacked", "bytes"}, {"how", "How", ""}}, {}};
  for (const auto& r : f.forecast.rows) {
    t.rows.push_back(Json{{"name", r.name}, {"file_name", r.file_name}, {"compressed", optional_bytes(r.compressed)},
                          {"unpacked", optional_bytes(r.unpacked)}, {"how", r.how}});
  }
  s.add(Figure{"temp_forecast_bytes", "Temp space for the whole resolution (forecast)", f.forecast.bytes, "bytes",
               method, f.pip_command, ""});
  s.add(std::move(t));
}

}  // namespace

report::Section index_section(const IndexFacts& f) {
  report::Section s;
  s.key = "index";
  s.title = "Index: " + f.requirement;
  s.add(Figure{"requirement", "Requirement", f.requirement, "", "as given on the command line", f.pip_command, ""});
  add_resolution(s, f);
  add_pip_findings(s, f);
  add_index(s, f);
  add_release_files(s, f);
  add_releases(s, f);
  add_cache(s, f);
  add_forecast(s, f);
  return s;
}

}  // namespace onramp::index
