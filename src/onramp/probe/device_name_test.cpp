#include "onramp/probe/device_name.h"

#include <gtest/gtest.h>

#include "onramp/probe/api_probe.h"
#include "onramp/probe/records_test_util.h"

namespace onramp::probe {
namespace device_name_test {  // one per file: a unity batch joins several

// The device-API probe's run that wrote `text` and exited 0.
python::ScriptRun api_probe_run(const std::string& text) {
  python::ScriptRun run = test_util::records(text);
  run.process.exit_code = 0;
  run.command = "python api_probe.py";
  return run;
}

const char* kError = "RuntimeError: Expected one of cpu, privateuseone device type at start of device string: tpu";

// Shaped like torch_tpu 0.2.0 on torch 2.13 without a TPU: torch.tpu is set,
// PrivateUse1 keeps its name, "tpu" never parses.
std::string tpu_records(bool imported) {
  std::string name = R"({"kind": "device_name", "guess": "tpu", "before": {"privateuse1_name": "privateuseone",)"
                     R"( "names": [{"name": "tpu", "module_attribute": false, "module_registered": false,)"
                     R"( "tensor_is": false, "tensor_method": false, "parses": [], "error": ")" +
                     std::string(kError) +
                     R"("}]}, "after": {"privateuse1_name": "privateuseone", "names": [{"name": "tpu",)"
                     R"( "module_attribute": true, "module_registered": true, "tensor_is": false,)"
                     R"( "tensor_method": false, "parses": [], "error": "x"}, {"name": "privateuseone",)"
                     R"( "module_attribute": false, "parses": ["privateuseone", "privateuseone:0"]}]}})";
  return std::string(R"({"kind": "torch_import", "name": "torch", "ok": true})") + "\n" +
         (imported ? R"({"kind": "module_import", "name": "torch_tpu", "ok": true})"
                   : R"({"kind": "module_import", "name": "torch_tpu", "ok": false, "type": "ImportError", "message": "no"})") +
         "\n" + name + "\n" +
         R"x({"kind": "call", "group": "torch.tpu", "api": "torch.tpu.default_stream", "status": "raised", "type": "RuntimeError", "message": "Expected one of cpu, privateuseone device type at start of device string: tpu"})x"
         "\n"
         R"x({"kind": "call", "group": "device strings", "api": "torch.randn((4,4), device=\"tpu\")", "status": "raised", "type": "RuntimeError", "message": "Expected one of cpu, privateuseone device type at start of device string: tpu"})x"
         "\n"
         R"x({"kind": "call", "group": "device strings", "api": "torch.randn((4,4), device=\"privateuseone\")", "status": "raised", "type": "ModuleNotFoundError", "message": "No module named 'torch.privateuseone'"})x"
         "\n"
         R"({"kind": "end"})";
}

const char* kSites =
    R"({"kind": "package", "module": "torch_tpu", "found": true, "files": 3})"
    "\n"
    R"({"kind": "site", "api": "rename_privateuse1_backend", "path": "torch_tpu/_loader.py", "line": 256,)"
    R"( "function": "_init_device", "argument": "tpu", "conditions": [], "callers": [{"path": "torch_tpu/_loader.py",)"
    R"( "line": 391, "function": "load", "conditions": ["hardware.get_tpu_device_count() > 0"], "callers": [],)"
    R"( "unresolved": ["entry point [torch.backends] torch_tpu = torch_tpu._loader:load of torch-tpu"]}]})"
    "\n"
    R"({"kind": "end"})";

TEST(DeviceName, BeforeAndAfterAreRead) {
  auto name = read_device_name(api_probe_run(tpu_records(true)));
  ASSERT_TRUE(name.measured);
  EXPECT_EQ(name.guess, "tpu");
  EXPECT_EQ(name.before.privateuse1_name, "privateuseone");
  EXPECT_EQ(name.renamed(), false);
  const NameState* tpu = name.after.find("tpu");
  ASSERT_NE(tpu, nullptr);
  EXPECT_TRUE(tpu->module_registered);
  EXPECT_TRUE(tpu->parses.empty());
  EXPECT_EQ(name.after.find("privateuseone")->parses, (std::vector<std::string>{"privateuseone", "privateuseone:0"}));
  report::Section s{"probe", "", {}, {}, {}};
  add_device_name(s, name, "cmd");
  ASSERT_EQ(s.tables.size(), 1u);
  ASSERT_EQ(s.tables[0].rows.size(), 3u);
  EXPECT_EQ(s.tables[0].rows[1]["when"], "after import");
  EXPECT_EQ(s.tables[0].rows[1]["module"], "registered");
}

TEST(DeviceName, HostileRecordsMeasureNothing) {
  auto name = read_device_name(api_probe_run(R"({"kind": "device_name", "before": 3, "after": {"privateuse1_name": 5, "names": [1, {"parses": "x"}]}})"));
  EXPECT_FALSE(name.before.measured);
  EXPECT_FALSE(name.renamed().has_value());
  ASSERT_EQ(name.after.names.size(), 1u);
  EXPECT_TRUE(name.after.names[0].parses.empty());
  auto facts = device_facts("m", api_probe_run(""), name, nullptr);
  EXPECT_FALSE(facts.known("privateuse1_renamed"));
  EXPECT_FALSE(facts.known("module_imported"));
}

TEST(DeviceName, FactsFromTheRunAndTheRenameSite) {
  auto run = api_probe_run(tpu_records(true));
  auto sites = read_rename_sites(api_probe_run(kSites));
  auto facts = device_facts("torch_tpu", run, read_device_name(run), &sites);
  EXPECT_TRUE(facts.holds("module_imported"));
  EXPECT_TRUE(facts.holds("!privateuse1_renamed"));
  EXPECT_EQ(facts.get("privateuse1_name"), "privateuseone");
  EXPECT_EQ(facts.get("rename_site"),
            "torch_tpu/_loader.py:256 in `_init_device`, called at :391 in `load` only when "
            "`hardware.get_tpu_device_count() > 0` (entry point [torch.backends] torch_tpu = torch_tpu._loader:load "
            "of torch-tpu)");
  // A search that found the package and no rename: measured, and empty.
  auto none = read_rename_sites(api_probe_run(R"({"kind": "package", "module": "m", "found": true, "files": 1})"
                                        "\n"
                                        R"({"kind": "end"})"));
  auto empty = device_facts("torch_tpu", run, read_device_name(run), &none);
  EXPECT_TRUE(empty.holds("!rename_site"));
}

// The torch_tpu case of the verdict: three failures of one fact, the
// device name never registered. The probe says the fact once, as the root
// before them; each failure's remedy says what was measured.
TEST(DeviceName, OneRootBeforeTheFailuresItExplains) {
  report::Section s{"probe", "", {}, {}, {}};
  auto sites = api_probe_run(kSites);
  add_api_records(s, api_probe_run(tpu_records(true)), {"torch_tpu", "tpu"}, &sites);
  std::vector<const report::Finding*> named;
  for (const auto& f : s.findings) {
    if (f.fact.starts_with("unknown_device_name ")) named.push_back(&f);
  }
  ASSERT_EQ(named.size(), 4u);
  const report::Finding& root = *named[0];
  EXPECT_EQ(root.severity, report::Severity::blocker);
  EXPECT_TRUE(root.text.starts_with("After `import torch_tpu`, PrivateUse1 is still named 'privateuseone': the device "
                                    "name 'tpu' was never registered (torch.tpu is set, but \"tpu\" does not parse "
                                    "as a device)"))
      << root.text;
  EXPECT_NE(root.text.find("The package renames it at torch_tpu/_loader.py:256 in `_init_device`, called at :391 in "
                           "`load` only when `hardware.get_tpu_device_count() > 0`"),
            std::string::npos)
      << root.text;
  EXPECT_EQ(root.fact, "unknown_device_name tpu");
  for (size_t i = 1; i < named.size(); ++i) {
    EXPECT_NE(named[i]->remedy.find("the package renames it at torch_tpu/_loader.py:256"), std::string::npos)
        << named[i]->text << "\n" << named[i]->remedy;
  }
  const report::Table* sites_table = nullptr;
  for (const auto& t : s.tables) {
    if (t.key == "device_name_sites") sites_table = &t;
  }
  ASSERT_NE(sites_table, nullptr);
  EXPECT_EQ(sites_table->rows[0]["where"], "torch_tpu/_loader.py:256");
}

TEST(DeviceName, NoRootWhenTheImportFailedOrTheNameWasSet) {
  report::Section failed{"probe", "", {}, {}, {}};
  add_api_records(failed, api_probe_run(tpu_records(false)), {"torch_tpu", "tpu"});
  for (const auto& f : failed.findings) EXPECT_FALSE(f.text.starts_with("After `import")) << f.text;
  for (const auto& f : failed.findings) {
    if (f.text.starts_with("torch.randn((4,4), device=\"tpu\")")) {
      EXPECT_NE(f.remedy.find("`import torch_tpu` failed here"), std::string::npos) << f.remedy;
    }
  }
}

}  // namespace
}  // namespace onramp::probe
