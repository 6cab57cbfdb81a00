#pragma once
// Several saved reports side by side (`onramp compare`): one column per
// report (a backend, a release, a host), one row per figure that any of them
// has, plus rows from the tables whose rows are comparable one by one (each
// device-API call's outcome, each device string, each op counting method).
// A value is compared only under the same method: the method with each
// report's own names (module, project, device) replaced, so that "import
// torch_tpu" and "import torch_xla" are one method. Where methods still
// differ the row says so and nothing is marked best.
#include <string>
#include <utility>
#include <vector>

#include "onramp/report/model.h"

namespace onramp::report {

inline constexpr const char* kCompareSchema = "onramp.compare/1";

struct CompareColumn {
  std::string path;    // as the user named it
  std::string name;    // what the column is called: the target's module, project or path
  std::string schema;  // the report's schema version
  Json target;
};

struct CompareCell {
  Json value;                // null when not measured
  std::string not_measured;  // why: the report lacks the section or figure, or says why itself
  bool best = false;
};

struct CompareRow {
  std::string family;   // "wheel", "install", "probe", "device_api", ... (a group of rows, a chart)
  std::string section;  // the section the values come from
  std::string key;      // figure key, or "<table>:<row key>"
  std::string label;
  std::string unit;
  std::string better;   // "lower", "higher" or "" (as the reports declare it)
  std::string method;   // the shared method, with the target's names as "<target>"
  bool methods_differ = false;
  std::vector<std::string> methods;  // each column's, when they differ
  std::vector<CompareCell> cells;    // one per column
};

struct Comparison {
  std::vector<CompareColumn> columns;
  std::vector<CompareRow> rows;  // by section order of the first report that has it, then key
};

// `reports`: (path, parsed document); each must have passed check_report_json.
Comparison compare_reports(const std::vector<std::pair<std::string, Json>>& reports);

// The "onramp.compare/1" document (docs/report-schema.md).
Json comparison_to_json(const Comparison& comparison);
std::string render_comparison_json(const Comparison& comparison);

// The same rows as a Report (a section per family, a table each), so the
// terminal, Markdown and HTML renderers lay it out.
Report comparison_as_report(const Comparison& comparison);

// One self-contained page: per family, a grouped bar chart for each unit of
// its numeric rows (rows whose methods differ left out), then the table.
std::string render_comparison_html(const Comparison& comparison);

// `method` with each of `names` (longest first) replaced by "<target>".
std::string neutral_method(std::string method, const std::vector<std::string>& names);

}  // namespace onramp::report
