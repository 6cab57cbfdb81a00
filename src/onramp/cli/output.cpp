#include "onramp/cli/output.h"
#include "onramp/cli/path_arg.h"

#include <iostream>

#include "onramp/cli/terminal.h"
#include "onramp/report/report_file.h"
#include "onramp/util/error.h"

namespace onramp::cli {

void OutputOptions::declare(CLI::App& app) {
  auto* j = app.add_flag("--json", json, "Write the report as JSON (schema: docs/report-schema.md)");
  auto* m = app.add_flag("--markdown", markdown, "Write the report as Markdown");
  auto* h = app.add_flag("--html", html, "Write the report as a self-contained HTML page with charts");
  j->excludes(m, h);
  m->excludes(h);
  auto* b = app.add_flag("--brief", brief,
                         "Terminal view: only the summary (headline figures, blockers, frictions)");
  b->excludes(j, m, h);
  auto* d = app.add_flag("--details", details,
                         "Terminal view: every finding's whole text and its log (a terminal otherwise shows a "
                         "finding's first lines, and a log's length)");
  d->excludes(j, m, h, b);
  app.add_option("--color", color, "Colour the terminal view: auto (on a terminal, unless NO_COLOR is set), "
                                   "always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  app.add_option("-o,--output", output, "Write the report to FILE instead of standard output")->check(path_arg());
}

report::Format OutputOptions::format() const {
  if (json) return report::Format::json;
  if (markdown) return report::Format::markdown;
  if (html) return report::Format::html;
  return report::Format::text;
}

report::TextStyle OutputOptions::text_style() const {
  bool terminal = output.empty() && stdout_is_terminal();
  report::TextStyle style;
  style.width = terminal ? terminal_width() : 0;
  style.color = use_color(color, terminal);
  style.brief = brief;
  style.details = details;
  return style;
}

void OutputOptions::emit(const report::Report& report) const {
  if (format() == report::Format::text) return emit_text(report, text_style());
  write(report::render(report, format()));
}

void OutputOptions::emit(report::Json target, std::vector<report::Section> sections, std::string run_dir) const {
  report::Report report;
  report.target = std::move(target);
  report.sections = std::move(sections);
  report.run_dir = std::move(run_dir);
  emit(report);
}

void OutputOptions::emit_text(const report::Report& report, const report::TextStyle& style) const {
  write(report::render_text(report, style));
}

void OutputOptions::emit_document(const std::function<std::string()>& as_json,
                                  const std::function<std::string()>& as_html,
                                  const std::function<report::Report()>& view) const {
  if (json) return write(as_json());
  if (html && as_html) return write(as_html());
  emit(view());
}

void OutputOptions::write(const std::string& text) const {
  if (output.empty()) {
    std::cout << text << std::flush;
    return;
  }
  value_or_fatal(report::write_report_file(output, text));
}

}  // namespace onramp::cli
