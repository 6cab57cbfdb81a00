#include "onramp/python/interpreter.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "onramp/python/runner.h"
#include "onramp/python/scripts.h"
#include "onramp/report/json_fields.h"
#include "onramp/util/embedded.h"
#include "onramp/util/command_line.h"
#include "onramp/util/text.h"

namespace onramp::python {
namespace {

// What tells an interpreter's state changed: the modification times of its
// executable and of its site directories (an install changes them).
std::vector<std::filesystem::file_time_type> stamps(const InterpreterFacts& f) {
  std::vector<std::filesystem::file_time_type> out;
  std::error_code ec;
  out.push_back(std::filesystem::last_write_time(f.executable, ec));
  for (const auto& dir : f.site_dirs) out.push_back(std::filesystem::last_write_time(dir, ec));
  return out;
}

// A relative path ("venv/bin/python") names a file from here; the query and
// every later run change directory first. A bare name is looked up in PATH.
std::string program_of(const std::string& python) {
  if (python.find('/') != std::string::npos && !python.starts_with("/")) {
    return std::filesystem::absolute(python).lexically_normal().string();
  }
  return python;
}

// The query's "tags": each [python, abi, platform], in the query's order.
void read_tags(const nlohmann::json& j, InterpreterFacts& facts) {
  facts.tags_source = util::one_line(report::text_field(j, "tags_source"));
  if (!j.contains("tags") || !j["tags"].is_array()) {
    if (facts.tags_source.empty()) facts.tags_source = "unknown: the interpreter query gave no tags";
    return;
  }
  index::CompatibleTags tags;
  auto part = [](const nlohmann::json& p) { return p.is_string() && !p.get<std::string>().empty(); };
  for (const auto& t : j["tags"]) {
    if (!t.is_array() || t.size() != 3 || !std::all_of(t.begin(), t.end(), part)) {
      facts.tags_source = fmt::format("unknown: the interpreter query's tag {} is not [python, abi, platform]",
                                      t.dump().substr(0, 80));
      return;
    }
    tags.tags.push_back({t[0].get<std::string>(), t[1].get<std::string>(), t[2].get<std::string>()});
  }
  if (tags.tags.empty()) {
    facts.tags_source = "unknown: the interpreter query gave an empty tag list";
    return;
  }
  facts.tags = std::move(tags);
}

}  // namespace

Result<InterpreterFacts> parse_interpreter_facts(std::string_view text, const std::string& python,
                                                 const std::string& command) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  std::string executable = report::text_field(j, "executable"), version = report::text_field(j, "python");
  if (!j.is_object() || executable.empty() || version.empty()) {
    return fail(fmt::format("{}: the interpreter query printed something unexpected: {}", python,
                            util::one_line(text.substr(0, 200))));
  }
  InterpreterFacts facts;
  facts.python = python;
  facts.executable = executable;
  facts.python_version = version;
  facts.torchgen_dir = report::text_field(j, "torchgen");
  facts.is_venv = report::bool_field(j, "venv", false);
  facts.command = command;
  if (j.contains("torch") && j["torch"].is_string()) facts.torch_version = j["torch"].get<std::string>();
  for (const auto& dir : report::array_field(j, "site")) {
    if (dir.is_string()) facts.site_dirs.push_back(dir.get<std::string>());
  }
  facts.platform = report::text_field(j, "platform");
  facts.libc = report::text_field(j, "libc");
  read_tags(j, facts);
  return facts;
}

PythonRequest::PythonRequest(std::string path, std::string chosen_by)
    : path_(std::move(path)), chosen_by_(std::move(chosen_by)) {
  if (path_->empty()) throw std::invalid_argument("an interpreter named by an empty path");
}

PythonRequest PythonRequest::path_or_choice(const std::string& path, std::string chosen_by) {
  return path.empty() ? PythonRequest() : PythonRequest(path, std::move(chosen_by));
}

const std::string& PythonRequest::path() const {
  if (!path_) throw std::logic_error("PythonRequest::path() of onramp's choice");
  return *path_;
}

Result<InterpreterFacts> query_interpreter(ProcessRunner& runner, const TimeLimits& limits, const std::string& python) {
  // The query writes nothing and needs no HOME: PATH alone, run from /.
  auto result = Runner::bare(runner, limits)
                    .run({program_of(python), "-I", "-c", std::string(embedded::get(scripts::kInterpreterQuery))},
                         Child::kInterpreterQuery);
  std::string command = util::command_line({python, "-I", "-c"}) + " \"<" + scripts::kInterpreterQuery + ">\"";
  if (!result) return fail(fmt::format("{}: cannot run: {}", python, result.error().message));
  if (!result->ok()) {
    return fail(fmt::format("{}: the interpreter query failed ({}): {}", python, result->outcome(), result->err.text()));
  }
  return parse_interpreter_facts(result->out.text(), python, command);
}

Result<InterpreterFacts> Interpreters::query(const std::string& python) {
  std::string program = program_of(python);
  const char* path_var = std::getenv("PATH");
  std::string key = program + '\n' + (program.find('/') == std::string::npos && path_var ? path_var : "");
  // Held while asking: steps that run at once and need the same interpreter
  // wait for the one answer (a query takes tens of milliseconds).
  std::lock_guard lock(mutex_);
  auto it = kept_.find(key);
  if (it != kept_.end() && it->second.second == stamps(it->second.first)) {
    InterpreterFacts kept = it->second.first;
    kept.python = python;
    return kept;
  }
  ++queries_;
  auto facts = query_interpreter(*runner_, limits_, python);
  if (facts) kept_[key] = {*facts, stamps(*facts)};
  return facts;
}

int Interpreters::queries() const {
  std::lock_guard lock(mutex_);
  return queries_;
}

Result<InterpreterFacts> Interpreters::choose(const PythonRequest& request, bool need_torch) {
  if (request.named()) {
    auto facts = query(request.path());
    if (facts && need_torch && !facts->torch_version) {
      return fail(fmt::format("{} {}: it has no torch", request.chosen_by(), request.path()));
    }
    if (facts) facts->chosen_by = request.chosen_by();
    return facts;
  }
  std::optional<InterpreterFacts> first;
  std::string errors;
  for (const char* candidate : {"python3", "/usr/bin/python3"}) {
    auto facts = query(candidate);
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
