#include "onramp/packaging/pip_check.h"

#include <gtest/gtest.h>

namespace onramp::install {
namespace pip_check_test {  // one per file: a unity batch joins several

// Lines as pip check printed them: Debian 13's own python3 (torch 2.6.0+debian
// beside Debian's sympy), and a distribution whose requirement is missing.
constexpr const char* kDebian13 =
    "torch 2.6.0+debian has requirement sympy==1.13.1; python_version >= \"3.9\", but you have sympy 1.13.3.\n";

TEST(PipCheck, ReadsARequirementTheEnvironmentHasAnotherVersionOf) {
  auto check = parse_pip_check(kDebian13);
  ASSERT_EQ(check.conflicts.size(), 1u);
  const auto& c = check.conflicts[0];
  EXPECT_EQ(c.package, "torch");
  EXPECT_EQ(c.version, "2.6.0+debian");
  EXPECT_EQ(c.requirement, "sympy==1.13.1; python_version >= \"3.9\"");
  EXPECT_EQ(c.found, "sympy 1.13.3");
  EXPECT_TRUE(check.unread.empty());
}

TEST(PipCheck, ReadsAMissingRequirementAndKeepsWhatItCannotRead) {
  auto check = parse_pip_check(
      "onramp-needs 1.0 requires onramp-nowhere, which is not installed.\r\n"
      "torch-tpu 0.2.0 is not supported on this platform\n\n");
  ASSERT_EQ(check.conflicts.size(), 1u);
  EXPECT_EQ(check.conflicts[0].package, "onramp-needs");
  EXPECT_EQ(check.conflicts[0].requirement, "onramp-nowhere");
  EXPECT_EQ(check.conflicts[0].found, "");
  ASSERT_EQ(check.unread.size(), 1u);
  EXPECT_EQ(check.unread[0], "torch-tpu 0.2.0 is not supported on this platform");
}

TEST(PipCheck, TheAllClearLineIsNoConflictAndNothingUnread) {
  auto check = parse_pip_check("No broken requirements found.\n");
  EXPECT_TRUE(check.conflicts.empty());
  EXPECT_TRUE(check.unread.empty());
  EXPECT_TRUE(parse_pip_check("").conflicts.empty());
}

TEST(PipCheck, NewConflictsAreThoseTheHostDidNotHave) {
  auto before = parse_pip_check(kDebian13).conflicts;
  auto after = parse_pip_check(std::string(kDebian13) + "onramp-needs 1.0 requires onramp-nowhere, which is not installed.\n")
                   .conflicts;
  auto added = new_conflicts(before, after);
  ASSERT_EQ(added.size(), 1u);
  EXPECT_EQ(added[0].package, "onramp-needs");
  EXPECT_TRUE(new_conflicts(after, before).empty());
}

TEST(PipCheck, TellsAResolutionFailureFromOtherFailures) {
  EXPECT_TRUE(is_resolution_failure(
      "ERROR: Could not find a version that satisfies the requirement sympy==1.13.1; python_version >= \"3.9\" "
      "(from torch) (from versions: none)\nERROR: No matching distribution found for sympy==1.13.1\n"));
  EXPECT_TRUE(is_resolution_failure("ERROR: ResolutionImpossible: for help visit ..."));
  EXPECT_FALSE(is_resolution_failure("ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device"));
}

TEST(PipCheck, AFailureNamesTheConflictsItIsAbout) {
  auto sympy = parse_pip_check(kDebian13).conflicts.at(0);
  auto cairo = parse_pip_check("pygobject 3.42.2 requires pycairo, which is not installed.\n").conflicts.at(0);
  std::string err =
      "ERROR: Could not find a version that satisfies the requirement sympy==1.13.1; python_version >= \"3.9\" (from "
      "torch) (from versions: none)\nERROR: No matching distribution found for sympy==1.13.1; python_version >= \"3.9\"\n";
  EXPECT_TRUE(failure_names(sympy, err));
  EXPECT_FALSE(failure_names(cairo, err));
  auto dotted = parse_pip_check("a 1 has requirement Zope.Interface>=5, but you have zope-interface 4.\n").conflicts.at(0);
  EXPECT_TRUE(failure_names(dotted, "ERROR: No matching distribution found for zope_interface>=5\n"));
  EXPECT_FALSE(failure_names(dotted, "ERROR: No matching distribution found for zope-interfaces>=5\n"));
}

}  // namespace
}  // namespace onramp::install
