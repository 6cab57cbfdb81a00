// End-to-end on the torch 2.x host: `port trace --backend module:onramp_ref`
// against the reference backend's route variants (examples/reference-backend
// README, "Route variants"), one trace per variant, each route with its
// evidence; the same model against a module that registers nothing; and the
// per-phase time limit of a trace.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "harness.h"
#include "wheel_fixtures.h"

namespace onramp::e2e {
namespace port_routes_test {  // one per file: a unity batch joins several

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kHost = ONRAMP_TORCH2_PYTHON;
const std::string kBackendDir = std::string(ONRAMP_SOURCE_DIR) + "/examples/reference-backend";

// relu has the backend's own kernel; sin and cos are structured (delegates
// sin.out, cos.out), which the backend leaves unregistered; masked_fill.Scalar
// is CompositeExplicitAutograd and calls masked_fill_.Scalar, which the
// backend leaves unregistered too.
constexpr const char* kModel =
    "import torch\n"
    "class M(torch.nn.Module):\n"
    "    def forward(self, x):\n"
    "        y = torch.sin(torch.relu(x))\n"
    "        return torch.cos(y.masked_fill(x > 0, 0.0))\n"
    "def build():\n"
    "    return M(), (torch.randn(2, 3),)\n";

std::string text(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

class PortRoutes : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    ASSERT_TRUE(fs::exists(kHost)) << kHost << " is missing: `make host` (scripts/host-venv.sh) makes it";
    ASSERT_EQ(shell("PYTHON='" + kHost + "' '" + kBackendDir + "/build.sh' >&2"), 0);
    ASSERT_EQ(shell("PYTHON='" + kHost + "' '" + kBackendDir + "/build.sh' --where > '" + dir_->path() + "/where'"),
              0);
    where_ = new std::string(read_file(dir_->path() + "/where"));
    while (!where_->empty() && where_->back() == '\n') where_->pop_back();
    dir_->write("model.py", kModel);
  }
  static void TearDownTestSuite() {
    delete where_;
    delete dir_;
  }

  // The ops table of one trace of kModel, joined against `module`, the
  // variant's switches given with --env.
  static json ops_of(const std::string& module, const std::vector<std::string>& env, const std::string& name,
                     json* section = nullptr, const std::string& model = "model.py", bool backward = false) {
    std::vector<std::string> args{"port", "trace", "--python", kHost, "--path", *where_, "--script",
                                  dir_->path() + "/" + model + ":build", "--backend", "module:" + module, "--json",
                                  "--out", dir_->path() + "/" + name};
    if (backward) args.push_back("--backward");
    for (const auto& e : env) {
      args.push_back("--env");
      args.push_back(e);
    }
    auto r = run_onramp(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    json trace = json::parse(r.out, nullptr, false);
    if (trace.is_discarded()) return json::object();
    if (section) *section = trace["sections"]["port_trace"];
    json out = json::object();
    const json table = find_key(trace["sections"]["port_trace"]["tables"], "ops");
    for (const auto& row : table["rows"]) out[text(row["op"])] = row;
    EXPECT_FALSE(out.empty()) << r.out;
    return out;
  }

  static TempDir* dir_;
  static std::string* where_;
};
TempDir* PortRoutes::dir_ = nullptr;
std::string* PortRoutes::where_ = nullptr;

TEST_F(PortRoutes, ByDefaultOwnKernelsServeAndACompositeWhoseCalleeIsMissingIsMissingWithTheChain) {
  json ops = ops_of("onramp_ref", {}, "default");
  EXPECT_EQ(ops["relu"]["status"], "registered");
  EXPECT_NE(text(ops["relu"]["where"]).find("aten_ops.cpp"), std::string::npos) << ops["relu"].dump();
  EXPECT_EQ(ops["sin"]["status"], "missing");
  EXPECT_EQ(ops["sin"]["via"], "sin.out");
  EXPECT_EQ(ops["masked_fill.Scalar"]["status"], "missing") << ops["masked_fill.Scalar"].dump();
  EXPECT_EQ(ops["masked_fill.Scalar"]["via"], "masked_fill_.Scalar");
  EXPECT_EQ(text(ops["masked_fill.Scalar"]["note"]).find("missing: masked_fill.Scalar -> masked_fill_.Scalar: missing"),
            0u)
      << ops["masked_fill.Scalar"].dump();
  EXPECT_NE(text(ops["masked_fill.Scalar"]["note"]).find("meta tensors"), std::string::npos);
  EXPECT_EQ(ops["cos"]["status"], "missing");
}

TEST_F(PortRoutes, OutOnlyServesSinThroughItsDelegate) {
  json ops = ops_of("onramp_ref", {"ONRAMP_REF_OUT_ONLY=1"}, "out-only");
  EXPECT_EQ(ops["sin"]["status"], "via_delegate") << ops["sin"].dump();
  EXPECT_EQ(ops["sin"]["via"], "sin.out");
  EXPECT_NE(text(ops["sin"]["where"]).find("variants.py"), std::string::npos) << ops["sin"].dump();
  EXPECT_NE(text(ops["sin"]["note"]).find("via_delegate: torch's default backend kernel calls the backend's sin.out"),
            std::string::npos)
      << ops["sin"].dump();
  EXPECT_EQ(ops["cos"]["status"], "missing");  // only sin.out is registered
}

TEST_F(PortRoutes, TheBoxedFallbackServesWhatHasNoKernelAndSaysWhatCannotBeTold) {
  json section;
  json ops = ops_of("onramp_ref", {"ONRAMP_REF_BOXED_FALLBACK=1"}, "fallback", &section);
  EXPECT_EQ(ops["relu"]["status"], "registered");  // a kernel comes before the fallback
  EXPECT_EQ(ops["cos"]["status"], "boxed_fallback") << ops["cos"].dump();
  EXPECT_EQ(ops["cos"]["via"], "cos.out");
  EXPECT_NE(text(ops["cos"]["where"]).find("variants.py"), std::string::npos) << ops["cos"].dump();
  EXPECT_NE(text(ops["cos"]["note"]).find("cannot be told"), std::string::npos) << ops["cos"].dump();
  // The composite's missing callee now reaches the fallback: served, and said so.
  EXPECT_EQ(ops["masked_fill.Scalar"]["status"], "decomposition") << ops["masked_fill.Scalar"].dump();
  EXPECT_NE(text(ops["masked_fill.Scalar"]["note"]).find("reached only through the boxed fallback: masked_fill_.Scalar"),
            std::string::npos)
      << ops["masked_fill.Scalar"].dump();
  EXPECT_NE(section.dump().find("cannot be told on this machine"), std::string::npos);
}

TEST_F(PortRoutes, AModuleThatRegistersNothingLeavesTheStructuredOpsWithoutTheirDelegate) {
  json ops = ops_of("json", {}, "nothing");
  EXPECT_EQ(ops["relu"]["status"], "missing");
  EXPECT_EQ(ops["sin"]["status"], "missing");
  EXPECT_EQ(ops["sin"]["via"], "sin.out");
  EXPECT_NE(text(ops["sin"]["note"]).find("which has no PrivateUse1 kernel"), std::string::npos) << ops["sin"].dump();
  EXPECT_EQ(ops["masked_fill.Scalar"]["status"], "missing");
  // Its first callee's chain already ends at a missing op: clone's empty_like's empty.memory_format.
  EXPECT_EQ(text(ops["masked_fill.Scalar"]["note"])
                .find("missing: masked_fill.Scalar -> clone -> empty_like -> empty.memory_format: missing"),
            0u)
      << ops["masked_fill.Scalar"].dump();
}

TEST_F(PortRoutes, RenameOnlyWithDeviceLeavesPrivateUse1UnnamedWithoutADevice) {
  auto r = run_onramp({"probe", "--python", kHost, "--path", *where_, "--module", "onramp_ref", "--no-import",
                       "--env", "ONRAMP_REF_RENAME_ONLY_WITH_DEVICE=1", "--env", "ONRAMP_REF_DEVICE_COUNT=0",
                       "--runs", "1", "--json", "--out", dir_->path() + "/rename"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json probe = json::parse(r.out)["sections"]["probe"];
  EXPECT_EQ(find_key(probe["figures"], "privateuse1_backend_name")["value"], "privateuseone");
  EXPECT_EQ(find_key(probe["figures"], "privateuse1_renamed")["value"], false);
  // The diagnosis a real backend of that shape gets: where the package renames it.
  bool site = false;
  for (const auto& f : probe["findings"]) {
    site = site || text(f["text"]).find("The package renames it at onramp_ref/__init__.py:") != std::string::npos;
  }
  EXPECT_TRUE(site) << probe["findings"].dump(1);
  // The scorecard says the same: the device_name row carries the rename's site (and its condition, where an if guards it),
  // and a check that named the never-registered device follows from that row.
  json rows = json::object();
  const json points = find_key(json::parse(r.out)["sections"]["integration"]["tables"], "points");
  for (const auto& row : points["rows"]) rows[text(row["point"])] = row;
  EXPECT_NE(text(rows["device_name"]["detail"]).find("the package renames it at onramp_ref/__init__.py:"),
            std::string::npos)
      << rows["device_name"].dump();
  EXPECT_EQ(rows["generator"]["status"], "follows") << rows["generator"].dump();
  EXPECT_EQ(rows["generator"]["follows_from"], "device_name");
  EXPECT_TRUE(rows["hooks"]["follows_from"].is_null()) << rows["hooks"].dump();
}

// scaled_dot_product_attention is a composite that picks a kernel per device:
// on the CPU, _scaled_dot_product_flash_attention_for_cpu, which no device has.
// The trace asks the composite in its place, and the served view follows it
// on meta tensors at PrivateUse1 to the op the device meets: with is_causal,
// the mask's tril, whose delegate tril.out the reference backend lacks. The
// reference device itself, run on that call, fails on exactly that op.
TEST_F(PortRoutes, AttentionIsAskedAsTheCompositeTheDeviceMeetsNotTheCpusOwnKernel) {
  dir_->write("attention.py",
              "import torch\n"
              "import torch.nn.functional as F\n"
              "class Attention(torch.nn.Module):\n"
              "    def forward(self, x):\n"
              "        q = x.view(1, 4, 2, 4).transpose(1, 2)\n"
              "        return F.scaled_dot_product_attention(q, q, q, is_causal=True)\n"
              "def build():\n"
              "    return Attention(), (torch.randn(1, 4, 8, requires_grad=True),)\n");
  json section;
  json ops = ops_of("onramp_ref", {}, "attention", &section, "attention.py", true);
  for (const auto& [op, row] : ops.items()) EXPECT_EQ(op.find("_for_cpu"), std::string::npos) << op;
  ASSERT_TRUE(ops.contains("scaled_dot_product_attention")) << ops.dump(1);
  const json& sdpa = ops["scaled_dot_product_attention"];
  EXPECT_EQ(sdpa["status"], "missing") << sdpa.dump();
  EXPECT_EQ(sdpa["via"], "tril") << sdpa.dump();
  EXPECT_EQ(text(sdpa["note"]).find("missing: scaled_dot_product_attention -> tril: missing"), 0u) << sdpa.dump();
  bool forward = false, backward = false;
  for (const auto& f : section["findings"]) {
    std::string t = text(f["text"]);
    forward = forward || t.find("_scaled_dot_product_flash_attention_for_cpu (forward, 1 call) is the CPU's own "
                                "kernel, chosen inside scaled_dot_product_attention") != std::string::npos;
    backward = backward || t.find("_scaled_dot_product_flash_attention_for_cpu_backward (backward, 1 call)") !=
                               std::string::npos;
  }
  EXPECT_TRUE(forward && backward) << section["findings"].dump(1);
  // The device agrees: the same call on a ref tensor stops at tril.out.
  ASSERT_EQ(shell("cd '" + dir_->path() + "' && PYTHONPATH='" + *where_ + "' '" + kHost +
                  "' -c \"import torch, onramp_ref\n"
                  "q = torch.empty(1, 2, 4, 4, device='ref')\n"
                  "torch.nn.functional.scaled_dot_product_attention(q, q, q, is_causal=True)\" > device.out 2>&1"),
            1);
  EXPECT_NE(read_file(dir_->path() + "/device.out").find("Could not run 'aten::tril.out'"), std::string::npos)
      << read_file(dir_->path() + "/device.out");
}

TEST_F(PortRoutes, AForwardPastThePhaseTimeoutIsAFindingThatNamesTheForwardPhase) {
  dir_->write("slow.py",
              "import time, torch\n"
              "class Slow(torch.nn.Module):\n"
              "    def forward(self, x):\n"
              "        time.sleep(60)\n"
              "        return x + 1\n"
              "def build():\n"
              "    return Slow(), (torch.randn(2),)\n");
  auto start = std::chrono::steady_clock::now();
  auto r = run_onramp({"port", "trace", "--python", kHost, "--script", dir_->path() + "/slow.py:build",
                       "--phase-timeout", "2", "--json", "--out", dir_->path() + "/slow"});
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_LT(seconds, 50) << "the forward's 60 s sleep was waited out";
  json report = json::parse(r.out);
  EXPECT_EQ(report["target"]["phase_timeout_s"], 2);
  json section = report["sections"]["port_trace"];
  json row = find_key(section["tables"], "models")["rows"][0];
  EXPECT_EQ(row["status"], "PhaseTimeout");
  EXPECT_EQ(row["timed_out_phase"], "forward");
  bool named = false;
  for (const auto& f : section["findings"]) {
    named = named || text(f["text"]).find("stopped in its forward phase") != std::string::npos;
  }
  EXPECT_TRUE(named) << section["findings"].dump(1);
}

}  // namespace
}  // namespace onramp::e2e
