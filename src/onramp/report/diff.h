#pragma once
// What changed between two onramp reports of any sections: two versions of a
// backend, or two backends. Figures are matched by section and key, tables by
// section and key, table rows by their leading text columns (language, op
// name, path, statement), findings by severity and text.
#include <string>
#include <vector>

#include "onramp/report/model.h"

namespace onramp::report {

inline constexpr const char* kDiffSchema = "onramp.diff/1";

enum class Change { added, removed, changed };
std::string_view to_string(Change change);

// A number's change; both null unless the old and new values are numbers.
struct Delta {
  Json absolute;  // new - old
  Json relative;  // (new - old) / old; null when old is 0
};
Delta delta_of(const Json& old_value, const Json& new_value);

struct FigureChange {
  Change change = Change::changed;
  std::string key;
  std::string label;
  std::string unit;
  Json old_value;  // null when added (or when it was not measured)
  Json new_value;  // null when removed (or when it is not measured)
  Delta delta;
  std::string method;  // the newer report's, else the older's
  std::string evidence;
};

struct CellChange {
  std::string column;
  Json old_value;
  Json new_value;
  Delta delta;
};

struct RowChange {
  Change change = Change::changed;
  Json key = Json::object();  // key column -> value
  Json row;                   // the new row, or the old one when removed
  std::vector<CellChange> cells;  // for a changed row: the cells that differ
};

struct TableChange {
  Change change = Change::changed;
  std::string key;
  std::string title;
  std::vector<Column> columns;           // the newer table's, else the older's
  std::vector<std::string> key_columns;  // empty when the table was added or removed
  size_t old_rows = 0;
  size_t new_rows = 0;
  std::vector<RowChange> rows;  // only when both reports hold the table
};

struct FindingChange {
  Change change = Change::added;
  std::string severity;
  std::string text;
};

struct SectionDiff {
  std::string key;
  std::string title;
  Change change = Change::changed;  // added or removed: the section is in one report only
  std::vector<FigureChange> figures;
  std::vector<TableChange> tables;
  std::vector<FindingChange> findings;

  bool empty() const { return figures.empty() && tables.empty() && findings.empty(); }
};

struct DiffSide {
  std::string path;   // as the user named it
  Json target;        // the report's target
  std::string generated_at;
};

struct ReportDiff {
  DiffSide old_side;
  DiffSide new_side;
  std::vector<SectionDiff> sections;  // sorted by key; sections without changes left out
};

struct DiffSummary {
  size_t figures_changed = 0, figures_added = 0, figures_removed = 0;
  size_t tables_added = 0, tables_removed = 0;
  size_t rows_changed = 0, rows_added = 0, rows_removed = 0;
  size_t findings_added = 0, findings_removed = 0;

  size_t total() const;
};
DiffSummary summarize(const ReportDiff& diff);

// Both documents must have passed check_report_json.
ReportDiff diff_reports(const Json& old_report, const Json& new_report, const std::string& old_path,
                        const std::string& new_path);

// The key columns of a table: the shortest run of leading text columns whose
// values tell every row apart in both versions.
std::vector<std::string> row_key_columns(const std::vector<Column>& columns, const Json& old_rows,
                                         const Json& new_rows);

// The "onramp.diff/1" document (docs/report-schema.md).
Json diff_to_json(const ReportDiff& diff);
std::string render_diff_json(const ReportDiff& diff);

// The same changes as a Report, so the text and Markdown renderers lay it out.
Report diff_as_report(const ReportDiff& diff);

}  // namespace onramp::report
