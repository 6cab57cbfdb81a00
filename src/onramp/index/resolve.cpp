#include "onramp/index/resolve.h"

#include <fmt/format.h>

#include <future>

#include <sstream>

#include "onramp/index/index_pages.h"
#include "onramp/index/index_section.h"
#include "onramp/python/runner.h"
#include "onramp/python/scripts.h"
#include "onramp/util/embedded.h"
#include "onramp/util/command_line.h"
#include "onramp/util/sandbox.h"
#include "onramp/util/text_file.h"
#include "onramp/packaging/metadata.h"
#include "onramp/wheel/wheel_archive.h"

namespace onramp::index {
namespace fs = std::filesystem;
namespace {

using python::Runner;
using util::command_line;

// pip without the user's configuration: only what its command line names.
const std::pair<std::string, std::string> kNoPipConfig{"PIP_CONFIG_FILE", "/dev/null"};

std::vector<std::string> nonblank_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) out.push_back(line);
  }
  return out;
}

bool is_url(const std::string& s) {
  return s.starts_with("http://") || s.starts_with("https://") || s.starts_with("file://");
}

std::vector<std::string> pip_install_argv(const ResolveOptions& o, const IndexFacts& f, const fs::path& report) {
  auto argv = python::pip_argv(f.interpreter.executable,
                               {"install", "--dry-run", "--progress-bar", "off", "--report", report.string()});
  if (o.ignore_installed) argv.push_back("--ignore-installed");
  if (f.pass_index_url) argv.insert(argv.end(), {"--index-url", f.index_url});
  for (const auto& u : f.extra_index_urls) argv.insert(argv.end(), {"--extra-index-url", u});
  // pip runs in the run directory: a relative find-links directory is made absolute first.
  for (const auto& d : f.find_links) argv.insert(argv.end(), {"--find-links", is_url(d) ? d : fs::absolute(d).string()});
  for (const auto& c : f.constraints) argv.insert(argv.end(), {"--constraint", c});
  for (const auto& c : o.constraints) argv.insert(argv.end(), {"--constraint", c});
  if (o.ignore_requires_python) argv.push_back("--ignore-requires-python");
  argv.push_back(o.requirement);
  argv.insert(argv.end(), o.extra_requirements.begin(), o.extra_requirements.end());
  return argv;
}

void run_pip_resolution(const Runner& pip, const ResolveOptions& o, IndexFacts& f, const fs::path& run_dir) {
  fs::path report = run_dir / "pip-report.json";
  auto argv = pip_install_argv(o, f, report);
  f.pip_command = command_line(argv, f.config_ignored ? python::EnvVars{kNoPipConfig} : python::EnvVars{});
  o.progress("resolving with pip (nothing is installed): " + f.pip_command);
  auto run = pip.run(argv, Child::kPipResolve);
  if (!run) {
    f.pip.exit_code = -1;
    f.pip_last_lines = {run.error().message};
    return;
  }
  f.pip = *run;
  if (!o.ignore_installed) f.satisfied = parse_already_satisfied(f.pip.out.text());
  auto lines = nonblank_lines(f.pip.err.text());
  for (const auto& l : lines) {
    // pip names a page's data-requires-python "Requires-Python" and a wheel's metadata "requires a different Python".
    bool refusal = l.find("Requires-Python") != std::string::npos || l.find("requires a different Python") != std::string::npos;
    if (f.requires_python_line.empty() && refusal) f.requires_python_line = l;
  }
  if (!f.pip.ok()) {
    f.pip_last_lines.assign(lines.size() > 6 ? lines.end() - 6 : lines.begin(), lines.end());
    return;
  }
  auto text = util::read_text_file(report.string());
  auto parsed = text ? parse_pip_report(*text, report.string()) : Result<PipReport>(fail(report.string() + ": not written"));
  if (!parsed) {
    f.report_error = parsed.error().message;
    return;
  }
  f.report = std::move(*parsed);
  attribute_requirements(f.report->install, o.requirement, f.extras);
  // A requested distribution that an extra requirement names was asked for by it, not by the requirement.
  for (const auto& extra : o.extra_requirements) {
    auto req = wheel::parse_requirement(extra);
    for (auto& d : f.report->install) {
      if (req && d.requested && d.normalized_name == req->normalized_name) d.asked_by = {extra};
    }
  }
}

}  // namespace

// The sandbox hides the user's pip configuration (HOME, PIP_* variables), so
// it is read here, with onramp's own environment, and passed to pip as options.
void find_index(ProcessRunner& runner, const ResolveOptions& o, IndexFacts& f, const fs::path& run_dir) {
  f.find_links = o.find_links;
  if (o.index_url) {
    f.index_url = *o.index_url;
    f.index_url_source = "--index-url";
    f.pass_index_url = true;
    f.extra_index_urls = o.extra_index_urls;
    return;
  }
  auto argv = python::pip_argv(f.interpreter.executable, {"config", "list"});
  f.config_command = command_line(argv);
  auto as_user = Runner::as_user(runner, run_dir, o.limits);
  PipIndexConfig config;
  if (auto run = as_user.run(argv, Child::kPipQuery); run && run->ok()) config = parse_pip_config_list(run->out.text());
  f.extra_index_urls = o.extra_index_urls.empty() ? config.extra_index_urls : o.extra_index_urls;
  f.find_links.insert(f.find_links.end(), config.find_links.begin(), config.find_links.end());
  f.constraints = config.constraints;
  if (config.index_url) {
    f.index_url = *config.index_url;
    f.index_url_source = "pip's configuration (" + config.index_url_key + ", from " + f.config_command + ")";
    f.pass_index_url = true;
    return;
  }
  std::vector<std::string> ask{f.interpreter.executable, "-c",
                               std::string(embedded::get(python::scripts::kPipDefaultIndex))};
  auto run = as_user.run(ask, Child::kPipQuery);
  if (run && run->ok()) {
    auto lines = nonblank_lines(run->out.text());
    if (!lines.empty()) f.index_url = lines.back();
  }
  f.index_url_source = "pip's own default (" + command_line({f.interpreter.executable, "-c"}) + " \"<" +
                       python::scripts::kPipDefaultIndex + ">\"), as " + f.config_command + " names none";
}

namespace {

void read_tags(const Runner& pip, IndexFacts& f) {
  auto argv = python::pip_argv(f.interpreter.executable, {"debug", "--verbose"});
  f.tags_command = command_line(argv);
  auto run = pip.run(argv, Child::kPipQuery);
  if (!run || !run->ok()) {
    f.tags_error = run ? "pip debug failed: " + run->outcome() : run.error().message;
    return;
  }
  auto tags = parse_pip_debug_tags(run->out.text());
  if (tags) f.tags = std::move(*tags); else f.tags_error = tags.error().message;
}

void read_pages(const ResolveOptions& o, IndexFacts& f) {
  std::vector<std::string> indexes{f.index_url};
  indexes.insert(indexes.end(), f.extra_index_urls.begin(), f.extra_index_urls.end());
  for (const auto& index : indexes) {
    if (index.empty()) continue;
    o.progress("reading " + project_page_url(index, f.project));
    f.pages.push_back(read_project_page(index, f.project));
  }
}

// Sizes of the resolved files: the cache, a file:// path, or a page that lists them.
void size_resolved(const ResolveOptions& o, IndexFacts& f, const FileCache& cache) {
  for (auto& d : f.report->install) {
    if (auto hit = cache.find(d.sha256, d.file_name)) d.size = hit->bytes;
    std::error_code ec;
    if (std::string path = local_path_of(d.url); !d.size && !path.empty() && fs::is_regular_file(path, ec)) {
      d.size = fs::file_size(path, ec);
    }
    if (!d.size && d.normalized_name != f.project && !f.index_url.empty() && !d.url.starts_with("file://")) {
      o.progress("reading " + project_page_url(f.index_url, d.name));
      PageRead read = read_project_page(f.index_url, d.name);
      for (const auto& file : read.page.files) {
        if (file.file_name == d.file_name && file.size) d.size = file.size;
      }
    }
    for (const auto& p : f.pages) {
      for (const auto& file : p.page.files) {
        if (!d.size && file.file_name == d.file_name && file.size) d.size = file.size;
      }
    }
  }
}

// The size the project's pages give a file (0: they do not), for progress.
uint64_t size_on_pages(const IndexFacts& f, const std::string& file_name) {
  for (const auto& p : f.pages) {
    for (const auto& file : p.page.files) {
      if (file.file_name == file_name && file.size) return *file.size;
    }
  }
  return 0;
}

void download_all(const ResolveOptions& o, IndexFacts& f, const FileCache& cache, const WantFn& want) {
  for (auto& d : f.report->install) {
    if (!want(d)) continue;
    if (d.sha256.empty()) {
      f.downloads.push_back({d.name, d.file_name, 0, false, 0, "",
                             d.url + ": pip's report gives no sha256, so it cannot be checked: not cached"});
      continue;
    }
    f.downloads.push_back(
        fetch_into_cache(o, cache, d.name, d.url, d.sha256, d.file_name, d.size.value_or(size_on_pages(f, d.file_name))));
    if (f.downloads.back().error.empty()) d.size = f.downloads.back().bytes;
  }
}

void forecast(IndexFacts& f, const FileCache& cache) {
  std::vector<std::pair<std::string, uint64_t>> unpacked;
  for (const auto& d : f.report->install) {
    auto hit = cache.find(d.sha256, d.file_name);
    if (!hit || !d.file_name.ends_with(".whl")) continue;
    if (auto bytes = wheel::declared_unpacked_bytes(hit->path.string(), wheel::ArchiveLimits{})) {
      unpacked.emplace_back(d.file_name, *bytes);
    }
  }
  f.forecast = forecast_temp_space(f.report->install, unpacked);
}

}  // namespace

Result<void> check_resolve_input(const ResolveOptions& o) {
  auto r = wheel::parse_requirement(o.requirement);
  if (!r) return fail(fmt::format("{}: not a requirement: {}", o.requirement, r.error().message));
  if (o.index_url && !is_url(*o.index_url)) return fail(fmt::format("--index-url {}: not an http(s):// or file:// URL", *o.index_url));
  for (const auto& u : o.extra_index_urls) {
    if (!is_url(u)) return fail(fmt::format("--extra-index-url {}: not an http(s):// or file:// URL", u));
  }
  for (const auto& d : o.find_links) {
    std::error_code ec;
    if (!is_url(d) && !fs::exists(d, ec)) return fail(fmt::format("--find-links {}: no such file or directory", d));
  }
  return {};
}

Result<ResolvedRun> resolve_requirement(python::Interpreters& interpreters, const ResolveOptions& o) {
  if (auto ok = check_resolve_input(o); !ok) return std::unexpected(ok.error());
  IndexFacts f;
  auto requirement = wheel::parse_requirement(o.requirement);
  f.requirement = o.requirement;
  f.extras = requirement->extras;
  f.project = requirement->normalized_name;
  f.ignore_installed = o.ignore_installed;
  f.extra_requirements = o.extra_requirements;
  auto py = interpreters.choose(o.python);
  if (!py) return std::unexpected(py.error());
  f.interpreter = *py;
  f.glibc = this_glibc_version();
  auto run_dir = o.make_run_dir();
  if (!run_dir) return std::unexpected(run_dir.error());
  auto dirs = prepare_sandbox(*run_dir);
  if (!dirs) return std::unexpected(dirs.error());
  // With --index-url, pip sees only the indexes and links given on the command line.
  f.config_ignored = o.index_url.has_value();
  auto pip = Runner::sandboxed(interpreters.runner(), *dirs, *run_dir, o.limits, f.config_ignored ? python::EnvVars{kNoPipConfig} : python::EnvVars{});
  find_index(interpreters.runner(), o, f, *run_dir);
  // The tags pip accepts and the project's pages need nothing of the
  // resolution, which keeps one core busy for seconds: asked beside it, each
  // writing fields of its own.
  auto beside = std::async(std::launch::async, [&] {
    read_tags(pip, f);
    read_pages(o, f);
  });
  run_pip_resolution(pip, o, f, *run_dir);
  beside.get();
  f.cache_root = o.cache_root.string();
  std::optional<std::string> resolved_version;
  JudgeContext context{f.tags, f.glibc, f.interpreter.python_version, o.ignore_requires_python, ""};
  if (f.report) {
    for (const auto& d : f.report->install) {
      if (d.normalized_name == f.project) resolved_version = d.version, context.pip_file_name = d.file_name;
    }
  }
  f.release = choose_release(resolved_version, requirement->specifier, f.pages);
  if (f.tags_error.empty()) f.files = judge_release(f.pages, f.release.version, context);
  f.releases = summarize_releases(f.pages);
  return ResolvedRun{std::move(f), *run_dir};
}

void fetch_resolution(const ResolveOptions& o, IndexFacts& f, const WantFn& want) {
  if (!f.report) return;
  FileCache cache(o.cache_root);
  if (o.download) download_all(o, f, cache, want);
  size_resolved(o, f, cache);
  forecast(f, cache);
}

DownloadOutcome fetch_into_cache(const ResolveOptions& o, const FileCache& cache, const std::string& name,
                                 const std::string& url, const std::string& sha256, const std::string& file_name,
                                 uint64_t expected_bytes) {
  DownloadOutcome out{name, file_name, 0, false, 0, "", ""};
  auto got = cache.fetch(
      url, sha256, file_name,
      [&](uint64_t done, uint64_t total) {
        if (o.download_progress) o.download_progress(file_name, done, total);
      },
      expected_bytes);
  if (got) {
    out.bytes = got->bytes;
    out.hit = got->hit;
    out.resumed_from = got->resumed_from;
    out.path = got->path.string();
  } else {
    out.error = got.error().message;
  }
  return out;
}

Result<LocalDistribution> find_local_distribution(python::Interpreters& interpreters, const ResolveOptions& o,
                                                  const std::string& requirement, const fs::path& dir) {
  auto py = interpreters.choose(o.python);
  if (!py) return std::unexpected(py.error());
  std::error_code ec;
  fs::create_directories(dir, ec);
  auto dirs = prepare_sandbox(dir);
  if (!dirs) return std::unexpected(dirs.error());
  IndexFacts f;
  f.interpreter = *py;
  find_index(interpreters.runner(), o, f, dir);  // for pip's configured find-links
  fs::path report = dir / "local-report.json";
  auto argv = python::pip_argv(py->executable, {"install", "--dry-run", "--no-deps", "--no-index", "--ignore-installed",
                                                 "--progress-bar", "off", "--report", report.string()});
  for (const auto& d : f.find_links) argv.insert(argv.end(), {"--find-links", is_url(d) ? d : fs::absolute(d).string()});
  argv.push_back(requirement);
  LocalDistribution out{"", "", command_line(argv), {}};
  auto pip = Runner::sandboxed(interpreters.runner(), *dirs, dir, o.limits, {kNoPipConfig});
  auto run = pip.run(argv, Child::kPipLocalLookup);
  if (!run) return std::unexpected(run.error());
  if (!run->ok()) return fail(fmt::format("no file on this machine satisfies {} ({})", requirement, out.command));
  auto text = util::read_text_file(report.string());
  auto parsed = text ? parse_pip_report(*text, report.string()) : Result<PipReport>(fail(report.string() + ": not written"));
  if (!parsed) return std::unexpected(parsed.error());
  if (parsed->install.size() != 1) return fail(fmt::format("{}: pip's report names {} files", report.string(), parsed->install.size()));
  out.version = parsed->install.front().version;
  out.path = local_path_of(parsed->install.front().url);
  out.requires_dist = parsed->install.front().requires_dist;
  if (out.path.empty()) return fail(fmt::format("{}: not a local file: {}", requirement, parsed->install.front().url));
  return out;
}

Result<ResolveOutcome> run_resolve(python::Interpreters& interpreters, const ResolveOptions& o) {
  auto resolved = resolve_requirement(interpreters, o);
  if (!resolved) return std::unexpected(resolved.error());
  IndexFacts& f = resolved->facts;
  fetch_resolution(o, f, [](const ResolvedDistribution&) { return true; });
  ResolveOutcome out{index_section(f), resolved->run_dir, f.report.has_value(), true};
  for (const auto& d : f.downloads) out.downloads_ok &= d.error.empty();
  return out;
}

}  // namespace onramp::index
