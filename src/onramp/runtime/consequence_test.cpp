#include "onramp/runtime/consequence.h"

#include <gtest/gtest.h>

namespace onramp::runtime {
namespace {

using report::Json;

Json ok(int line, std::vector<std::string> binds, std::vector<std::string> imports = {}) {
  return Json{{"kind", "statement"}, {"origin", "README.md:10"}, {"line", line}, {"status", "ok"},
              {"binds", binds}, {"imports", imports}};
}

Json raised(int line, const std::string& type, const std::string& message, std::vector<std::string> binds = {},
            std::vector<std::string> imports = {}) {
  return Json{{"kind", "statement"}, {"origin", "README.md:10"}, {"line", line}, {"status", "raised"},
              {"type", type}, {"message", message}, {"binds", binds}, {"imports", imports}};
}

TEST(Consequence, ANameErrorOnANameAFailedImportWouldHaveBoundFollowsFromIt) {
  std::vector<Json> records{
      raised(11, "ModuleNotFoundError", "No module named 'torch_tpu'", {"torch_tpu"}, {"torch_tpu"}),
      Json{{"kind", "begin"}},
      raised(12, "NameError", "name 'torch_tpu' is not defined", {"device"}),
      raised(13, "NameError", "name 'device' is not defined"),
      raised(14, "NameError", "name 'other' is not defined"),
  };
  auto roots = follows_from(records);
  ASSERT_EQ(roots.size(), 4u);  // the begin record is no statement
  EXPECT_EQ(roots[0], "");
  EXPECT_EQ(roots[1], "README.md:11");
  EXPECT_EQ(roots[2], "README.md:11");  // through the consequence, back to the root
  EXPECT_EQ(roots[3], "");              // never bound by anything: a root of its own
}

TEST(Consequence, ANameBoundAgainLaterIsNoLongerUnbound) {
  std::vector<Json> records{
      raised(1, "RuntimeError", "Expected one of cpu, cuda device type at start of device string: tpu", {"x"}),
      ok(2, {"x"}),
      raised(3, "NameError", "name 'x' is not defined"),
  };
  auto roots = follows_from(records);
  EXPECT_EQ(roots[2], "");
}

TEST(Consequence, AnAttributeErrorOnASubmoduleThatFailedToImportFollowsFromTheImport) {
  std::vector<Json> records{
      ok(1, {"torch_tpu"}, {"torch_tpu"}),
      raised(2, "ImportError", "cannot import name 'api'", {"api"}, {"torch_tpu", "torch_tpu.api"}),
      raised(3, "AttributeError", "module 'torch_tpu' has no attribute 'api'"),
      raised(4, "AttributeError", "module 'torch' has no attribute 'tpu'"),
  };
  auto roots = follows_from(records);
  EXPECT_EQ(roots[2], "README.md:2");
  EXPECT_EQ(roots[3], "");
}

TEST(Consequence, UnboundLocalErrorMessagesOfOldAndNewPythonsNameTheVariable) {
  EXPECT_EQ(unbound_name("UnboundLocalError", "local variable 'y' referenced before assignment"), "y");
  EXPECT_EQ(unbound_name("UnboundLocalError", "cannot access local variable 'y' where it is not associated"), "y");
  EXPECT_EQ(unbound_name("NameError", "name 'mo' is not defined"), "mo");
  EXPECT_EQ(unbound_name("TypeError", "name 'mo' is not defined"), "");
}

TEST(Consequence, ATimeoutLeavesItsNamesUnboundTooAndRecordsWithoutBindsAreRead) {
  std::vector<Json> records{
      Json{{"kind", "statement"}, {"origin", "nb.ipynb cell 2"}, {"line", 1}, {"status", "timeout"}, {"binds", {"m"}}},
      Json{{"kind", "statement"}, {"origin", "nb.ipynb cell 3"}, {"line", 2}, {"status", "raised"},
           {"type", "NameError"}, {"message", "name 'm' is not defined"}, {"binds", 7}},
  };
  auto roots = follows_from(records);
  EXPECT_EQ(roots[1], "nb.ipynb cell 2:1");
}

}  // namespace
}  // namespace onramp::runtime
