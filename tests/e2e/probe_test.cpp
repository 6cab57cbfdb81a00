// onramp probe against real /usr/bin/python3 and fixture packages that warn,
// raise, hang, allocate, fork, flood, crash and write to $HOME.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "harness.h"

namespace onramp::e2e {
namespace probe_test {  // one per file: a unity batch joins several

using nlohmann::json;
namespace fs = std::filesystem;

const std::string kPackages = std::string(ONRAMP_SOURCE_DIR) + "/tests/e2e/fixtures/packages";

struct Probe {
  RunResult run;
  json section;
};

Probe probe(const TempDir& dir, const std::vector<std::string>& extra, const std::vector<std::string>& env = {}) {
  // The integration scorecard has its own test (integration_test.cpp).
  std::vector<std::string> args{"probe", "--path", kPackages, "--no-integration", "--json", "--out", dir.path() + "/run"};
  args.insert(args.end(), extra.begin(), extra.end());
  Probe p{run_onramp(args, env), json()};
  auto doc = json::parse(p.run.out, nullptr, false);
  if (!doc.is_discarded()) p.section = doc["sections"]["probe"];
  return p;
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
    if (f["key"] == key) return f;
  }
  return json();
}

std::string import_outcome(const Probe& p) { return table(p.section, "import_runs")["rows"][0]["outcome"]; }

TEST(Probe, WarningsAndStderrLinesOfTheImportAreReportedInOrder) {
  TempDir dir;
  auto p = probe(dir, {"--module", "noisy_backend", "--runs", "2", "--no-api"});
  ASSERT_EQ(p.run.exit_code, 0) << p.run.err;
  const auto& warnings = table(p.section, "import_warnings")["rows"];
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0]["category"], "UserWarning");
  EXPECT_EQ(warnings[0]["message"], "tcmalloc is not loaded; host performance may be degraded");
  EXPECT_NE(warnings[0]["location"].get<std::string>().find("noisy_backend/__init__.py:9"), std::string::npos);
  const auto& lines = table(p.section, "import_stderr")["rows"];
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[0]["line"], "GetPjrtApi was found for NOISY at /fake/libnoisy.so");
  EXPECT_EQ(lines[1]["line"], "noisy_backend: logged at import");
  EXPECT_EQ(table(p.section, "import_runs")["rows"].size(), 3u);  // cold, warm, importtime
  EXPECT_TRUE(figure(p.section, "import_cold_s")["value"].is_number());
  EXPECT_TRUE(figure(p.section, "import_warm_median_s")["value"].is_number());
  // Each figure points at its own run's command.
  EXPECT_NE(figure(p.section, "import_cold_s")["evidence"].get<std::string>().find("results/import-1.jsonl"),
            std::string::npos);
  EXPECT_NE(figure(p.section, "import_warm_median_s")["evidence"].get<std::string>().find("results/import-2.jsonl"),
            std::string::npos);
  EXPECT_FALSE(table(p.section, "importtime_self")["rows"].empty());
}

TEST(Probe, AnImportThatRaisesIsAFindingNotAnError) {
  TempDir dir;
  auto p = probe(dir, {"--module", "raising_backend", "--runs", "1", "--no-api"});
  ASSERT_EQ(p.run.exit_code, 0) << p.run.err;
  EXPECT_EQ(import_outcome(p), "RuntimeError: raising_backend: cannot initialise the runtime");
  EXPECT_TRUE(figure(p.section, "import_cold_s")["value"].is_null());
  EXPECT_NE(p.section["findings"][0]["text"].get<std::string>().find("Diagnosis: none matched"), std::string::npos);
  // The backend that does not import cannot be used: a blocker whatever its message, as in the audit.
  EXPECT_EQ(p.section["findings"][0]["severity"], "blocker");
}

TEST(Probe, AHangingImportIsKilledAtTheTimeout) {
  TempDir dir;
  auto p = probe(dir, {"--module", "hanging_backend", "--runs", "1", "--no-api", "--timeout", "1"});
  ASSERT_EQ(p.run.exit_code, 0) << p.run.err;
  EXPECT_TRUE(import_outcome(p).starts_with("Timeout: timed out after")) << import_outcome(p);
  EXPECT_NE(p.section["findings"][0]["text"].get<std::string>().find("resource_limit"), std::string::npos);
}

TEST(Probe, TenGigabytesHitTheMemoryLimit) {
  TempDir dir;
  auto p = probe(dir, {"--module", "greedy_backend", "--runs", "1", "--no-api", "--memory", "2G"});
  ASSERT_EQ(p.run.exit_code, 0) << p.run.err;
  EXPECT_EQ(import_outcome(p), "MemoryError");
}

TEST(Probe, AForkLoopHitsTheProcessLimit) {
  TempDir dir;
  auto p = probe(dir, {"--module", "forking_backend", "--runs", "1", "--no-api", "--timeout", "60"});
  ASSERT_EQ(p.run.exit_code, 0) << p.run.err;
  EXPECT_EQ(import_outcome(p), "ProcessLimit: killed: process limit");
}

TEST(Probe, AGigabyteOfOutputIsCutAndReported) {
  TempDir dir;
  auto p = probe(dir, {"--module", "flooding_backend", "--runs", "1", "--no-api"});
  ASSERT_EQ(p.run.exit_code, 0) << p.run.err;
  EXPECT_EQ(import_outcome(p), "ok");
  bool cut = false;
  for (const auto& f : p.section["findings"]) {
    cut = cut || f["text"].get<std::string>().find("wrote 1073741824 bytes to stdout") != std::string::npos;
  }
  EXPECT_TRUE(cut) << p.section["findings"].dump();
  EXPECT_LT(fs::file_size(dir.path() + "/run/results/import-1.jsonl.stdout"), 2u << 20);
}

TEST(Probe, ASegfaultIsReportedAsACrash) {
  TempDir dir;
  auto p = probe(dir, {"--module", "crashing_backend", "--runs", "1", "--no-api"});
  ASSERT_EQ(p.run.exit_code, 0) << p.run.err;
  EXPECT_EQ(import_outcome(p), "Crash: signal 11 (Segmentation fault)");
}

// With the scorecard, the matrix runs in a child forked from the runtime
// group's interpreter (docs/probe.md): a backend that kills it is the same
// finding as in an interpreter of its own.
TEST(Probe, ASegfaultInTheMatrixIsTheSameCrashWhenTheRuntimeGroupForkedIt) {
  TempDir own_dir, forked_dir;
  auto own = probe(own_dir, {"--module", "crashing_backend", "--no-import"});
  ASSERT_EQ(own.run.exit_code, 0) << own.run.err;
  auto forked = run_onramp({"probe", "--path", kPackages, "--module", "crashing_backend", "--no-import", "--json",
                            "--out", forked_dir.path() + "/run"});
  ASSERT_EQ(forked.exit_code, 0) << forked.err;
  json section = json::parse(forked.out)["sections"]["probe"];
  ASSERT_EQ(section["findings"].size(), 1u) << section["findings"].dump();
  ASSERT_EQ(own.section["findings"].size(), 1u) << own.section["findings"].dump();
  EXPECT_EQ(section["findings"][0]["text"], own.section["findings"][0]["text"]);
  EXPECT_NE(section["findings"][0].value("text", "").find("Crash: signal 11 (Segmentation fault)"), std::string::npos);
  std::string group = read_file(forked_dir.path() + "/run/results/integration/runtime.jsonl");
  EXPECT_NE(group.find(R"("how": "forked")"), std::string::npos) << group;
  EXPECT_NE(group.find(R"("signal": 11})"), std::string::npos) << group;
}

TEST(Probe, WritesToHomeLandInTheRunDirectoryNotTheUsersHome) {
  TempDir dir, home;
  auto p = probe(dir, {"--module", "homewriting_backend", "--runs", "1", "--no-api"}, {"HOME=" + home.path()});
  ASSERT_EQ(p.run.exit_code, 0) << p.run.err;
  EXPECT_EQ(import_outcome(p), "ok");
  EXPECT_TRUE(fs::is_empty(home.path()));
  EXPECT_TRUE(fs::exists(dir.path() + "/run/sandbox/home/.homewriting_backend/config"));
}

// fake_tpu renames PrivateUse1 (where torch can) but registers no hooks:
// torch.accelerator's answers then depend on the torch, and the test says
// which it expects of each. Run on Debian's torch (1.13 on Debian 12, 2.6 on
// 13) and on the torch 2.13 host, so that both kinds are checked everywhere.
void expect_fake_tpu_matrix(const std::string& python) {
  SCOPED_TRACE(python + " (torch " + torch_version(python) + ")");
  TempDir dir;
  auto p = probe(dir, {"--module", "fake_tpu", "--device", "tpu", "--no-import", "--python", python});
  ASSERT_EQ(p.run.exit_code, 0) << p.run.err;
  EXPECT_EQ(figure(p.section, "device")["value"], "tpu");
  std::map<std::string, json> api;
  for (const auto& row : table(p.section, "device_api")["rows"]) api[row["api"]] = row;
  ASSERT_TRUE(api.contains("torch.tpu.is_available"));
  EXPECT_EQ(api["torch.tpu.is_available"]["status"], "raised");
  EXPECT_EQ(api["torch.tpu.is_available"]["diagnosis"], "renamed_api (internal-api-names-accelerator)");
  EXPECT_EQ(api["torch.tpu.current_device"]["result"], "0");
  std::map<std::string, json> strings;
  for (const auto& row : table(p.section, "device_strings")["rows"]) strings[row["api"]] = row;
  const auto& randn = strings["torch.randn((4,4), device=\"tpu\")"];
  EXPECT_EQ(strings["torch.device(\"privateuseone\")"]["status"], "value");
  std::string version = torch_version(python);
  if (version.starts_with("1.")) {
    // torch 1.13 has no torch.accelerator and cannot rename PrivateUse1: the name fails at parsing.
    EXPECT_EQ(figure(p.section, "has_torch_accelerator")["value"], false);
    EXPECT_EQ(api["torch.accelerator.is_available"]["status"], "absent");
    EXPECT_NE(randn["result"].get<std::string>().find("device type at start of device string: tpu"), std::string::npos);
    EXPECT_EQ(randn["diagnosis"], "unknown_device_name (device-string-unknown)");
    return;
  }
  // torch 2.x: the rename holds, "tpu" parses, and no kernel is registered for it.
  EXPECT_EQ(figure(p.section, "has_torch_accelerator")["value"], true);
  EXPECT_EQ(figure(p.section, "privateuse1_backend_name")["value"], "tpu");
  EXPECT_EQ(randn["diagnosis"], "op_not_registered (op-not-registered)");
  EXPECT_EQ(api["torch.accelerator.current_accelerator"]["result"], "device(type='tpu')");
  // Without hooks, torch.accelerator's device index fails on every torch 2.x;
  // is_available asks the hooks on 2.6 and the device module on 2.13.
  EXPECT_EQ(api["torch.accelerator.current_device_index"]["diagnosis"], "likely_bug (privateuse1-hooks-missing)");
  EXPECT_EQ(api["torch.accelerator.is_available"]["status"], "raised");
  EXPECT_EQ(api["torch.accelerator.is_available"]["diagnosis"],
            version.starts_with("2.6.") ? "likely_bug (privateuse1-hooks-missing)"
                                        : "renamed_api (internal-api-names-accelerator)");
}

TEST(Probe, DeviceApiMatrixOfAFakeTpuBackendOnDebiansTorch) { expect_fake_tpu_matrix(kSystemPython); }

TEST(Probe, DeviceApiMatrixOfAFakeTpuBackendOnTorch213) { expect_fake_tpu_matrix(ONRAMP_TORCH2_PYTHON); }

TEST(Probe, NeedsAModuleOrADevice) {
  auto r = run_onramp({"probe"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--module"), std::string::npos);
}

TEST(Probe, MissingPathIsABadInputNamingIt) {
  TempDir dir;
  auto r = run_onramp({"probe", "--module", "x", "--path", "/no/such/dir", "--out", dir.path()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/no/such/dir"), std::string::npos);
}

}  // namespace
}  // namespace onramp::e2e
