#include "onramp/integration/needs.h"

#include <gtest/gtest.h>

namespace onramp::integration {
namespace needs_test {  // one per file: a unity batch joins several

std::map<std::string, std::string> all(const std::string& status) {
  std::map<std::string, std::string> out;
  for (const auto& p : builtin_points()) out[p.id] = status;
  return out;
}

std::string point_of(const std::map<std::string, std::string>& status, const std::string& source,
                     const std::string& failure, const std::string& device = "faulty") {
  auto m = needed_point(builtin_points(), status, device, source, failure);
  return m ? m->point : "";
}

TEST(IntegrationNeeds, OnlyRowsThatShowThePointMissingAreBlamed) {
  EXPECT_TRUE(missing_here("absent"));
  EXPECT_TRUE(missing_here("raises"));
  EXPECT_TRUE(missing_here("partial"));
  for (const char* s : {"provided", "needs_device", "not_in_this_torch", ""}) EXPECT_FALSE(missing_here(s)) << s;
  const std::string source = "g = torch.Generator(device=\"faulty\")";
  const std::string failure = "RuntimeError: Please register PrivateUse1HooksInterface by "
                              "`RegisterPrivateUse1HooksInterface` first.";
  EXPECT_EQ(point_of(all("absent"), source, failure), "generator");
  EXPECT_EQ(point_of(all("provided"), source, failure), "");
  EXPECT_EQ(point_of(all("needs_device"), source, failure), "");
  // The generator provided: the message still names the missing hooks.
  auto status = all("absent");
  status["generator"] = "provided";
  EXPECT_EQ(point_of(status, source, failure), "hooks");
  EXPECT_EQ(point_of({}, source, failure), "");  // no scorecard
}

TEST(IntegrationNeeds, TheApiInTheStatementOrTheMessageNamesThePoint) {
  auto missing = all("partial");
  EXPECT_EQ(point_of(missing, "torch.faulty.manual_seed(0)", "AttributeError: module 'faulty' has no attribute "
                                                             "'manual_seed'"),
            "device_module");
  EXPECT_EQ(point_of(missing, "with torch.autocast(device_type=\"faulty\", dtype=torch.float16): ...",
                     "AssertionError: Tried to use AMP with the `faulty` backend, but ..."),
            "amp");
  EXPECT_EQ(point_of(missing, "y = f(x)", "AssertionError: Tried to use AMP with the `faulty` backend, but ..."), "amp");
  EXPECT_EQ(point_of(missing, "model.faulty()", "AttributeError: 'Linear' object has no attribute 'faulty'"),
            "generated_methods");
  EXPECT_EQ(point_of(missing, "s = torch.faulty.Stream()", "AttributeError: ..."), "streams");
  EXPECT_EQ(point_of(missing, "import torch",
                     "RuntimeError: Failed to load the backend extension: faulty_backend. You can disable ..."),
            "autoload");
  EXPECT_EQ(point_of(missing, "x.add_(1)",
                     "NotImplementedError: Could not run 'aten::add_.Tensor' with arguments from the 'PrivateUse1' "
                     "backend."),
            "minimum_operators");
  EXPECT_EQ(point_of(missing, "torch.ones(2) + 1", "ValueError: bad shape"), "");
}

TEST(IntegrationNeeds, DeviceEntriesNeedTheDeviceName) {
  auto missing = all("absent");
  auto m = needed_point(builtin_points(), missing, "faulty", "torch.faulty.manual_seed(0)", "AttributeError: x");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->shown, "its statement has `torch.faulty.manual_seed`");
  // Another device's module: not this backend's.
  EXPECT_EQ(point_of(missing, "torch.cuda.manual_seed(0)", "AttributeError: x"), "");
  // Without a device name, entries that name {device} never match.
  EXPECT_EQ(point_of(missing, "torch.faulty.manual_seed(0)", "AttributeError: x", ""), "");
  std::vector<Point> points{Point{"p", "P", "s", "runtime", "c", "h", {}, {{"{device}.x", "{device} failed"}}}};
  auto both = needed_point(points, {{"p", "raises"}}, "dev", "dev.x()", "RuntimeError: dev failed");
  ASSERT_TRUE(both);
  EXPECT_EQ(both->shown, "its statement has `dev.x` and its failure says \"dev failed\"");
  EXPECT_FALSE(needed_point(points, {{"p", "raises"}}, "dev", "dev.x()", "RuntimeError: other"));
}

}  // namespace
}  // namespace onramp::integration
