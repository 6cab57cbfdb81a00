#pragma once
// Every time limit onramp puts on a child process, in one table: one row per
// kind of child, with its name (said in the outcome when a child is stopped at
// it), its documented default and what it bounds. A run holds a TimeLimits
// (the defaults, with what the user set, --timeout and the like, written over
// the rows it governs) and passes it down by value; no other place names a
// number of seconds for a child. docs/security.md lists the table.
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace onramp {

struct Limits;  // util/process.h

enum class Child {
  kPipResolve,        // pip install --dry-run --report: which files a requirement takes
  kPipLocalLookup,    // pip install --dry-run --no-index: a requirement among this machine's files
  kPipQuery,          // pip config list, pip's default index, pip debug
  kPipCheck,          // pip check of a venv
  kPipInstall,        // pip install into the run's venv (and the extras a failed import names)
  kVenv,              // python -m venv
  kSdistBuild,        // pip wheel of a source distribution
  kHostMaking,        // each step of making onramp's own host (venv, pip install of its torch)
  kHostTorchCheck,    // a host's `import torch` before it is used
  kInterpreterQuery,  // an interpreter's facts (python/interpreter.h)
  kSandboxedStep,     // one of onramp's scripts in the sandbox (probe, examples, integration, port)
  kExampleStatement,  // one statement of an example, inside its script (SIGALRM)
  kIntegrationGroup,  // one group of integration points, inside its script
  kHarmlessCheck,     // the harmless point's CPU work (a few ms): longer is a stall
  kTracePhase,        // each of a traced model's build, forward and backward, inside its script
  kTraceSetup,        // port trace's other scripts (a module:NAME backend's import)
  kCpuPerProcess,     // RLIMIT_CPU of each child process, in CPU seconds (0: none)
  kCount
};

struct LimitRow {
  Child child;
  std::string_view name;     // "pip-install": said when a child is stopped at it
  double seconds;            // the documented default
  std::string_view set_by;   // the options that set it, or "" (a check's own design limit)
  std::string_view bounds;   // what it bounds, for --help and the docs
};

inline constexpr std::array<LimitRow, static_cast<size_t>(Child::kCount)> kLimitTable{{
    {Child::kPipResolve, "pip-resolve", 1800, "resolve --timeout, audit --timeout", "pip's resolution of a requirement"},
    {Child::kPipLocalLookup, "pip-local-lookup", 300, "", "pip's lookup of a requirement among this machine's files"},
    {Child::kPipQuery, "pip-query", 120, "", "pip config list, pip debug, pip's default index"},
    {Child::kPipCheck, "pip-check", 600, "", "pip check of a venv"},
    {Child::kPipInstall, "pip-install", 3600, "install --timeout, audit --timeout", "each pip install run"},
    {Child::kVenv, "venv", 600, "", "python -m venv"},
    {Child::kSdistBuild, "sdist-build", 300, "audit --timeout", "pip wheel of a source distribution"},
    {Child::kHostMaking, "host-making", 1800, "", "each step of making onramp's own host"},
    {Child::kHostTorchCheck, "host-torch-check", 300, "", "a host's import torch before it is used"},
    {Child::kInterpreterQuery, "interpreter-query", 60, "", "an interpreter's facts (version, torch, site dirs)"},
    {Child::kSandboxedStep, "sandboxed-step", 120, "--timeout of audit, probe, examples, port scan, port trace",
     "each of onramp's scripts in the sandbox"},
    {Child::kExampleStatement, "example-statement", 60, "examples --statement-timeout",
     "one statement of an example"},
    {Child::kIntegrationGroup, "integration-group", 60, "",
     "one group of integration points (within the sandboxed-step limit; the device-API matrix run first adds its own)"},
    {Child::kHarmlessCheck, "harmless-check", 5, "", "the harmless point's CPU work (a few ms)"},
    {Child::kTracePhase, "trace-phase", 300, "port trace --phase-timeout",
     "each of a traced model's build, forward, backward"},
    {Child::kTraceSetup, "trace-setup", 600, "", "port trace's scripts other than the traces"},
    {Child::kCpuPerProcess, "cpu-per-process", 600, "", "CPU seconds of each child process"},
}};

constexpr const LimitRow& limit_row(Child child) { return kLimitTable[static_cast<size_t>(child)]; }
constexpr double default_seconds(Child child) { return limit_row(child).seconds; }

class TimeLimits {
 public:
  TimeLimits();  // every row at its default
  double seconds(Child child) const { return seconds_[static_cast<size_t>(child)]; }
  // Writes over one row; seconds must be above 0 (std::invalid_argument).
  TimeLimits& set(Child child, double seconds);
  // A child's process limits: the row's wall-clock seconds and its name, and
  // the per-process CPU limit, onto `base` (its other limits kept).
  Limits process(Child child, Limits base) const;
  Limits process(Child child) const;

 private:
  std::array<double, static_cast<size_t>(Child::kCount)> seconds_{};
};

// A subcommand's --timeout: the rows it sets, and its default there.
struct TimeoutOption {
  double seconds;
  std::vector<Child> rows;
  // "It bounds each pip install run and each of onramp's scripts in the
  // sandbox (the pip-install and sandboxed-step limits; docs/security.md
  // lists every limit)": what it bounds, for --help, from the rows.
  std::string bounds() const;
  // Writes `seconds` over each of its rows.
  void apply(TimeLimits& limits, double seconds) const;
};
// "audit", "install", "resolve", "probe", "examples", "port scan", "port trace".
const TimeoutOption& timeout_option(std::string_view command);

// "the pip-install limit (3600 s)": how an outcome names the limit it met.
std::string describe_limit(std::string_view name, double seconds);

}  // namespace onramp
