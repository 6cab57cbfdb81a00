#include "onramp/report/render.h"

#include <gtest/gtest.h>

namespace onramp::report {
namespace {

Report sample() {
  Report r;
  r.target = {{"kind", "work_tree"}, {"path", "/x"}};
  Section s;
  s.key = "census";
  s.title = "Census";
  s.add(Figure{"files_total", "Files", 2092, "files", "every file", "/x", ""});
  s.add(Figure{"size", "Size", nullptr, "bytes", "sum", "/x", "could not stat"});
  s.add(Table{"t", "Lines | by language", "rule", "/x", {{"language", "Language", ""}, {"code", "Code", "lines"}},
              {Json{{"language", "C++"}, {"code", 217023}}, Json{{"language", "a|b"}, {"code", 1}}}});
  s.add(Finding{Severity::friction, "969 MB of native payload", "ship slimmer wheels", ""});
  r.sections.push_back(s);
  return r;
}

TEST(Render, JsonCarriesSchemaMethodAndEvidence) {
  setenv("SOURCE_DATE_EPOCH", "0", 1);
  Json j = Json::parse(render_json(sample()));
  EXPECT_EQ(j["schema"], "onramp.report/2");
  EXPECT_EQ(j["generated_at"], "1970-01-01T00:00:00Z");
  const auto& f = j["sections"]["census"]["figures"][0];
  EXPECT_EQ(f["value"], 2092);
  EXPECT_EQ(f["method"], "every file");
  EXPECT_EQ(j["sections"]["census"]["figures"][1]["not_measured"], "could not stat");
  EXPECT_EQ(j["sections"]["census"]["findings"][0]["severity"], "friction");
}

TEST(Render, TextShowsValuesWithMethodsListed) {
  std::string t = render_text(sample());
  EXPECT_NE(t.find("2,092 files  [1]"), std::string::npos) << t;
  EXPECT_NE(t.find("not measured (could not stat)"), std::string::npos);
  EXPECT_NE(t.find("[1] Files: every file [/x]"), std::string::npos);
  EXPECT_NE(t.find("217,023"), std::string::npos);
  EXPECT_NE(t.find("[friction] 969 MB"), std::string::npos);
}

TEST(Render, MarkdownEscapesPipesInTables) {
  std::string m = render_markdown(sample());
  EXPECT_NE(m.find("| a\\|b | 1 |"), std::string::npos) << m;
  EXPECT_NE(m.find("| C++ | 217,023 |"), std::string::npos) << m;
}

TEST(Render, ByteValuesAreHumanAndExact) {
  EXPECT_EQ(format_value(Json(96000000), "bytes"), "96.0 MB (96,000,000 bytes)");
  EXPECT_EQ(format_value(Json(11.1), "s"), "11.10 s");
}

TEST(Render, JsonOnlyTablesShowTheirRowCountToPeopleAndEveryRowInJson) {
  Report r = sample();
  Table& t = r.sections[0].tables[0];
  t.key = "counted:x.h:1:OpName";
  t.json_only = true;
  const std::string note = "2 rows, listed in the JSON report (table \"counted:x.h:1:OpName\")";
  for (const std::string& people : {render_text(r), render_markdown(r)}) {
    EXPECT_NE(people.find(note), std::string::npos) << people;
    EXPECT_EQ(people.find("217,023"), std::string::npos) << people;
  }
  std::string html = render_html(r);
  EXPECT_NE(html.find("2 rows, listed in the JSON report (table &quot;counted:x.h:1:OpName&quot;)"),
            std::string::npos);
  EXPECT_EQ(html.find("217,023"), std::string::npos);
  Json j = Json::parse(render_json(r));
  EXPECT_EQ(j["sections"]["census"]["tables"][0]["rows"].size(), 2u);
}

}  // namespace
}  // namespace onramp::report
