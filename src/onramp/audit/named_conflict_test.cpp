#include "onramp/audit/named_conflict.h"

#include <gtest/gtest.h>

namespace onramp::audit {
namespace named_conflict_test {  // one per file: a unity batch joins several

const char* kPip = R"(Collecting demo-device==1.0
ERROR: Cannot install demo-device==1.0 because these package versions have conflicting dependencies.

The conflict is caused by:
    demo-device 1.0 depends on torch<3 and >=2.11
    The user requested (constraint) torch<=2.14.1,==1.13.0a0+gitunknown

To fix this you could try to:
1. loosen the range of package versions you've specified
)";

TEST(NamedConflict, KeepsPipsOwnLinesAndNamesThePackage) {
  auto lines = conflict_lines(kPip);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1], "demo-device 1.0 depends on torch<3 and >=2.11");
  EXPECT_EQ(conflicting_package(lines), "torch");
  EXPECT_EQ(conflicting_package({"a 1 depends on Typing_Extensions>=4"}), "typing-extensions");
  EXPECT_TRUE(conflict_lines("ERROR: No matching distribution found for x\n").empty());
}

TEST(NamedConflict, OneFindingWithBothWaysOut) {
  python::InterpreterFacts py;
  py.python = "/usr/bin/python3";
  py.python_version = "3.11.2";
  py.torch_version = "1.13.0";
  auto f = named_interpreter_finding(py, "demo-device==1.0", conflict_lines(kPip), "pip install --dry-run");
  EXPECT_EQ(f.severity, report::Severity::blocker);
  EXPECT_NE(f.text.find("its own torch 1.13.0"), std::string::npos) << f.text;
  EXPECT_NE(f.text.find("\"demo-device 1.0 depends on torch<3 and >=2.11\""), std::string::npos) << f.text;
  EXPECT_NE(f.remedy.find("--python naming a venv"), std::string::npos);
  EXPECT_NE(f.remedy.find("leave out --python"), std::string::npos);
  EXPECT_NE(f.remedy.find("--torch SPEC"), std::string::npos);
}

}  // namespace
}  // namespace onramp::audit
