#include "onramp/runtime/interpreter.h"

#include <fmt/format.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

namespace onramp::runtime {
namespace {

constexpr const char* kQuery =
    "import json, sys\n"
    "from importlib import metadata\n"
    "try:\n"
    "    torch = metadata.version('torch')\n"
    "except metadata.PackageNotFoundError:\n"
    "    torch = None\n"
    "print(json.dumps({'python': '%d.%d.%d' % sys.version_info[:3], 'torch': torch,"
    " 'executable': sys.executable}))\n";

// Only PATH passes: the query writes nothing and needs no HOME.
std::vector<std::string> query_environment() {
  const char* path = std::getenv("PATH");
  return {std::string("PATH=") + (path ? path : "/usr/local/bin:/usr/bin:/bin"), "PYTHONDONTWRITEBYTECODE=1",
          "PYTHONNOUSERSITE=1"};
}

}  // namespace

Result<InterpreterFacts> query_interpreter(ProcessRunner& runner, const std::string& python) {
  RunRequest request;
  request.argv = {python, "-I", "-c", kQuery};
  request.env = query_environment();
  request.cwd = "/";
  request.limits.wall_seconds = 60;
  auto result = runner.run(request);
  std::string command = fmt::format("{} -I -c \"<importlib.metadata query: python version, torch version>\"", python);
  if (!result) return fail(fmt::format("{}: cannot run: {}", python, result.error().message));
  if (!result->ok()) {
    return fail(fmt::format("{}: the interpreter query failed ({}): {}", python, result->outcome(), result->err.text()));
  }
  try {
    auto j = nlohmann::json::parse(result->out.text());
    InterpreterFacts facts{python, j.at("executable"), j.at("python"), std::nullopt, command};
    if (!j.at("torch").is_null()) facts.torch_version = j.at("torch").get<std::string>();
    return facts;
  } catch (const nlohmann::json::exception& e) {
    return fail(fmt::format("{}: the interpreter query printed something unexpected: {}", python, e.what()));
  }
}

Result<InterpreterFacts> choose_interpreter(ProcessRunner& runner, const std::string& requested, bool need_torch) {
  if (!requested.empty()) {
    auto facts = query_interpreter(runner, requested);
    if (facts && need_torch && !facts->torch_version) return fail("--python " + requested + ": it has no torch");
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
    if (facts->torch_version) return facts;
    if (!first) first = std::move(*facts);
  }
  if (first && !need_torch) return *first;
  if (first) return fail("no Python interpreter with torch (tried python3, /usr/bin/python3); pass --python PY");
  return fail("no Python interpreter found (tried python3, /usr/bin/python3): " + errors);
}

}  // namespace onramp::runtime
