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
  s.add(Finding{Severity::friction, Title{"969 MB of native payload"}, "969 MB of native payload",
                "ship slimmer wheels", ""});
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
    findings.push_back(Finding{Severity::blocker, Title{"`import onramp_ref`"},
                               "`import onramp_ref`: ModuleNotFoundError", "install it", "cmd", place,
                               "module-not-found"});
  }
  findings.push_back(Finding{Severity::good, Title{"clean degradation"}, "clean degradation", "", "probe"});
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
  // The title first, then the text with every place.
  EXPECT_NE(text.find("[blocker ×2] `import onramp_ref`\n        `import onramp_ref`: ModuleNotFoundError (README.md:52, "
                      ":63)\n"),
            std::string::npos)
      << text;
  std::string md = render_markdown(r);
  EXPECT_EQ(occurrences(md, "ModuleNotFoundError"), 1u) << md;
  EXPECT_NE(md.find("- **blocker ×2**: **`import onramp_ref`**  \n  `import onramp_ref`: ModuleNotFoundError "
                    "(README.md:52, :63) Remedy: install it"),
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
  std::string brief = render_text(r, TextStyle{.brief = true, .full_report = ""});
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
    std::istringstream lines(render_text(r, TextStyle{.width = width, .full_report = ""}));
    for (std::string line; std::getline(lines, line);) EXPECT_LE(display_width(line), width) << line;
  }
  EXPECT_NE(render_text(r, TextStyle{.width = 80, .full_report = ""}).find("full text: --json, table \"t\""),
            std::string::npos);
  EXPECT_NE(
      render_text(r, TextStyle{.width = 80, .full_report = "run/report.html"}).find("full text: run/report.html"),
      std::string::npos);
  EXPECT_EQ(render_text(r).find('\x1b'), std::string::npos);
  std::string colour = render_text(r, TextStyle{.color = true, .full_report = ""});
  EXPECT_NE(colour.find("\x1b[1m\x1b[31m[blocker ×2]\x1b[0m"), std::string::npos) << colour;
  EXPECT_NE(colour.find("\x1b[1m2,092 files\x1b[0m"), std::string::npos) << colour;
}

TEST(Render, TextShowsHostileControlCharactersVisibly) {
  Report r = sample();
  const std::string hostile = "title\x1b]0;pwned\x07 and \x1b[2J";
  r.sections[0].findings.push_back(Finding{Severity::info, Title{hostile}, hostile, "", ""});
  r.sections[0].tables[0].rows.push_back(Json{{"language", "\xC2\x9B" "31mred"}, {"code", 1}});
  std::string text = render_text(r, TextStyle{.width = 80, .full_report = ""});
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_EQ(text.find('\x07'), std::string::npos);
  EXPECT_NE(text.find("title\\x1b]0;pwned\\x07 and \\x1b[2J"), std::string::npos) << text;
  EXPECT_NE(text.find("\\x9b31mred"), std::string::npos) << text;
}

// A finding whose text runs long and whose failing run printed a log of several lines.
Report long_failure() {
  Report r = sample();
  std::string text = "import torch_tpu failed: RuntimeError: TPU initialization failed";
  for (int i = 0; i < 40; ++i) text += " and then word" + std::to_string(i);
  Finding f{Severity::blocker, Title{"import torch_tpu failed"}, text, "", "cmd"};
  f.log = "TPU initialization failed\nI0000 libtpu.so loaded\nE0000 no TPU found";
  r.sections[0].findings.push_back(f);
  return r;
}

TEST(Render, ATerminalShowsAFindingsFirstLinesAndItsLogsLengthDetailsShowsThemWhole) {
  Report r = long_failure();
  std::string text = render_text(r, TextStyle{.width = 80, .full_report = "run/report.html"});
  EXPECT_NE(text.find("[blocker] import torch_tpu failed\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("word39"), std::string::npos) << "cut to three lines: " << text;
  EXPECT_NE(text.find("\u2026\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Log: 3 lines (--details shows it)"), std::string::npos) << text;
  EXPECT_EQ(text.find("libtpu.so loaded"), std::string::npos) << text;
  EXPECT_NE(text.find("Texts that end in \"\u2026\" are whole with --details, and in run/report.html."),
            std::string::npos)
      << text;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(display_width(line), 80u) << line;

  std::string details = render_text(r, TextStyle{.width = 80, .details = true, .full_report = ""});
  EXPECT_NE(details.find("word39"), std::string::npos) << details;
  EXPECT_NE(details.find("        Log: 3 lines:\n        | TPU initialization failed\n        | I0000 libtpu.so loaded\n"
                         "        | E0000 no TPU found\n"),
            std::string::npos)
      << details;
  EXPECT_EQ(details.find("whole with --details"), std::string::npos) << details;
}

TEST(Render, APipeGetsTheWholeTextAndTheLogWithDetails) {
  Report r = long_failure();
  std::string pipe = render_text(r);
  EXPECT_NE(pipe.find("word39"), std::string::npos);
  EXPECT_EQ(pipe.find("\u2026"), std::string::npos) << pipe;
  EXPECT_NE(pipe.find("Log: 3 lines (--details shows it)"), std::string::npos) << pipe;
  EXPECT_NE(render_text(r, TextStyle{.details = true, .full_report = ""}).find("| E0000 no TPU found"),
            std::string::npos);
}

TEST(Render, TheLogIsFoldedInHtmlAndMarkdownAndWholeInJson) {
  Report r = long_failure();
  std::string html = render_html(r);
  EXPECT_NE(html.find("<details class=\"log\"><summary>Log: 3 lines</summary><pre>TPU initialization failed&#10;I0000 "
                      "libtpu.so loaded&#10;E0000 no TPU found</pre></details>"),
            std::string::npos)
      << html;
  std::string md = render_markdown(r);
  EXPECT_NE(md.find("  <details><summary>Log: 3 lines</summary>\n\n  ```text\n  TPU initialization failed\n  I0000 "
                    "libtpu.so loaded\n  E0000 no TPU found\n  ```\n  </details>\n"),
            std::string::npos)
      << md;
  Json j = Json::parse(render_json(r))["sections"]["census"]["findings"];
  EXPECT_EQ(j.back()["log"], "TPU initialization failed\nI0000 libtpu.so loaded\nE0000 no TPU found");
  EXPECT_FALSE(j.front().contains("log")) << "written only where there is one";
}

TEST(Render, AFenceIsLongerThanAnyRunOfBackticksInTheLog) {
  Report r = sample();
  Finding f{Severity::friction, Title{"a failure"}, "a failure: see the log", "", "cmd"};
  f.log = "```python\nx = 1\n```";
  r.sections[0].findings.push_back(f);
  std::string md = render_markdown(r);
  EXPECT_NE(md.find("  ````text\n  ```python\n  x = 1\n  ```\n  ````\n"), std::string::npos) << md;
}

}  // namespace
}  // namespace onramp::report
