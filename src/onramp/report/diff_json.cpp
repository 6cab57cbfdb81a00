// The "onramp.diff/1" document. It holds no timestamp of its own, so the same
// two reports always give the same bytes.
#include "onramp/report/diff.h"

namespace onramp::report {
namespace {

Json side_json(const DiffSide& side) {
  return Json{{"path", side.path}, {"target", side.target}, {"generated_at", side.generated_at}};
}

Json summary_json(const DiffSummary& n) {
  return Json{{"figures_changed", n.figures_changed}, {"figures_added", n.figures_added},
              {"figures_removed", n.figures_removed}, {"tables_added", n.tables_added},
              {"tables_removed", n.tables_removed},   {"rows_changed", n.rows_changed},
              {"rows_added", n.rows_added},           {"rows_removed", n.rows_removed},
              {"findings_added", n.findings_added},   {"findings_removed", n.findings_removed}};
}

Json figure_json(const FigureChange& f) {
  return Json{{"change", to_string(f.change)}, {"key", f.key},           {"label", f.label},
              {"unit", f.unit},                {"old", f.old_value},     {"new", f.new_value},
              {"delta", f.delta.absolute},     {"relative", f.delta.relative}, {"method", f.method},
              {"evidence", f.evidence}};
}

Json row_json(const RowChange& r) {
  Json j{{"change", to_string(r.change)}, {"key", r.key}, {"row", r.row}};
  if (r.change != Change::changed) return j;
  Json cells = Json::array();
  for (const auto& c : r.cells) {
    cells.push_back({{"column", c.column}, {"old", c.old_value}, {"new", c.new_value},
                     {"delta", c.delta.absolute}, {"relative", c.delta.relative}});
  }
  j["cells"] = cells;
  return j;
}

Json table_json(const TableChange& t) {
  Json columns = Json::array();
  for (const auto& c : t.columns) columns.push_back({{"key", c.key}, {"label", c.label}, {"unit", c.unit}});
  Json rows = Json::array();
  for (const auto& r : t.rows) rows.push_back(row_json(r));
  return Json{{"change", to_string(t.change)}, {"key", t.key},           {"title", t.title},
              {"columns", columns},            {"key_columns", t.key_columns}, {"old_rows", t.old_rows},
              {"new_rows", t.new_rows},        {"rows", rows}};
}

}  // namespace

Json diff_to_json(const ReportDiff& diff) {
  Json sections = Json::object();
  for (const auto& s : diff.sections) {
    Json figures = Json::array(), tables = Json::array(), findings = Json::array();
    for (const auto& f : s.figures) figures.push_back(figure_json(f));
    for (const auto& t : s.tables) tables.push_back(table_json(t));
    for (const auto& f : s.findings) {
      findings.push_back({{"change", to_string(f.change)}, {"severity", f.severity}, {"text", f.text}});
    }
    sections[s.key] = Json{{"title", s.title}, {"change", to_string(s.change)}, {"figures", figures},
                           {"tables", tables}, {"findings", findings}};
  }
  return Json{{"schema", kDiffSchema},
              {"tool", {{"name", "onramp"}, {"version", ONRAMP_VERSION}}},
              {"old", side_json(diff.old_side)},
              {"new", side_json(diff.new_side)},
              {"summary", summary_json(summarize(diff))},
              {"sections", sections}};
}

std::string render_diff_json(const ReportDiff& diff) { return diff_to_json(diff).dump(2) + "\n"; }

}  // namespace onramp::report
