#include "onramp/install/sdist_build.h"

#include <archive.h>
#include <archive_entry.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>

#include "onramp/packaging/pip_lines.h"
#include "onramp/python/runner.h"
#include "onramp/util/command_line.h"
#include "onramp/util/text.h"
#include "onramp/util/toml_file.h"
#include "onramp/wheel/wheel_facts.h"
#include "onramp/wheel/wheel_section.h"
#include "onramp/report/writing.h"

namespace onramp::install {
namespace {

namespace fs = std::filesystem;
using namespace report::writing;

constexpr la_int64_t kPyprojectLimit = 1 << 20;  // a pyproject.toml is a few KB; more is not read
constexpr size_t kErrorLines = 5;

// pip's fallback for an sdist without [build-system] (PEP 518).
constexpr const char* kSetuptoolsDefault = "setuptools>=40.8.0";

// The text of the sdist's top-level pyproject.toml ("name-1.0/pyproject.toml"); empty when it has none.
Result<std::string> pyproject_text(const std::string& sdist) {
  std::unique_ptr<archive, decltype(&archive_read_free)> a(archive_read_new(), &archive_read_free);
  archive_read_support_filter_all(a.get());
  archive_read_support_format_tar(a.get());
  archive_read_support_format_zip(a.get());
  if (archive_read_open_filename(a.get(), sdist.c_str(), 1 << 16) != ARCHIVE_OK) {
    return fail(fmt::format("{}: not a tar or zip archive ({})", sdist,
                            archive_error_string(a.get()) ? archive_error_string(a.get()) : "unreadable"));
  }
  archive_entry* entry = nullptr;
  for (int rc; (rc = archive_read_next_header(a.get(), &entry)) != ARCHIVE_EOF;) {
    if (rc < ARCHIVE_WARN) return fail(fmt::format("{}: truncated or corrupt archive", sdist));
    std::string path = archive_entry_pathname(entry) ? archive_entry_pathname(entry) : "";
    auto slash = path.find('/');
    if (slash == std::string::npos || path.substr(slash + 1) != "pyproject.toml") continue;
    if (archive_entry_size(entry) > kPyprojectLimit) return fail(fmt::format("{}: {} is over 1 MB", sdist, path));
    std::string text(static_cast<size_t>(archive_entry_size(entry)), '\0');
    if (archive_read_data(a.get(), text.data(), text.size()) != static_cast<la_ssize_t>(text.size())) {
      return fail(fmt::format("{}: {} cannot be read", sdist, path));
    }
    return text;
  }
  return std::string();
}

std::string built_wheel_in(const fs::path& dir) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".whl") return e.path().string();
  }
  return "";
}

void add_build_system(report::Section& s, const BuildSystem& b, const std::string& evidence) {
  Json listed = Json::array();
  for (const auto& r : b.requirements) listed.push_back(r);
  if (!b.declared) listed.push_back(kSetuptoolsDefault);
  s.add(Figure{"build_requirements", "Build requirements", listed, "",
               b.declared ? "[build-system] requires of the sdist's pyproject.toml; pip installs them into an isolated "
                            "build environment, fetched from the configured indexes: the one place an audit of a "
                            "requirement asks an index again after the resolution"
                          : "the sdist declares no [build-system]: pip's default for a setup.py build, fetched from the "
                            "configured indexes: the one place an audit of a requirement asks an index again after the "
                            "resolution",
               evidence, ""});
  s.add(Figure{"build_backend", "Build backend", b.backend.empty() ? Json("setuptools (pip's default)") : Json(b.backend),
               "", "[build-system] build-backend of the sdist's pyproject.toml", evidence, ""});
}

// The built wheel's figures: what the build compiled.
void add_built_wheel(wheel::WheelReads& reads, report::Section& s, const std::string& wheel,
                     const std::string& command) {
  s.add(Figure{"built_wheel", "Built wheel", fs::path(wheel).filename().string(), "", "the file pip wheel wrote",
               command, ""});
  auto facts = reads.read(wheel);
  if (!facts) {
    s.add(Figure{"native_files", "Native files in the built wheel", nullptr, "files", "", wheel, facts.error().message});
    return;
  }
  auto natives = wheel::native_members(facts->archive);
  s.add(Figure{"native_files", "Native files in the built wheel", natives.size(), "files",
               "members of the built wheel that start with the ELF magic: what the build compiled", wheel, ""});
  report::Table t{"native_files", "Native files the build compiled", "ELF members of the built wheel", wheel,
                  {{"path", "Path", ""}, {"bytes", "Size", "bytes"}}, {}};
  for (const auto* m : natives) t.rows.push_back(Json{{"path", m->path}, {"bytes", m->size}});
  s.add(std::move(t));
}

}  // namespace

Result<BuildSystem> read_build_system(const std::string& sdist) {
  auto text = pyproject_text(sdist);
  if (!text) return std::unexpected(text.error());
  BuildSystem b;
  if (text->empty()) return b;
  auto doc = util::parse_toml(*text, sdist + ":pyproject.toml");
  if (!doc) return std::unexpected(doc.error());
  const auto* system = (*doc)["build-system"].as_table();
  if (!system) return b;
  b.declared = true;
  b.requirements = util::toml_strings(*system, "requires");
  b.backend = (*system)["build-backend"].value_or(std::string());
  return b;
}

SdistBuild build_sdist(ProcessRunner& runner, wheel::WheelReads& reads, const SdistBuildOptions& o) {
  SdistBuild out{report::Section{"build", "Build from the sdist", {}, {}, {}}, "", ""};
  auto& s = out.section;
  std::string name = fs::path(o.sdist).filename().string();
  fs::path wheel_dir = o.run_dir / "wheel";
  std::error_code ec;
  fs::create_directories(wheel_dir, ec);
  auto dirs = prepare_sandbox(o.run_dir);
  if (ec || !dirs) {
    out.stop = fmt::format("{}: cannot make the build directory", o.run_dir.string());
    return out;
  }
  std::vector<std::string> args{"wheel", "--no-deps", "--progress-bar", "off", "-w", wheel_dir.string()};
  args.insert(args.end(), o.index_args.begin(), o.index_args.end());
  args.push_back(o.sdist);
  auto argv = python::pip_argv(o.python, args);
  std::string command = util::command_line(argv);
  auto build_system = read_build_system(o.sdist);
  if (build_system) add_build_system(s, *build_system, o.sdist + ":pyproject.toml");
  else s.add(Figure{"build_requirements", "Build requirements", nullptr, "", "", o.sdist, build_system.error().message});

  auto pip = python::Runner::sandboxed(runner, *dirs, o.run_dir, o.limits, o.env);
  auto run = pip.run(argv, Child::kSdistBuild);
  double seconds = run ? run->wall_seconds : 0;
  s.add(Figure{"build_seconds", "Build time", seconds, "s",
               "wall time of pip wheel --no-deps on the cached sdist, in the sandbox (build requirements fetched, the "
               "package's own build code run)",
               command, run ? "" : run.error().message});
  std::string wheel = run && run->ok() ? built_wheel_in(wheel_dir) : "";
  if (wheel.empty()) {
    std::vector<std::string> why =
        run ? index::build_error_lines(run->out.text() + "\n" + run->err.text(), kErrorLines)
            : std::vector<std::string>{run.error().message};
    std::string outcome = run ? run->outcome() : "not started";
    out.stop = fmt::format("the sdist {} did not build (pip wheel: {})", name, outcome);
    std::string text = out.stop;
    if (!why.empty()) text += fmt::format(": \"{}\"", fmt::join(why, "\" / \""));
    s.add(Finding{Severity::blocker,
                  report::Title{fmt::format("the sdist {} did not build (pip wheel: {})", util::shortened(name, 40),
                                            util::shortened(outcome, 22))},
                  text,
                  "The release has no wheel for this platform and its sdist does not build here: install what the "
                  "build's error names (a compiler, a vendor SDK, a header), or ask the project for a wheel",
                  command});
    return out;
  }
  add_built_wheel(reads, s, wheel, command);
  s.add(Finding{Severity::info, report::Title{"The release has no wheel for this interpreter"},
                fmt::format("The release has no wheel for this interpreter: onramp built {} from its sdist, as pip "
                            "would (build time: the build_seconds figure); the build ran the package's own build code "
                            "in the sandbox, and pip fetched its build requirements from the configured indexes (the "
                            "one place this audit asks an index again after the resolution)",
                            fs::path(wheel).filename().string()),
                "", command});
  out.wheel = wheel;
  return out;
}

}  // namespace onramp::install
