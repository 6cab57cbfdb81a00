#include "onramp/audit/integration_causes.h"

#include <gtest/gtest.h>

#include <array>

#include "onramp/audit/causes.h"
#include "onramp/diagnosis/outcome.h"
#include "onramp/report/finding_graph.h"

namespace onramp::audit {
namespace integration_causes_test {  // one per file: a unity batch joins several

using report::Finding;
using report::Json;
using report::Severity;

// An integration section as integration_section writes it: the device figure and the points table.
report::Section scorecard(const std::map<std::string, std::string>& status) {
  report::Section s{"integration", "Integration points", {}, {}, {}};
  s.add(Finding{Severity::info, report::Title{"Not told without the device, for any point"},
                "Not told without the device, for any point: ...", "", "data/integration.toml"});
  s.add(report::Figure{"device", "Device name the checks used", "faulty", "", "context", "cmd", ""});
  report::Table t{"points", "Points", "", "cmd", {{"point", "Point", ""}, {"status", "Status", ""}}, {}, 0};
  for (const auto& [point, st] : status) {
    t.rows.push_back(Json{{"point", point}, {"title", point + " title"}, {"status", st}, {"detail", point + " detail"},
                          {"method", "m"}, {"evidence", point + " evidence"}, {"source", point + " source"}});
  }
  s.add(std::move(t));
  return s;
}

// The examples section: one statements table, one root finding per failed row.
report::Section examples(const std::vector<std::array<std::string, 3>>& failed) {
  report::Section s{"examples", "Examples", {}, {}, {}};
  report::Table t{"statements_1", "Statements: README.md", "", "cmd", {{"where", "Where", ""}}, {}, 0};
  for (const auto& [where, source, failure] : failed) {
    t.rows.push_back(Json{{"where", where}, {"source", source}, {"outcome", "raised"}, {"result", failure},
                          {"follows_from", ""}});
    auto colon = failure.find(": ");
    Finding f = diagnosis::failure_finding("`" + source + "`",
                                           diagnosis::diagnosed(failure.substr(0, colon), failure.substr(colon + 2)),
                                           "cmd");
    f.place = where;
    s.add(std::move(f));
  }
  s.add(std::move(t));
  return s;
}

const std::string kHooks = "RuntimeError: Please register PrivateUse1HooksInterface by "
                           "`RegisterPrivateUse1HooksInterface` first.";

TEST(IntegrationCauses, AnExampleThatNeedsAMissingPointFollowsFromThePointsFinding) {
  report::Report r;
  r.sections.push_back(scorecard({{"generator", "absent"}, {"device_module", "partial"}, {"amp", "provided"}}));
  r.sections.push_back(examples({{"README.md:3", "g = torch.Generator(device=\"faulty\")", kHooks},
                                 {"README.md:4", "torch.faulty.manual_seed(0)",
                                  "AttributeError: module 'faulty' has no attribute 'manual_seed'"},
                                 {"README.md:5", "h = torch.Generator(device=\"faulty\")", kHooks},
                                 {"README.md:6", "with torch.autocast(device_type=\"faulty\"): ...",
                                  "AssertionError: Tried to use AMP with the `faulty` backend"}}));
  // A follower of README.md:3 (a name it left unbound): it hangs under its root, not under the point.
  Finding follower{Severity::info, report::Title{"`g.seed()`: NameError"}, "`g.seed()`: NameError", "", "cmd",
                   "README.md:7", "follows-from"};
  r.sections.back().add(std::move(follower));
  report::assign_finding_ids(r);
  r.sections.back().findings.back().caused_by = "examples.1";
  link_integration_points(r);
  const auto& card = r.section("integration")->findings;
  ASSERT_EQ(card.size(), 3u);  // the info finding, then one per point needed, in the order first needed
  EXPECT_EQ(card[1].id, "integration.2");
  EXPECT_EQ(card[1].text,
            "Integration point generator title (generator): absent here, and documented examples need it "
            "(README.md:3, README.md:5): generator detail");
  EXPECT_EQ(card[1].evidence, "generator evidence");
  EXPECT_EQ(card[1].remedy, "PyTorch asks a backend for it in generator source.");
  EXPECT_EQ(card[2].id, "integration.3");
  EXPECT_NE(card[2].text.find("device_module title (device_module): partial here"), std::string::npos);
  const auto& ex = r.section("examples")->findings;
  EXPECT_EQ(ex[0].caused_by, "integration.2");
  EXPECT_EQ(ex[0].caused_by_reason,
            "it needs integration point generator (scorecard: absent): its statement has `torch.Generator(`");
  EXPECT_EQ(ex[1].caused_by, "integration.3");
  EXPECT_EQ(ex[2].caused_by, "integration.2");
  EXPECT_EQ(ex[3].caused_by, "");  // AMP is provided here: its failure is not blamed on the point
  EXPECT_EQ(ex[4].caused_by, "examples.1");
  // Severity by effect: the point is as severe as the worst example that needs it.
  EXPECT_EQ(card[1].severity, std::max(ex[0].severity, ex[2].severity));
  EXPECT_NE(card[1].severity, Severity::info);
}

TEST(IntegrationCauses, NothingToLinkWithoutAScorecardOrWhenAnEarlierRuleExplainsTheFailure) {
  report::Report alone;
  alone.sections.push_back(examples({{"README.md:3", "g = torch.Generator(device=\"faulty\")", kHooks}}));
  report::assign_finding_ids(alone);
  link_integration_points(alone);
  EXPECT_EQ(alone.section("examples")->findings[0].caused_by, "");

  // The examples' import failed in a report whose probe imported the module:
  // with autoload on, torch's import runs the failing entry point.
  report::Report r;
  r.sections.push_back({"probe", "Probe", {}, {}, {}});
  r.sections.push_back(scorecard({{"autoload", "raises"}, {"generator", "absent"}}));
  r.sections.push_back(examples(
      {{"README.md:1", "import torch",
        "RuntimeError: Failed to load the backend extension: faulty_backend. You can disable extension auto-loading "
        "with TORCH_DEVICE_BACKEND_AUTOLOAD=0."}}));
  report::assign_finding_ids(r);
  link_causes(r, "faulty_backend");
  const auto& ex = r.section("examples")->findings;
  ASSERT_EQ(ex.size(), 1u);
  EXPECT_EQ(ex[0].caused_by, "integration.2");
  EXPECT_EQ(ex[0].caused_by_reason,
            "it needs integration point autoload (scorecard: raises): its failure says \"Failed to load the backend "
            "extension\"");
  EXPECT_EQ(report::count_roots(r).following, 1u);
}

}  // namespace
}  // namespace onramp::audit
