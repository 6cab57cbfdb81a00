#include "onramp/diagnosis/diagnosis.h"

#include <gtest/gtest.h>

#include <tuple>

#include "onramp/diagnosis/outcome.h"

namespace onramp::diagnosis {
namespace diagnosis_test {  // one per file: a unity batch joins several

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
       "torch-undefined-symbol", "version_mismatch"},
      {"ImportError", "_ext.so: undefined symbol: vendorInit", "import-error-shared-object", "version_mismatch"},
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

// The failure classes of a backend that cannot load here: each from the
// evidence (the message's shape), its words from what the run measured.
TEST(Diagnoses, ABackendBuiltAgainstAnotherTorchSaysBothTorches) {
  const char* message = "cannot import name 'onramp_gone_name' from 'torch.utils' (/v/torch/utils/__init__.py)";
  EXPECT_EQ(Diagnoses::builtin().find("ImportError", message)->id, "torch-name-missing");
  Facts facts;
  facts.set("torch_declared", "declares none");
  facts.set("torch_version", "2.13.0+cpu");
  const auto* rule = Diagnoses::builtin().find("ImportError", message, facts);
  ASSERT_NE(rule, nullptr);
  EXPECT_EQ(rule->id, "torch-name-missing-declared");
  EXPECT_EQ(rule->cause, "version_mismatch");
  EXPECT_EQ(rule->subject(message), "onramp_gone_name");
  EXPECT_NE(facts.fill(rule->explanation).find("The backend's torch range: declares none; this machine's torch: "
                                               "2.13.0+cpu."),
            std::string::npos)
      << facts.fill(rule->explanation);
  const char* symbol = "/v/_C.so: undefined symbol: _ZN3c1017RegisterOperatorsD1Ev";
  EXPECT_EQ(Diagnoses::builtin().find("ImportError", symbol, facts)->id, "torch-undefined-symbol-declared");
  EXPECT_EQ(Diagnoses::builtin().find("ModuleNotFoundError", "No module named 'torch._six'", facts)->id,
            "torch-submodule-missing-declared");
  // A name missing from another package is not torch's.
  EXPECT_EQ(Diagnoses::builtin().find("ImportError", "cannot import name 'x' from 'numpy'", facts)->id, "import-error");
}

TEST(Diagnoses, ANativeLibraryOrRuntimeThatIsNotHereIsMissing) {
  const auto* rule = Diagnoses::builtin().find(
      "OSError", "libonramp_vendor_rt.so.1: cannot open shared object file: No such file or directory");
  ASSERT_NE(rule, nullptr);
  EXPECT_EQ(rule->id, "shared-object-not-found");
  EXPECT_EQ(rule->severity, report::Severity::blocker);
  const char* own = "The Vendor runtime is not installed. Install vendor-rt from the vendor's index.";
  EXPECT_EQ(Diagnoses::builtin().find("RuntimeError", own), nullptr);  // only where the import itself failed
  Facts failed;
  failed.set_flag("module_imported", false);
  rule = Diagnoses::builtin().find("RuntimeError", own, failed);
  ASSERT_NE(rule, nullptr);
  EXPECT_EQ(rule->id, "vendor-runtime-missing");
  EXPECT_EQ(rule->cause, "missing_dependency");
}

TEST(Diagnoses, PipsRefusalIsAConflictWhenItSaysSo) {
  const auto* rule = Diagnoses::builtin().find(
      "PipOutput", "ERROR: Cannot install x==1.0 because these package versions have conflicting dependencies.\n"
                   "The conflict is caused by:\n    x 1.0 depends on torch<2.13\nERROR: ResolutionImpossible: ...");
  ASSERT_NE(rule, nullptr);
  EXPECT_EQ(rule->id, "pip-resolution-conflict");
  EXPECT_EQ(rule->cause, "version_mismatch");
  EXPECT_EQ(Diagnoses::builtin().find("PipOutput", "ERROR: No matching distribution found for x")->id,
            "pip-no-network");
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
namespace diagnosis_test {  // one per file: a unity batch joins several

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


namespace onramp::diagnosis {
namespace diagnosis_test {  // one per file: a unity batch joins several

Facts imported_without_rename(const std::string& site) {
  Facts f;
  f.set("module", "torch_tpu");
  f.set_flag("module_imported", true);
  f.set("privateuse1_name", "privateuseone");
  f.set_flag("privateuse1_renamed", false);
  f.set("rename_site", site);
  return f;
}

// The builtin rules for an unknown device name and for torch.privateuseone:
// each remedy says what the run measured, and the generic "import the
// backend first" is given only where the import failed or nothing is known.
TEST(Diagnoses, TheDeviceNameRemediesReadTheState) {
  const std::string device_error = kTorch113TpuError;
  const std::string module_error = "No module named 'torch.privateuseone'";
  for (const auto& [type, message, base] :
       {std::tuple{"RuntimeError", device_error, std::string("device-string-unknown")},
        std::tuple{"ModuleNotFoundError", module_error, std::string("privateuse1-device-module-missing")}}) {
    SCOPED_TRACE(base);
    EXPECT_EQ(diagnosed(type, message).diagnosis->id, base);
    EXPECT_TRUE(diagnosed(type, message).remedy.starts_with("Import the backend module first"));

    Facts failed;
    failed.set("module", "torch_tpu");
    failed.set_flag("module_imported", false);
    auto f = diagnosed(type, message, failed);
    EXPECT_EQ(f.diagnosis->id, base + "-not-imported");
    EXPECT_NE(f.remedy.find("`import torch_tpu` failed here"), std::string::npos) << f.remedy;

    f = diagnosed(type, message,
                  imported_without_rename("torch_tpu/_loader.py:256 in `_init_device`, called at :391 in `load` only "
                                          "when `hardware.get_tpu_device_count() > 0`"));
    EXPECT_EQ(f.diagnosis->id, base + "-never-renamed");
    EXPECT_TRUE(f.remedy.starts_with("After `import torch_tpu`, PrivateUse1 is still named 'privateuseone'; the "
                                     "package renames it at torch_tpu/_loader.py:256 in `_init_device`, called at "
                                     ":391 in `load` only when `hardware.get_tpu_device_count() > 0`."))
        << f.remedy;
    EXPECT_EQ(f.remedy.find("Import the backend module first"), std::string::npos);

    f = diagnosed(type, message, imported_without_rename(""));
    EXPECT_EQ(f.diagnosis->id, base + "-no-rename-found");
    EXPECT_NE(f.remedy.find("no Python code of the package renames it"), std::string::npos) << f.remedy;

    // The search did not run: only what was measured selects a rule.
    Facts unsearched = imported_without_rename("");
    Facts partial;
    for (const char* key : {"module", "module_imported", "privateuse1_name", "privateuse1_renamed"}) {
      partial.set(key, unsearched.get(key));
    }
    EXPECT_EQ(diagnosed(type, message, partial).diagnosis->id, base);
  }
  Facts renamed;
  renamed.set("module", "torch_xla");
  renamed.set_flag("module_imported", true);
  renamed.set("privateuse1_name", "xla");
  renamed.set_flag("privateuse1_renamed", true);
  auto f = diagnosed("RuntimeError", device_error, renamed);
  EXPECT_EQ(f.diagnosis->id, "device-string-unknown-other-name");
  EXPECT_EQ(f.remedy, "Use the name the backend registered: 'xla'.");
}

// Every rule with `when` comes before a rule without one that matches the
// same failure, or it could never be chosen.
TEST(Diagnoses, RulesWithFactsComeBeforeTheGeneralOnes) {
  const auto& rules = Diagnoses::builtin().rules();
  for (size_t i = 0; i < rules.size(); ++i) {
    if (!rules[i].when.empty()) continue;
    for (size_t j = i + 1; j < rules.size(); ++j) {
      bool same = !rules[j].when.empty() && rules[j].type == rules[i].type && rules[j].contains == rules[i].contains &&
                  rules[j].any == rules[i].any;
      EXPECT_FALSE(same) << rules[j].id << " comes after the general " << rules[i].id;
    }
  }
}


// Every rule states its claim: the title every finding it diagnoses shows first.
TEST(Diagnoses, EveryBuiltinRuleHasATitle) {
  for (const auto& rule : Diagnoses::builtin().rules()) {
    EXPECT_FALSE(rule.title.empty()) << rule.id;
    EXPECT_LE(rule.title.size(), 100u) << rule.id;
  }
}

TEST(Diagnoses, ATitleNamesTheFailuresSubjectAndTheRunsFacts) {
  Failure op = diagnosed("NotImplementedError",
                         "Could not run 'aten::lt.Scalar_out' with arguments from the 'ref' backend. This could be "
                         "because the operator doesn't exist for this backend");
  EXPECT_EQ(op.title, "aten::lt.Scalar_out has no kernel for this backend");
  Facts facts;
  facts.set("module", "torch_tpu");
  facts.set_flag("module_imported", true);
  facts.set("privateuse1_name", "privateuseone");
  facts.set_flag("privateuse1_renamed", false);
  facts.set("rename_site", "torch_tpu/_loader.py:256");
  Failure name = diagnosed("RuntimeError", kTorch113TpuError, facts);
  EXPECT_EQ(name.title, "'tpu' is not a device name here: PrivateUse1 stays 'privateuseone' after the import");
  EXPECT_EQ(failure_finding("torch.device(\"tpu\")", name, "probe").title, name.title);
}

TEST(Diagnoses, ATitleThatQuotesAnUnrequiredFactIsRefused) {
  auto refused = Diagnoses::parse(R"([[rule]]
id = "r"
cause = "likely_bug"
explanation = "x"
title = "{module} failed"
)", "t.toml");
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("quotes {module}"), std::string::npos) << refused.error().message;
  EXPECT_TRUE(Diagnoses::parse(R"([[rule]]
id = "r"
cause = "likely_bug"
explanation = "x"
title = "{subject} failed"
)", "t.toml"));
}

}  // namespace
}  // namespace onramp::diagnosis
