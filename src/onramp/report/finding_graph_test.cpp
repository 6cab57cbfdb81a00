#include "onramp/report/finding_graph.h"

#include <gtest/gtest.h>

#include "onramp/report/finding_groups.h"
#include "onramp/report/render.h"

namespace onramp::report {
namespace finding_graph_test {  // one per file: a unity batch joins several

// A finding whose text is its claim, one clause: its title is the text.
Finding claim(Severity severity, const std::string& text, const std::string& evidence, const std::string& place = {}) {
  return Finding{severity, Title{text}, text, "", evidence, place};
}

Report two_sections() {
  Report r;
  r.sections.push_back(Section{"probe", "Probe", {}, {}, {}});
  r.sections.back().add(claim(Severity::friction, "import m failed", "cmd"));
  r.sections.back().add(claim(Severity::blocker, "randn on m", "cmd"));
  r.sections.push_back(Section{"examples", "Examples", {}, {}, {}});
  r.sections.back().add(claim(Severity::blocker, "`print(x)`", "cmd", "README.md:7"));
  return r;
}

TEST(FindingGraph, IdsNameTheSectionAndThePlaceThere) {
  Report r = two_sections();
  r.sections[1].findings[0].id = "kept";
  assign_finding_ids(r);
  EXPECT_EQ(r.sections[0].findings[0].id, "probe.1");
  EXPECT_EQ(r.sections[0].findings[1].id, "probe.2");
  EXPECT_EQ(r.sections[1].findings[0].id, "kept");
}

TEST(FindingGraph, ARootIsAsSevereAsWhatFollowsFromIt) {
  Report r = two_sections();
  assign_finding_ids(r);
  auto& probe = r.sections[0].findings;
  link_finding(probe[1], probe[0], "the module it calls was not imported");
  link_finding(r.sections[1].findings[0], probe[0], "the module it calls was not imported");
  EXPECT_EQ(probe[0].severity, Severity::blocker);
  EXPECT_EQ(probe[1].caused_by, "probe.1");
  EXPECT_EQ(probe[1].caused_by_reason, "the module it calls was not imported");
  RootCounts n = count_roots(r);
  EXPECT_EQ(n.root_blockers, 1u);
  EXPECT_EQ(n.root_frictions, 0u);
  EXPECT_EQ(n.following, 2u);
  EXPECT_EQ(find_finding(r, "examples.1"), &r.sections[1].findings[0]);
}

TEST(FindingGraph, ChainsLeadToTheirRootAndACycleEnds) {
  std::vector<Finding> f;
  for (size_t i = 0; i < 4; ++i) {
    f.push_back(claim(Severity::info, "finding " + std::to_string(i + 1), ""));
    f[i].id = "s." + std::to_string(i + 1);
  }
  f[1].caused_by = "s.1";
  f[2].caused_by = "s.2";
  f[3].caused_by = "s.4";  // itself
  EXPECT_EQ(roots_within(f), (std::vector<size_t>{0, 0, 0, 3}));
  f[0].caused_by = "s.3";  // 1 -> 3 -> 2 -> 1
  auto roots = roots_within(f);
  EXPECT_EQ(roots.size(), 4u);
}

TEST(FindingGraph, WhatFollowsIsFoldedUnderItsRootInEveryView) {
  Report r = two_sections();
  assign_finding_ids(r);
  auto& probe = r.sections[0].findings;
  link_finding(probe[1], probe[0], "the module it calls was not imported");
  auto groups = group_findings(probe);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].following, (std::vector<size_t>{1}));
  EXPECT_EQ(following_text(groups[0]), "1 more follows from it; the first: probe.2, randn on m (the module it calls was not imported)");
  EXPECT_NE(render_markdown(r).find("  - 1 more follows from it"), std::string::npos);
  EXPECT_NE(render_html(r).find("<em>Follows:</em> 1 more follows"), std::string::npos);
  EXPECT_NE(render_text(r, TextStyle{}).find("└ 1 more follows from it"), std::string::npos);
  Json j = to_json(r);
  EXPECT_EQ(j["schema"], "onramp.report/3");
  EXPECT_EQ(j["sections"]["probe"]["findings"][1]["caused_by"], "probe.1");
  EXPECT_EQ(j["sections"]["probe"]["findings"][1]["caused_by_reason"], "the module it calls was not imported");
  EXPECT_EQ(j["sections"]["probe"]["finding_groups"][0]["following"], Json::array({1}));
}

TEST(FindingGraph, NotMeasuredIsSaidFirstAndNothingUnmeasuredIsCalledClean) {
  Report r;
  r.sections.push_back(Section{"verdict", "Verdict", {Figure{"root_blockers", "Root blockers", 0, "findings", "m", "e", ""}},
                               {}, {}});
  r.sections.back().restates_findings = true;
  Finding lead{Severity::info, Title{"Not measured"},
               "Not measured: install, probe: no wheel of the requirement was fetched", "", "steps"};
  lead.diagnosis = kNotMeasured;
  r.sections.back().add(lead);
  std::string text = render_text(r, TextStyle{});
  auto said = text.find("Not measured: install, probe");
  ASSERT_NE(said, std::string::npos);
  EXPECT_LT(said, text.find("Root blockers"));
  EXPECT_EQ(text.find("No blockers or frictions found."), std::string::npos);
  EXPECT_NE(text.find("No blockers or frictions in what was measured"), std::string::npos);
  std::string md = render_markdown(r);
  EXPECT_LT(md.find("**Not measured: install, probe"), md.find("| Figure |"));
  r.sections.back().findings.clear();
  EXPECT_NE(render_text(r, TextStyle{}).find("No blockers or frictions found."), std::string::npos);
}

}  // namespace
}  // namespace onramp::report
