#include "onramp/python/interpreter.h"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>

#include "onramp/report/json_fields.h"
#include "onramp/util/command_line.h"

namespace onramp::python {
namespace {

constexpr const char* kQuery =
    "import json, sys, sysconfig\n"
    "from importlib import metadata, util\n"
    "try:\n"
    "    torch = metadata.version('torch')\n"
    "except metadata.PackageNotFoundError:\n"
    "    torch = None\n"
    "try:\n"
    "    spec = util.find_spec('torchgen')\n"
    "    torchgen = list(spec.submodule_search_locations)[0] if spec and spec.submodule_search_locations else None\n"
    "except Exception:\n"
    "    torchgen = None\n"
    "paths = sysconfig.get_paths()\n"
    "print(json.dumps({'python': '%d.%d.%d' % sys.version_info[:3], 'torch': torch,"
    " 'executable': sys.executable, 'torchgen': torchgen, 'venv': sys.prefix != sys.base_prefix,"
    " 'site': list(dict.fromkeys([paths['purelib'], paths['platlib']]))}))\n";

// Only PATH passes: the query writes nothing and needs no HOME.
std::vector<std::string> query_environment() {
  const char* path = std::getenv("PATH");
  return {std::string("PATH=") + (path ? path : "/usr/local/bin:/usr/bin:/bin"), "PYTHONDONTWRITEBYTECODE=1",
          "PYTHONNOUSERSITE=1"};
}

// An audit asks the same interpreter the same question up to eight times
// (each step opens a sandbox of its own), each answer an interpreter start.
// An answer is kept for this process while the interpreter and its site
// directories keep their modification times (an install into a venv changes
// its site-packages), and only for onramp's own runner, not a test's fake.
class Answers {
 public:
  std::optional<InterpreterFacts> find(const std::string& key) {
    std::lock_guard lock(mutex_);
    auto it = kept_.find(key);
    if (it == kept_.end() || it->second.second != stamps(it->second.first)) return std::nullopt;
    return it->second.first;
  }
  void keep(const std::string& key, const InterpreterFacts& facts) {
    std::lock_guard lock(mutex_);
    kept_[key] = {facts, stamps(facts)};
  }

 private:
  static std::vector<std::filesystem::file_time_type> stamps(const InterpreterFacts& f) {
    std::vector<std::filesystem::file_time_type> out;
    std::error_code ec;
    out.push_back(std::filesystem::last_write_time(f.executable, ec));
    for (const auto& dir : f.site_dirs) out.push_back(std::filesystem::last_write_time(dir, ec));
    return out;
  }
  std::mutex mutex_;
  std::map<std::string, std::pair<InterpreterFacts, std::vector<std::filesystem::file_time_type>>> kept_;
};

Answers& answers() {
  static Answers kept;
  return kept;
}

}  // namespace

Result<InterpreterFacts> query_interpreter(ProcessRunner& runner, const std::string& python) {
  RunRequest request;
  // A relative path ("venv/bin/python") names a file from here; the query
  // and every later run change directory first. A bare name is looked up
  // in PATH.
  std::string program = python;
  if (program.find('/') != std::string::npos && !program.starts_with("/")) {
    program = std::filesystem::absolute(program).lexically_normal().string();
  }
  bool own_runner = dynamic_cast<SandboxRunner*>(&runner) != nullptr;
  const char* path_var = std::getenv("PATH");
  std::string key = program + '\n' + (program.find('/') == std::string::npos && path_var ? path_var : "");
  if (own_runner) {
    if (auto kept = answers().find(key)) {
      kept->python = python;
      return *kept;
    }
  }
  request.argv = {program, "-I", "-c", kQuery};
  request.env = query_environment();
  request.cwd = "/";
  request.limits.wall_seconds = 60;
  auto result = runner.run(request);
  std::string command = util::command_line({python, "-I", "-c"}) +
                        " \"<importlib.metadata query: python version, torch version, torchgen, venv, site dirs>\"";
  if (!result) return fail(fmt::format("{}: cannot run: {}", python, result.error().message));
  if (!result->ok()) {
    return fail(fmt::format("{}: the interpreter query failed ({}): {}", python, result->outcome(), result->err.text()));
  }
  auto j = nlohmann::json::parse(result->out.text(), nullptr, false);
  std::string executable = report::text_field(j, "executable"), version = report::text_field(j, "python");
  if (!j.is_object() || executable.empty() || version.empty()) {
    return fail(fmt::format("{}: the interpreter query printed something unexpected: {}", python,
                            result->out.text().substr(0, 200)));
  }
  InterpreterFacts facts{python, executable, version, std::nullopt, report::text_field(j, "torchgen"),
                         report::bool_field(j, "venv", false), {}, "", command};
  if (j.contains("torch") && j["torch"].is_string()) facts.torch_version = j["torch"].get<std::string>();
  for (const auto& dir : report::array_field(j, "site")) {
    if (dir.is_string()) facts.site_dirs.push_back(dir.get<std::string>());
  }
  if (own_runner) answers().keep(key, facts);
  return facts;
}

Result<InterpreterFacts> choose_interpreter(ProcessRunner& runner, const std::string& requested, bool need_torch) {
  if (!requested.empty()) {
    auto facts = query_interpreter(runner, requested);
    if (facts && need_torch && !facts->torch_version) return fail("--python " + requested + ": it has no torch");
    if (facts) facts->chosen_by = "--python";
    return facts;
  }
  std::optional<InterpreterFacts> first;
  std::string errors;
  for (const char* candidate : {"python3", "/usr/bin/python3"}) {
    auto facts = query_interpreter(runner, candidate);
    if (!facts) {
      errors += (errors.empty() ? "" : "; ") + facts.error().message;
      continue;
    }
    if (facts->torch_version) {
      facts->chosen_by = "the first of python3 (on PATH), /usr/bin/python3 that has torch";
      return facts;
    }
    if (!first) first = std::move(*facts);
  }
  if (first && !need_torch) {
    first->chosen_by = "the first of python3 (on PATH), /usr/bin/python3 that runs (neither has torch)";
    return *first;
  }
  if (first) return fail("no Python interpreter with torch (tried python3, /usr/bin/python3); pass --python PY");
  return fail("no Python interpreter found (tried python3, /usr/bin/python3): " + errors);
}

std::string describe(const InterpreterFacts& f) {
  return fmt::format("{} ({}, Python {}, {}{}){}", f.python, f.executable, f.python_version,
                     f.torch_version ? "torch " + *f.torch_version : "no torch", f.is_venv ? ", a venv" : "",
                     f.chosen_by.empty() ? "" : ", chosen by " + f.chosen_by);
}

}  // namespace onramp::python
