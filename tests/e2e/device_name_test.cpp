// The device name, measured, on the torch 2.13 host: a pure-Python backend
// (tests/e2e/fixtures/device_name/envdev_backend) that sets up torch.envdev at
// import and renames PrivateUse1 to "envdev" only when its hardware check
// (ONRAMP_ENVDEV_DEVICES > 0) finds a device, the shape of torch_tpu 0.2.0's
// loader. The probe records the name before and after the import, finds the
// rename's call site and its condition in the installed code, and the
// remedies say what was measured; in an audit, every failure of the name
// hangs under one root.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "harness.h"

namespace onramp::e2e {
namespace device_name_test {  // one per file: a unity batch joins several

using nlohmann::json;

const std::string kFixture = std::string(ONRAMP_SOURCE_DIR) + "/tests/e2e/fixtures/device_name";
const std::string kHost = ONRAMP_TORCH2_PYTHON;

json section_of(const RunResult& run, const std::string& key) {
  auto doc = json::parse(run.out, nullptr, false);
  return doc.is_discarded() ? json() : doc["sections"][key];
}

json probe(const TempDir& dir, const std::vector<std::string>& env_flags) {
  std::vector<std::string> args{"probe",  "--module", "envdev_backend", "--device", "envdev", "--path", kFixture,
                                "--python", kHost,    "--no-import",    "--no-integration", "--json", "--out",
                                dir.path() + "/run"};
  args.insert(args.end(), env_flags.begin(), env_flags.end());
  auto run = run_onramp(args);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return section_of(run, "probe");
}

const json& table(const json& section, const std::string& key) {
  for (const auto& t : section["tables"]) {
    if (t["key"] == key) return t;
  }
  static const json none;
  return none;
}

json figure(const json& section, const std::string& key) {
  for (const auto& f : section["figures"]) {
    if (f["key"] == key) return f["value"];
  }
  return "<no figure>";
}

// "NAME before import" / "NAME after import" -> row
std::map<std::string, json> name_rows(const json& section) {
  std::map<std::string, json> out;
  for (const auto& row : table(section, "device_name")["rows"]) {
    out[row["name"].get<std::string>() + " " + row["when"].get<std::string>()] = row;
  }
  return out;
}

TEST(DeviceNameE2E, WithoutADeviceTheNameIsNeverRegisteredAndTheProbeSaysWhere) {
  TempDir dir;
  json p = probe(dir, {});
  ASSERT_TRUE(p.is_object());
  EXPECT_EQ(figure(p, "privateuse1_backend_name_before"), "privateuseone");
  EXPECT_EQ(figure(p, "privateuse1_backend_name"), "privateuseone");
  EXPECT_EQ(figure(p, "privateuse1_renamed"), false);

  auto rows = name_rows(p);
  ASSERT_TRUE(rows.contains("envdev before import")) << table(p, "device_name").dump();
  EXPECT_EQ(rows["envdev before import"]["module"], "absent");
  EXPECT_EQ(rows["envdev before import"]["parses"], "");
  // The import set up torch.envdev but the name still does not parse.
  EXPECT_EQ(rows["envdev after import"]["module"], "registered");
  EXPECT_EQ(rows["envdev after import"]["parses"], "");
  EXPECT_NE(rows["envdev after import"]["error"].get<std::string>().find("device string: envdev"), std::string::npos);
  EXPECT_EQ(rows["envdev after import"]["tensor_is"], "no");
  EXPECT_EQ(rows["privateuseone after import"]["parses"], "privateuseone, privateuseone:0");

  const auto& sites = table(p, "device_name_sites")["rows"];
  ASSERT_EQ(sites.size(), 2u) << sites.dump();
  EXPECT_EQ(sites[0]["where"], "envdev_backend/_loader.py:8");
  EXPECT_EQ(sites[0]["api"], "rename_privateuse1_backend");
  EXPECT_EQ(sites[0]["argument"], "envdev");
  EXPECT_EQ(sites[0]["function"], "_init_device");
  EXPECT_EQ(sites[0]["reached"], "called at :14 in `load` only when `hardware.device_count() > 0`, called at "
                                 "envdev_backend/__init__.py:25 at module level, which runs at `import envdev_backend`");
  EXPECT_EQ(sites[1]["api"], "generate_methods_for_privateuse1_backend");

  std::string root, randn_remedy;
  for (const auto& f : p["findings"]) {
    std::string text = f["text"];
    if (text.starts_with("After `import envdev_backend`")) root = text;
    if (text.starts_with("torch.randn((4,4), device=\"envdev\")")) randn_remedy = f["remedy"];
  }
  EXPECT_TRUE(root.starts_with("After `import envdev_backend`, PrivateUse1 is still named 'privateuseone': the device "
                               "name 'envdev' was never registered (torch.envdev is set, but \"envdev\" does not "
                               "parse as a device)"))
      << root;
  const std::string site = "envdev_backend/_loader.py:8 in `_init_device`, called at :14 in `load` only when "
                           "`hardware.device_count() > 0`";
  EXPECT_NE(root.find("The package renames it at " + site), std::string::npos) << root;
  EXPECT_TRUE(randn_remedy.starts_with("After `import envdev_backend`, PrivateUse1 is still named 'privateuseone'; "
                                       "the package renames it at " + site))
      << randn_remedy;
  EXPECT_EQ(randn_remedy.find("Import the backend module first"), std::string::npos) << randn_remedy;
}

TEST(DeviceNameE2E, WithADeviceTheImportRenamesAndNoRootIsMade) {
  TempDir dir;
  json p = probe(dir, {"--env", "ONRAMP_ENVDEV_DEVICES=1"});
  ASSERT_TRUE(p.is_object());
  EXPECT_EQ(figure(p, "privateuse1_backend_name_before"), "privateuseone");
  EXPECT_EQ(figure(p, "privateuse1_backend_name"), "envdev");
  EXPECT_EQ(figure(p, "privateuse1_renamed"), true);
  auto rows = name_rows(p);
  EXPECT_EQ(rows["envdev after import"]["parses"], "envdev, envdev:0");
  EXPECT_EQ(rows["envdev after import"]["tensor_is"], "yes");  // generate_methods_for_privateuse1_backend ran
  EXPECT_EQ(rows["envdev before import"]["parses"], "");
  EXPECT_EQ(table(p, "device_name_sites")["rows"].size(), 2u);  // the sites are listed either way
  for (const auto& f : p["findings"]) {
    EXPECT_FALSE(f["text"].get<std::string>().starts_with("After `import")) << f["text"];
  }
}

TEST(DeviceNameE2E, InAnAuditEveryFailureOfTheNameHangsUnderOneRoot) {
  TempDir dir;
  auto run = run_onramp({"audit", kFixture, "--no-integration", "--module", "envdev_backend", "--device", "envdev", "--python", kHost,
                         "--runs", "1", "--json", "--out", dir.path() + "/run"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto doc = json::parse(run.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded());
  std::string root;
  std::vector<json> named;  // the failures of the device name, in the probe and the README
  for (const char* key : {"probe", "examples"}) {
    for (const auto& f : doc["sections"][key]["findings"]) {
      std::string text = f["text"];
      if (text.starts_with("After `import envdev_backend`")) root = f["id"];
      if (text.find("device string: envdev") != std::string::npos ||
          text.find("No module named 'torch.privateuseone'") != std::string::npos) {
        named.push_back(f);
      }
    }
  }
  ASSERT_FALSE(root.empty()) << doc["sections"]["probe"]["findings"].dump(1);
  // The device-module call, randn on "envdev", randn on "privateuseone", the README line.
  ASSERT_EQ(named.size(), 4u) << json(named).dump(1);
  for (const auto& f : named) {
    EXPECT_EQ(f["caused_by"], root) << f.dump(1);
    EXPECT_EQ(f["caused_by_reason"], "the device name it uses was never registered");
  }
  json examples_row = table(doc["sections"]["examples"], "statements_1")["rows"].back();
  EXPECT_EQ(examples_row["diagnosis"], "unknown_device_name (device-string-unknown-never-renamed)") << examples_row;
  json verdict = doc["sections"]["verdict"];
  EXPECT_EQ(figure(verdict, "root_blockers"), 1);
}

}  // namespace
}  // namespace onramp::e2e
