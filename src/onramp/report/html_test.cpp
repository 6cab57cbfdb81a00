#include <gtest/gtest.h>

#include "onramp/report/render.h"
#include "onramp/report/svg.h"

namespace onramp::report {
namespace {

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
  s.add(Finding{Severity::blocker, "device <tpu> rejected", "rename", ""});
  r.sections.push_back(s);
  std::string html = render_html(r);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_NE(html.find("/src/&lt;tpu&gt;"), std::string::npos);
  EXPECT_NE(html.find("class=\"finding blocker\""), std::string::npos);
  EXPECT_NE(html.find("<meta name=\"viewport\""), std::string::npos);
  EXPECT_NE(html.find("<svg class=\"chart\""), std::string::npos);
}

}  // namespace
}  // namespace onramp::report
