#include "onramp/audit/import_failure.h"

#include <gtest/gtest.h>

#include "onramp/util/test_cases.h"

namespace onramp::audit {
namespace import_failure_test {  // one per file: a unity batch joins several

wheel::Requirement req(const std::string& text) { return wheel::parse_requirement(text).value(); }

TEST(ImportFailure, ExtrasAreReadFromTheirMarkersInOrder) {
  auto extras = extras_of({req("demo-helper"), req("vendor-rt>=1.0; extra == \"runtime\""),
                           req("pytest; extra == 'test' and python_version >= \"3.8\""),
                           req("vendor-tools[cli]<2; extra==\"runtime\"")});
  ASSERT_EQ(extras.size(), 2u);
  EXPECT_EQ(extras[0].name, "runtime");
  EXPECT_EQ(extras[0].requirements, (std::vector<std::string>{"vendor-rt>=1.0", "vendor-tools[cli]<2"}));
  EXPECT_EQ(extras[1].name, "test");
  EXPECT_EQ(extras[1].requirements, (std::vector<std::string>{"pytest"}));
}

TEST(ImportFailure, AMarkerWithoutAnExtraOrWithAnUnclosedQuoteNamesNone) {
  EXPECT_TRUE(extras_of({req("x; python_version < \"3.12\"")}).empty());
  wheel::Requirement open = req("x");
  open.marker = "extra == \"runtime";
  EXPECT_TRUE(extras_of({open}).empty());
}

TEST(ImportFailure, TheReadmesLinesThatNameAnotherIndexALoginOrAnAccountAreQuoted) {
  std::string readme =
      "# x\n\nInstall with `pip install x --extra-index-url https://vendor.invalid/simple/`.\n"
      "  You need an account on the vendor portal.\nPlain line.\nLog in first.\n";
  EXPECT_EQ(access_lines(readme, "README.md", 5),
            (std::vector<std::string>{
                "README.md:3: Install with `pip install x --extra-index-url https://vendor.invalid/simple/`.",
                "README.md:4: You need an account on the vendor portal.", "README.md:6: Log in first."}));
  EXPECT_EQ(access_lines(readme, "README.md", 1).size(), 1u);
  EXPECT_TRUE(access_lines("nothing here\n", "R", 5).empty());
}

TEST(ImportFailure, OnlyAMissingLibraryOrRuntimeAsksForTheExtras) {
  onramp::testing::expect_holds(is_missing_runtime, {"shared-object-not-found", "vendor-runtime-missing"},
                                {"torch-name-missing", ""});
}

}  // namespace
}  // namespace onramp::audit
