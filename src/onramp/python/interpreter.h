#pragma once
// The Python interpreter onramp runs a target's code with (the "host"): its
// version, whether it is a venv, where its packages live, and the torch and
// torchgen it sees. Read from distribution metadata and import specs
// (importlib.metadata, importlib.util.find_spec), never by importing torch, in
// isolated mode (-I). The query also asks which wheel tags the interpreter
// supports (sys_tags() of pip's vendored packaging, else of packaging), so
// that a wheel is judged by its platform as pip judges it.
//
// A run asks through one Interpreters, made where the run begins and passed
// down: each interpreter is asked once per state (an install into a venv
// changes its site directories, and only then is it asked again).
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onramp/packaging/tags.h"
#include "onramp/util/error.h"
#include "onramp/util/process.h"
#include "onramp/util/time_limits.h"

namespace onramp::python {

struct InterpreterFacts {
  std::string python;          // as given ("python3", "/usr/bin/python3")
  std::string executable;      // sys.executable
  std::string python_version;  // "3.11.2"
  std::optional<std::string> torch_version;  // empty when torch is not installed
  std::string torchgen_dir;    // the torchgen package's directory; empty without one
  bool is_venv = false;        // sys.prefix != sys.base_prefix
  std::vector<std::string> site_dirs;  // purelib and platlib (distinct), where its packages live
  std::string chosen_by;       // how it was chosen: "--python", "the first of python3, ... with torch"
  std::string command;         // the exact command run: evidence
  // The wheel tags it supports, most preferred first; nullopt when the query
  // could not ask them (no pip with packaging.tags, no packaging).
  std::optional<index::CompatibleTags> tags;
  std::string tags_source;  // "pip._vendor.packaging.tags.sys_tags()", or "unknown: " and why
  std::string platform;     // sysconfig.get_platform(): "linux-x86_64"
  std::string libc;         // platform.libc_ver(): "glibc 2.36"; empty when it names none
};

// Which interpreter to run: one named (by --python, or by onramp itself, as
// its own host), or onramp's choice (a default PythonRequest).
class PythonRequest {
 public:
  PythonRequest() = default;  // choose for me
  // A named interpreter; `chosen_by` says who named it. An empty path is a
  // std::invalid_argument: "choose for me" is the default value, not "".
  explicit PythonRequest(std::string path, std::string chosen_by = "--python");
  explicit PythonRequest(const char* path) : PythonRequest(std::string(path)) {}
  bool named() const { return path_.has_value(); }
  const std::string& path() const;  // only when named()
  const std::string& chosen_by() const { return chosen_by_; }
  bool operator==(const PythonRequest&) const = default;
  // A path that may be empty (a record read back, an optional field): empty
  // is onramp's choice.
  static PythonRequest path_or_choice(const std::string& path, std::string chosen_by = "--python");

 private:
  std::optional<std::string> path_;
  std::string chosen_by_;
};

// The query's printed JSON object (interpreter_query.py) as facts; `python`
// and `command` fill the fields the query does not print. A tag that is not
// three non-empty strings makes the tags unknown, saying so; anything else
// unexpected is an error. fuzz/interpreter_facts_fuzz.cpp.
Result<InterpreterFacts> parse_interpreter_facts(std::string_view text, const std::string& python,
                                                 const std::string& command);

// One interpreter query, under the interpreter-query limit; nothing kept.
Result<InterpreterFacts> query_interpreter(ProcessRunner& runner, const TimeLimits& limits, const std::string& python);

class Interpreters {
 public:
  Interpreters(ProcessRunner& runner, TimeLimits limits) : runner_(&runner), limits_(limits) {}
  Interpreters(const Interpreters&) = delete;
  Interpreters& operator=(const Interpreters&) = delete;

  // The facts of `python`, asked unless this run asked it already and its
  // executable and site directories are unchanged since.
  Result<InterpreterFacts> query(const std::string& python);
  // The named interpreter; else the first of python3 and /usr/bin/python3
  // that has torch, else (unless `need_torch`) the first that runs at all.
  // With `need_torch`, an interpreter without torch is an error.
  Result<InterpreterFacts> choose(const PythonRequest& request, bool need_torch = false);
  // How many interpreter queries ran (each an interpreter start).
  int queries() const;
  ProcessRunner& runner() const { return *runner_; }
  const TimeLimits& limits() const { return limits_; }

 private:
  using Stamps = std::vector<std::filesystem::file_time_type>;
  ProcessRunner* runner_;
  TimeLimits limits_;
  mutable std::mutex mutex_;
  std::map<std::string, std::pair<InterpreterFacts, Stamps>> kept_;  // by program and PATH
  int queries_ = 0;
};

// "python3 (/root/.pyenv/versions/3.11.7/bin/python3, Python 3.11.7, torch
// 2.13.0+cpu, a venv), chosen by --python": one line for reports.
std::string describe(const InterpreterFacts& facts);

}  // namespace onramp::python
