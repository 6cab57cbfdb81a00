#include "onramp/diagnosis/diagnosis.h"

#include <gtest/gtest.h>

namespace onramp::diagnosis {
namespace {

const char* kTorch113TpuError =
    "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, ort, xla, lazy, "
    "vulkan, mps, meta, hpu, privateuseone device type at start of device string: tpu";

TEST(Diagnoses, BuiltinRulesParse) { EXPECT_GT(Diagnoses::builtin().rules().size(), 10u); }

TEST(Diagnoses, DeviceStringErrorIsAnUnknownDeviceName) {
  const auto* rule = Diagnoses::builtin().find("RuntimeError", kTorch113TpuError);
  ASSERT_NE(rule, nullptr);
  EXPECT_EQ(rule->cause, "unknown_device_name");
}

TEST(Diagnoses, InternalApiNamingAcceleratorIsARenamedApi) {
  const auto* rule = Diagnoses::builtin().find(
      "RuntimeError", "torch.tpu.is_available is internal to TorchTPU. Use torch.accelerator.is_available instead.");
  ASSERT_NE(rule, nullptr);
  EXPECT_EQ(rule->cause, "renamed_api");
}

// Messages the real backends gave on a machine without their device (docs/real-backends.md).
TEST(Diagnoses, TheRealBackendsMessagesGetTheirOwnCause) {
  struct Case {
    const char* type;
    const char* message;
    const char* id;
    const char* cause;
  };
  const Case cases[] = {
      {"ModuleNotFoundError", "No module named 'torch.privateuseone'", "privateuse1-device-module-missing",
       "unknown_device_name"},
      {"ModuleNotFoundError", "No module named 'yaml'", "module-not-found", "missing_dependency"},
      {"RuntimeError", "Cannot access accelerator device when none is available.", "accelerator-none-available",
       "needs_device"},
      {"ImportError", "libhccl.so: cannot open shared object file: No such file or directory", "shared-library-not-found",
       "missing_dependency"},
      {"ImportError", "_XLAC.so: undefined symbol: _ZN5torch8autograd10deleteNodeEPNS0_4NodeE",
       "import-error-shared-object", "version_mismatch"},
      {"AttributeError", "module 'os' has no attribute 'exit'", "os-exit-does-not-exist", "likely_bug"},
      {"AssertionError", "Torch not compiled with XPU enabled", "torch-not-compiled-with-device", "needs_device"},
      {"AssertionError", "Torch not compiled with CUDA enabled", "cuda-not-compiled", "needs_device"},
      // torch 2.6's torch.accelerator on a PrivateUse1 rename without hooks (the fake_tpu fixture).
      {"RuntimeError", "PyTorch is not linked with support for tpu devices", "privateuse1-hooks-missing", "likely_bug"},
  };
  for (const auto& c : cases) {
    const auto* rule = Diagnoses::builtin().find(c.type, c.message);
    ASSERT_NE(rule, nullptr) << c.message;
    EXPECT_EQ(rule->id, c.id) << c.message;
    EXPECT_EQ(rule->cause, c.cause) << c.message;
  }
}

TEST(Diagnoses, TypeMustMatchWhenGiven) {
  EXPECT_EQ(Diagnoses::builtin().find("ValueError", kTorch113TpuError), nullptr);
}

TEST(Diagnoses, PseudoTypesCoverSandboxOutcomes) {
  for (const char* type : {"Timeout", "Crash", "ProcessLimit", "NoResult"}) {
    EXPECT_NE(Diagnoses::builtin().find(type, "anything"), nullptr) << type;
  }
}

TEST(Diagnoses, FirstMatchWins) {
  auto d = Diagnoses::parse(R"(
[[rule]]
id = "a"
contains = ["x"]
cause = "c1"
explanation = "e"
[[rule]]
id = "b"
cause = "c2"
explanation = "e"
)",
                            "t.toml");
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->find("T", "xyz")->id, "a");
  EXPECT_EQ(d->find("T", "yz")->id, "b");
}

TEST(Diagnoses, BadFileNamesTheFileAndTheProblem) {
  auto d = Diagnoses::parse("[[rule]]\nid = \"a\"\n", "bad.toml");
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("bad.toml"), std::string::npos);
  auto syntax = Diagnoses::parse("[[rule]\n", "broken.toml");
  ASSERT_FALSE(syntax);
  EXPECT_NE(syntax.error().message.find("broken.toml:1"), std::string::npos);
}

TEST(Diagnoses, TheSubjectOfAFailureNamesWhatIsMissingOrRejected) {
  const auto& d = Diagnoses::builtin();
  auto subject = [&](const char* type, const char* message) {
    const auto* rule = d.find(type, message);
    return rule ? rule->subject(message) : std::string("no rule");
  };
  EXPECT_EQ(subject("ModuleNotFoundError", "No module named 'torch_tpu'"), "torch_tpu");
  EXPECT_EQ(subject("RuntimeError", "Expected one of cpu, cuda, privateuseone device type at start of device string: tpu"),
            "tpu");
  EXPECT_EQ(subject("NotImplementedError",
                    "Could not run 'aten::empty.memory_format' with arguments from the 'PrivateUse1' backend."),
            "aten::empty.memory_format");
  EXPECT_EQ(subject("AttributeError", "module 'torch' has no attribute 'accelerator'"), "accelerator");
  EXPECT_EQ(subject("MemoryError", ""), "");  // a rule without a subject
}

}  // namespace
}  // namespace onramp::diagnosis

namespace onramp::diagnosis {
namespace {

const char* kRulesWithFacts = R"(
[[rule]]
id = "name-not-set-after-import"
type = "RuntimeError"
contains = ["device string"]
when = ["module_imported", "privateuse1_name"]
cause = "unknown_device_name"
explanation = "PrivateUse1 is still named '{privateuse1_name}' after the import."
remedy = "See where the package renames it."

[[rule]]
id = "device-string-unknown"
type = "RuntimeError"
contains = ["device string"]
cause = "unknown_device_name"
explanation = "torch does not know the name."
remedy = "Import the backend module first."
)";

TEST(Diagnoses, ARuleWithWhenMatchesOnlyWhereItsFactsWereMeasured) {
  auto rules = Diagnoses::parse(kRulesWithFacts, "rules.toml");
  ASSERT_TRUE(rules) << rules.error().message;
  EXPECT_EQ(rules->find("RuntimeError", "bad device string: tpu")->id, "device-string-unknown");
  Facts imported;
  imported.set_flag("module_imported", true);
  imported.set("privateuse1_name", "privateuseone");
  EXPECT_EQ(rules->find("RuntimeError", "bad device string: tpu", imported)->id, "name-not-set-after-import");
  Facts failed;
  failed.set_flag("module_imported", false);
  failed.set("privateuse1_name", "privateuseone");
  EXPECT_EQ(rules->find("RuntimeError", "bad device string: tpu", failed)->id, "device-string-unknown");
}

TEST(Diagnoses, ARuleThatQuotesAFactItDoesNotRequireIsRefused) {
  auto rules = Diagnoses::parse(R"(
[[rule]]
id = "x"
cause = "likely_bug"
explanation = "named {privateuse1_name}"
)", "rules.toml");
  ASSERT_FALSE(rules);
  EXPECT_NE(rules.error().message.find("rules.toml: rule x quotes {privateuse1_name}"), std::string::npos);
}

}  // namespace
}  // namespace onramp::diagnosis
