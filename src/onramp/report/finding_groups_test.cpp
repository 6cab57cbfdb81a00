#include "onramp/report/finding_groups.h"

#include <gtest/gtest.h>

namespace onramp::report {
namespace finding_groups_test {  // one per file: a unity batch joins several

// A finding whose text is its claim, one clause: its title is the text.
Finding at(Severity s, const std::string& text, const std::string& place, const std::string& diagnosis = "d") {
  return Finding{s, Title{text}, text, "fix it", "cmd", place, diagnosis};
}

TEST(FindingGroups, SameSeverityDiagnosisAndTextFormOneGroupWithEveryPlace) {
  std::vector<Finding> f{at(Severity::blocker, "import x: ModuleNotFoundError", "README.md:52"),
                         at(Severity::info, "other", "README.md:60"),
                         at(Severity::blocker, "import x: ModuleNotFoundError", "README.md:63"),
                         at(Severity::friction, "import x: ModuleNotFoundError", "README.md:70"),
                         at(Severity::blocker, "import x: ModuleNotFoundError", "docs/a.md:4", "other-rule")};
  auto groups = group_findings(f);
  ASSERT_EQ(groups.size(), 4u);
  EXPECT_EQ(groups[0].members, (std::vector<size_t>{0, 2}));
  EXPECT_EQ(groups[0].places, (std::vector<std::string>{"README.md:52", "README.md:63"}));
  EXPECT_EQ(severity_label(groups[0]), "blocker ×2");
  EXPECT_EQ(text_with_places(groups[0]), "import x: ModuleNotFoundError (README.md:52, :63)");
  EXPECT_EQ(groups[1].text, "other");
  EXPECT_EQ(severity_label(groups[1]), "info");
  EXPECT_EQ(groups[2].severity, Severity::friction);  // another severity: another group
  EXPECT_EQ(groups[3].diagnosis, "other-rule");        // another diagnosis: another group
}

TEST(FindingGroups, PlacesShowTheFileOnlyWhenItChanges) {
  EXPECT_EQ(places_text({"a.md:1", "a.md:2", "b.md:3", "a.md:4", "probe.device_api", "x:y"}),
            "a.md:1, :2, b.md:3, a.md:4, probe.device_api, x:y");
  EXPECT_EQ(places_text({}), "");
}

TEST(FindingGroups, FindingsWithoutPlacesKeepTheirText) {
  auto groups = group_findings({at(Severity::good, "clean", ""), at(Severity::good, "clean", "")});
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(text_with_places(groups[0]), "clean");
  EXPECT_EQ(severity_label(groups[0]), "good ×2");
}

}  // namespace
}  // namespace onramp::report
