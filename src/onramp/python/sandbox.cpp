#include "onramp/python/sandbox.h"

#include <csignal>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>

#include "onramp/python/scripts.h"
#include "onramp/util/command_line.h"
#include "onramp/util/embedded.h"
#include "onramp/util/error.h"
#include "onramp/util/text_file.h"

extern char** environ;

namespace onramp::python {
namespace fs = std::filesystem;

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

std::string last_line(const BoundedCapture& capture) {
  std::string text = capture.ending(std::string::npos);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  auto nl = text.rfind('\n');
  return nl == std::string::npos ? text : text.substr(nl + 1);
}

Sandbox::Sandbox(ProcessRunner& runner, fs::path run_dir, SandboxDirs dirs, TimeLimits time_limits, Limits limits,
                 std::vector<std::pair<std::string, std::string>> extra_env)
    : runner_(&runner), run_dir_(std::move(run_dir)), dirs_(std::move(dirs)), time_limits_(time_limits), limits_(limits),
      extra_env_(std::move(extra_env)) {}

Sandbox Sandbox::open(Interpreters& interpreters, const SandboxOptions& options, const fs::path& run_dir) {
  auto dirs = value_or_fatal(prepare_sandbox(run_dir));
  Limits limits = options.limits.process(options.step);
  limits.address_space_bytes = options.memory_bytes;
  std::vector<std::pair<std::string, std::string>> extra;
  std::string pythonpath;
  for (const auto& p : options.paths) {
    if (!fs::is_directory(p)) throw FatalError(p + ": --path is not a directory");
    if (!pythonpath.empty()) pythonpath += ":";
    pythonpath += fs::absolute(p).string();
  }
  if (!pythonpath.empty()) extra.emplace_back("PYTHONPATH", pythonpath);
  extra.insert(extra.end(), options.env.begin(), options.env.end());
  Sandbox sandbox(interpreters.runner(), fs::absolute(run_dir), std::move(dirs), options.limits, limits,
                  std::move(extra));
  sandbox.facts_ = value_or_fatal(interpreters.choose(options.python, options.need_torch));
  sandbox.progress_ = options.progress;
  return sandbox;
}

fs::path Sandbox::write_file(const std::string& rel, const std::string& content) const {
  fs::path path = run_dir_ / rel;
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << content;
  if (!out.flush()) throw FatalError(path.string() + ": cannot write: " + std::strerror(errno));
  return path;
}

namespace {
// The helpers written beside every script: each imports them by name.
constexpr const char* kHelpers[] = {scripts::kExitHelper, scripts::kErrorsHelper};

std::string script_rel(const std::string& script_key) {
  return "scripts/" + fs::path(script_key).filename().string();
}

// A stream a script wrote to a file, kept as a child's stream is kept.
BoundedCapture capture_file(const fs::path& path, const Limits& limits) {
  BoundedCapture capture(limits.capture_bytes, limits.capture_tail_bytes);
  std::ifstream in(path, std::ios::binary);
  std::string chunk(64 << 10, '\0');
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    capture.append(std::string_view(chunk.data(), static_cast<size_t>(in.gcount())));
  }
  return capture;
}

std::vector<std::string> script_argv(const std::string& python, const std::vector<std::string>& flags,
                                     const std::string& script_key, const std::string& result_name,
                                     const std::vector<std::string>& args) {
  std::vector<std::string> argv{python};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.push_back(script_rel(script_key));
  argv.push_back("results/" + result_name);
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

}  // namespace

std::string Sandbox::stage_script(const std::string& script_key) {
  std::string rel = script_rel(script_key);
  // Scripts may run on several threads at once (util/jobs.h): the first
  // writes the script, the others must not read it half written.
  static std::mutex writing;
  std::lock_guard lock(writing);
  if (!fs::exists(run_dir_ / rel)) write_file(rel, std::string(embedded::get(script_key)));
  // Every script imports them (python/onramp_exit.py last, python/onramp_errors.py for what it records).
  for (const char* helper : kHelpers) {
    std::string helper_rel = script_rel(helper);
    if (!fs::exists(run_dir_ / helper_rel)) write_file(helper_rel, std::string(embedded::get(helper)));
  }
  return rel;
}

std::string Sandbox::script_command(const std::string& script_key, const std::string& result_name,
                                    const std::vector<std::string>& args) const {
  return util::command_line(script_argv(facts_.executable, {}, script_key, result_name, args));
}

ScriptRun Sandbox::read_run(const std::string& result_name, std::string command, RunResult process) const {
  std::string result_rel = "results/" + result_name;
  ScriptRun run;
  run.command = std::move(command);
  run.process = std::move(process);
  run.process.out = capture_file(run_dir_ / (result_rel + ".stdout"), limits_);
  run.process.err = capture_file(run_dir_ / (result_rel + ".stderr"), limits_);
  read_records(util::read_text_file((run_dir_ / result_rel).string()).value_or(""), run);
  write_file(result_rel + ".stdout", run.process.out.text());
  write_file(result_rel + ".stderr", run.process.err.text());
  return run;
}

ScriptRun Sandbox::run_script(const std::string& script_key, const std::string& result_name,
                              const std::vector<std::string>& args, const ScriptOptions& options) {
  stage_script(script_key);
  std::string result_rel = "results/" + result_name;
  fs::create_directories((run_dir_ / result_rel).parent_path());
  fs::remove(run_dir_ / result_rel);
  RunRequest request;
  request.argv = script_argv(facts_.executable, options.python_flags, script_key, result_name, args);
  request.cwd = run_dir_;
  auto env = extra_env_;
  env.insert(env.end(), options.env.begin(), options.env.end());
  request.env = sandbox_environment(dirs_, env, environ);
  request.limits = options.limits.value_or(limits_);

  ScriptRun run;
  run.command = util::command_line(request.argv);
  run.process = value_or_fatal(runner_->run(request));
  // No result file (the interpreter died first) reads as no records.
  read_records(util::read_text_file((run_dir_ / result_rel).string()).value_or(""), run);
  write_file(result_rel + ".stdout", run.process.out.text());
  write_file(result_rel + ".stderr", run.process.err.text());
  return run;
}

}  // namespace onramp::python
