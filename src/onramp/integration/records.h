#pragma once
// The records of one run of integration.py (one group, one interpreter):
// the checks it made, what it knew of the run (torch, the device, the device
// count), and the check it had begun when it stopped, if it did not finish.
// The result file is written by code the target can reach, so every field is
// read without trusting its type.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onramp/python/sandbox.h"

namespace onramp::integration {

struct Check {
  std::string point;    // "device_guard"
  std::string call;     // the call made or the file read
  std::string outcome;  // value, raised, absent (raised what torch says when nothing is registered),
                        // needs_device (cannot be asked without one), not_in_this_torch;
                        // anything else reads as raised
  std::string value;    // repr of the answer, for "value"
  std::string type;     // the exception's type, for "raised"
  std::string message;  // the exception's message, or why the check cannot be asked
  std::optional<bool> ok;  // the answer shows the point provided; unset: informational
  double seconds = 0;
};

struct Import {
  bool seen = false;
  bool ok = false;
  std::string type, message;
  double seconds = 0;
  // The innermost exception of its chain, when another (torch's autoload wraps the entry point's).
  std::string cause_type, cause_message;
};

// How the device-API matrix that the runtime group ran first ended (its
// "matrix" record: integration/python/matrix_first.py).
struct MatrixExit {
  std::string how;  // "forked" (after the group's import torch) or "fresh" (an interpreter of its own)
  std::optional<int> exit_code, signal;
  bool timed_out = false;
  double seconds = 0;
  uint64_t peak_rss_bytes = 0;
};

struct GroupRecords {
  std::string group;
  std::vector<Check> checks;
  Import torch, module;
  std::string device;                    // from the "context" record
  std::string privateuse1_name;          // after the group's imports
  std::optional<long long> device_count;  // torch.accelerator.device_count(); unset where not asked
  std::optional<double> import_torch_seconds;  // the "timing" of a bare import torch
  std::vector<std::string> plan;         // the points the group checks, in order (its "plan" record)
  bool ended = false;                    // the "end" record was written
  // The autoload group found no torch.backends entry point installed and
  // stopped there, before importing torch (its "no_entry_points" record).
  bool no_entry_points = false;
  std::optional<MatrixExit> matrix;
  std::string pending_point, pending_call;  // the check begun and never recorded (hung or crashed)
  // The pending check outlived its own limit (--limit) and the script ended
  // the interpreter: that limit, in seconds.
  std::optional<double> stopped_after;
  std::vector<std::string> bad_lines;
};

GroupRecords read_group(const python::ScriptRun& run);

// Whether the plan has a point after `point` (a rerun without it would check
// more); true when the plan is unknown.
bool checks_after(const GroupRecords& records, const std::string& point);

// How the pending check ended: "stopped after 5 s (its own limit)" or the
// interpreter's outcome.
std::string hang_outcome(const GroupRecords& records, const RunResult& process);

// The checks of one point, in order.
std::vector<const Check*> checks_of(const GroupRecords& records, const std::string& point);

}  // namespace onramp::integration
