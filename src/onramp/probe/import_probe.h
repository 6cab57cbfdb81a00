#pragma once
// ImportProbe: `import M` in N fresh sandboxed interpreters. The first run is
// cold, the rest warm, reported apart; one more run under -X importtime
// gives the top modules by self and cumulative time. The cold run's stderr
// lines, Python warnings and newly mapped native libraries are reported too.
#include <optional>
#include <string>
#include <vector>

#include "onramp/diagnosis/facts.h"
#include "onramp/diagnosis/outcome.h"
#include "onramp/report/model.h"
#include "onramp/python/sandbox.h"

namespace onramp::probe {

struct ImportProbeOptions {
  std::string module;
  int runs = 5;
  size_t top = 10;  // rows in each importtime table
  // What the caller measured before the import (the torch range the backend
  // declares, the host's torch), for the rules that diagnose a failed import.
  diagnosis::Facts facts;
};

// One `import M` run in a fresh interpreter: kind is cold, warm or importtime
// (under -X importtime); index names its result file (import-<index>.jsonl).
struct ImportRun {
  std::string kind;
  python::ScriptRun run;
  const report::Json* record = nullptr;  // the "import" record, in run.records
  std::optional<diagnosis::Failure> failure;
};
ImportRun run_import(python::Sandbox& sandbox, const std::string& module, const std::string& kind, int index,
                     const diagnosis::Facts& facts);

// The figures, tables and findings of the runs: `runs` holds options.runs
// runs, the cold one first, then the importtime run.
void add_import_results(report::Section& section, std::vector<ImportRun> runs, const ImportProbeOptions& options);

// min / median / max of a non-empty list.
struct Spread {
  double min = 0, median = 0, max = 0;
};
Spread spread(std::vector<double> values);

}  // namespace onramp::probe
