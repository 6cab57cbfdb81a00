#include "onramp/audit/requirement_step.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include "onramp/audit/last_resolution.h"
#include "onramp/audit/named_conflict.h"
#include "onramp/audit/own_host.h"
#include "onramp/audit/steps.h"
#include "onramp/index/file_cache.h"
#include "onramp/index/index_pages.h"
#include "onramp/index/index_section.h"
#include "onramp/packaging/pip_lines.h"
#include "onramp/index/resolve.h"
#include "onramp/python/interpreter.h"
#include "onramp/util/sandbox.h"
#include "onramp/util/text.h"
#include "onramp/packaging/metadata.h"
#include "onramp/wheel/wheel_facts.h"
#include "onramp/report/writing.h"

namespace onramp::audit {
namespace {

namespace fs = std::filesystem;
using index::IndexFacts;
using index::ResolvedDistribution;
using namespace report::writing;

bool is_torch(const std::string& normalized_name) { return normalized_name == "torch"; }

// Whether `d` is the project itself or one of its direct requirements.
bool project_or_direct(const ResolvedDistribution& d, const std::string& project) {
  if (d.normalized_name == project) return true;
  for (const auto& by : d.asked_by) {
    if (wheel::normalize_name(by.substr(0, by.find(" ("))) == project) return true;
  }
  return false;
}

bool native_wheel(const std::string& file_name) {
  auto name = wheel::parse_wheel_file_name(file_name);
  return name && name->platform_tag != "any";
}

std::string size_in_mb(std::optional<uint64_t> bytes) {
  return bytes ? util::human_bytes(static_cast<double>(*bytes), util::ByteUnit::MB) : "size unknown";
}

// How torch reaches the venv, and whether that is allowed.
struct TorchChoice {
  Figure figure;
  std::string stop;
  std::string stop_title;  // the stop's claim alone
};

// Without --torch or --allow-torch-download pip may not pick a torch of its
// own (a CUDA build is several GB, and pip fetches one even to resolve): a
// constraint pins the interpreter's torch, or admits none when it has none.
struct TorchPin {
  std::string constraint;  // "torch==2.13.0+cpu", "torch<0"; empty: no pin
  std::string why;
};

bool pin_is_the_interpreters(const AuditOptions& o) { return o.index.torch.empty() && !o.index.allow_torch_download; }

TorchPin pin_torch(const AuditOptions& o, const python::InterpreterFacts& py) {
  if (!o.index.torch.empty() || o.index.allow_torch_download) return {};
  if (py.torch_version) return {"torch==" + *py.torch_version, "the interpreter's torch"};
  return {"torch<0", "the interpreter has no torch, and none may be downloaded"};
}

// The distributions only torch brings in (its requirements, theirs, ...), torch included.
std::set<std::string> torch_closure(const std::vector<ResolvedDistribution>& dists) {
  std::set<std::string> closure{"torch"};
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& d : dists) {
      if (closure.count(d.normalized_name) || d.asked_by.empty() || d.requested) continue;
      bool only_torch = std::all_of(d.asked_by.begin(), d.asked_by.end(), [&](const std::string& by) {
        return closure.count(wheel::normalize_name(by.substr(0, by.find(" (")))) > 0;
      });
      if (only_torch) grew = closure.insert(d.normalized_name).second || grew;
    }
  }
  return closure;
}

// pip's own line about the conflict, when it names torch; else the lines that
// say why it refused (never its closing hint); else its last line.
std::string pip_says(const IndexFacts& f) {
  // pip prints the conflict's lines on standard output, its errors on standard error.
  std::istringstream both(f.pip.out.text() + "\n" + f.pip.err.text());
  for (std::string l; std::getline(both, l);) {
    if (l.find("depends on torch") != std::string::npos) return l.substr(l.find_first_not_of(" \t"));
  }
  auto why = index::refusal_lines(f.pip.out.text() + "\n" + f.pip.err.text());
  if (!why.empty()) return util::join(why, "\" / \"");
  return f.pip_last_lines.empty() ? f.pip.outcome() : f.pip_last_lines.back();
}

TorchChoice choose_torch(const AuditOptions& o, const IndexFacts& f, const TorchPin& pin) {
  Figure fig{"torch", "Torch for the install", nullptr, "",
             "pip's resolution on top of the interpreter's packages: torch already installed there is used as it "
             "is; a torch pip would install comes from a local file (file://) or, only with --allow-torch-download, "
             "from the index",
             f.pip_command, ""};
  TorchChoice c{fig, "", ""};
  if (!f.report) {
    c.figure.not_measured = "pip did not resolve the requirement";
    if (!pin.constraint.empty()) {
      c.stop_title = fmt::format("pip could not resolve {} with torch constrained to {}", f.requirement, pin.constraint);
      c.stop = fmt::format("pip could not resolve {} with torch constrained to {} ({}): \"{}\"; rerun with --torch "
                           "SPEC for a torch this machine has, or --allow-torch-download",
                           f.requirement, pin.constraint, pin.why, pip_says(f));
    }
    return c;
  }
  for (const auto& d : f.report->install) {
    if (!is_torch(d.normalized_name)) continue;
    std::string asked = d.asked_by.empty() ? f.requirement : d.asked_by.front();
    if (d.url.starts_with("file://")) {
      c.figure.value = fmt::format("torch {} from a local file ({}), installed into the venv", d.version,
                                   index::local_path_of(d.url));
      uint64_t bytes = 0;
      std::vector<std::string> remote;
      auto closure = torch_closure(f.report->install);
      for (const auto& dep : f.report->install) {
        if (!closure.count(dep.normalized_name) || dep.url.starts_with("file://")) continue;
        remote.push_back((remote.empty() ? "" : ", ") + dep.name);
        bytes += dep.size.value_or(0);
      }
      if (!remote.empty() && !o.index.allow_torch_download) {
        c.stop_title = fmt::format("torch {} from a local file needs {} more distribution(s) from the index", d.version,
                                   remote.size());
        c.stop = fmt::format("torch {} from a local file needs {} more distribution(s) from the index ({}, {}): rerun "
                             "with --allow-torch-download, or --torch SPEC for another torch",
                             d.version, remote.size(), fmt::join(remote, ""), size_in_mb(bytes));
      }
      return c;
    }
    std::string host = f.interpreter.torch_version ? "torch " + *f.interpreter.torch_version : "no torch";
    if (o.index.allow_torch_download) {
      c.figure.value = fmt::format("torch {} from the index ({}, {}), --allow-torch-download given", d.version,
                                   d.file_name, size_in_mb(d.size));
      return c;
    }
    c.figure.value = fmt::format("torch {} would be downloaded ({}, {}): not allowed", d.version, d.file_name,
                                 size_in_mb(d.size));
    c.stop_title = fmt::format("{} needs torch {}, which pip would download; the interpreter has {}", f.requirement,
                               d.version, host);
    c.stop = fmt::format(
        "{} needs torch {} (asked by {}); the interpreter has {}, and pip would download {} ({}): rerun with "
        "--allow-torch-download, or --torch SPEC for a torch this machine has",
        f.requirement, d.version, asked, host, d.file_name, size_in_mb(d.size));
    return c;
  }
  for (const auto& r : f.satisfied) {
    if (!is_torch(r.name)) continue;
    c.figure.value = fmt::format("torch {} already installed in the interpreter ({}): nothing downloaded or installed",
                                 r.version, r.location);
    return c;
  }
  c.figure.value = "not needed: the resolution names no torch";
  return c;
}

// Where a distribution's file is on this machine: in the cache, else a local file; "" when neither.
std::string file_of(const IndexFacts& f, const ResolvedDistribution& d) {
  for (const auto& got : f.downloads) {
    if (got.file_name == d.file_name && got.error.empty()) return got.path;
  }
  return index::local_path_of(d.url);
}

// The cached (or local) file of each distribution to install, linked into one directory.
Result<fs::path> make_wheelhouse(const fs::path& dir, const IndexFacts& f) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& d : f.report->install) {
    std::string path = file_of(f, d);
    if (path.empty()) return fail(fmt::format("{}: not in the cache and not a local file", d.file_name));
    files.emplace_back(d.file_name, path);
  }
  if (auto linked = link_wheelhouse(dir, files); !linked) return fail(linked.error().message);
  return dir;
}

// When pip could not resolve, the file of the release this interpreter takes
// is still fetched, so that the wheel step reads it; returns its path or "".
std::string fetch_taken_file(const index::ResolveOptions& r, IndexFacts& f) {
  for (const auto& file : f.files) {
    if (file.status != index::FileStatus::taken || file.file.sha256.empty()) continue;
    f.downloads.push_back(index::fetch_into_cache(r, index::FileCache(r.cache_root), f.project, file.file.url,
                                                  file.file.sha256, file.file.file_name, file.file.size.value_or(0)));
    return f.downloads.back().path;
  }
  return "";
}

index::ResolveOptions resolve_options(const AuditOptions& o, const fs::path& run_dir) {
  index::ResolveOptions r;
  static_cast<index::IndexOptions&>(r) = o.index;
  r.requirement = o.target;
  r.python = o.sandbox.python;
  r.ignore_installed = false;
  if (!o.index.torch.empty()) r.extra_requirements.push_back(torch_requirement(o.index.torch));
  r.download = true;
  r.limits = o.sandbox.limits;
  r.make_run_dir = step_dir_maker(run_dir / "resolve");
  r.progress = o.progress;
  return r;
}

// Writes the pin into RUN/torch-constraint.txt and passes it to pip.
void apply_pin(const TorchPin& pin, const fs::path& run_dir, index::ResolveOptions& r) {
  fs::path file = run_dir / "torch-constraint.txt";
  std::ofstream out(file);
  out << pin.constraint << "\n";
  if (!out.flush()) throw FatalError(file.string() + ": cannot write");
  if (std::find(r.constraints.begin(), r.constraints.end(), file.string()) == r.constraints.end()) {
    r.constraints.push_back(file.string());
  }
  r.progress("torch constrained to " + pin.constraint + " (" + pin.why + "): " + file.string());
}

// When the interpreter's torch does not fit the backend, the newest torch on
// this machine that does (a local file pip can install without the index).
// Returns whether one was found; the pin and the resolution then use it.
bool try_local_torch(const RunContext& run, const std::string& backend_wheel, const fs::path& run_dir,
                     index::ResolveOptions& r, TorchPin& pin) {
  std::string wanted = torch_requirement_of(run.wheels, backend_wheel);
  if (wanted.empty()) return false;
  r.progress("the interpreter's torch does not fit; looking for a local file of " + wanted);
  auto local = index::find_local_distribution(run.interpreters, r, wanted, run_dir / "local-torch");
  if (!local) {
    r.progress(local.error().message);
    return false;
  }
  pin = {"torch==" + local->version, fmt::format("the newest torch on this machine that {} admits, {}", wanted, local->path)};
  apply_pin(pin, run_dir, r);
  r.extra_requirements.push_back(local->path);
  return true;
}

// The wheels the wheel step reads: the backend's first, then its direct native requirements.
std::vector<std::string> wheels_to_read(const IndexFacts& f) {
  std::vector<std::string> wheels, native;
  for (const auto& d : f.report->install) {
    if (!project_or_direct(d, f.project) || is_torch(d.normalized_name)) continue;
    std::string path = file_of(f, d);
    if (path.empty() || !d.file_name.ends_with(".whl")) continue;
    if (d.normalized_name == f.project) wheels.insert(wheels.begin(), path);
    else if (native_wheel(d.file_name)) native.push_back(path);
  }
  wheels.insert(wheels.end(), native.begin(), native.end());
  return wheels;
}

// The backend's own sdist among the files to install (pip took it: no wheel fits); "" when a wheel was taken.
std::string sdist_to_build(const IndexFacts& f) {
  for (const auto& d : f.report->install) {
    if (d.normalized_name == f.project && !d.file_name.ends_with(".whl")) return file_of(f, d);
  }
  return "";
}

// The indexes the resolution's pip read, as options for another pip run.
std::vector<std::string> pip_index_args(const IndexFacts& f) {
  std::vector<std::string> args;
  if (f.pass_index_url) args.insert(args.end(), {"--index-url", f.index_url});
  for (const auto& u : f.extra_index_urls) args.insert(args.end(), {"--extra-index-url", u});
  for (const auto& d : f.find_links) args.insert(args.end(), {"--find-links", pip_find_link(d)});
  return args;
}

// A file the first attempt downloaded is counted as downloaded, not as a cache hit of the second.
void keep_first_downloads(const std::vector<index::DownloadOutcome>& first, IndexFacts& f) {
  for (auto& d : f.downloads) {
    for (const auto& earlier : first) {
      if (earlier.file_name == d.file_name && !earlier.hit && earlier.error.empty()) d.hit = false;
    }
  }
}

void add_figures(const AuditOptions& o, const IndexFacts& f, const TorchPin& pin, const TorchChoice& torch,
                 report::Section& section) {
  section.add(torch.figure);
  if (!pin.constraint.empty()) {
    section.add(Figure{"torch_constraint", "Torch constraint", pin.constraint, "",
                       pin.why + ": passed to pip as a constraint, so that it picks no torch of its own",
                       f.pip_command, ""});
  }
  if (o.index.ignore_requires_python) {
    section.add(Figure{"requires_python_ignored", "Requires-Python ignored", true, "",
                       "--ignore-requires-python given: passed to pip for the resolution and the install", f.pip_command,
                       ""});
  }
}

// Resolves and fetches on o.python; `named`: the user named it (--python).
RequirementOutcome resolve_on(const RunContext& run, const AuditOptions& o, const fs::path& run_dir,
                              const fs::path& wheelhouse, bool named) {
  index::ResolveOptions r = resolve_options(o, run_dir);
  TorchPin pin = pin_torch(o, value_or_fatal(run.interpreters.choose(o.sandbox.python)));
  if (!pin.constraint.empty()) apply_pin(pin, run_dir, r);
  IndexFacts f = value_or_fatal(index::resolve_requirement(run.interpreters, r)).facts;
  std::string taken = f.report ? "" : fetch_taken_file(r, f);
  if (!f.report && !taken.empty() && pin_is_the_interpreters(o) && try_local_torch(run, taken, run_dir, r, pin)) {
    auto first = f.downloads;
    f = value_or_fatal(index::resolve_requirement(run.interpreters, r)).facts;
    f.downloads = first;  // the backend's wheel, fetched already
    taken = f.report ? "" : taken;
  }
  bool held = !choose_torch(o, f, pin).stop.empty();
  // Local files are installed from where they are; with torch held back only
  // the backend and its direct requirements are fetched, for the wheel step.
  auto fetched_before = f.downloads;
  f.downloads.clear();
  index::fetch_resolution(r, f, [&](const ResolvedDistribution& d) {
    if (d.url.starts_with("file://")) return false;
    return !held || (project_or_direct(d, f.project) && !is_torch(d.normalized_name));
  });
  if (f.downloads.empty()) f.downloads = fetched_before;
  keep_first_downloads(fetched_before, f);
  TorchChoice torch = choose_torch(o, f, pin);  // again, now that every distribution is sized
  RequirementOutcome out{index::index_section(f), {}, "", pip_index_args(f), {}, torch.stop, std::nullopt, {}, 0};
  add_figures(o, f, pin, torch, out.section);
  auto conflict = named && !f.report ? conflict_lines(f.pip.err.text() + "\n" + f.pip.out.text())
                                     : std::vector<std::string>{};
  if (!conflict.empty()) {
    // The interpreter named cannot take the backend: one root finding instead of pip's failure and the torch stop.
    std::erase_if(out.section.findings, [](const Finding& x) { return x.severity == Severity::blocker; });
    Finding root = named_interpreter_finding(f.interpreter, f.requirement, conflict, f.pip_command);
    out.stop = root.text;
    out.section.add(std::move(root));
  } else if (held) {
    out.section.add(Finding{Severity::blocker, report::Title{torch.stop_title}, torch.stop, "", f.pip_command});
  }
  if (!f.report) {
    if (taken.ends_with(".whl")) out.wheels.push_back(taken);
    else out.sdist = taken;
    if (out.stop.empty()) {
      out.stop = fmt::format("pip could not resolve {} ({}): see the index section", f.requirement, f.pip.outcome());
    }
    return out;
  }
  out.wheels = wheels_to_read(f);
  out.sdist = sdist_to_build(f);
  for (const auto& d : f.downloads) {
    if (!d.error.empty() && out.stop.empty()) out.stop = "a download failed: " + d.error;
  }
  if (out.stop.empty()) {
    auto house = make_wheelhouse(wheelhouse, f);
    if (house) out.wheelhouse = *house;
    else out.stop = house.error().message;
  }
  return out;
}

}  // namespace

std::string pip_find_link(const std::string& entry) {
  return entry.find("://") != std::string::npos ? entry : fs::absolute(entry).string();
}

std::string torch_requirement(const std::string& spec) {
  if (!spec.empty() && std::isdigit(static_cast<unsigned char>(spec.front()))) return "torch==" + spec;
  return "torch" + spec;
}

RequirementOutcome run_requirement(const RunContext& run, const AuditOptions& options,
                                   const fs::path& run_dir, const fs::path& wheelhouse) {
  AuditOptions o = options;
  std::optional<report::Section> host_section;
  double host_seconds = 0;
  Figure release_taken;
  if (!o.sandbox.python.named()) {
    // No interpreter named: onramp's own host, made or reused; it chooses the release too.
    OwnHost host = prepare_own_host(run, o, run_dir);
    if (!host.stop.empty()) return {report::Section{}, {}, "", {}, {}, host.stop, std::move(host.section), {}, 0};
    host_section = std::move(host.section);
    host_seconds = host.making_seconds;
    o.sandbox.python = python::PythonRequest(host.python, "onramp's own host (docs/hosts.md)");
    o.target = host.requirement;
  } else {
    ReleasePick pick = pick_release(run, o, o.sandbox.python, run_dir / "release");
    if (!pick.stop.empty()) return {report::Section{}, {}, "", {}, {}, pick.stop, std::nullopt, {}, 0};
    o.target = pick.requirement;
    release_taken = pick.figure;
  }
  auto out = resolve_on(run, o, run_dir, wheelhouse.empty() ? run_dir / "wheelhouse" : wheelhouse,
                        options.sandbox.python.named());
  if (!release_taken.key.empty()) out.section.add(release_taken);
  out.host = std::move(host_section);
  out.host_seconds = host_seconds;
  if (!options.sandbox.python.named()) out.python = o.sandbox.python;
  return out;
}

}  // namespace onramp::audit
