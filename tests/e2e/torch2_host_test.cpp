// End-to-end on the torch 2.x host (a venv with torch 2.13.0, CPU build, made
// by scripts/host-venv.sh; `make` makes it before the tests, and a machine
// without it fails here rather than skipping): the reference backend built
// against that torch, probed with its device count at 0 as a machine without
// the device, audited, and joined by `port trace --backend module:...`.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "harness.h"
#include "wheel_fixtures.h"

namespace onramp::e2e {
namespace torch2_host_test {  // one per file: a unity batch joins several

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kHost = ONRAMP_TORCH2_PYTHON;
const std::string kBackendDir = std::string(ONRAMP_SOURCE_DIR) + "/examples/reference-backend";

json row_where(const json& table, const std::string& column, const std::string& value) {
  for (const auto& row : table["rows"]) {
    if (row.value(column, "") == value) return row;
  }
  ADD_FAILURE() << "no row with " << column << " = " << value << " in " << table.value("key", "");
  return json::object();
}

// The backend built against the host's torch, and its wheel.
class Torch2Host : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    ASSERT_TRUE(fs::exists(kHost)) << kHost << " is missing: `make host` (scripts/host-venv.sh) makes it";
    ASSERT_EQ(shell("PYTHON='" + kHost + "' '" + kBackendDir + "/build.sh' '" + dir_->path() + "/dist' >&2"), 0);
    ASSERT_EQ(shell("PYTHON='" + kHost + "' '" + kBackendDir + "/build.sh' --where > '" + dir_->path() + "/where'"),
              0);
    where_ = new std::string(read_file(dir_->path() + "/where"));
    while (!where_->empty() && where_->back() == '\n') where_->pop_back();
    for (const auto& e : fs::directory_iterator(dir_->path() + "/dist")) wheel_ = new std::string(e.path().string());
  }
  static void TearDownTestSuite() {
    delete where_;
    delete wheel_;
    delete dir_;
  }
  static TempDir* dir_;
  static std::string* where_;
  static std::string* wheel_;
};
TempDir* Torch2Host::dir_ = nullptr;
std::string* Torch2Host::where_ = nullptr;
std::string* Torch2Host::wheel_ = nullptr;

TEST_F(Torch2Host, TheHostIsTorchTwo) {
  auto r = run_program({kHost, "-I", "-c", "from importlib.metadata import version; print(version('torch'))"}, {});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("2.", 0), 0u) << r.out;
  ASSERT_NE(wheel_, nullptr);
  EXPECT_NE(where_->find("-torch2."), std::string::npos) << *where_;  // its own build directory
}

TEST_F(Torch2Host, ProbeWithoutTheDeviceAnswersAsTheArticleSaw) {
  auto r = run_onramp({"probe", "--python", kHost, "--path", *where_, "--module", "onramp_ref", "--device", "ref",
                       "--env", "ONRAMP_REF_DEVICE_COUNT=0", "--runs", "1", "--no-integration", "--json", "--out",
                       dir_->path() + "/probe"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json probe = json::parse(r.out)["sections"]["probe"];
  EXPECT_EQ(find_key(probe["figures"], "has_torch_accelerator")["value"], true);
  EXPECT_EQ(find_key(probe["figures"], "privateuse1_backend_name")["value"], "ref");
  EXPECT_NE(find_key(probe["figures"], "host")["value"].get<std::string>().find("torch 2.13"), std::string::npos);
  json api = find_key(probe["tables"], "device_api");
  EXPECT_EQ(row_where(api, "api", "torch.accelerator.is_available")["result"], "False");
  EXPECT_EQ(row_where(api, "api", "torch.accelerator.device_count")["result"], "0");
  // The backend renamed PrivateUse1 on import, so torch names it as the current accelerator.
  EXPECT_EQ(row_where(api, "api", "torch.accelerator.current_accelerator")["result"], "device(type='ref')");
  // The renamed-API refusal, as torch.tpu.* refuses users.
  EXPECT_EQ(row_where(api, "api", "torch.ref.device_count")["status"], "raised");
  json before = find_key(probe["tables"], "device_strings_before_import");
  EXPECT_EQ(row_where(before, "api", "torch.device(\"ref\")")["status"], "raised");
  EXPECT_EQ(row_where(before, "api", "torch.device(\"ref\")")["diagnosis"].get<std::string>().find("unknown_device"),
            0u);
  json after = find_key(probe["tables"], "device_strings");
  EXPECT_EQ(row_where(after, "api", "torch.device(\"ref\")")["status"], "value");
  json regs = find_key(probe["tables"], "runtime_registrations");
  EXPECT_GT(row_where(regs, "key", "PrivateUse1")["added"].get<int>(), 0);
  EXPECT_EQ(find_key(probe["figures"], "runtime_registered_ops")["value"],
            row_where(regs, "key", "PrivateUse1")["added"]);
}

TEST_F(Torch2Host, AuditMeasuresCoreAtenAndMatchesRunTimeRegistrationsToTheSource) {
  std::string out = dir_->path() + "/audit";
  auto r = run_onramp({"audit", kBackendDir, "--no-integration", "--profile", "reference", "--wheel", *wheel_, "--python", kHost,
                       "--env", "ONRAMP_REF_DEVICE_COUNT=0", "--pip-args=--ignore-requires-python", "--runs", "1",
                       "--strict", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json report = json::parse(read_file(out + "/report.json"));
  EXPECT_NE(report["target"]["python"].get<std::string>().find("chosen by the install step's venv, made from --python"),
            std::string::npos);
  // torch 2.x's torchgen schema has the core tag: measured without --aten.
  json methods = find_key(report["sections"]["verdict"]["tables"], "op_counting_methods");
  json core = row_where(methods, "method", "In the core ATen set");
  EXPECT_TRUE(core["value"].is_number() && core["value"].get<int>() > 0) << core.dump();
  EXPECT_EQ(core["rule"].get<std::string>().find("not measured"), std::string::npos) << core.dump();
  json probe = report["sections"]["probe"];
  long runtime = find_key(probe["figures"], "runtime_registered_ops")["value"];
  EXPECT_GT(runtime, 0);
  EXPECT_EQ(find_key(probe["figures"], "registered_only_at_run_time")["value"], 0);
  EXPECT_EQ(find_key(probe["figures"], "registered_only_in_source")["value"], 0);
  EXPECT_EQ(find_key(probe["figures"], "registered_both")["value"], runtime);
  // The installed venv saw the host's torch through a .pth, not a second download.
  json install = report["sections"]["install"];
  EXPECT_NE(find_key(install["figures"], "host_site_packages")["value"].get<std::string>().find("host-torch"),
            std::string::npos);
}

TEST_F(Torch2Host, PortTraceJoinsAgainstTheDispatchersAnswer) {
  dir_->write("model.py",
              "import torch\n"
              "def build():\n"
              "    return torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU()), (torch.randn(2, 4),)\n");
  auto r = run_onramp({"port", "trace", "--python", kHost, "--path", *where_, "--script",
                       dir_->path() + "/model.py:build", "--backend", "module:onramp_ref", "--json", "--out",
                       dir_->path() + "/trace"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json report = json::parse(r.out);
  EXPECT_NE(report["target"].dump().find("dispatcher's PrivateUse1 routes"), std::string::npos)
      << report["target"].dump();
  json trace = report["sections"]["port_trace"];
  json join = find_key(trace["figures"], "ops_registered");
  EXPECT_GT(join["value"].get<int>(), 0) << trace["figures"].dump(1);
  EXPECT_EQ(find_key(trace["figures"], "ops_missing")["value"], 0) << trace["figures"].dump(1);
}

// A check that cannot pass by calling everything served: joined against a
// module that registers nothing (json), the structured ops are missing, each
// through its delegate, though plain torch computes a kernel for them.
TEST_F(Torch2Host, PortTraceAgainstAModuleThatRegistersNothingFindsTheStructuredOpsMissing) {
  dir_->write("model.py",
              "import torch\n"
              "def build():\n"
              "    return torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU()), (torch.randn(2, 4),)\n");
  auto r = run_onramp({"port", "trace", "--python", kHost, "--script", dir_->path() + "/model.py:build",
                       "--backend", "module:json", "--json", "--out", dir_->path() + "/nothing"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json trace = json::parse(r.out)["sections"]["port_trace"];
  bool addmm = false;
  json ops = find_key(trace["tables"], "ops");
  for (const auto& row : ops["rows"]) {
    if (row["op"] != "addmm") continue;
    addmm = true;
    EXPECT_EQ(row["status"], "missing");
    EXPECT_EQ(row["via"], "addmm.out");
  }
  EXPECT_TRUE(addmm) << trace.dump(1);
  EXPECT_EQ(find_key(trace["figures"], "ops_registered")["value"], 0);
  EXPECT_GT(find_key(trace["figures"], "ops_missing")["value"].get<int>(), 0);
  // t is CompositeExplicitAutograd: its kernel serves every backend, but the
  // ops it calls (transpose.int, then as_strided) must be served too, and
  // this module serves none, so the callee check finds it missing.
  json t = row_where(ops, "op", "t");
  EXPECT_EQ(t["status"], "missing") << t.dump();
  EXPECT_EQ(t.value("note", "").find("missing: t -> transpose.int -> as_strided: missing"), 0u) << t.dump();
  EXPECT_EQ(find_key(trace["figures"], "ops_decomposition")["value"], 0);
}

// torch_tpu 0.2.0 declares a torch.backends entry point, so `import torch`
// loads it by itself: the probe turns autoload off, or "before" would already
// hold what the module registers. The fixture registers one op. With the
// scorecard, the matrix runs in a child forked from the runtime group's
// interpreter, which turned autoload off the same way; with autoload left on
// (--env) the two preambles differ and the matrix has an interpreter of its
// own: the same answers either way.
TEST_F(Torch2Host, ABackendThatTorchAutoloadsIsMeasuredFromTorchAlone) {
  const std::string fixture = std::string(ONRAMP_SOURCE_DIR) + "/tests/e2e/fixtures/autoload";
  auto r = run_onramp({"probe", "--python", kHost, "--path", fixture, "--module", "autoload_backend", "--no-import",
                       "--json", "--out", dir_->path() + "/autoload"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json probe = json::parse(r.out)["sections"]["probe"];
  EXPECT_EQ(find_key(probe["figures"], "runtime_registered_ops")["value"], 1);
  EXPECT_EQ(find_key(probe["figures"], "autoload_disabled")["value"], true);
  EXPECT_EQ(find_key(probe["figures"], "autoload_entry_points")["value"], "autoload_backend = autoload_backend:_autoload");
  // With autoload left on (--env), torch loads the module first: nothing is added by the import.
  auto on = run_onramp({"probe", "--python", kHost, "--path", fixture, "--module", "autoload_backend", "--no-import",
                        "--env", "TORCH_DEVICE_BACKEND_AUTOLOAD=1", "--json", "--out", dir_->path() + "/autoload-on"});
  ASSERT_EQ(on.exit_code, 0) << on.err;
  json probe_on = json::parse(on.out)["sections"]["probe"];
  EXPECT_EQ(find_key(probe_on["figures"], "runtime_registered_ops")["value"], 0);
  EXPECT_EQ(find_key(probe_on["figures"], "autoload_disabled")["value"], false);
  std::string forked = read_file(dir_->path() + "/autoload/results/integration/runtime.jsonl");
  std::string fresh = read_file(dir_->path() + "/autoload-on/results/integration/runtime.jsonl");
  EXPECT_NE(forked.find(R"("kind": "matrix", "how": "forked")"), std::string::npos) << forked;
  EXPECT_NE(fresh.find(R"("kind": "matrix", "how": "fresh")"), std::string::npos) << fresh;
  EXPECT_NE(find_key(probe_on["figures"], "autoload_disabled")["evidence"].get<std::string>().find(
                "run in an interpreter of its own, started by the runtime group's"),
            std::string::npos);
}

TEST_F(Torch2Host, ARelativePythonPathNamesAFileFromHere) {
  std::string rel = fs::relative(kHost, fs::current_path()).string();
  ASSERT_NE(rel.find('/'), std::string::npos) << rel;
  auto r = run_onramp({"probe", "--python", rel, "--device", "ref", "--no-import", "--json", "--out",
                       dir_->path() + "/relative"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json probe = json::parse(r.out)["sections"]["probe"];
  std::string host = find_key(probe["figures"], "host")["value"];
  EXPECT_NE(host.find("(" + fs::absolute(rel).lexically_normal().string() + ","), std::string::npos)
      << host << " from " << rel;
}

TEST_F(Torch2Host, AModuleThatDoesNotImportIsOneClearError) {
  auto r = run_onramp({"port", "trace", "--python", kHost, "--model", "torchvision:resnet18", "--backend",
                       "module:no_such_backend", "--out", dir_->path() + "/bad"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("module:no_such_backend: import failed: ModuleNotFoundError"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace onramp::e2e
