#pragma once
// ExampleRun: every top-level statement of a file's examples, in order, in
// one sandboxed interpreter, continuing after a failure. Per statement: its
// source line, the outcome (ok, a short value repr, exception type and
// message, timeout, not run) and its time: the article's "four lines, four
// outcomes" table.
#include <optional>
#include <string>
#include <vector>

#include "onramp/diagnosis/facts.h"
#include "onramp/report/model.h"
#include "onramp/examples/device_registration.h"
#include "onramp/examples/example_causes.h"
#include "onramp/examples/example_sources.h"
#include "onramp/python/sandbox.h"

namespace onramp::examples {

struct ExamplesOptions {
  std::string module;               // imported first when given
  DeviceRegistration registration{};  // the backend's module and device-registering init calls
  // What an earlier probe of the same interpreter measured (the audit's probe
  // step), for the diagnoses' `when`; the run adds whether the module imported.
  diagnosis::Facts facts{};
};

// The examples section, as `onramp examples` and the audit's examples step
// build it: every file's statements run in the sandbox, one interpreter a file.
report::Section examples_section(python::Sandbox& sandbox, const std::vector<ExampleFile>& files,
                                 const ExamplesOptions& options);

// The two halves of it, for an audit that runs the examples beside its probe
// and reads them once the probe's facts (options.facts) are known: the runs,
// one per file (none for a file without blocks), then the section.
std::vector<std::optional<python::ScriptRun>> run_examples(python::Sandbox& sandbox,
                                                          const std::vector<ExampleFile>& files,
                                                          const ExamplesOptions& options);
report::Section examples_section(const std::vector<ExampleFile>& files,
                                 const std::vector<std::optional<python::ScriptRun>>& runs,
                                 const ExamplesOptions& options);

struct StatementTally {
  size_t statements = 0, succeeded = 0, failed = 0, not_run = 0;
  CauseTally causes;  // failed = causes.roots() + causes.following()
};

// The reading half of add_examples for one file: its run of
// run_statements.py (the `index`th file) into the section.
// Findings go to `findings`, root failures first, so that the caller can
// order them by cause across files.
void add_statement_records(report::Section& section, const ExampleFile& file, size_t index, const python::ScriptRun& run,
                           const ExamplesOptions& options, StatementTally& tally,
                           std::vector<report::Finding>& findings);

}  // namespace onramp::examples
