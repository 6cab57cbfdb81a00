#include "onramp/probe/api_probe.h"

#include <gtest/gtest.h>

#include "onramp/util/text_file.h"

namespace onramp::probe {
namespace api_probe_test {  // one per file: a unity batch joins several

// What api_probe.py wrote on torch 2.13.0 for the reference backend with
// ONRAMP_REF_DEVICE_COUNT=0 (trimmed: three of its 49 registrations, the
// torch.ref rows that refuse users).
python::ScriptRun torch2_records() {
  python::ScriptRun run;
  auto text = util::read_text_file(std::string(ONRAMP_SOURCE_DIR) + "/src/onramp/probe/testdata/api_probe_torch2.13.jsonl");
  EXPECT_TRUE(text) << text.error().message;
  python::read_records(text.value_or(""), run);
  run.process.exit_code = 0;
  run.command = "python api_probe.py";
  return run;
}

const report::Table& table(const report::Section& s, const std::string& key) {
  for (const auto& t : s.tables) {
    if (t.key == key) return t;
  }
  ADD_FAILURE() << "no table " << key;
  static report::Table none;
  return none;
}

std::string cell(const report::Table& t, const std::string& api, const std::string& column) {
  for (const auto& row : t.rows) {
    if (row.value("api", "") == api) return row.value(column, "");
  }
  return "<no row>";
}

TEST(ApiRecordsOnTorch2, TheAvailabilityQueriesDegradeCleanly) {
  report::Section s{"probe", "", {}, {}, {}};
  add_api_records(s, torch2_records(), {"onramp_ref", "ref"});
  const auto& api = table(s, "device_api");
  EXPECT_EQ(cell(api, "torch.accelerator.is_available", "result"), "False");
  EXPECT_EQ(cell(api, "torch.accelerator.device_count", "result"), "0");
  EXPECT_EQ(cell(api, "torch.accelerator.current_accelerator", "result"), "device(type='ref')");
  // synchronize raises without the device; it does not decide clean degradation.
  EXPECT_EQ(cell(api, "torch.accelerator.synchronize", "status"), "raised");
  int good = 0;
  for (const auto& f : s.findings) {
    if (f.severity == report::Severity::good && f.text.starts_with("torch.accelerator degrades cleanly")) {
      ++good;
      EXPECT_EQ(f.text, "torch.accelerator degrades cleanly without the device: is_available() = False; "
                        "device_count() = 0; current_accelerator() = device(type='ref');");
    }
  }
  EXPECT_EQ(good, 1);
}

TEST(ApiRecordsOnTorch2, TheDeviceNameParsesOnlyAfterTheImport) {
  report::Section s{"probe", "", {}, {}, {}};
  add_api_records(s, torch2_records(), {"onramp_ref", "ref"});
  const auto& before = table(s, "device_strings_before_import");
  EXPECT_EQ(cell(before, "torch.device(\"ref\")", "status"), "raised");
  EXPECT_EQ(cell(before, "torch.device(\"ref\")", "diagnosis").rfind("unknown_device_name", 0), 0u);
  const auto& after = table(s, "device_strings");
  EXPECT_EQ(cell(after, "torch.device(\"ref\")", "status"), "value");
  // Strings tried before the import are not in the matrix, nor counted as rejected after it.
  EXPECT_EQ(cell(table(s, "device_api"), "torch.device(\"ref\")", "status"), "<no row>");
  // randn returned; printing the tensor needs lt.Scalar_out, which the backend leaves unregistered.
  EXPECT_EQ(cell(after, "torch.randn((4,4), device=\"ref\")", "status"), "value");
  EXPECT_EQ(cell(after, "torch.randn((4,4), device=\"ref\")", "result").rfind(
                "returned a Tensor; printing its value raised NotImplementedError", 0),
            0u);
  bool blamed_printing = false;
  for (const auto& f : s.findings) {
    EXPECT_FALSE(f.text.starts_with("torch.randn((4,4), device=\"ref\")")) << f.text;
    blamed_printing = blamed_printing ||
                      f.text.starts_with("printing the value of torch.randn((4,4), device=\"ref\") (the call returned)");
  }
  EXPECT_TRUE(blamed_printing);
}

TEST(ApiRecordsOnTorch2, RegistrationsAndFeaturesAreRead) {
  report::Section s{"probe", "", {}, {}, {}};
  add_api_records(s, torch2_records(), {"onramp_ref", "ref"});
  std::map<std::string, report::Json> figures;
  for (const auto& f : s.figures) figures[f.key] = f.value;
  EXPECT_EQ(figures["has_torch_accelerator"], true);
  EXPECT_EQ(figures["has_rename_privateuse1_backend"], true);
  EXPECT_EQ(figures["privateuse1_backend_name"], "ref");
  EXPECT_EQ(figures["torch_version"], "2.13.0+cpu");
  EXPECT_EQ(figures["runtime_registered_ops"], 3);
}

TEST(ApiRecords, AnAvailabilityQueryThatRaisesIsFriction) {
  python::ScriptRun run;
  python::read_records(
      R"({"kind": "call", "group": "torch.accelerator", "api": "torch.accelerator.is_available", "status": "raised", "type": "RuntimeError", "message": "boom"})"
      "\n"
      R"({"kind": "call", "group": "torch.accelerator", "api": "torch.accelerator.device_count", "status": "value", "value": "0"})"
      "\n{\"kind\": \"end\"}\n",
      run);
  report::Section s{"probe", "", {}, {}, {}};
  add_api_records(s, run, {"", ""});
  int friction = 0;
  for (const auto& f : s.findings) {
    if (f.text.starts_with("torch.accelerator does not degrade cleanly")) {
      ++friction;
      EXPECT_EQ(f.severity, report::Severity::friction);
      EXPECT_NE(f.text.find("is_available() raised"), std::string::npos) << f.text;
    }
  }
  EXPECT_EQ(friction, 1);
}

TEST(ApiRecords, NoTorchAcceleratorIsInfo) {
  python::ScriptRun run;
  python::read_records(
      R"({"kind": "call", "group": "torch.accelerator", "api": "torch.accelerator.is_available", "status": "absent", "message": "torch.accelerator is absent"})"
      "\n{\"kind\": \"end\"}\n",
      run);
  report::Section s{"probe", "", {}, {}, {}};
  add_api_records(s, run, {"", ""});
  ASSERT_FALSE(s.findings.empty());
  EXPECT_EQ(s.findings[0].text, "This torch has no torch.accelerator: device-generic availability checks are absent");
}

// The probe section of api_probe.py's records (JSON Lines).
report::Section probed(const std::string& records, const ApiProbeOptions& options) {
  python::ScriptRun run;
  python::read_records(records, run);
  run.process.exit_code = 0;
  report::Section s{"probe", "", {}, {}, {}};
  add_api_records(s, run, options);
  return s;
}

// A backend that names PrivateUse1 "mydev" while its module is torch_cooldev:
// the strings onramp tried on its own ("cooldev" from the module's name,
// torch's "privateuseone") are not the backend's, and their refusal is said
// as information, never as a problem of the backend.
TEST(ApiRecords, OnrampsOwnGuessesAreNotTheBackendsProblems) {
  auto s = probed(
      R"jsonl({"kind": "torch_import", "name": "torch", "ok": true}
{"kind": "module_import", "name": "torch_cooldev", "ok": true}
{"kind": "env", "python": "3.11.7", "torch_version": "2.13.0", "privateuse1_backend_name": "mydev", "device": "mydev", "device_source": "the PrivateUse1 backend name", "features": {}}
{"kind": "call", "group": "device strings", "api": "torch.randn((4,4), device=\"mydev\")", "status": "value", "value": "tensor"}
{"kind": "call", "group": "device strings", "api": "torch.randn((4,4), device=\"cooldev\")", "status": "raised", "type": "RuntimeError", "message": "Expected one of cpu, cuda, privateuseone device type at start of device string: cooldev"}
{"kind": "call", "group": "device strings", "api": "torch.randn((4,4), device=\"privateuseone\")", "status": "raised", "type": "RuntimeError", "message": "boom"}
{"kind": "end"}
)jsonl",
      {"torch_cooldev", ""});
  int guesses = 0;
  for (const auto& f : s.findings) {
    bool problem = f.severity == report::Severity::blocker || f.severity == report::Severity::friction;
    EXPECT_FALSE(problem && f.text.find("cooldev\")") != std::string::npos) << f.text;
    EXPECT_FALSE(problem && f.text.find("privateuseone\")") != std::string::npos) << f.text;
    if (f.text.starts_with("'cooldev' was tried by onramp (a guess from the module's name), not a name this backend "
                           "uses (it names PrivateUse1 'mydev')")) {
      ++guesses;
      EXPECT_EQ(f.severity, report::Severity::info);
    }
    if (f.text.starts_with("'privateuseone' was tried by onramp (torch's default name for PrivateUse1)")) ++guesses;
  }
  EXPECT_EQ(guesses, 2);
}

// A guess that meets the failure the backend's own name met is that failure again:
// it keeps its severity and carries the same fact, so that the audit hangs it under the first.
TEST(ApiRecords, AGuessMeetingTheOwnNamesFailureIsThatFailureAgain) {
  auto s = probed(
      R"jsonl({"kind": "module_import", "name": "torch_cooldev", "ok": true}
{"kind": "env", "privateuse1_backend_name": "mydev", "device": "mydev", "device_source": "the PrivateUse1 backend name", "features": {}}
{"kind": "call", "group": "device strings", "api": "torch.randn((4,4), device=\"privateuseone\")", "status": "raised", "type": "NotImplementedError", "message": "Could not run 'aten::lt.Scalar_out' with arguments from the 'mydev' backend."}
{"kind": "call", "group": "device strings", "api": "torch.randn((4,4), device=\"mydev\")", "status": "raised", "type": "NotImplementedError", "message": "Could not run 'aten::lt.Scalar_out' with arguments from the 'mydev' backend."}
{"kind": "end"}
)jsonl",
      {"torch_cooldev", ""});
  std::vector<const report::Finding*> lt_findings;
  for (const auto& f : s.findings) {
    if (f.text.find("lt.Scalar_out") != std::string::npos) lt_findings.push_back(&f);
  }
  ASSERT_EQ(lt_findings.size(), 2u);
  EXPECT_NE(lt_findings[0]->text.find("device=\"mydev\""), std::string::npos) << "the own name's failure first";
  for (const auto* f : lt_findings) EXPECT_EQ(f->severity, report::Severity::blocker) << f->text;
  EXPECT_FALSE(lt_findings[0]->fact.empty());
  EXPECT_EQ(lt_findings[0]->fact, lt_findings[1]->fact);
}

// The name the backend was asked to use (--device, a profile) refused is its problem.
TEST(ApiRecords, TheBackendsOwnNameRefusedIsAProblem) {
  auto s = probed(
      R"jsonl({"kind": "module_import", "name": "torch_cooldev", "ok": true}
{"kind": "env", "privateuse1_backend_name": "privateuseone", "device": "cool", "device_source": "--device", "features": {}}
{"kind": "call", "group": "device strings", "api": "torch.randn((4,4), device=\"cool\")", "status": "raised", "type": "RuntimeError", "message": "Expected one of cpu, cuda device type at start of device string: cool"}
{"kind": "end"}
)jsonl",
      {"torch_cooldev", "cool"});
  bool problem = false;
  for (const auto& f : s.findings) {
    problem |= f.text.starts_with("torch.randn((4,4), device=\"cool\")") &&
               (f.severity == report::Severity::blocker || f.severity == report::Severity::friction);
  }
  EXPECT_TRUE(problem);
}

}  // namespace
}  // namespace onramp::probe
