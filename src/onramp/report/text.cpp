#include <fmt/format.h>

#include <algorithm>

#include "onramp/report/finding_text.h"
#include "onramp/report/render.h"

namespace onramp::report {
namespace {

// Lays out a table with each column as wide as its widest cell; numeric
// columns align right.
void append_table(std::string& out, const Table& t) {
  std::vector<std::vector<std::string>> cells;
  std::vector<size_t> width(t.columns.size());
  std::vector<bool> numeric(t.columns.size(), true);
  for (size_t c = 0; c < t.columns.size(); ++c) width[c] = t.columns[c].label.size();
  size_t shown = t.text_rows == 0 ? t.rows.size() : std::min(t.rows.size(), t.text_rows);
  for (size_t r = 0; r < shown; ++r) {
    const Json& row = t.rows[r];
    auto& line = cells.emplace_back();
    for (size_t c = 0; c < t.columns.size(); ++c) {
      const Json& v = row.contains(t.columns[c].key) ? row.at(t.columns[c].key) : Json();
      if (!v.is_number() && !v.is_null()) numeric[c] = false;
      line.push_back(format_cell(v));
      width[c] = std::max(width[c], line.back().size());
    }
  }
  auto emit = [&](const std::vector<std::string>& line) {
    std::string text = "    ";
    for (size_t c = 0; c < line.size(); ++c) {
      text += numeric[c] ? fmt::format("{:>{}}", line[c], width[c])
                         : fmt::format("{:<{}}", line[c], width[c]);
      if (c + 1 < line.size()) text += "  ";
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  };
  std::vector<std::string> header;
  for (const auto& c : t.columns) header.push_back(c.label);
  emit(header);
  for (const auto& line : cells) emit(line);
  if (shown < t.rows.size()) out += fmt::format("    ... {} more rows (--json or --markdown lists all)\n", t.rows.size() - shown);
}

}  // namespace

std::string render_text(const Report& report) {
  std::string out;
  for (const auto& s : report.sections) {
    out += fmt::format("{}\n{}\n", s.title, std::string(s.title.size(), '='));
    std::vector<std::string> methods;
    size_t label_width = 0;
    for (const auto& f : s.figures) label_width = std::max(label_width, f.label.size());
    for (const auto& f : s.figures) {
      methods.push_back(fmt::format("{}: {} [{}]", f.label, f.method, f.evidence));
      std::string value = format_value(f.value, f.unit);
      if (f.value.is_null() && !f.not_measured.empty()) value += " (" + f.not_measured + ")";
      out += fmt::format("  {:<{}}  {}  [{}]\n", f.label, label_width, value, methods.size());
    }
    for (const auto& t : s.tables) {
      methods.push_back(fmt::format("{}: {} [{}]", t.title, t.method, t.evidence));
      out += fmt::format("\n  {} [{}]\n", t.title, methods.size());
      if (t.rows.empty()) {
        out += "    (none)\n";
      } else if (t.json_only) {
        out += "    " + json_only_note(t) + "\n";
      } else {
        append_table(out, t);
      }
    }
    if (!s.findings.empty()) out += "\n  Findings\n";
    for (const auto& f : s.findings) {
      out += fmt::format("    [{}] {}\n", to_string(f.severity), text_with_place(f));
      if (!f.remedy.empty()) out += fmt::format("        remedy: {}\n", f.remedy);
    }
    out += "\n  Methods\n";
    for (size_t i = 0; i < methods.size(); ++i) out += fmt::format("    [{}] {}\n", i + 1, methods[i]);
    out += "\n";
  }
  if (!report.run_dir.empty()) out += fmt::format("Run directory: {}\n", report.run_dir);
  return out;
}

}  // namespace onramp::report
