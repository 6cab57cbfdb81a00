#pragma once
// Running onramp's embedded Python scripts (the ast scanner, the op tracer)
// through the sandbox. A script reads one request file and prints its result
// as JSON between two marker lines that carry a per-run nonce, so nothing
// the traced user code prints can be mistaken for, or corrupt, the result.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "onramp/util/error.h"
#include "onramp/util/process.h"
#include "onramp/util/sandbox.h"

namespace onramp::port {

struct PythonSandbox {
  ProcessRunner* runner = nullptr;
  std::filesystem::path run_dir;
  SandboxDirs dirs;
  std::string python;            // the interpreter, resolved
  char** parent_env = nullptr;   // environ-style; only the allow-list passes
};

struct ScriptRun {
  RunResult process;
  std::optional<nlohmann::json> result;  // absent when the markers were not printed
  std::string command;                   // as run, for evidence
};

// The JSON between the marker lines of `stdout_text`; nullopt when either
// marker is missing or the text between them is not JSON.
std::optional<nlohmann::json> extract_result(std::string_view stdout_text, const std::string& begin_marker,
                                             const std::string& end_marker);

// The last non-empty line a child wrote to a stream ("RuntimeError: ...").
std::string last_line(const BoundedCapture& capture);

// Writes the embedded script and `request` (plus the markers) under
// <run dir>/port/, runs `python script request` and reads the result.
// `label` names the request file (one per model when tracing many).
Result<ScriptRun> run_embedded_script(const PythonSandbox& box, std::string_view script_key,
                                      nlohmann::json request, const std::string& label, const Limits& limits,
                                      const std::vector<std::pair<std::string, std::string>>& extra_env = {});

// A sandbox in `run_dir` for `runner`; the interpreter is chosen later
// (runtime::choose_interpreter).
Result<PythonSandbox> open_python_sandbox(ProcessRunner& runner, const std::filesystem::path& run_dir,
                                          char** parent_env);

}  // namespace onramp::port
