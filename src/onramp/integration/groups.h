#pragma once
// Runs one group of integration.py in its own sandboxed interpreter under its
// own time limit. A check that hangs or kills the interpreter is named by its
// "begin" record; the group then runs again without that point (at most
// kMaxReruns times), so that one hang does not hide the other points, unless
// the point was the last of the group's plan (a rerun would check nothing
// more). A point may have a limit of its own, shorter than the group's.
// Given the job slot it runs in, a group lends it while a check only waits.
#include <optional>
#include <string>
#include <vector>

#include "onramp/integration/records.h"
#include "onramp/python/sandbox.h"
#include "onramp/util/jobs.h"

namespace onramp::integration {

inline constexpr int kMaxReruns = 2;

struct Hang {
  std::string point;    // "" when it stopped outside a check (an import)
  std::string call;
  std::string outcome;  // "timed out after 60 s", "signal 11 (Segmentation fault)", ...
  std::string log;      // the last lines the interpreter wrote to stderr
  std::string then;     // what onramp did next: "the group ran again without point P", ...
};

// The device-API matrix run first by the runtime group's interpreter, after
// its import torch (integration/python/matrix_first.py): both pay that
// import once, and the group takes the device the matrix chose.
struct MatrixFirst {
  std::string script_key;          // "src/onramp/probe/python/api_probe.py"
  std::string result_name;         // "api.jsonl"
  std::vector<std::string> args;   // after the result file, as run_script would pass them
  double timeout_seconds = default_seconds(Child::kSandboxedStep);  // the matrix's own limit, added to the group's
};

struct GroupRun {
  GroupRecords records;     // of the last run
  std::vector<Hang> hangs;  // checks that ended a run, in order
  std::string command;      // the last run's command
  std::string log;          // the last lines of the last run's stderr
  double wall_seconds = 0;  // all runs of the group together, less the matrix's time
  // The matrix's run, where the group ran it first: as if run_script had run
  // it, its command naming the group's interpreter that ran it.
  std::optional<python::ScriptRun> matrix = {};
  int ran_at_once = 0;      // the most that ran at once during any of its runs (RunResult)
};

struct GroupOptions {
  std::string group;  // "runtime" or "autoload_on"
  std::string module;
  std::string device;
  double timeout_seconds = default_seconds(Child::kIntegrationGroup);
  std::vector<std::pair<std::string, std::string>> env;
  std::vector<std::pair<std::string, double>> check_limits;  // point -> seconds (--limit)
  util::SlotLease* lease = nullptr;  // the slot the group runs in, lent while a check only waits
  std::optional<MatrixFirst> matrix = {};  // runtime group: the matrix, run first (not in a rerun)
};

GroupRun run_group(python::Sandbox& sandbox, const GroupOptions& options);

// The last `lines` non-empty lines of `text`, verbatim, one per line: a
// finding's log (report::Finding::log), never quoted inside its sentence.
std::string last_lines(const std::string& text, size_t lines);

}  // namespace onramp::integration
