#pragma once
// A Python interpreter inside the sandbox: resolves which interpreter to use,
// writes the embedded probe scripts into the run directory and runs them,
// returning the process result and the JSON Lines records the script wrote
// to its result file (never stdout: a backend's prints cannot corrupt it).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "onramp/report/model.h"
#include "onramp/util/process.h"
#include "onramp/util/sandbox.h"

namespace onramp::runtime {

// What the command line says about the sandbox.
struct SandboxOptions {
  std::string python;                  // empty: python3 with torch, else /usr/bin/python3
  std::vector<std::string> paths;      // prepended to PYTHONPATH
  double timeout_seconds = 120;
  uint64_t memory_bytes = 8ull << 30;
  std::optional<std::filesystem::path> out;
};

struct ScriptRun {
  RunResult process;
  std::vector<report::Json> records;    // one per line of the result file
  std::vector<std::string> bad_lines;  // lines that were not JSON
  std::string command;                 // the exact command, relative to the run directory
};

// Appends each line of a script's result file to run.records (a JSON
// object) or run.bad_lines (anything else). The file is written by code the
// target can reach, so a record's fields are read with report/json_fields.h.
void read_records(const std::string& text, ScriptRun& run);

// A process-level failure as a diagnosable pair: ("Timeout", "..."),
// ("Crash", "signal 11 (Segmentation fault)"), ("ProcessLimit", ...).
struct ProcessFailure {
  std::string type;
  std::string message;
};
std::optional<ProcessFailure> process_failure(const RunResult& result);

class PythonSandbox {
 public:
  // Prepares the sandbox directories under run_dir and picks the interpreter;
  // throws FatalError when no interpreter runs.
  static PythonSandbox open(ProcessRunner& runner, const SandboxOptions& options,
                            const std::filesystem::path& run_dir);

  // Runs `python [flags] scripts/<script> results/<result_name> args...` in
  // the run directory.
  ScriptRun run_script(const std::string& script, const std::string& result_name,
                       const std::vector<std::string>& args, const std::vector<std::string>& python_flags = {},
                       std::optional<double> timeout_seconds = std::nullopt);

  const std::string& python() const { return python_; }
  const std::filesystem::path& run_dir() const { return run_dir_; }
  Limits limits() const { return limits_; }
  // Writes a file into the run directory (for inputs such as example blocks).
  std::filesystem::path write_file(const std::string& rel, const std::string& content) const;

 private:
  PythonSandbox(ProcessRunner& runner, std::filesystem::path run_dir, SandboxDirs dirs, Limits limits,
                std::vector<std::pair<std::string, std::string>> extra_env);

  ProcessRunner* runner_;
  std::filesystem::path run_dir_;
  SandboxDirs dirs_;
  Limits limits_;
  std::vector<std::pair<std::string, std::string>> extra_env_;
  std::string python_;
};

}  // namespace onramp::runtime
