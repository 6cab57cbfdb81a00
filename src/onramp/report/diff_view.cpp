// A ReportDiff laid out as a Report: one table of changed figures per section
// and one table of changed rows per changed table, so the terminal and
// Markdown renderers show a diff the way they show any report.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "onramp/report/diff.h"
#include "onramp/report/render.h"
#include "onramp/util/command_line.h"

namespace onramp::report {
namespace {

std::string signed_value(const Json& delta, const std::string& unit) {
  if (delta.is_null()) return "";
  std::string shown = format_value(delta, unit);
  return delta.get<double>() > 0 ? "+" + shown : shown;
}

std::string percent(const Json& relative) {
  if (relative.is_null()) return "";
  return fmt::format("{:+.1f}%", relative.get<double>() * 100.0);
}

std::string shown(const Json& value, const std::string& unit) { return value.is_null() ? "-" : format_value(value, unit); }

const Column* column(const TableChange& t, const std::string& key) {
  for (const auto& c : t.columns) {
    if (c.key == key) return &c;
  }
  return nullptr;
}

Table figures_table(const SectionDiff& s, const std::string& evidence) {
  Table t{"figures", "Figures", "Figures matched by key; a figure is listed when its value differs.", evidence,
          {{"figure", "Figure", ""}, {"change", "Change", ""}, {"old", "Old", ""}, {"new", "New", ""},
           {"delta", "Delta", ""}, {"relative", "Relative", ""}}, {}};
  for (const auto& f : s.figures) {
    t.rows.push_back(Json{{"figure", f.label.empty() ? f.key : f.label}, {"change", to_string(f.change)},
                          {"old", shown(f.old_value, f.unit)}, {"new", shown(f.new_value, f.unit)},
                          {"delta", signed_value(f.delta.absolute, f.unit)}, {"relative", percent(f.delta.relative)}});
  }
  return t;
}

std::string row_details(const TableChange& t, const RowChange& r) {
  std::vector<std::string> parts;
  if (r.change == Change::changed) {
    for (const auto& c : r.cells) {
      const Column* col = column(t, c.column);
      std::string unit = col ? col->unit : "", label = col ? col->label : c.column;
      std::string part = fmt::format("{}: {} → {}", label, format_cell(c.old_value), format_cell(c.new_value));
      if (!c.delta.absolute.is_null()) part += fmt::format(" ({})", signed_value(c.delta.absolute, unit));
      parts.push_back(part);
    }
  } else {
    for (const auto& c : t.columns) {
      if (r.key.contains(c.key) || !r.row.contains(c.key) || r.row[c.key].is_null()) continue;
      parts.push_back(fmt::format("{}: {}", c.label, format_cell(r.row[c.key])));
    }
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

Table rows_table(const TableChange& t, const std::string& evidence) {
  Table out{"rows:" + t.key, t.title + ": rows",
            fmt::format("Rows matched by {}; {} rows before, {} after.", fmt::join(t.key_columns, " + "), t.old_rows,
                        t.new_rows),
            evidence, {{"change", "Change", ""}}, {}};
  for (const auto& k : t.key_columns) {
    const Column* c = column(t, k);
    out.columns.push_back({k, c ? c->label : k, ""});
  }
  out.columns.push_back({"details", "Details", ""});
  for (const auto& r : t.rows) {
    Json row{{"change", to_string(r.change)}};
    for (const auto& k : t.key_columns) row[k] = r.key.value(k, Json());
    if (r.key.contains("occurrence") && r.key["occurrence"].is_number_integer()) {
      row["details"] = fmt::format("(occurrence {}) ", r.key["occurrence"].template get<int64_t>());
    }
    row["details"] = row.value("details", std::string()) + row_details(t, r);
    out.rows.push_back(std::move(row));
  }
  return out;
}

Table whole_tables(const SectionDiff& s, const std::string& evidence) {
  Table t{"tables", "Tables added or removed", "Tables matched by key.", evidence,
          {{"table", "Table", ""}, {"change", "Change", ""}, {"old_rows", "Rows before", "rows"},
           {"new_rows", "Rows after", "rows"}}, {}};
  for (const auto& c : s.tables) {
    if (c.change == Change::changed) continue;
    t.rows.push_back(Json{{"table", c.title}, {"change", to_string(c.change)}, {"old_rows", c.old_rows},
                          {"new_rows", c.new_rows}});
  }
  return t;
}

Section section_view(const SectionDiff& s, const std::string& evidence) {
  std::string title = s.title;
  if (s.change == Change::added) title += " (only in the new report)";
  if (s.change == Change::removed) title += " (only in the old report)";
  Section out{s.key, title, {}, {}, {}};
  if (!s.figures.empty()) out.add(figures_table(s, evidence));
  Table whole = whole_tables(s, evidence);
  if (!whole.rows.empty()) out.add(std::move(whole));
  for (const auto& t : s.tables) {
    if (t.change == Change::changed) out.add(rows_table(t, evidence));
  }
  if (!s.findings.empty()) {
    Table f{"findings", "Findings", "Findings matched by severity and text.", evidence,
            {{"change", "Change", ""}, {"severity", "Severity", ""}, {"text", "Finding", ""}}, {}};
    for (const auto& c : s.findings) f.rows.push_back({{"change", to_string(c.change)}, {"severity", c.severity}, {"text", c.text}});
    out.add(std::move(f));
  }
  return out;
}

Section summary_view(const ReportDiff& diff, const std::string& evidence) {
  Section s{"diff", fmt::format("Changes from {} to {}", diff.old_side.path, diff.new_side.path), {}, {}, {}};
  DiffSummary n = summarize(diff);
  const std::string how = "Compared the two reports section by section; ";
  auto count = [&](std::string key, std::string label, size_t value, std::string unit, std::string rule) {
    s.add(Figure{std::move(key), std::move(label), Json(value), std::move(unit), how + rule, evidence, ""});
  };
  count("figures_changed", "Figures changed", n.figures_changed, "figures", "figures matched by key whose value differs.");
  count("figures_added", "Figures added", n.figures_added, "figures", "figures only in the new report.");
  count("figures_removed", "Figures removed", n.figures_removed, "figures", "figures only in the old report.");
  count("rows_changed", "Table rows changed", n.rows_changed, "rows", "rows matched by their key columns whose cells differ.");
  count("rows_added", "Table rows added", n.rows_added, "rows", "rows only in the new report's table.");
  count("rows_removed", "Table rows removed", n.rows_removed, "rows", "rows only in the old report's table.");
  count("findings_added", "Findings added", n.findings_added, "findings", "findings (severity and text) only in the new report.");
  count("findings_removed", "Findings removed", n.findings_removed, "findings", "findings only in the old report.");
  if (n.total() == 0) s.add(Finding{Severity::info, Title{"The two reports hold the same figures, rows and findings"},
                                  "The two reports hold the same figures, rows and findings.", "", evidence});
  return s;
}

}  // namespace

Report diff_as_report(const ReportDiff& diff) {
  const std::string evidence = util::command_line({"onramp", "diff", diff.old_side.path, diff.new_side.path});
  Report out;
  out.target = Json{{"kind", "diff"}, {"old", diff.old_side.path}, {"new", diff.new_side.path}};
  out.sections.push_back(summary_view(diff, evidence));
  for (const auto& s : diff.sections) out.sections.push_back(section_view(s, evidence));
  return out;
}

}  // namespace onramp::report
