#pragma once
// ImportProbe: `import M` in N fresh sandboxed interpreters. The first run is
// cold, the rest warm, reported apart; one more run under -X importtime
// gives the top modules by self and cumulative time. The cold run's stderr
// lines, Python warnings and newly mapped native libraries are reported too.
#include <string>

#include "onramp/diagnosis/facts.h"
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

void add_import_probe(report::Section& section, python::Sandbox& sandbox, const ImportProbeOptions& options);

// min / median / max of a non-empty list.
struct Spread {
  double min = 0, median = 0, max = 0;
};
Spread spread(std::vector<double> values);

}  // namespace onramp::probe
