#include "onramp/audit/requirement_step.h"

#include <fmt/format.h>

#include <cctype>

#include "onramp/index/index_pages.h"
#include "onramp/index/index_section.h"
#include "onramp/index/resolve.h"
#include "onramp/util/sandbox.h"
#include "onramp/wheel/metadata.h"

namespace onramp::audit {
namespace {

namespace fs = std::filesystem;
using index::IndexFacts;
using index::ResolvedDistribution;
using report::Figure;
using report::Finding;
using report::Severity;

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

std::string human_bytes(std::optional<uint64_t> bytes) {
  if (!bytes) return "size unknown";
  return fmt::format("{:.1f} MB", static_cast<double>(*bytes) / 1e6);
}

// How torch reaches the venv, and whether that is allowed.
struct TorchChoice {
  Figure figure;
  std::string stop;
};

TorchChoice choose_torch(const AuditOptions& o, const IndexFacts& f) {
  Figure fig{"torch", "Torch for the install", nullptr, "",
             "pip's resolution on top of the interpreter's packages: torch already installed there is used as it "
             "is; a torch pip would install comes from a local file (file://) or, only with --allow-torch-download, "
             "from the index",
             f.pip_command, ""};
  TorchChoice c{fig, ""};
  if (!f.report) {
    c.figure.not_measured = "pip did not resolve the requirement";
    return c;
  }
  for (const auto& d : f.report->install) {
    if (!is_torch(d.normalized_name)) continue;
    std::string asked = d.asked_by.empty() ? f.requirement : d.asked_by.front();
    if (d.url.starts_with("file://")) {
      c.figure.value = fmt::format("torch {} from a local file ({}), installed into the venv", d.version,
                                   index::local_path_of(d.url));
      return c;
    }
    std::string host = f.interpreter.torch_version ? "torch " + *f.interpreter.torch_version : "no torch";
    if (o.index.allow_torch_download) {
      c.figure.value = fmt::format("torch {} from the index ({}, {}), --allow-torch-download given", d.version,
                                   d.file_name, human_bytes(d.size));
      return c;
    }
    c.figure.value = fmt::format("torch {} would be downloaded ({}, {}): not allowed", d.version, d.file_name,
                                 human_bytes(d.size));
    c.stop = fmt::format(
        "{} needs torch {} (asked by {}); the interpreter has {}, and pip would download {} ({}): rerun with "
        "--allow-torch-download, or --torch SPEC for a torch this machine has",
        f.requirement, d.version, asked, host, d.file_name, human_bytes(d.size));
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

// The cached (or local) file of each distribution to install, linked into one directory.
Result<fs::path> make_wheelhouse(const fs::path& dir, const IndexFacts& f) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return fail(dir.string() + ": " + ec.message());
  for (const auto& d : f.report->install) {
    std::string path = index::local_path_of(d.url);
    for (const auto& got : f.downloads) {
      if (got.file_name == d.file_name && got.error.empty()) path = got.path;
    }
    if (path.empty()) return fail(fmt::format("{}: not in the cache and not a local file", d.file_name));
    fs::create_symlink(path, dir / d.file_name, ec);
    if (ec) return fail((dir / d.file_name).string() + ": " + ec.message());
  }
  return dir;
}

}  // namespace

std::string torch_requirement(const std::string& spec) {
  if (!spec.empty() && std::isdigit(static_cast<unsigned char>(spec.front()))) return "torch==" + spec;
  return "torch" + spec;
}

RequirementOutcome run_requirement(const AuditOptions& o, const fs::path& run_dir) {
  index::ResolveOptions r;
  r.requirement = o.target;
  r.python = o.python;
  r.index_url = o.index.index_url;
  r.extra_index_urls = o.index.extra_index_urls;
  r.find_links = o.index.find_links;
  r.ignore_requires_python = o.index.ignore_requires_python;
  r.ignore_installed = false;
  if (!o.index.torch.empty()) r.extra_requirements.push_back(torch_requirement(o.index.torch));
  r.download = true;
  r.cache_root = o.index.cache_root;
  r.pip_timeout_seconds = o.timeout_seconds;
  fs::path dir = run_dir / "resolve";
  r.make_run_dir = [dir]() -> Result<fs::path> {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return fail(dir.string() + ": " + ec.message());
    return dir;
  };
  r.progress = o.progress;
  r.download_progress = o.index.download_progress;
  SandboxRunner runner;
  auto resolved = value_or_fatal(index::resolve_requirement(runner, r));
  IndexFacts& f = resolved.facts;
  TorchChoice torch = choose_torch(o, f);
  const std::string& project = f.project;
  bool held = !torch.stop.empty();
  // Local files are installed from where they are; with torch held back only
  // the backend and its direct requirements are fetched, for the wheel step.
  index::fetch_resolution(r, f, [&](const ResolvedDistribution& d) {
    if (d.url.starts_with("file://")) return false;
    return !held || (project_or_direct(d, project) && !is_torch(d.normalized_name));
  });
  RequirementOutcome out{index::index_section(f), {}, {}, torch.stop};
  out.section.add(torch.figure);
  if (o.index.ignore_requires_python) {
    out.section.add(Figure{"requires_python_ignored", "Requires-Python ignored", true, "",
                           "--ignore-requires-python given: passed to pip for the resolution and the install", f.pip_command,
                           ""});
  }
  if (held) out.section.add(Finding{Severity::blocker, torch.stop, "", f.pip_command});
  if (!f.report) {
    out.stop = fmt::format("pip could not resolve {} ({}): see the index section", f.requirement, f.pip.outcome());
    return out;
  }
  std::vector<std::string> native;
  for (const auto& d : f.report->install) {
    if (!project_or_direct(d, project) || is_torch(d.normalized_name)) continue;
    std::string path = index::local_path_of(d.url);
    for (const auto& got : f.downloads) {
      if (got.file_name == d.file_name && got.error.empty()) path = got.path;
    }
    if (path.empty() || !d.file_name.ends_with(".whl")) continue;
    if (d.normalized_name == project) out.wheels.insert(out.wheels.begin(), path);
    else if (native_wheel(d.file_name)) native.push_back(path);
  }
  out.wheels.insert(out.wheels.end(), native.begin(), native.end());
  for (const auto& d : f.downloads) {
    if (!d.error.empty() && out.stop.empty()) out.stop = "a download failed: " + d.error;
  }
  if (out.stop.empty()) {
    auto house = make_wheelhouse(run_dir / "wheelhouse", f);
    if (house) out.wheelhouse = *house;
    else out.stop = house.error().message;
  }
  return out;
}

}  // namespace onramp::audit
