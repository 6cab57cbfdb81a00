#include "onramp/integration/status.h"

#include <gtest/gtest.h>

namespace onramp::integration {
namespace status_test {  // one per file: a unity batch joins several

Check ok(bool shown) { return Check{"p", "call", "value", "v", "", "", shown, 0}; }
Check raised() { return Check{"p", "boom()", "raised", "", "RuntimeError", "no device", std::nullopt, 0}; }
Check info() { return Check{"p", "info()", "value", "[]", "", "", std::nullopt, 0}; }
Check missing() { return Check{"p", "new_api()", "not_in_this_torch", "", "", "this torch has no new_api", std::nullopt, 0}; }

Status judged(std::vector<Check> checks, std::optional<long long> count = std::nullopt) {
  std::vector<const Check*> p;
  for (const auto& c : checks) p.push_back(&c);
  auto row = judge_checks("p", p, count);
  EXPECT_TRUE(row.has_value());
  return row ? row->status : Status::absent;
}

TEST(IntegrationStatus, ShownChecksDecideProvidedPartialAbsent) {
  EXPECT_EQ(judged({ok(true), ok(true)}), Status::provided);
  EXPECT_EQ(judged({ok(true), ok(false)}), Status::partial);
  EXPECT_EQ(judged({ok(false), ok(false)}), Status::absent);
  EXPECT_EQ(judged({ok(true), info()}), Status::provided);  // informational answers do not count
  EXPECT_EQ(judged({ok(true), raised()}), Status::partial);
}

TEST(IntegrationStatus, RaisesUnlessTheMachineHasNoDevice) {
  EXPECT_EQ(judged({raised()}), Status::raises);
  EXPECT_EQ(judged({raised()}, 1), Status::raises);
  EXPECT_EQ(judged({raised()}, 0), Status::needs_device);
  EXPECT_EQ(judged({raised(), ok(false)}, 0), Status::absent);
}

TEST(IntegrationStatus, TorchsWordsForNothingRegisteredReadAsAbsentNotAsTheDevice) {
  Check none{"p", "guard()", "absent", "", "RuntimeError", "PyTorch is not linked with support for fk devices", {}, 0};
  EXPECT_EQ(judged({none}, 0), Status::absent);
  EXPECT_EQ(judged({none, ok(true)}), Status::partial);
}

TEST(IntegrationStatus, ChecksThatNeedTheDeviceDoNotCountButAreSaid) {
  Check unaskable{"p", "set_device_index(0)", "needs_device", "", "", "device_count() is 0", {}, 0};
  EXPECT_EQ(judged({unaskable}), Status::needs_device);
  Check shown = ok(true);
  auto row = judge_checks("p", {&shown, &unaskable}, 0);
  ASSERT_TRUE(row);
  EXPECT_EQ(row->status, Status::provided);
  EXPECT_NE(row->detail.find("needs the device: device_count() is 0"), std::string::npos) << row->detail;
}

TEST(IntegrationStatus, FeaturesThisTorchLacks) {
  EXPECT_EQ(judged({missing()}), Status::not_in_this_torch);
  EXPECT_EQ(judged({missing(), info()}), Status::not_in_this_torch);
  EXPECT_EQ(judged({missing(), ok(true)}), Status::provided);
  EXPECT_FALSE(judge_checks("p", {}, std::nullopt).has_value());
}

TEST(IntegrationStatus, RowSaysTheCallsAndTheAnswers) {
  Check r = raised();
  Check s = ok(true);
  auto row = judge_checks("p", {&s, &r}, 1);
  ASSERT_TRUE(row);
  EXPECT_EQ(row->method, "call; boom()");
  EXPECT_EQ(row->evidence, "call -> v; boom() -> raised RuntimeError: no device");
  EXPECT_NE(row->detail.find("1 of 2"), std::string::npos);
  EXPECT_EQ(to_string(Status::needs_device), "needs_device");
}

}  // namespace

namespace status_test {

// torch 2.13's words for a device string it was never told of (the torch-tpu
// generator check without a TPU).
Check unknown_name(const std::string& call) {
  return Check{"generator", call, "raised", "", "RuntimeError",
               "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, "
               "vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device string: tpu",
               std::nullopt, 0};
}

diagnosis::Facts never_renamed(bool renamed) {
  diagnosis::Facts facts;
  facts.set("module", "torch_tpu");
  facts.set_flag("module_imported", true);
  facts.set("privateuse1_name", renamed ? "tpu" : "privateuseone");
  facts.set_flag("privateuse1_renamed", renamed);
  facts.set("rename_site", "torch_tpu/_loader.py:256 in `_init_device`");
  return facts;
}

TEST(IntegrationStatus, ACheckThatNamedANeverRegisteredDeviceFollowsFromTheDeviceName) {
  Check generator = unknown_name("torch.Generator(device=\"tpu\").initial_seed()");
  auto row = judge_checks("generator", {&generator}, 0, never_renamed(false));
  ASSERT_TRUE(row);
  EXPECT_EQ(row->status, Status::follows);
  EXPECT_EQ(row->follows_from, "device_name");
  EXPECT_NE(row->detail.find("could not be asked"), std::string::npos) << row->detail;
  // Beside a check that counts, the row is judged by that one and still names where the rest went.
  Check shown = ok(true);
  auto amp = judge_checks("amp", {&shown, &generator}, 0, never_renamed(false));
  ASSERT_TRUE(amp);
  EXPECT_EQ(amp->status, Status::provided);
  EXPECT_EQ(amp->follows_from, "device_name");
}

TEST(IntegrationStatus, WhereTheNameWasRegisteredTheSameRaiseIsThePointsOwn) {
  Check generator = unknown_name("torch.Generator(device=\"tpu\").initial_seed()");
  auto row = judge_checks("generator", {&generator}, 0, never_renamed(true));
  ASSERT_TRUE(row);
  EXPECT_EQ(row->status, Status::needs_device);
  EXPECT_EQ(row->follows_from, "");
  // Without the probe's facts nothing is known of the name: judged as before.
  EXPECT_EQ(judge_checks("generator", {&generator}, 0)->status, Status::needs_device);
}

}  // namespace status_test
}  // namespace onramp::integration
