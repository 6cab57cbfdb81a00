#include "onramp/audit/own_host.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>

#include "onramp/host/candidates.h"
#include "onramp/host/choice.h"
#include "onramp/host/cpu_torch.h"
#include "onramp/host/host_venv.h"
#include "onramp/index/file_cache.h"
#include "onramp/index/index_pages.h"
#include "onramp/index/resolve.h"
#include "onramp/packaging/metadata.h"
#include "onramp/packaging/pep440.h"
#include "onramp/util/sandbox.h"
#include "onramp/wheel/wheel_facts.h"

namespace onramp::audit {
namespace {

namespace fs = std::filesystem;
using report::Figure;

// The project's pages on every index pip would read (the given ones, else pip's configuration).
struct Pages {
  std::vector<index::PageRead> pages;
  std::string evidence;  // the page URLs
};

Pages read_pages(ProcessRunner& runner, const AuditOptions& o, const python::InterpreterFacts& python,
                 const std::string& project, const fs::path& dir) {
  index::ResolveOptions r;
  r.index_url = o.index.index_url;
  r.extra_index_urls = o.index.extra_index_urls;
  r.find_links = o.index.find_links;
  index::IndexFacts f;
  f.interpreter = python;
  index::find_index(runner, r, f, dir);
  Pages out;
  std::vector<std::string> urls{f.index_url};
  urls.insert(urls.end(), f.extra_index_urls.begin(), f.extra_index_urls.end());
  for (const auto& url : urls) {
    if (url.empty()) continue;
    out.pages.push_back(index::read_project_page(url, project));
    out.evidence += (out.evidence.empty() ? "" : ", ") + index::project_page_url(url, project);
  }
  return out;
}

std::string with_extras(const wheel::Requirement& req) {
  return req.extras.empty() ? req.name : fmt::format("{}[{}]", req.name, fmt::join(req.extras, ","));
}

// The release's files across the pages, the first index winning for a file name.
std::vector<index::IndexFile> release_files(const Pages& pages, const std::string& version) {
  std::vector<index::IndexFile> out;
  std::set<std::string> names;
  for (const auto& p : pages.pages) {
    for (const auto& f : p.page.files) {
      if (f.version == version && names.insert(f.file_name).second) out.push_back(f);
    }
  }
  return out;
}

ReleasePick pick_from(const AuditOptions& o, const Pages& pages) {
  auto req = wheel::parse_requirement(o.target);
  ReleasePick out{o.target, Figure{}, ""};
  if (!req || !req->specifier.empty() || !req->url.empty()) return out;
  std::vector<std::string> skipped;
  std::string newest;
  for (const auto& r : index::summarize_releases(pages.pages)) {
    auto v = wheel::Pep440Version::parse(r.version);
    if (r.placeholder || (v && v->is_prerelease())) {
      skipped.push_back(r.version);
      continue;
    }
    newest = r.version;  // sorted oldest first
  }
  if (newest.empty()) {
    out.stop = fmt::format("{}: no release on the index that is not a placeholder or a pre-release ({}); name a version",
                           req->name, skipped.empty() ? "no release at all" : fmt::format("{}", fmt::join(skipped, ", ")));
    return out;
  }
  out.requirement = with_extras(*req) + "==" + newest;
  out.figure = Figure{"release_taken", "Release taken", newest, "",
                      fmt::format("no version given: the newest release on the project's pages that is not a "
                                  "placeholder (0.0.0-like) or a pre-release{}; audited as {}",
                                  skipped.empty() ? "" : fmt::format(" ({} skipped)", fmt::join(skipped, ", ")),
                                  out.requirement),
                      pages.evidence, ""};
  return out;
}

void add_candidates(const host::HostChoice& c, const std::vector<host::Candidate>& candidates, report::Section& s) {
  report::Table t{"candidates", "Interpreters on this machine",
                  "each found by running it (python -I: version, executable, and the wheel tags it supports from "
                  "pip's vendored packaging.tags.sys_tags(), else packaging's), newest Python first; the first that "
                  "installs a file of the release (a wheel one of whose tags it supports, else the sdist) and for "
                  "which a torch file on this machine satisfies the backend's torch requirement is taken",
                  "python3 and python3.N on PATH, $(pyenv root)/versions/*/bin/python3, /usr/local/bin/python3*, "
                  "/usr/bin/python3*",
                  {{"interpreter", "Interpreter", ""},
                   {"executable", "Executable", ""},
                   {"python", "Python", ""},
                   {"taken", "Taken", ""},
                   {"tags", "Supported tags", ""},
                   {"why", "Why", ""}},
                  {}};
  for (const auto& r : c.rows) {
    const python::InterpreterFacts* f = nullptr;
    for (const auto& cand : candidates) {
      if (cand.path == r.interpreter && cand.facts) f = &*cand.facts;
    }
    std::string tags = !f ? "" : f->tags ? fmt::format("{} ({})", f->tags->tags.size(), f->tags_source) : f->tags_source;
    t.rows.push_back({{"interpreter", r.interpreter}, {"executable", r.executable}, {"python", r.python},
                      {"taken", r.taken}, {"tags", tags}, {"why", r.why}});
  }
  s.add(std::move(t));
}

// Which torch file the host takes and the CUDA builds passed over for it, with pip's report as evidence.
void add_torch_choice(const host::HostChoice& c, report::Section& s) {
  if (!c.torch) return;
  const auto& t = *c.torch;
  s.add(Figure{"host_torch_build", "Host torch build", t.cuda ? "CUDA" : "CPU", "",
               fmt::format("pip picks the newest local torch file satisfying {}; a CPU build (a +cpu local version, "
                           "or no nvidia-* or cuda-toolkit entry in the Requires-Dist of pip's --report) is preferred, pip being asked "
                           "again with each CUDA pick excluded (!=VERSION, at most {} times): torch {} is {}",
                           c.torch_requirement, host::kCpuTorchRounds, t.version, t.build),
               t.command, ""});
  report::Table table{"torch_passed_over", "Torch files passed over",
                      "each a CUDA build pip picked before the taken file: its Requires-Dist entries naming nvidia-* or cuda-toolkit "
                      "distributions, read from pip's --report",
                      t.command,
                      {{"version", "Version", ""}, {"file", "File", ""}, {"why", "Why", ""}, {"command", "Picked by", ""}},
                      {}};
  for (const auto& p : t.passed_over) {
    table.rows.push_back({{"version", p.version},
                          {"file", p.path},
                          {"why", fmt::format("a CUDA build: Requires-Dist {}", fmt::join(p.cuda_requirements, "; "))},
                          {"command", p.command}});
  }
  s.add(std::move(table));
}

// No file of the release installs on any interpreter here: one root blocker,
// with the index's file list and the tags each interpreter supports as evidence.
report::Finding nothing_installs_finding(const host::HostChoice::NothingInstalls& n, const Pages& pages,
                                         const std::vector<index::IndexFile>& files) {
  std::vector<std::string> names;
  for (const auto& f : files) names.push_back(f.file_name + (f.yanked ? " (yanked)" : ""));
  report::Finding f{report::Severity::blocker, report::Title{n.title}, n.text, n.remedy,
                    fmt::format("{}: {}; tags asked: {}", pages.evidence, fmt::join(names, ", "), n.tags_evidence)};
  f.diagnosis = kNoInstallableFile;
  return f;
}

void add_host_figures(const host::HostReady& h, report::Section& s) {
  const auto& r = h.record;
  std::string state = h.made ? (h.remade_because.empty() ? "made" : "made again: " + h.remade_because) : "reused";
  s.add(Figure{"host_state", "Host", state, "",
               "reused when its directory holds its record (" + std::string(host::kRecordFile) +
                   ") and its torch imports; else made (python -m venv, then pip install)",
               h.dir.string(), ""});
  s.add(Figure{"host_dir", "Host directory", h.dir.string(), "", "<cache root>/hosts/py<Python>-torch<torch>", "", ""});
  s.add(Figure{"host_python", "Host Python", fmt::format("Python {} ({})", r.python_version, r.base_python), "",
               "the interpreter the venv was made from", h.python, ""});
  s.add(Figure{"host_torch", "Host torch", fmt::format("torch {} from {}", r.torch_version, r.torch_source), "",
               "torch.__version__ as the host imports it; the file or requirement pip installed it from",
               h.python + " -c 'import torch'", ""});
  s.add(Figure{"host_made_at", "Host made at", r.made_at, "", "UTC, when the making began", h.dir.string(), ""});
  s.add(Figure{"host_making_seconds", "Making the host took", r.making_seconds, "s",
               "steady_clock around python -m venv, pip install and the import check, when the host was made; "
               "not part of the audit's own time",
               fmt::format("{}", fmt::join(r.commands, "; ")), ""});
  if (h.waited_seconds >= 0.5) {
    s.add(Figure{"host_waited_seconds", "Waited for another onramp making it", h.waited_seconds, "s",
                 "steady_clock around the flock on the host's lock file", h.dir.string() + ".lock", ""});
  }
}

}  // namespace

std::string torch_requirement_of(wheel::WheelReads& reads, const std::string& wheel_path) {
  auto facts = reads.read(wheel_path);
  if (!facts) return "";
  for (const auto& req : facts->requirements) {
    if (req.normalized_name == "torch" && req.marker.empty()) return "torch" + req.specifier;
  }
  return "";
}

ReleasePick pick_release(const RunContext& run, const AuditOptions& o, const python::PythonRequest& python,
                         const fs::path& dir) {
  auto req = wheel::parse_requirement(o.target);
  if (!req || !req->specifier.empty() || !req->url.empty()) return {o.target, Figure{}, ""};
  auto facts = run.interpreters.choose(python);
  if (!facts) return {o.target, Figure{}, facts.error().message};
  std::error_code ec;
  fs::create_directories(dir, ec);
  return pick_from(o, read_pages(run.runner(), o, *facts, req->normalized_name, dir));
}

OwnHost prepare_own_host(const RunContext& run, const AuditOptions& o, const fs::path& run_dir) {
  OwnHost out{report::Section{"host", "onramp's host", {}, {}, {}}, "", o.target, "", 0};
  fs::path dir = run_dir / "host";
  std::error_code ec;
  fs::create_directories(dir, ec);
  ProcessRunner& runner = run.runner();
  o.progress("no --python: finding this machine's interpreters for onramp's own host");
  auto candidates = host::find_candidates(run.interpreters);
  const python::InterpreterFacts* any = nullptr;
  for (const auto& c : candidates) {
    if (c.facts && !any) any = &*c.facts;
  }
  if (!any) {
    out.stop = fmt::format("no Python interpreter runs on this machine ({} tried): pass --python PY", candidates.size());
    return out;
  }
  auto req = wheel::parse_requirement(o.target);
  Pages pages = read_pages(runner, o, *any, req->normalized_name, dir);
  ReleasePick pick = pick_from(o, pages);
  if (!pick.figure.key.empty()) out.section.add(pick.figure);
  out.requirement = pick.requirement;
  if (!pick.stop.empty()) {
    out.stop = pick.stop;
    return out;
  }
  auto pinned = wheel::parse_requirement(out.requirement);
  std::string version = index::choose_release(std::nullopt, pinned->specifier, pages.pages).version;
  auto files = release_files(pages, version);

  index::ResolveOptions fetch;
  fetch.cache_root = o.index.cache_root;
  fetch.download_progress = o.index.download_progress;
  host::Lookups lookups;
  lookups.torch_requirement = [&](const index::IndexFile& wheel) -> std::string {
    if (wheel.sha256.empty()) return "torch";
    auto got = index::fetch_into_cache(fetch, index::FileCache(o.index.cache_root), pinned->normalized_name, wheel.url,
                                       wheel.sha256, wheel.file_name, wheel.size.value_or(0));
    std::string wanted = got.error.empty() ? torch_requirement_of(run.wheels, got.path) : "";
    return wanted.empty() ? "torch" : wanted;
  };
  lookups.local_torch = [&](const python::InterpreterFacts& py, const std::string& wanted) -> Result<host::TorchFile> {
    int round = 0;
    auto ask = [&](const std::string& requirement) -> Result<host::TorchPick> {
      // pip's configured find-links count even with --index-url: the torch files are this machine's.
      index::ResolveOptions local;
      local.python = python::PythonRequest(py.executable, "a candidate for onramp's own host");
      local.find_links = o.index.find_links;
      auto found = index::find_local_distribution(run.interpreters, local, requirement,
                                                  dir / fmt::format("local-torch-{}-{}", py.python_version, ++round));
      if (!found) return std::unexpected(found.error());
      // A link in a find-links directory names the file it points to: the host records the file itself.
      std::error_code link_ec;
      fs::path real = fs::canonical(found->path, link_ec);
      return host::TorchPick{found->version, link_ec ? found->path : real.string(), found->requires_dist, found->command};
    };
    return host::prefer_cpu_torch(wanted, ask);
  };
  auto choice = host::choose_host(candidates, files, pinned->name + " " + version, o.index.ignore_requires_python,
                                  lookups);
  add_candidates(choice, candidates, out.section);
  add_torch_choice(choice, out.section);
  host::TorchSource torch;
  if (choice.torch) {
    torch.file = choice.torch->path;
  } else if (choice.python && o.index.allow_torch_download) {
    torch.requirement = choice.torch_requirement;
    if (o.index.index_url) torch.index_args = {"--index-url", *o.index.index_url};
    for (const auto& url : o.index.extra_index_urls) torch.index_args.insert(torch.index_args.end(), {"--extra-index-url", url});
  } else {
    if (choice.nothing_installs) out.section.add(nothing_installs_finding(*choice.nothing_installs, pages, files));
    out.stop = choice.stop;
    return out;
  }
  auto ready = host::ensure_host(runner, o.sandbox.limits, o.index.cache_root, *choice.python, torch,
                                 choice.torch ? choice.torch->version : "", o.progress);
  if (!ready) {
    out.stop = ready.error().message;
    return out;
  }
  add_host_figures(*ready, out.section);
  out.python = ready->python;
  if (ready->made) out.making_seconds = ready->record.making_seconds;
  o.progress(fmt::format("onramp's host {}: {}", ready->made ? "made" : "reused", ready->dir.string()));
  return out;
}

}  // namespace onramp::audit
