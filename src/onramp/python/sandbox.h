#pragma once
// The one way onramp runs its Python scripts: an interpreter
// (python/interpreter.h) inside the sandbox (util/sandbox.h), running one of
// onramp's embedded scripts, which writes its records to a result file as JSON
// Lines. Records are never read from stdout, which the target's code can write
// to. Every user (wheel, install, probe, examples, ops, port) goes through
// here; pip, venvs and the short -c scripts run through python/runner.h.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "onramp/python/interpreter.h"
#include "onramp/report/model.h"
#include "onramp/util/process.h"
#include "onramp/util/progress.h"
#include "onramp/util/sandbox.h"
#include "onramp/util/time_limits.h"

namespace onramp::python {

// What the command line says about the sandbox.
struct SandboxOptions {
  PythonRequest python;                // default: onramp's choice (Interpreters::choose)
  std::vector<std::string> paths;      // prepended to PYTHONPATH
  TimeLimits limits;
  Child step = Child::kSandboxedStep;  // the row its scripts run under
  uint64_t memory_bytes = 8ull << 30;
  bool need_torch = false;             // refuse an interpreter without torch
  std::vector<std::pair<std::string, std::string>> env;  // --env NAME=VALUE, set in the sandbox
  Progress progress = no_progress;     // what the scripts' callers say while they run
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

// The last non-empty line a child wrote to a stream ("RuntimeError: ...").
std::string last_line(const BoundedCapture& capture);

// How one script run differs from the sandbox's defaults.
struct ScriptOptions {
  std::vector<std::string> python_flags;                      // before the script: -X importtime
  std::optional<Limits> limits;                               // else the sandbox's
  std::vector<std::pair<std::string, std::string>> env;       // added to the sandbox's
};

class Sandbox {
 public:
  // Prepares the sandbox directories under run_dir and picks the interpreter
  // (asked through `interpreters`, whose runner runs the scripts); throws
  // FatalError when no interpreter runs.
  static Sandbox open(Interpreters& interpreters, const SandboxOptions& options, const std::filesystem::path& run_dir);

  // Runs `python [flags] scripts/<name> results/<result_name> args...` in the
  // run directory, where <name> is the file name of the embedded script
  // `script_key` ("src/onramp/probe/python/api_probe.py").
  ScriptRun run_script(const std::string& script_key, const std::string& result_name,
                       const std::vector<std::string>& args, const ScriptOptions& options = {});

  // Writes the embedded script `script_key` (and python/onramp_exit.py,
  // which every script imports last) into scripts/ unless it is there;
  // returns its path relative to the run directory ("scripts/api_probe.py").
  std::string stage_script(const std::string& script_key);

  // The command run_script would run for these arguments, as the evidence
  // names it (relative to the run directory).
  std::string script_command(const std::string& script_key, const std::string& result_name,
                             const std::vector<std::string>& args) const;

  // A script run that another script of onramp's started (the device-API
  // matrix the runtime group runs first): its records from
  // results/<result_name>, its stdout and stderr from the files it wrote
  // beside them (kept as run_script keeps a child's: head and tail within the
  // sandbox's capture limits, written back so), `process` for the rest.
  ScriptRun read_run(const std::string& result_name, std::string command, RunResult process) const;

  // The interpreter as run (sys.executable: absolute) and what is known of it.
  const std::string& python() const { return facts_.executable; }
  const InterpreterFacts& interpreter() const { return facts_; }
  const std::filesystem::path& run_dir() const { return run_dir_; }
  // A script run's process limits (the sandboxed-step row), and the run's
  // time limits, for the limits of the scripts' own checks.
  Limits limits() const { return limits_; }
  const TimeLimits& time_limits() const { return time_limits_; }
  // Says `message` to the run's progress sink (SandboxOptions::progress).
  void progress(const std::string& message) const { progress_(message); }
  // Writes a file into the run directory (for inputs such as example blocks).
  std::filesystem::path write_file(const std::string& rel, const std::string& content) const;

 private:
  Sandbox(ProcessRunner& runner, std::filesystem::path run_dir, SandboxDirs dirs, TimeLimits time_limits,
          Limits limits, std::vector<std::pair<std::string, std::string>> extra_env);

  ProcessRunner* runner_;
  std::filesystem::path run_dir_;
  SandboxDirs dirs_;
  TimeLimits time_limits_;
  Limits limits_;
  Progress progress_ = no_progress;
  std::vector<std::pair<std::string, std::string>> extra_env_;
  InterpreterFacts facts_;
};

}  // namespace onramp::python
