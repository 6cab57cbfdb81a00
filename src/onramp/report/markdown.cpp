#include <fmt/format.h>

#include "onramp/report/finding_graph.h"
#include "onramp/report/finding_groups.h"
#include "onramp/report/summary.h"
#include "onramp/report/render.h"

namespace onramp::report {
namespace {

// Escapes the characters that would break a Markdown table cell.
std::string cell(std::string text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += "<br>";
    else out += c;
  }
  return out;
}

void append_table(std::string& out, const Table& t) {
  out += fmt::format("### {}\n\n{} Evidence: `{}`\n\n", t.title, t.method, t.evidence);
  if (t.rows.empty()) {
    out += "(none)\n\n";
    return;
  }
  if (t.json_only) {
    out += json_only_note(t) + "\n\n";
    return;
  }
  std::string header = "|", rule = "|";
  for (const auto& c : t.columns) {
    header += fmt::format(" {} |", cell(c.label));
    rule += " --- |";
  }
  out += header + "\n" + rule + "\n";
  for (const auto& row : t.rows) {
    std::string line = "|";
    for (const auto& c : t.columns) {
      line += fmt::format(" {} |", cell(format_cell(row.contains(c.key) ? row.at(c.key) : Json())));
    }
    out += line + "\n";
  }
  out += "\n";
}

// Verbatim lines in a fence longer than any run of backticks they hold, each line after `indent`.
std::string fenced(const std::string& text, const std::string& indent) {
  size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string fence(std::max<size_t>(3, longest + 1), '`');
  std::string out = indent + fence + "text\n";
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    out += indent + text.substr(start, nl - start) + "\n";
    start = nl + 1;
  }
  return out + indent + fence;
}

void append_findings(std::string& out, const Section& s) {
  if (s.findings.empty()) return;
  out += "### Findings\n\n";
  for (const auto& g : group_findings(s.findings)) {
    out += fmt::format("- **{}**: **{}**  \n  {}", severity_label(g), g.title, text_with_places(g));
    if (!g.remedy.empty()) out += fmt::format(" Remedy: {}", g.remedy);
    out += "\n";
    if (!g.following.empty()) out += fmt::format("  - {}\n", following_text(g));
    if (!g.log.empty()) out += fmt::format("  <details><summary>{}</summary>\n\n{}\n  </details>\n", log_label(g.log), fenced(g.log, "  "));
  }
  out += "\n";
}

}  // namespace

std::string render_markdown_summary(const Report& report) {
  Summary sum = summarize(report);
  if (sum.heading.empty()) return "";
  std::string out = fmt::format("## {}\n\n", cell(sum.heading));
  if (!sum.target.empty()) out += fmt::format("**Target:** {}  \n", cell(sum.target));
  if (!sum.host.empty()) out += fmt::format("**Host:** {}  \n", cell(sum.host));
  if (!sum.answer.empty()) out += fmt::format("**Answer:** {}\n", cell(sum.answer));
  out += "\n";
  if (!sum.not_measured.empty()) out += fmt::format("**{}**\n\n", cell(sum.not_measured));
  if (!sum.roots.empty()) {
    out += "| Root cause | Severity | What follows |\n| --- | --- | --- |\n";
    for (const auto& r : sum.roots) {
      out += fmt::format("| {} | {} | {} |\n", cell(r.title), root_label(r),
                         r.following == 0 ? "" : following_count_text(r.following));
    }
    out += "\n";
  }
  if (!sum.headline.empty()) {
    out += "| Figure | Value | Method |\n| --- | --- | --- |\n";
    for (const Figure* f : sum.headline) {
      out += fmt::format("| {} | {} | {} |\n", cell(f->label), cell(format_value(f->value, f->unit)), cell(f->method));
    }
    out += "\n";
  }
  return out;
}

std::string render_markdown(const Report& report) {
  // The answer first; each section in full after it.
  std::string out = render_markdown_summary(report);
  for (const auto& s : report.sections) {
    out += fmt::format("## {}\n\n", s.title);
    if (const Finding* lead = not_measured_finding(s)) out += fmt::format("**{}**\n\n", lead->text);
    // A verdict starts with its root causes, each with what follows from it.
    if (s.restates_findings) append_findings(out, s);
    if (!s.figures.empty()) out += "| Figure | Value | Method | Evidence |\n| --- | --- | --- | --- |\n";
    for (const auto& f : s.figures) {
      std::string value = format_value(f.value, f.unit);
      if (f.value.is_null() && !f.not_measured.empty()) value += " (" + f.not_measured + ")";
      out += fmt::format("| {} | {} | {} | `{}` |\n", cell(f.label), cell(value), cell(f.method),
                         cell(f.evidence));
    }
    if (!s.figures.empty()) out += "\n";
    for (const auto& t : s.tables) append_table(out, t);
    if (!s.restates_findings) append_findings(out, s);
  }
  if (!report.run_dir.empty()) out += fmt::format("Run directory: `{}`\n", report.run_dir);
  return out;
}

}  // namespace onramp::report
