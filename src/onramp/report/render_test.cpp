#include "onramp/report/render.h"

#include <gtest/gtest.h>

#include <sstream>

#include "onramp/report/terminal_text.h"

namespace onramp::report {
namespace render_test {  // one per file: a unity batch joins several

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
  EXPECT_EQ(j["schema"], "onramp.report/3");
  EXPECT_EQ(j["generated_at"], "1970-01-01T00:00:00Z");
  const auto& f = j["sections"]["census"]["figures"][0];
  EXPECT_EQ(f["value"], 2092);
  EXPECT_EQ(f["method"], "every file");
  EXPECT_EQ(j["sections"]["census"]["figures"][1]["not_measured"], "could not stat");
  EXPECT_EQ(j["sections"]["census"]["findings"][0]["severity"], "friction");
}

TEST(Render, JsonWritesRanAtOnceOnlyOnTimingsThatCarryIt) {
  Report r = sample();
  Figure timing{"import_warm_median_s", "Import, warm, median", 0.5, "s", "the same method whatever ran beside it",
                "python ...", ""};
  timing.ran_at_once = 3;
  r.sections[0].add(timing);
  Figure alone = timing;
  alone.key = "import_cold_s";
  alone.ran_at_once = 1;
  r.sections[0].add(alone);
  Json j = Json::parse(render_json(r));
  const auto& figures = j["sections"]["census"]["figures"];
  EXPECT_FALSE(figures[0].contains("ran_at_once"));  // not a timing of that kind
  EXPECT_EQ(figures[2]["ran_at_once"], 3);
  EXPECT_EQ(figures[3]["ran_at_once"], 1);
  EXPECT_EQ(figures[2]["method"], figures[3]["method"]);
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

Report repeated_failure() {
  Report r = sample();
  auto& findings = r.sections[0].findings;
  for (const char* place : {"README.md:52", "README.md:63"}) {
    findings.push_back(Finding{Severity::blocker, "`import onramp_ref`: ModuleNotFoundError", "install it", "cmd",
                               place, "module-not-found"});
  }
  findings.push_back(Finding{Severity::good, "clean degradation", "", "probe"});
  return r;
}

size_t occurrences(const std::string& haystack, const std::string& needle) {
  size_t n = 0;
  for (size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1)) ++n;
  return n;
}

TEST(Render, RepeatedFindingsAreSaidOnceWithTheirPlacesInEveryRenderer) {
  Report r = repeated_failure();
  std::string text = render_text(r);
  EXPECT_EQ(occurrences(text, "ModuleNotFoundError"), 1u) << text;
  EXPECT_NE(text.find("[blocker ×2] `import onramp_ref`: ModuleNotFoundError (README.md:52, :63)"), std::string::npos)
      << text;
  std::string md = render_markdown(r);
  EXPECT_EQ(occurrences(md, "ModuleNotFoundError"), 1u) << md;
  EXPECT_NE(md.find("- **blocker ×2**: `import onramp_ref`: ModuleNotFoundError (README.md:52, :63) Remedy: install it"),
            std::string::npos) << md;
  std::string html = render_html(r);
  EXPECT_EQ(occurrences(html, "ModuleNotFoundError"), 1u);
  EXPECT_NE(html.find("<span class=\"sev\">blocker ×2</span>"), std::string::npos);
  Json j = Json::parse(render_json(r))["sections"]["census"];
  EXPECT_EQ(j["findings"].size(), 4u);  // each occurrence stays
  ASSERT_EQ(j["finding_groups"].size(), 3u);
  const Json& g = j["finding_groups"][1];
  EXPECT_EQ(g["count"], 2);
  EXPECT_EQ(g["places"], Json::array({"README.md:52", "README.md:63"}));
  EXPECT_EQ(g["findings"], Json::array({1, 2}));
  EXPECT_EQ(g["diagnosis"], "module-not-found");
}

TEST(Render, TextPutsBlockersAndFrictionsFirstAndBriefStopsThere) {
  Report r = repeated_failure();
  std::string text = render_text(r);
  size_t blocker = text.find("[blocker"), friction = text.find("[friction]"), table = text.find("Lines | by language");
  EXPECT_LT(blocker, friction);
  EXPECT_LT(friction, table);
  EXPECT_NE(text.find("[good] clean degradation"), std::string::npos);
  std::string brief = render_text(r, TextStyle{0, false, true, ""});
  EXPECT_NE(brief.find("[blocker ×2]"), std::string::npos);
  EXPECT_NE(brief.find("2,092 files"), std::string::npos);
  EXPECT_EQ(brief.find("Lines | by language"), std::string::npos) << brief;
  EXPECT_EQ(brief.find("Methods"), std::string::npos);
  EXPECT_EQ(brief.find("clean degradation"), std::string::npos);
}

TEST(Render, TextFitsAWidthAndColoursOnlyWhenAsked) {
  Report r = repeated_failure();
  r.sections[0].tables[0].columns.push_back(Column{"note", "Note", ""});
  r.sections[0].tables[0].rows.push_back(Json{{"language", std::string(300, 'x')}, {"code", 5}, {"note", "a " + std::string(300, 'y')}});
  for (size_t width : {40u, 80u}) {
    std::istringstream lines(render_text(r, TextStyle{width, false, false, ""}));
    for (std::string line; std::getline(lines, line);) EXPECT_LE(display_width(line), width) << line;
  }
  EXPECT_NE(render_text(r, TextStyle{80, false, false, ""}).find("full text: --json, table \"t\""), std::string::npos);
  EXPECT_NE(render_text(r, TextStyle{80, false, false, "run/report.html"}).find("full text: run/report.html"),
            std::string::npos);
  EXPECT_EQ(render_text(r).find('\x1b'), std::string::npos);
  std::string colour = render_text(r, TextStyle{0, true, false, ""});
  EXPECT_NE(colour.find("\x1b[1m\x1b[31m[blocker ×2]\x1b[0m"), std::string::npos) << colour;
  EXPECT_NE(colour.find("\x1b[1m2,092 files\x1b[0m"), std::string::npos) << colour;
}

TEST(Render, TextShowsHostileControlCharactersVisibly) {
  Report r = sample();
  r.sections[0].findings.push_back(Finding{Severity::info, "title\x1b]0;pwned\x07 and \x1b[2J", "", ""});
  r.sections[0].tables[0].rows.push_back(Json{{"language", "\xC2\x9B" "31mred"}, {"code", 1}});
  std::string text = render_text(r, TextStyle{80, false, false, ""});
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_EQ(text.find('\x07'), std::string::npos);
  EXPECT_NE(text.find("title\\x1b]0;pwned\\x07 and \\x1b[2J"), std::string::npos) << text;
  EXPECT_NE(text.find("\\x9b31mred"), std::string::npos) << text;
}

}  // namespace
}  // namespace onramp::report
