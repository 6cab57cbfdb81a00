#include "onramp/audit/import_failure.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <sstream>

#include "onramp/audit/own_host.h"
#include "onramp/packaging/pip_lines.h"
#include "onramp/packaging/pip_report.h"
#include "onramp/python/interpreter.h"
#include "onramp/python/runner.h"
#include "onramp/util/command_line.h"
#include "onramp/util/sandbox.h"
#include "onramp/util/text_file.h"
#include "onramp/wheel/wheel_facts.h"
#include "onramp/util/text.h"

namespace onramp::audit {
namespace {

namespace fs = std::filesystem;
using report::Finding;
using report::Json;

constexpr size_t kAccessLines = 5;

// The extra a marker names in its `extra == "NAME"` clause; "" when none.
std::string extra_in(const std::string& marker) {
  for (size_t at = marker.find("extra"); at != std::string::npos; at = marker.find("extra", at + 1)) {
    size_t eq = marker.find_first_not_of(' ', at + 5);
    if (eq == std::string::npos || marker.compare(eq, 2, "==") != 0) continue;
    size_t open = marker.find_first_not_of(' ', eq + 2);
    if (open == std::string::npos || (marker[open] != '"' && marker[open] != '\'')) continue;
    size_t close = marker.find(marker[open], open + 1);
    if (close == std::string::npos) return "";
    return marker.substr(open + 1, close - open - 1);
  }
  return "";
}

std::string without_marker(const wheel::Requirement& r) {
  std::string out = r.name;
  if (!r.extras.empty()) out += fmt::format("[{}]", fmt::join(r.extras, ","));
  return out + (r.url.empty() ? r.specifier : " @ " + r.url);
}

// Whether pip resolves an extra's requirements from the configured indexes, in its own words.
struct ExtraAnswer {
  std::string answer;
  std::string command;
};

ExtraAnswer ask_pip(ProcessRunner& runner, const RuntimeQuery& q, const Extra& extra) {
  if (q.index_args.empty()) return {"not asked: the target is not a requirement, so no index is configured", ""};
  fs::path dir = q.run_dir / ("extra-" + extra.name);
  auto dirs = prepare_sandbox(dir);
  if (!dirs) return {"not asked: " + dirs.error().message, ""};
  fs::path report = dir / "pip-report.json";
  std::vector<std::string> args{"install", "--dry-run", "--no-deps", "--ignore-installed", "--progress-bar", "off",
                                "--report", report.string()};
  args.insert(args.end(), q.index_args.begin(), q.index_args.end());
  args.insert(args.end(), extra.requirements.begin(), extra.requirements.end());
  auto argv = python::pip_argv(q.python, args);
  std::string command = util::command_line(argv);
  auto run = python::Runner::sandboxed(runner, *dirs, dir, q.limits).run(argv, Child::kPipResolve);
  if (!run) return {"not asked: " + run.error().message, command};
  if (!run->ok()) {
    auto why = index::refusal_lines(run->out.text() + "\n" + run->err.text());
    return {fmt::format("pip cannot resolve it from the configured indexes ({}): \"{}\"", run->outcome(),
                        fmt::join(why, "\" / \"")),
            command};
  }
  auto text = util::read_text_file(report.string());
  auto parsed = text ? index::parse_pip_report(*text, report.string()) : Result<index::PipReport>(fail("no report"));
  std::vector<std::string> found;
  if (parsed) {
    for (const auto& d : parsed->install) found.push_back(d.name + " " + d.version);
  }
  return {fmt::format("pip resolves it from the configured indexes ({})", fmt::join(found, ", ")), command};
}

Finding* failed_import(report::Report& r) {
  report::Section* probe = r.section("probe");
  if (!probe) return nullptr;
  for (auto& f : probe->findings) {
    if (f.text.starts_with("import ") && is_missing_runtime(f.diagnosis)) return &f;
  }
  return nullptr;
}

}  // namespace

diagnosis::Facts import_facts(const RunContext& run, const std::string& backend_wheel,
                              const python::PythonRequest& python) {
  diagnosis::Facts facts;
  if (!backend_wheel.empty()) {
    std::string declared = torch_requirement_of(run.wheels, backend_wheel);
    facts.set("torch_declared", declared.empty() ? "declares none" : declared);
    if (!declared.empty()) facts.set("torch_range", declared);
  }
  auto py = run.interpreters.choose(python);
  if (py && py->torch_version) facts.set("torch_version", *py->torch_version);
  return facts;
}

std::vector<Extra> extras_of(const std::vector<wheel::Requirement>& requirements) {
  std::vector<Extra> out;
  for (const auto& r : requirements) {
    std::string name = extra_in(r.marker);
    if (name.empty()) continue;
    auto it = std::find_if(out.begin(), out.end(), [&](const Extra& e) { return e.name == name; });
    if (it == out.end()) it = out.insert(out.end(), Extra{name, {}});
    it->requirements.push_back(without_marker(r));
  }
  return out;
}

std::vector<std::string> access_lines(const std::string& readme_text, const std::string& path, size_t max) {
  static const std::vector<std::string> words{"index-url", "--index", "/simple", "package index", "login", "log in",
                                              "sign in", "account", "credential", "token", "register"};
  std::vector<std::string> out;
  std::istringstream in(readme_text);
  size_t n = 0;
  for (std::string line; std::getline(in, line) && out.size() < max;) {
    ++n;
    std::string l = util::lowercase(line);
    if (std::any_of(words.begin(), words.end(), [&](const std::string& w) { return l.find(w) != std::string::npos; })) {
      size_t b = line.find_first_not_of(" \t");
      out.push_back(fmt::format("{}:{}: {}", path, n, line.substr(b == std::string::npos ? 0 : b)));
    }
  }
  return out;
}

bool is_missing_runtime(const std::string& id) {
  return id == "shared-object-not-found" || id == "shared-library-not-found" || id == "vendor-runtime-missing";
}

void explain_missing_runtime(const RunContext& run, report::Report& r, const RuntimeQuery& q) {
  Finding* finding = failed_import(r);
  if (!finding || q.backend_wheel.empty()) return;
  auto facts = run.wheels.read(q.backend_wheel);
  if (!facts) return;
  auto extras = extras_of(facts->requirements);
  report::Table t{"runtime_extras", "Extras the backend declares, asked of pip",
                  "Requires-Dist entries conditional on `extra == NAME` in the backend's METADATA; each extra's "
                  "requirements resolved by pip install --dry-run --no-deps in the sandbox, from the configured indexes",
                  q.backend_wheel,
                  {{"extra", "Extra", ""}, {"requirements", "Requirements", ""}, {"answer", "pip", ""},
                   {"command", "Command", ""}},
                  {}};
  std::vector<std::string> said;
  for (const auto& extra : extras) {
    auto a = ask_pip(run.runner(), q, extra);
    t.rows.push_back(Json{{"extra", extra.name}, {"requirements", fmt::format("{}", fmt::join(extra.requirements, ", "))},
                          {"answer", a.answer}, {"command", a.command}});
    said.push_back(fmt::format("[{}] ({}): {}", extra.name, fmt::join(extra.requirements, ", "), a.answer));
    if (!a.command.empty()) finding->evidence += "\n" + a.command;
  }
  finding->text += extras.empty() ? " Its metadata declares no extras."
                                  : fmt::format(" Its metadata declares {} extra(s): {}.", extras.size(),
                                                fmt::join(said, "; "));
  std::string readme_text;
  if (!q.readme.empty()) {
    if (auto text = util::read_text_file(q.readme)) readme_text = *text;
  }
  auto lines = access_lines(readme_text, q.readme, kAccessLines);
  if (!lines.empty()) {
    finding->text += fmt::format(" Its README names another index, a login or an account: \"{}\"", fmt::join(lines, "\" / \""));
  }
  if (!extras.empty()) r.section("probe")->add(std::move(t));
}

}  // namespace onramp::audit
