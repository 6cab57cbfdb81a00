#include <fmt/color.h>
#include <fmt/format.h>

#include <algorithm>

#include "onramp/report/finding_graph.h"
#include "onramp/report/finding_groups.h"
#include "onramp/report/render.h"
#include "onramp/report/summary.h"
#include "onramp/report/terminal_text.h"
#include "onramp/report/text_table.h"
#include "onramp/util/text.h"

namespace onramp::report {
namespace {

// Lines of a finding's text a terminal shows without --details.
constexpr size_t kDetailLines = 3;

// Whether a text says no more than its title: the title itself, with a full stop or not.
bool same_claim(const std::string& title, const std::string& text) {
  std::string_view t = util::trim(text);
  if (t.ends_with('.')) t.remove_suffix(1);
  return t == util::trim(title);
}

// Writes lines for one report, in a width (0: no limit) and with or without colour.
class TextWriter {
 public:
  explicit TextWriter(const TextStyle& style) : style_(style) {}

  std::string& out() { return out_; }

  std::string paint(const fmt::text_style& ts, const std::string& text) const {
    return style_.color && !text.empty() ? fmt::format(ts, "{}", text) : text;
  }

  std::string severity_tag(Severity severity, const std::string& label) const {
    static const fmt::text_style kStyles[] = {fmt::fg(fmt::terminal_color::green), fmt::fg(fmt::terminal_color::cyan),
                                              fmt::fg(fmt::terminal_color::yellow) | fmt::emphasis::bold,
                                              fmt::fg(fmt::terminal_color::red) | fmt::emphasis::bold};
    return paint(kStyles[static_cast<int>(severity)], "[" + label + "]");
  }

  // A paragraph after `prefix` (already painted; `prefix_width` columns), wrapped
  // with continuation lines under `indent` spaces; at most `max_lines` lines
  // (0: all), the last ending in "…" where the text did not fit.
  void paragraph(const std::string& prefix, size_t prefix_width, const std::string& text, size_t indent,
                 size_t max_lines = 0) {
    std::string safe = terminal_safe(text);
    size_t room = style_.width > prefix_width + 20 ? style_.width - std::max(prefix_width, indent) : 0;
    if (style_.width != 0 && room == 0) room = 20;
    bool was_cut = false;
    auto lines = wrap(safe, style_.width == 0 ? 0 : room, style_.width == 0 ? 0 : max_lines, &was_cut);
    cut_ = cut_ || was_cut;
    for (size_t i = 0; i < lines.size(); ++i) {
      out_ += (i == 0 ? prefix : std::string(indent, ' ')) + lines[i] + "\n";
    }
  }

  void title(const std::string& text) {
    size_t w = 0;
    for (const auto& line : wrap(terminal_safe(text), style_.width)) {
      out_ += paint(fmt::emphasis::bold, line) + "\n";
      w = std::max(w, display_width(line));
    }
    out_ += std::string(w, '=') + "\n";
  }

  // "  label  value  [n]": labels in a column, values bold, long ones wrapped.
  void figures(const std::vector<Figure>& list, size_t first_method) {
    std::vector<std::pair<const Figure*, size_t>> numbered;
    for (const auto& f : list) numbered.emplace_back(&f, first_method + numbered.size());
    figures(numbered);
  }

  // Each figure with the number of its method in the methods list.
  void figures(const std::vector<std::pair<const Figure*, size_t>>& numbered) {
    size_t label_width = 0;
    for (const auto& [f, n] : numbered) label_width = std::max(label_width, display_width(terminal_safe(f->label)));
    if (style_.width != 0) label_width = std::min(label_width, std::max<size_t>(20, style_.width * 2 / 5));
    for (const auto& [figure, n] : numbered) {
      const Figure& f = *figure;
      std::string value = format_value(f.value, f.unit);
      if (f.value.is_null() && !f.not_measured.empty()) value += " (" + f.not_measured + ")";
      std::string ref = fmt::format("  [{}]", n);
      size_t used = 2 + label_width + 2 + display_width(ref);
      size_t room = style_.width == 0 ? 0 : style_.width > used + 10 ? style_.width - used : 10;
      auto labels = wrap(terminal_safe(f.label), style_.width == 0 ? 0 : label_width);
      auto values = wrap(terminal_safe(value), room);
      for (size_t i = 0; i < std::max(labels.size(), values.size()); ++i) {
        std::string line = "  " + pad(i < labels.size() ? labels[i] : "", label_width) + "  ";
        if (i < values.size()) line += paint(fmt::emphasis::bold, values[i]);
        if (i + 1 == values.size()) line += ref;
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out_ += line + "\n";
      }
    }
  }

  void table(const Table& t) {
    size_t shown = t.text_rows == 0 ? t.rows.size() : std::min(t.rows.size(), t.text_rows);
    TableLines laid = lay_out_table(t, shown, style_.width, 4);
    for (const auto& line : laid.lines) out_ += line + "\n";
    if (shown < t.rows.size()) {
      paragraph("    ", 4, fmt::format("... {} more rows (--json or --markdown lists all)", t.rows.size() - shown), 4);
    }
    if (laid.cut) {
      std::string where = style_.full_report.empty() ? fmt::format("--json, table \"{}\"", t.key) : style_.full_report;
      paragraph("    ", 4, fmt::format("(… cut to fit {} columns; full text: {})", style_.width, where), 5);
    }
  }

  // Each group: its title, then its text (on a terminal without --details,
  // at most kDetailLines lines of it, cut at a word with "…"), its remedy,
  // what follows from it, and its log (with --details; else how long it is).
  void finding_groups(const std::vector<FindingGroup>& groups) {
    for (const auto& g : groups) {
      std::string label = severity_label(g);
      paragraph("    " + severity_tag(g.severity, label) + " ", 4 + display_width(label) + 3, g.title, 8);
      std::string text = text_with_places(g);
      if (!same_claim(g.title, text)) paragraph("        ", 8, text, 8, style_.details ? 0 : kDetailLines);
      if (!g.remedy.empty()) paragraph("        remedy: ", 16, g.remedy, 8);
      if (!g.following.empty()) paragraph("        └ ", 10, following_text(g), 10);
      if (g.log.empty()) continue;
      if (!style_.details) {
        paragraph("        ", 8, log_label(g.log) + " (--details shows it)", 8);
        continue;
      }
      out_ += "        " + log_label(g.log) + ":\n";
      for (size_t start = 0; start < g.log.size();) {
        size_t nl = std::min(g.log.find('\n', start), g.log.size());
        out_ += "        | " + terminal_safe(std::string_view(g.log).substr(start, nl - start)) + "\n";
        start = nl + 1;
      }
    }
  }

  // Whether anything was cut to fit (a finding's text, a table's cells).
  bool cut() const { return cut_; }

 private:
  const TextStyle& style_;
  std::string out_;
  bool cut_ = false;
};

bool is_problem(Severity s) { return s == Severity::blocker || s == Severity::friction; }

// The sections whose blockers and frictions the summary lists: the one that
// restates all others', else every section.
std::vector<const Section*> problem_sources(const Report& report) {
  for (const auto& s : report.sections) {
    if (s.restates_findings) return {&s};
  }
  std::vector<const Section*> all;
  for (const auto& s : report.sections) all.push_back(&s);
  return all;
}

// At most this many roots in the summary's list; the rest are in the list below it.
constexpr size_t kSummaryRoots = 6;

// The answer first (summary.h): the target, the host, one sentence, the root
// causes by title, the headline figures; a summary that fits 24 lines of 100
// columns. The whole texts follow.
void answer_first(TextWriter& w, const Report& report, const TextStyle& style) {
  const Section& first = report.sections.front();
  Summary sum = summarize(report);
  w.title(sum.heading);
  // What was measured, as the user named it, and on which interpreter.
  if (!sum.target.empty()) w.paragraph("  Target: ", 10, sum.target, 10);
  if (!sum.host.empty()) w.paragraph("  Host:   ", 10, sum.host, 10);
  if (!sum.answer.empty()) w.paragraph("  Answer: ", 10, sum.answer, 10);
  // What was not measured comes first: a reader of the first lines must not take silence for clean.
  if (!sum.not_measured.empty()) w.paragraph("  ", 2, sum.not_measured, 4);
  if (!sum.roots.empty()) {
    w.out() += "\n  Root causes\n";
    for (size_t i = 0; i < sum.roots.size() && i < kSummaryRoots; ++i) {
      const SummaryRoot& root = sum.roots[i];
      std::string label = root_label(root);
      std::string after = root.following == 0 ? "" : " (" + following_count_text(root.following) + ")";
      size_t used = 4 + label.size() + 3 + after.size();
      std::string title = style.width > used + 20 ? util::shortened(root.title, style.width - used) : root.title;
      w.paragraph("    " + w.severity_tag(root.severity, label) + " ", used - after.size(), title + after, 8);
    }
    if (sum.roots.size() > kSummaryRoots) {
      w.paragraph("    ", 4, fmt::format("and {} more, below", sum.roots.size() - kSummaryRoots), 4);
    }
  }
  std::vector<std::pair<const Figure*, size_t>> headline;
  for (const Figure* f : sum.headline) headline.emplace_back(f, static_cast<size_t>(f - first.figures.data()) + 1);
  if (!headline.empty()) {
    w.out() += "\n";
    w.figures(headline);
  }
}

void summary(TextWriter& w, const Report& report, const TextStyle& style) {
  const Section& first = report.sections.front();
  answer_first(w, report, style);
  const Finding* unmeasured = not_measured_finding(first);
  // A summary that is not a verdict shows the rest of its figures before its problems.
  if (!first.restates_findings && first.figures.size() > kHeadlineFigures) {
    std::vector<std::pair<const Figure*, size_t>> rest;
    for (size_t i = kHeadlineFigures; i < first.figures.size(); ++i) rest.emplace_back(&first.figures[i], i + 1);
    w.figures(rest);
  }
  std::vector<FindingGroup> problems;
  for (Severity severity : {Severity::blocker, Severity::friction}) {
    for (const Section* s : problem_sources(report)) {
      for (auto& g : group_findings(s->findings)) {
        if (g.severity == severity) problems.push_back(std::move(g));
      }
    }
  }
  if (problems.empty()) {
    // "found nothing" only when everything asked for was measured.
    w.out() += unmeasured ? "\n  No blockers or frictions in what was measured; see \"Not measured\" above.\n"
                          : "\n  No blockers or frictions found.\n";
  } else {
    w.out() += "\n  Blockers and frictions\n";
    w.finding_groups(problems);
  }
  if (first.restates_findings) {
    w.out() += "\n  Every figure\n";
    w.figures(first.figures, 1);
  }
}

void section_body(TextWriter& w, const Section& s, bool first) {
  if (first) {
    w.title(s.title + ": the details");
  } else {
    w.title(s.title);
    w.figures(s.figures, 1);
  }
  std::vector<std::string> methods;
  for (const auto& f : s.figures) methods.push_back(fmt::format("{}: {} [{}]", f.label, f.method, f.evidence));
  for (const auto& t : s.tables) {
    methods.push_back(fmt::format("{}: {} [{}]", t.title, t.method, t.evidence));
    w.paragraph("\n  ", 2, fmt::format("{} [{}]", t.title, methods.size()), 4);
    if (t.rows.empty()) {
      w.out() += "    (none)\n";
    } else if (t.json_only) {
      w.paragraph("    ", 4, json_only_note(t), 4);
    } else {
      w.table(t);
    }
  }
  std::vector<FindingGroup> others;
  size_t problems = 0;
  for (auto& g : group_findings(s.findings)) {
    if (is_problem(g.severity)) problems += g.members.size();
    else others.push_back(std::move(g));
  }
  if (!others.empty() || problems > 0) w.out() += "\n  Findings\n";
  if (problems > 0) w.paragraph("    ", 4, fmt::format("{} blocker(s) and friction(s): listed at the top", problems), 4);
  w.finding_groups(others);
  w.out() += "\n  Methods\n";
  for (size_t i = 0; i < methods.size(); ++i) {
    std::string prefix = fmt::format("    [{}] ", i + 1);
    w.paragraph(prefix, prefix.size(), methods[i], 8);
  }
  w.out() += "\n";
}

}  // namespace

std::string render_text(const Report& report, const TextStyle& style) {
  TextWriter w(style);
  if (!report.sections.empty()) {
    summary(w, report, style);
    w.out() += "\n";
    if (style.brief) {
      std::string where = style.full_report.empty() ? "" : "in " + style.full_report + ", or ";
      w.paragraph("", 0, "Tables, other findings and methods: " + where + "run without --brief.", 0);
    } else {
      for (size_t i = 0; i < report.sections.size(); ++i) section_body(w, report.sections[i], i == 0);
    }
  }
  if (w.cut()) {
    std::string where = style.full_report.empty() ? "" : ", and in " + style.full_report;
    w.paragraph("", 0, "Texts that end in \"…\" are whole with --details" + where + ".", 2);
  }
  if (!report.run_dir.empty()) w.paragraph("", 0, "Run directory: " + report.run_dir, 2);
  return w.out();
}

}  // namespace onramp::report
