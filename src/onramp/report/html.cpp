#include <fmt/format.h>

#include <algorithm>

#include "onramp/report/finding_groups.h"
#include "onramp/report/html_parts.h"
#include "onramp/report/summary.h"
#include "onramp/report/render.h"
#include "onramp/report/svg.h"
#include "onramp/util/text.h"

namespace onramp::report {
namespace {

// Inline style: the page must work offline, on a phone and on a desktop.
constexpr const char* kStyle = R"(
:root { --fg:#1d2330; --muted:#5b6475; --bar:#3869d4; --line:#dde2ea; --bg:#fff;
        --good:#1f7a3f; --info:#3869d4; --friction:#a35d00; --blocker:#b3261e; }
* { box-sizing: border-box; }
body { margin:0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color:var(--fg); background:var(--bg); }
main { max-width: 980px; margin: 0 auto; padding: 16px; overflow-wrap: anywhere; }
pre { overflow-x: auto; max-width: 100%; }
h1 { font-size: 1.6rem; margin: .5rem 0 1rem; overflow-wrap: anywhere; }
h2 { font-size: 1.3rem; border-bottom: 2px solid var(--line); padding-bottom: .25rem; margin-top: 2rem; }
h3 { font-size: 1.05rem; margin: 1.5rem 0 .25rem; }
.meta, .method { color: var(--muted); font-size: .9rem; }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
table { border-collapse: collapse; width: 100%; font-size: .92rem; }
th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
code { font-size: .85em; word-break: break-all; }
svg.chart { width: 100%; max-width: 640px; height: auto; display: block; margin: .5rem 0; font-size: 12px; }
svg.chart text { fill: var(--fg); }
svg.chart rect.bar { fill: var(--bar); }
svg.chart rect.s1 { fill: #d4793a; } svg.chart rect.s2 { fill: #2f9461; } svg.chart rect.s3 { fill: #8a4fc7; }
svg.chart rect.s4 { fill: #c23b6b; } svg.chart rect.s5 { fill: #6b7385; }
svg.chart text.group { font-weight: 600; }
.finding { border-left: 4px solid var(--info); padding: .25rem .75rem; margin: .5rem 0; background: #f6f8fb; }
.finding.good { border-color: var(--good); } .finding.friction { border-color: var(--friction); }
.finding.blocker { border-color: var(--blocker); }
.sev { font-weight: 600; text-transform: uppercase; font-size: .75rem; letter-spacing: .04em; }
details.finding > summary { cursor: pointer; font-weight: 600; }
details.log > summary { cursor: pointer; color: var(--muted); font-size: .9rem; }
details.log pre { font-size: .8rem; background: #fff; border: 1px solid var(--line); padding: .4rem; white-space: pre; }
ul.grid { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: .4rem; }
ul.grid li { border: 1px solid var(--line); border-top: 4px solid var(--muted); border-radius: 4px; padding: .3rem .45rem; font-size: .85rem; }
ul.grid li b { display: block; } ul.grid li .st { font-size: .75rem; text-transform: uppercase; letter-spacing: .04em; }
ul.grid li.provided { border-top-color: var(--good); } ul.grid li.partial, ul.grid li.follows { border-top-color: var(--friction); }
ul.grid li.absent, ul.grid li.raises { border-top-color: var(--blocker); } ul.grid li.needs_device { border-top-color: var(--info); }
details.finding > summary .sev { margin-right: .4rem; }
.summary { border: 1px solid var(--line); border-radius: 6px; padding: .25rem 1rem .75rem; }
.summary .answer { font-size: 1.1rem; }
.summary ol { padding-left: 1.2rem; }
.summary li { margin: .2rem 0; }
.follows { color: var(--muted); font-size: .9rem; }
dl.headline { display: grid; grid-template-columns: repeat(auto-fill, minmax(140px, 1fr)); gap: .5rem; margin: .75rem 0 0; }
dl.headline div { border: 1px solid var(--line); border-radius: 4px; padding: .35rem .5rem; }
dl.headline dt { color: var(--muted); font-size: .85rem; }
dl.headline dd { margin: 0; font-weight: 600; font-variant-numeric: tabular-nums; }
@media print { .scroll { overflow: visible; } details.finding > summary { list-style: none; }
  a { color: inherit; text-decoration: none; } main { max-width: none; } }
@media (max-width: 600px) { body { font-size: 15px; } main { padding: 10px; } th, td { padding: .3rem; } }
/* On a phone the chart shrinks to about half its drawn width: larger text keeps labels legible,
   and figures stack (label and value, then method) instead of a three-column table cut off at the edge. */
@media (max-width: 600px) {
  svg.chart { font-size: 18px; }
  table.figures, table.figures tbody, table.figures tr, table.figures th, table.figures td { display: block; width: 100%; }
  table.figures thead { display: none; }
  table.figures tr { border-bottom: 1px solid var(--line); padding: .4rem 0; }
  table.figures th, table.figures td { border: 0; padding: .05rem 0; }
  table.figures td.num { text-align: left; white-space: normal; font-weight: 600; }
}
)";

std::string figure_rows(const Section& s) {
  std::string out;
  for (const auto& f : s.figures) {
    std::string value = format_value(f.value, f.unit);
    if (f.value.is_null() && !f.not_measured.empty()) value += " (" + f.not_measured + ")";
    out += fmt::format(
        "<tr><th scope=\"row\">{}</th><td class=\"num\">{}</td><td><span class=\"method\">{}</span>"
        "<br><code>{}</code></td></tr>\n",
        html_escape(f.label), html_escape(value), html_escape(f.method), html_escape(f.evidence));
  }
  return out;
}

}  // namespace

namespace {

// A table whose rows each carry a title, a status and a detail (the
// integration scorecard's points) is first drawn as a grid: one tile per
// row, coloured by its status, with a short reason; the table follows.
std::string status_grid(const Table& t) {
  auto has = [&](const char* key) {
    return std::any_of(t.columns.begin(), t.columns.end(), [&](const Column& c) { return c.key == key; });
  };
  if (!has("title") || !has("status") || !has("detail") || t.rows.empty()) return "";
  std::string out = "<ul class=\"grid\">\n";
  for (const auto& row : t.rows) {
    auto text = [&](const char* key) {
      return row.contains(key) && row.at(key).is_string() ? row.at(key).get<std::string>() : std::string();
    };
    std::string status = text("status");
    out += fmt::format("<li class=\"{}\" title=\"{}\"><b>{}</b><span class=\"st\">{}</span><br>{}</li>\n",
                       html_escape(status), html_escape(text("detail")), html_escape(text("title")),
                       html_escape(status), html_escape(util::shortened(text("detail"), 90)));
  }
  return out + "</ul>\n";
}

}  // namespace

std::string table_html(const Table& t) {
  std::string out = fmt::format("<h3>{}</h3>\n<p class=\"method\">{} <code>{}</code></p>\n", html_escape(t.title),
                                html_escape(t.method), html_escape(t.evidence));
  out += svg_bar_chart(t);
  out += status_grid(t);
  if (t.rows.empty()) return out + "<p>(none)</p>\n";
  if (t.json_only) return out + "<p>" + html_escape(json_only_note(t)) + "</p>\n";
  out += "<div class=\"scroll\"><table><thead><tr>";
  for (const auto& c : t.columns) out += fmt::format("<th scope=\"col\">{}</th>", html_escape(c.label));
  out += "</tr></thead><tbody>\n";
  for (const auto& row : t.rows) {
    out += "<tr>";
    for (const auto& c : t.columns) {
      const Json& v = row.contains(c.key) ? row.at(c.key) : Json();
      out += fmt::format("<td{}>{}</td>", v.is_number() ? " class=\"num\"" : "", html_escape(format_cell(v)));
    }
    out += "</tr>\n";
  }
  return out + "</tbody></table></div>\n";
}

namespace {

// Each group of findings as its title, the whole text one click away
// (<details>); blockers and frictions open. A finding's anchor is its id,
// on the section that made it (a verdict's copies keep the ids they copy).
std::string findings_html(const Section& s) {
  if (s.findings.empty()) return {};
  std::string out = "<h3>Findings</h3>\n";
  for (const auto& g : group_findings(s.findings)) {
    const Finding& first = s.findings[g.members.front()];
    bool problem = g.severity == Severity::blocker || g.severity == Severity::friction;
    out += fmt::format("<details class=\"finding {}\"{}{}><summary><span class=\"sev\">{}</span>{}</summary>{}",
                       to_string(g.severity),
                       first.id.empty() || s.restates_findings ? "" : " id=\"" + html_escape(first.id) + "\"",
                       problem ? " open" : "", html_escape(severity_label(g)), html_escape(g.title),
                       html_escape(text_with_places(g)));
    if (!g.remedy.empty()) out += fmt::format("<br><em>Remedy:</em> {}", html_escape(g.remedy));
    if (!g.following.empty()) out += fmt::format("<br><em>Follows:</em> {}", html_escape(following_text(g)));
    if (!g.log.empty()) {
      out += fmt::format("<details class=\"log\"><summary>{}</summary><pre>{}</pre></details>", html_escape(log_label(g.log)),
                         html_escape(g.log));
    }
    out += "</details>\n";
  }
  return out;
}

// The answer first (summary.h): one sentence, the root causes by title (each
// a link to its finding), the headline figures as a grid.
std::string summary_html(const Report& report) {
  Summary sum = summarize(report);
  std::string out = "<section id=\"summary\" class=\"summary\">\n";
  if (!sum.answer.empty()) out += fmt::format("<p class=\"answer\">{}</p>\n", html_escape(sum.answer));
  std::string meta;
  if (!sum.target.empty()) meta += "Target: " + html_escape(sum.target);
  if (!sum.host.empty()) meta += (meta.empty() ? "" : "<br>") + std::string("Host: ") + html_escape(sum.host);
  if (!meta.empty()) out += "<p class=\"meta\">" + meta + "</p>\n";
  if (!sum.not_measured.empty()) out += fmt::format("<p><strong>{}</strong></p>\n", html_escape(sum.not_measured));
  if (!sum.roots.empty()) {
    out += "<ol class=\"roots\">\n";
    for (const auto& r : sum.roots) {
      std::string title = r.id.empty() ? html_escape(r.title)
                                       : fmt::format("<a href=\"#{}\">{}</a>", html_escape(r.id), html_escape(r.title));
      out += fmt::format("<li><span class=\"sev\">{}</span> {}{}</li>\n", html_escape(root_label(r)), title,
                         r.following == 0 ? ""
                                          : " <span class=\"follows\">(" + following_count_text(r.following) + ")</span>");
    }
    out += "</ol>\n";
  }
  if (!sum.headline.empty()) {
    out += "<dl class=\"headline\">\n";
    for (const Figure* f : sum.headline) {
      out += fmt::format("<div title=\"{}\"><dt>{}</dt><dd>{}</dd></div>\n", html_escape(f->method),
                         html_escape(f->label), html_escape(format_value(f->value, f->unit)));
    }
    out += "</dl>\n";
  }
  return out + "</section>\n";
}

}  // namespace

std::string html_page_head(const std::string& title) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{0}</title>\n"
      "<style>{1}</style>\n</head>\n<body>\n<main>\n<h1>{0}</h1>\n<p class=\"meta\">onramp {2}. Every "
      "figure shows how it was counted and where the evidence is.</p>\n",
      html_escape(title), kStyle, ONRAMP_VERSION);
}

std::string html_page_tail() { return "</main>\n</body>\n</html>\n"; }

std::string render_html(const Report& report) {
  std::string name = target_name(report.target);
  std::string out = html_page_head(name.empty() ? "onramp report" : "onramp report: " + name);
  if (!report.sections.empty()) out += summary_html(report);
  for (const auto& s : report.sections) {
    out += fmt::format("<section id=\"{}\">\n<h2>{}</h2>\n", html_escape(s.key), html_escape(s.title));
    out += findings_html(s);
    if (!s.figures.empty()) {
      out += "<div class=\"scroll\"><table class=\"figures\"><thead><tr><th>Figure</th><th>Value</th>"
             "<th>Method and evidence</th></tr></thead><tbody>\n" +
             figure_rows(s) + "</tbody></table></div>\n";
    }
    for (const auto& t : s.tables) out += table_html(t);
    out += "</section>\n";
  }
  if (!report.run_dir.empty()) out += fmt::format("<p class=\"meta\">Run directory: <code>{}</code></p>\n", html_escape(report.run_dir));
  return out + html_page_tail();
}

}  // namespace onramp::report
