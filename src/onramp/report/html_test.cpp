#include <gtest/gtest.h>

#include "onramp/report/render.h"
#include "onramp/report/summary_test_util.h"
#include "onramp/report/svg.h"
#include "onramp/util/test_cases.h"

namespace onramp::report {
namespace html_test {  // one per file: a unity batch joins several

Table languages() {
  Table t{"lines", "Lines <by> language", "rule", "/x", {{"language", "Language", ""}, {"code", "Code", "lines"}}, {}};
  t.rows = {Json{{"language", "C++"}, {"code", 200}}, Json{{"language", "Py&thon"}, {"code", 100}},
            Json{{"language", "Empty"}, {"code", 0}}};
  t.chart = {"language", "code"};
  return t;
}

TEST(Html, BarsAreProportionalAndSkipNonPositiveValues) {
  std::string svg = svg_bar_chart(languages());
  EXPECT_NE(svg.find("width=\"350\""), std::string::npos) << svg;  // the longest bar fills the room
  EXPECT_NE(svg.find("width=\"175\""), std::string::npos) << svg;
  EXPECT_EQ(svg.find("Empty"), std::string::npos);
  EXPECT_NE(svg.find("Py&amp;thon"), std::string::npos);
}

TEST(Html, NoChartWithoutHint) {
  Table t = languages();
  t.chart = {};
  EXPECT_EQ(svg_bar_chart(t), "");
}

TEST(Html, PageIsSelfContainedAndEscaped) {
  Report r;
  r.target = {{"path", "/src/<tpu>"}};
  Section s;
  s.key = "census";
  s.title = "Census";
  s.add(languages());
  s.add(Finding{Severity::blocker, Title{"device <tpu> rejected"}, "device <tpu> rejected", "rename", ""});
  r.sections.push_back(s);
  std::string html = render_html(r);
  onramp::testing::expect_contains(
      html, {"/src/&lt;tpu&gt;", "class=\"finding blocker\"", "<meta name=\"viewport\"", "<svg class=\"chart\""},
      {"<script", "http://", "https://", "<link"});
}

// The document's title and heading name the target as the user named it, whatever its kind.
TEST(Html, TheTitleNamesTheTargetAsTheUserNamedIt) {
  for (const auto& [target, name] : std::vector<std::pair<Json, std::string>>{
           {{{"kind", "requirement"}, {"requirement", "torch-tpu==0.2.0"}}, "torch-tpu==0.2.0"},
           {{{"kind", "work_tree"}, {"path", "examples/ref"}}, "examples/ref"},
           {{{"kind", "module"}, {"module", "torch_ref"}}, "torch_ref"},
           {{{"kind", "wheel"}, {"paths", {"a.whl", "b.whl"}}}, "a.whl, b.whl"},
           {{{"kind", "cache"}}, "cache"}}) {
    Report r;
    r.target = target;
    std::string html = render_html(r);
    onramp::testing::expect_contains(html, {"<title>onramp report: " + name + "</title>",
                                            "<h1>onramp report: " + name + "</h1>"},
                                     {});
  }
}


// The answer first: the summary's sentence and each root's title, linked to its finding, before any section;
// each finding is its title with the whole text one click away.
TEST(Html, TheSummaryLeadsAndFindingsAreTitlesThatOpen) {
  Report r = testing::audit_report();
  std::string html = render_html(r);
  onramp::testing::expect_contains(
      html, {"<section id=\"summary\"",
             "<p class=\"answer\">Installs and imports; 1 cause blocks it on this machine, and 1 more makes it "
             "harder.</p>",
             "<a href=\"#probe.1\">&apos;tpu&apos; is never registered as a device name on this machine</a>",
             "<dl class=\"headline\">", "<dd>249.0 MB (249,000,000 bytes)</dd>",
             "<details class=\"finding blocker\" id=\"probe.1\" open><summary>",
             "<details class=\"finding info\"><summary>", "@media print"},
      {});
  EXPECT_LT(html.find("id=\"summary\""), html.find("<section id=\"verdict\""));
}


// A table of points with a title, a status and a detail is drawn first as a grid of tiles coloured by status.
TEST(Html, AStatusTableIsAlsoAGridOfTiles) {
  Report r;
  Section s{"integration", "Integration points", {}, {}, {}};
  Table t{"points", "Points", "rule", "ev",
          {{"point", "Point", ""}, {"title", "Title", ""}, {"status", "Status", ""}, {"detail", "Detail", ""}}, {}};
  t.rows = {Json{{"point", "device_name"}, {"title", "Device name"}, {"status", "absent"}, {"detail", "never renamed"}},
            Json{{"point", "generator"}, {"title", "Generator"}, {"status", "follows"}, {"detail", "could not be asked"}}};
  s.add(t);
  r.sections.push_back(s);
  std::string html = render_html(r);
  onramp::testing::expect_contains(html, {"<ul class=\"grid\">", "<li class=\"absent\" title=\"never renamed\"><b>Device name</b>",
                                          "<li class=\"follows\""},
                                   {});
  EXPECT_LT(html.find("<ul class=\"grid\">"), html.find("<table>"));
}

}  // namespace
}  // namespace onramp::report
