#include "onramp/runtime/python_sandbox.h"

#include <csignal>
#include <cstring>
#include <fstream>
#include <sstream>

#include "onramp/runtime/interpreter.h"
#include "onramp/util/embedded.h"
#include "onramp/util/error.h"
#include "onramp/util/text_file.h"

extern char** environ;

namespace onramp::runtime {
namespace fs = std::filesystem;

namespace {


}  // namespace

void read_records(const std::string& text, ScriptRun& run) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    auto record = report::Json::parse(line, nullptr, false);
    if (record.is_discarded() || !record.is_object()) {
      run.bad_lines.push_back(line.substr(0, 200));
    } else {
      run.records.push_back(std::move(record));
    }
  }
}

std::optional<ProcessFailure> process_failure(const RunResult& result) {
  if (result.timed_out) return ProcessFailure{"Timeout", result.outcome()};
  if (result.process_limit_hit) return ProcessFailure{"ProcessLimit", result.outcome()};
  if (result.signal != 0) {
    std::string type = result.signal == SIGXFSZ ? "FileSizeLimit" : result.signal == SIGXCPU ? "Timeout" : "Crash";
    return ProcessFailure{type, result.outcome()};
  }
  return std::nullopt;
}

PythonSandbox::PythonSandbox(ProcessRunner& runner, fs::path run_dir, SandboxDirs dirs, Limits limits,
                             std::vector<std::pair<std::string, std::string>> extra_env)
    : runner_(&runner), run_dir_(std::move(run_dir)), dirs_(std::move(dirs)), limits_(limits),
      extra_env_(std::move(extra_env)) {}

PythonSandbox PythonSandbox::open(ProcessRunner& runner, const SandboxOptions& options, const fs::path& run_dir) {
  auto dirs = value_or_fatal(prepare_sandbox(run_dir));
  Limits limits;
  limits.wall_seconds = options.timeout_seconds;
  limits.address_space_bytes = options.memory_bytes;
  std::vector<std::pair<std::string, std::string>> extra;
  std::string pythonpath;
  for (const auto& p : options.paths) {
    if (!fs::is_directory(p)) throw FatalError(p + ": --path is not a directory");
    if (!pythonpath.empty()) pythonpath += ":";
    pythonpath += fs::absolute(p).string();
  }
  if (!pythonpath.empty()) extra.emplace_back("PYTHONPATH", pythonpath);
  PythonSandbox sandbox(runner, run_dir, std::move(dirs), limits, std::move(extra));

  sandbox.python_ = value_or_fatal(choose_interpreter(runner, options.python)).python;
  return sandbox;
}

fs::path PythonSandbox::write_file(const std::string& rel, const std::string& content) const {
  fs::path path = run_dir_ / rel;
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << content;
  if (!out.flush()) throw FatalError(path.string() + ": cannot write: " + std::strerror(errno));
  return path;
}

ScriptRun PythonSandbox::run_script(const std::string& script, const std::string& result_name,
                                    const std::vector<std::string>& args,
                                    const std::vector<std::string>& python_flags,
                                    std::optional<double> timeout_seconds) {
  std::string script_rel = "scripts/" + script, result_rel = "results/" + result_name;
  if (!fs::exists(run_dir_ / script_rel)) {
    write_file(script_rel, std::string(embedded::get("src/onramp/runtime/python/" + script)));
  }
  fs::create_directories(run_dir_ / "results");
  fs::remove(run_dir_ / result_rel);
  RunRequest request;
  request.argv = {python_};
  request.argv.insert(request.argv.end(), python_flags.begin(), python_flags.end());
  request.argv.push_back(script_rel);
  request.argv.push_back(result_rel);
  request.argv.insert(request.argv.end(), args.begin(), args.end());
  request.cwd = run_dir_;
  request.env = sandbox_environment(dirs_, extra_env_, environ);
  request.limits = limits_;
  if (timeout_seconds) request.limits.wall_seconds = *timeout_seconds;

  ScriptRun run;
  for (const auto& a : request.argv) {
    if (!run.command.empty()) run.command += " ";
    run.command += a.empty() ? std::string("''") : a;
  }
  run.process = value_or_fatal(runner_->run(request));
  // No result file (the interpreter died first) reads as no records.
  read_records(util::read_text_file((run_dir_ / result_rel).string()).value_or(""), run);
  write_file(result_rel + ".stdout", run.process.out.text());
  write_file(result_rel + ".stderr", run.process.err.text());
  return run;
}

}  // namespace onramp::runtime
