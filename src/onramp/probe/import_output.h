#pragma once
// Splits the stderr of an import probe run: the lines between the probe's
// begin and end markers belong to `import M`; among them, `-X importtime`
// lines are parsed into entries and the rest are what the import printed.
#include <string>
#include <string_view>
#include <vector>

namespace onramp::probe {

struct ImportTimeEntry {
  std::string module;
  int depth = 0;  // nesting level in -X importtime's tree (0: imported by the probe)
  double self_seconds = 0;
  double cumulative_seconds = 0;
};

struct ImportOutput {
  std::vector<std::string> lines;  // stderr lines of the import, in order, importtime lines excluded
  std::vector<ImportTimeEntry> importtime;
  bool delimited = false;  // both markers were found (else all of stderr was used)
};

ImportOutput split_import_stderr(std::string_view stderr_text);

// Parses one "import time: self | cumulative | name" line; false for others
// (including the header line).
bool parse_importtime_line(std::string_view line, ImportTimeEntry& entry);

// The n entries with the largest self (or cumulative) time; ties by name.
std::vector<ImportTimeEntry> top_imports(std::vector<ImportTimeEntry> entries, size_t n, bool by_cumulative);

}  // namespace onramp::probe
