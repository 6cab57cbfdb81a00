#pragma once
// Renderers: the same Report as JSON (docs/report-schema.md), a terminal
// view, or Markdown. None of them computes anything.
#include <string>

#include "onramp/report/model.h"

namespace onramp::report {

enum class Format { text, json, markdown, html };

Json to_json(const Report& report);
std::string render_json(const Report& report);
// How the terminal view is laid out. The default is for a pipe or a file: nothing
// cut or wrapped, no colour, so the same report gives the same bytes.
struct TextStyle {
  size_t width = 0;         // screen columns to fit (0: no limit)
  bool color = false;       // ANSI colours for severities, bold figure values
  bool brief = false;       // only the summary: headline figures, blockers, frictions
  bool details = false;     // each finding's whole text and its log, even on a terminal
  std::string full_report;  // where cut text is in full (a report file); empty: the JSON report
};

// The summary first (the first section's figures, then every blocker and
// friction, grouped), then each section's tables, other findings and methods.
std::string render_text(const Report& report, const TextStyle& style = {});
// The answer first (summary.h), then each section in full.
std::string render_markdown(const Report& report);
// The answer alone, in Markdown: what a CI job writes to its summary page
// (an audit's summary.md; docs/ci.md).
std::string render_markdown_summary(const Report& report);
// A self-contained page (no network, scripts or fonts) with SVG bar charts.
std::string render_html(const Report& report);
std::string render(const Report& report, Format format);

// The target as the user named it: the requirement, the path, the module or
// the files; the target's kind where it names none of them.
std::string target_name(const Json& target);

// Display helpers shared by the text and Markdown renderers.
std::string format_value(const Json& value, const std::string& unit);
std::string format_cell(const Json& value);
// What people see in place of a json_only table's rows.
std::string json_only_note(const Table& table);

}  // namespace onramp::report
