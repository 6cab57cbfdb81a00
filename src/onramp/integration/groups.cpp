#include "onramp/integration/groups.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "onramp/integration/lend_watch.h"
#include "onramp/util/progress.h"
#include "onramp/python/scripts.h"

namespace onramp::integration {

namespace fs = std::filesystem;

std::string last_lines(const std::string& text, size_t lines) {
  std::vector<std::string> kept;
  size_t end = text.size();
  while (end > 0 && kept.size() < lines) {
    size_t start = text.rfind('\n', end - 1);
    size_t from = start == std::string::npos ? 0 : start + 1;
    std::string line = text.substr(from, end - from);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) kept.insert(kept.begin(), line);
    if (start == std::string::npos) break;
    end = start;
  }
  std::string out;
  for (const auto& l : kept) out += (out.empty() ? "" : "\n") + l;
  return out;
}

namespace {

// The arguments that have the group run the matrix first (integration.py --matrix).
std::vector<std::string> matrix_args(python::Sandbox& sandbox, const MatrixFirst& m) {
  std::string result = "results/" + m.result_name;
  for (const char* suffix : {"", ".stdout", ".stderr"}) fs::remove(sandbox.run_dir() / (result + suffix));
  sandbox.stage_script(python::scripts::kMatrixFirst);  // integration.py imports it
  std::vector<std::string> args{"--matrix", fmt::format("{:g}", m.timeout_seconds), sandbox.stage_script(m.script_key),
                                result};
  args.insert(args.end(), m.args.begin(), m.args.end());
  return args;
}

// The matrix's run as its records and the group's "matrix" record tell it;
// without that record (the group's interpreter ended first), the group's
// own outcome is the matrix's.
python::ScriptRun matrix_run(python::Sandbox& sandbox, const MatrixFirst& m, const python::ScriptRun& group,
                             const std::string& group_result, const GroupRecords& records) {
  // Without the record, the group's outcome (its streams are replaced by the matrix's files below).
  RunResult process = group.process;
  process.peak_rss_bytes = 0;
  std::string how = "run first by the runtime group's interpreter";
  if (records.matrix) {
    const MatrixExit& e = *records.matrix;
    process.exit_code = e.exit_code.value_or(-1);
    process.signal = e.signal.value_or(0);
    process.timed_out = e.timed_out;
    process.process_limit_hit = false;
    process.wall_seconds = e.seconds;
    process.peak_rss_bytes = e.peak_rss_bytes;
    if (e.how == "forked") how = "run in a child forked from the runtime group's interpreter after its import torch";
    else if (e.how == "fresh") how = "run in an interpreter of its own, started by the runtime group's";
  }
  std::string command = sandbox.script_command(m.script_key, m.result_name, m.args) + " (" + how + ", " +
                        group_result + ")";
  return sandbox.read_run(m.result_name, std::move(command), std::move(process));
}

}  // namespace

GroupRun run_group(python::Sandbox& sandbox, const GroupOptions& options) {
  GroupRun out;
  std::vector<std::string> skip;
  python::ScriptOptions script;
  script.limits = sandbox.limits();  // its time limit is set for each run below
  script.env = options.env;
  for (int attempt = 0; attempt <= kMaxReruns; ++attempt) {
    sandbox.progress("integration points: " + options.group + (attempt ? " (again, without a check that hung)" : ""));
    std::vector<std::string> args{options.module, options.device, options.group};
    for (const auto& s : skip) {
      args.push_back("--skip");
      args.push_back(s);
    }
    for (const auto& [point, seconds] : options.check_limits) {
      args.insert(args.end(), {"--limit", point, fmt::format("{:g}", seconds)});
    }
    std::string result = "integration/" + options.group + (attempt ? "-" + std::to_string(attempt) : "") + ".jsonl";
    // Passed whatever --jobs says, so that the command (the evidence) is the
    // same: with one job the slot is not lent and the go comes at once.
    bool lend = options.lease != nullptr;
    if (lend) args.push_back("--lend");
    const bool matrix_first = options.matrix && attempt == 0;
    script.limits->wall_seconds = options.timeout_seconds + (matrix_first ? options.matrix->timeout_seconds : 0);
    script.limits->limit_name = std::string(limit_row(Child::kIntegrationGroup).name) +
                                (matrix_first ? std::string(" + ") + std::string(limit_row(Child::kSandboxedStep).name) : "");
    if (matrix_first) {
      auto more = matrix_args(sandbox, *options.matrix);
      args.insert(args.end(), more.begin(), more.end());
    }
    python::ScriptRun run;
    {
      std::optional<LendWhileIdle> watch;
      if (lend) watch.emplace(*options.lease, sandbox.run_dir() / "results" / result);
      run = sandbox.run_script(python::scripts::kIntegration, result, args, script);
      if (watch) watch->finish();
    }
    if (lend) options.lease->reclaim();  // a run that ended while lent: the next run or the task's rest works again
    out.records = read_group(run);
    out.command = run.command;
    out.log = last_lines(run.process.err.text(), 5);
    out.wall_seconds += run.process.wall_seconds;
    if (matrix_first) {
      out.matrix = matrix_run(sandbox, *options.matrix, run, "results/" + result, out.records);
      out.wall_seconds = std::max(0.0, out.wall_seconds - out.matrix->process.wall_seconds);
    }
    out.ran_at_once = std::max(out.ran_at_once, run.process.ran_at_once);
    if (out.records.ended || out.records.pending_point.empty()) break;
    bool more = checks_after(out.records, out.records.pending_point), again = more && attempt < kMaxReruns;
    std::string then = again  ? "the group ran again without point " + out.records.pending_point
                       : more ? fmt::format("the group was not run again (at most {} reruns)", kMaxReruns)
                              : "it was the group's last point to check, so the group did not run again";
    out.hangs.push_back({out.records.pending_point, out.records.pending_call, hang_outcome(out.records, run.process),
                         out.log, then});
    if (!again) break;
    skip.push_back(out.records.pending_point);
  }
  return out;
}

}  // namespace onramp::integration
