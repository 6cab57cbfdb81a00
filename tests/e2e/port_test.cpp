// End-to-end: the real onramp binary scanning fixture scripts and tracing
// real models with real Python and torch, and the join with the reference
// backend in examples/reference-backend.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness.h"

namespace onramp::e2e {
namespace port_test {  // one per file: a unity batch joins several

using nlohmann::json;

const std::string kFixtures = std::string(ONRAMP_SOURCE_DIR) + "/tests/e2e/fixtures/port";
const std::string kReference = std::string(ONRAMP_SOURCE_DIR) + "/examples/reference-backend";

json port_json(const std::string& section, std::vector<std::string> args, const TempDir& run) {
  args.insert(args.begin(), "port");
  args.insert(args.end(), {"--json", "--out", run.path() + "/run"});
  auto r = run_onramp(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  json doc = json::parse(r.out, nullptr, false);
  EXPECT_TRUE(doc.contains("sections")) << r.out;
  return doc.contains("sections") ? doc["sections"][section] : json::object();
}

json figure(const json& section, const std::string& key) {
  for (const auto& f : section["figures"]) {
    if (f["key"] == key) return f["value"];
  }
  ADD_FAILURE() << "no figure " << key;
  return {};
}

const json& table(const json& section, const std::string& key) {
  for (const auto& t : section["tables"]) {
    if (t["key"] == key) return t;
  }
  static const json none = json::object();
  ADD_FAILURE() << "no table " << key;
  return none;
}

// "path-suffix:line" -> rule, guarded, for every hit.
std::map<std::string, std::pair<std::string, bool>> hits_by_place(const json& scan) {
  std::map<std::string, std::pair<std::string, bool>> out;
  for (const auto& row : table(scan, "hits")["rows"]) {
    std::string path = row["path"];
    std::string place = path.substr(path.rfind("project/") + 8) + ":" + std::to_string(row["line"].get<int>());
    out[place + ":" + row["rule"].get<std::string>()] = {row["rule"], row["guarded"]};
  }
  return out;
}

TEST(PortScan, FindsEveryKindOfCudaUseWithItsRule) {
  TempDir run;
  json scan = port_json("port_scan", {"scan", kFixtures + "/project"}, run);
  auto hits = hits_by_place(scan);
  for (const char* expected :
       {"train.py:8:env-cuda-visible-devices", "train.py:9:env-nccl", "train.py:10:env-pytorch-cuda-alloc",
        "train.py:11:cudnn-switch", "train.py:15:nccl-backend", "train.py:16:cuda-set-device",
        "train.py:17:cuda-indexed-device-string", "train.py:22:dot-cuda", "train.py:23:amp-grad-scaler",
        "train.py:24:cuda-stream", "train.py:25:cuda-event", "train.py:27:cuda-device-string",
        "train.py:28:cuda-indexed-device-string", "train.py:29:amp-autocast", "train.py:32:autocast-cuda-string",
        "train.py:35:cuda-synchronize", "train.py:42:device-map-cuda", "pkg/guarded.py:6:cuda-is-available",
        "pkg/guarded.py:16:dot-cuda", "pkg/guarded.py:17:cuda-device-properties"}) {
    EXPECT_TRUE(hits.contains(expected)) << expected;
  }
  EXPECT_TRUE(hits["pkg/guarded.py:16:dot-cuda"].second);
  EXPECT_TRUE(hits["pkg/guarded.py:8:cuda-device-string"].second);
  EXPECT_FALSE(hits["pkg/guarded.py:17:cuda-device-properties"].second);
  EXPECT_FALSE(hits["train.py:22:dot-cuda"].second);
  EXPECT_EQ(figure(scan, "hits"), 26);
  EXPECT_EQ(figure(scan, "hits_unguarded"), 19);
  EXPECT_EQ(figure(scan, "files_scanned"), 4);
  EXPECT_EQ(figure(scan, "files_not_parsed"), 1);
  EXPECT_EQ(figure(scan, "hits_no_equivalent"), 5);
  EXPECT_EQ(figure(scan, "effort_points"), 28.5);
  // Distinct lines by the documented port's kinds of change (data/port_changes.toml); the two
  // `with` lines (29, 32: `with torch.autocast("cuda", ...)`) are wrappers.
  std::map<std::string, int> by_change;
  for (const auto& row : table(scan, "by_change_class")["rows"]) by_change[row["change_class"]] = row["lines"];
  EXPECT_EQ(by_change, (std::map<std::string, int>{
                           {"imports", 0}, {"device", 10}, {"wrappers", 2}, {"replaced_calls", 9}, {"other", 3}}));
}

TEST(PortScan, ASyntaxErrorIsAFindingForThatFileNotACrash) {
  TempDir run;
  json scan = port_json("port_scan", {"scan", kFixtures + "/project/pkg"}, run);
  bool found = false;
  for (const auto& f : scan["findings"]) {
    std::string text = f["text"];
    if (text.find("broken.py:3: SyntaxError") != std::string::npos) found = true;
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(figure(scan, "hits"), 8);
}

TEST(PortScan, CleanCodeHasNoHits) {
  TempDir run;
  json scan = port_json("port_scan", {"scan", kFixtures + "/project/pkg/clean.py"}, run);
  EXPECT_EQ(figure(scan, "hits"), 0);
  EXPECT_EQ(scan["findings"][0]["severity"], "good");
}

TEST(PortScan, AMissingPathIsAOneLineErrorNamingIt) {
  TempDir run;
  auto r = run_onramp({"port", "scan", run.path() + "/nope.py", "--out", run.path() + "/run"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("nope.py: no such file or directory"), std::string::npos) << r.err;
}

TEST(PortScan, TakesTheSandboxOptionsAndHoldsTheScannerToThem) {
  TempDir run;
  json scan = port_json("port_scan", {"scan", kFixtures + "/project/pkg/clean.py", "--timeout", "60", "--memory", "4G",
                                      "--env", "ONRAMP_TEST_WIDTH=3"},
                        run);
  EXPECT_EQ(figure(scan, "files_scanned"), 1);
  // No interpreter starts in a megabyte of address space.
  auto r = run_onramp({"port", "scan", kFixtures + "/project/pkg/clean.py", "--memory", "1M", "--out",
                       run.path() + "/small"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("the Python scanner failed ("), std::string::npos) << r.err;
}

std::map<std::string, json> ops_of(const json& trace) {
  std::map<std::string, json> out;
  for (const auto& row : table(trace, "ops")["rows"]) out[row["op"]] = row;
  return out;
}

TEST(PortTrace, Resnet18ForwardAndBackwardJoinedWithTheReferenceBackend) {
  TempDir run;
  json trace = port_json("port_trace",
                         {"trace", "--model", "torchvision:resnet18", "--backward", "--backend", "reference",
                          "--backend-src", kReference, "--python", kSystemPython},
                         run);
  auto ops = ops_of(trace);
  // On every torch: resnet18's 20 convolutions, and the reference backend's verdicts.
  EXPECT_EQ(ops["convolution"]["forward"], 20);
  EXPECT_EQ(ops["convolution"]["backward"], 0);
  EXPECT_EQ(ops["convolution_backward"]["backward"], 20);
  EXPECT_EQ(ops["addmm"]["status"], "registered");
  EXPECT_EQ(ops["native_batch_norm"]["status"], "unregistered");
  EXPECT_EQ(ops["relu_"]["status"], "unknown");
  EXPECT_EQ(ops["t"]["status"], "decomposition");
  EXPECT_EQ(figure(trace, "op_overloads_forward"), 11);
  // The overloads are torch's own: autograd's backward of resnet18 calls 14 on
  // torch 1.13 and 12 on 2.6 (Debian 13), which the trace counts as it finds them.
  size_t overloads = ops.size();
  EXPECT_EQ(figure(trace, "op_overloads"), overloads);
  if (torch_major(kSystemPython) == 1) {
    EXPECT_EQ(figure(trace, "op_overloads_backward"), 14);
    EXPECT_EQ(overloads, 22u);
  } else {
    EXPECT_EQ(figure(trace, "op_overloads_backward"), 12);
    EXPECT_EQ(overloads, 20u);
  }
  bool verdict = false;
  for (const auto& f : trace["findings"]) {
    std::string text = f["text"];
    if (text.starts_with("torchvision:resnet18 needs " + std::to_string(overloads) +
                         " ops; 5 are not registered by onramp-ref")) {
      verdict = true;
      EXPECT_NE(text.find("native_batch_norm_backward"), std::string::npos);
      EXPECT_EQ(f["severity"], "blocker");
    }
  }
  EXPECT_TRUE(verdict) << trace["findings"].dump();
}

// The join against a saved ops report gives what the join against the tree gives.
TEST(PortTrace, JoinWithASavedOpsReportMatchesTheJoinWithTheTree) {
  TempDir run;
  std::string saved = run.path() + "/ops.json";
  auto ops = run_onramp({"ops", "--profile", "reference", "--json", "-o", saved, kReference});
  ASSERT_EQ(ops.exit_code, 0) << ops.err;
  json from_tree = port_json("port_trace",
                             {"trace", "--model", "torchvision:resnet18", "--backend", "reference", "--backend-src",
                              kReference},
                             run);
  json from_report = port_json("port_trace", {"trace", "--model", "torchvision:resnet18", "--backend", saved}, run);
  auto tree_ops = ops_of(from_tree), report_ops = ops_of(from_report);
  ASSERT_EQ(tree_ops.size(), report_ops.size());
  for (const auto& [op, row] : tree_ops) EXPECT_EQ(report_ops[op]["status"], row["status"]) << op;
  EXPECT_EQ(report_ops["native_batch_norm"]["status"], "unregistered");
  EXPECT_EQ(report_ops["addmm"]["status"], "registered");
  bool verdict = false;
  for (const auto& f : from_report["findings"]) {
    verdict = verdict || f["text"].get<std::string>().starts_with("torchvision:resnet18 needs 10 ops; 3 are not "
                                                                   "registered by onramp-ref");
  }
  EXPECT_TRUE(verdict) << from_report["findings"].dump(1);
}

TEST(PortTrace, BackendArgumentsThatCannotBeUsedAreOneLineErrors) {
  TempDir d;
  d.write("census.json", "");
  auto census = run_onramp({"census", "--json", "-o", d.path() + "/census.json", kFixtures});
  ASSERT_EQ(census.exit_code, 0) << census.err;
  for (const auto& [backend, message] :
       {std::pair<std::string, std::string>{"reference", "--backend reference needs --backend-src DIR"},
        {d.path() + "/missing.json", d.path() + "/missing.json: cannot read: No such file or directory"},
        {d.path() + "/census.json", d.path() + "/census.json: the report has no \"ops\" section"}}) {
    auto r = run_onramp({"port", "trace", "--model", "torchvision:resnet18", "--backend", backend});
    EXPECT_EQ(r.exit_code, 2) << backend;
    EXPECT_EQ(r.err.find("onramp: error: " + message), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST(PortTrace, AUserFunctionBuildingASmallTransformer) {
  TempDir run;
  json trace = port_json("port_trace",
                         {"trace", "--script", kFixtures + "/models/small_models.py:small_transformer", "--backward",
                          "--python", kSystemPython},
                         run);
  auto ops = ops_of(trace);
  // Attention's softmax: _softmax on torch 1.13; torch 2.x's CPU attention is one fused op.
  const std::string attention = torch_major(kSystemPython) == 1 ? "_softmax" : "_scaled_dot_product_flash_attention_for_cpu";
  ASSERT_TRUE(ops.contains(attention)) << attention << " missing; torch " << torch_version(kSystemPython);
  EXPECT_GT(ops[attention]["forward"].get<int>(), 0);
  EXPECT_GT(ops["native_layer_norm"]["forward"].get<int>(), 0);
  EXPECT_GT(ops["native_layer_norm_backward"]["backward"].get<int>(), 0);
  EXPECT_EQ(table(trace, "models")["rows"][0]["status"], "traced");
}

TEST(PortTrace, EnvReachesTheModelsInterpreterAndTimeoutBoundsEachModel) {
  TempDir run;
  const std::string script = kFixtures + "/models/small_models.py:linear_sized_by_env";
  json with_env = port_json("port_trace",
                            {"trace", "--script", script, "--python", kSystemPython, "--env", "ONRAMP_TEST_WIDTH=3",
                             "--timeout", "300"},
                            run);
  const json& row = table(with_env, "models")["rows"][0];
  EXPECT_EQ(row["status"], "traced") << row.dump();
  EXPECT_EQ(row["input_shapes"], json::parse("[[1, 3]]"));
  // Without --env the variable is not there: onramp's own environment does not reach the sandbox.
  auto r = run_onramp({"port", "trace", "--script", script, "--python", kSystemPython, "--json", "--out",
                       run.path() + "/without"},
                      {"ONRAMP_TEST_WIDTH=3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json without = json::parse(r.out)["sections"]["port_trace"];
  EXPECT_NE(table(without, "models")["rows"][0]["error"].get<std::string>().find("ONRAMP_TEST_WIDTH"),
            std::string::npos);
  json short_limit = port_json("port_trace",
                               {"trace", "--script", script, "--python", kSystemPython, "--env",
                                "ONRAMP_TEST_WIDTH=3", "--timeout", "0.001"},
                               run);
  EXPECT_NE(table(short_limit, "models")["rows"][0]["error"].get<std::string>().find("timed out after"),
            std::string::npos);
}

TEST(PortTrace, VitB16ForwardOnTheMetaDevice) {
  TempDir run;
  json trace = port_json("port_trace", {"trace", "--model", "torchvision:vit_b_16", "--device", "meta"}, run);
  auto ops = ops_of(trace);
  EXPECT_EQ(ops["gelu"]["forward"], 12);
  EXPECT_EQ(table(trace, "models")["rows"][0]["parameters"], 86567656);
}

TEST(PortTrace, BadInputIsAOneLineErrorAndExitTwo) {
  TempDir run;
  std::string out = run.path() + "/run";
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  for (const auto& c : std::vector<Case>{
           {{"--model", "torchvision:no_such_model"}, "unknown model torchvision:no_such_model"},
           {{"--script", run.path() + "/missing.py:f"}, "missing.py: no such file"},
           {{"--script", kFixtures + "/models/small_models.py:nope"}, "no function nope"},
           {{"--models", kFixtures + "/models/zoo.txt", "--shard", "2/2"}, "--shard 2/2: K must be in 0..1"},
           {{"--model", "resnet18"}, "unknown kind"},
       }) {
    std::vector<std::string> args{"port", "trace", "--out", out};
    args.insert(args.end(), c.args.begin(), c.args.end());
    auto r = run_onramp(args);
    EXPECT_EQ(r.exit_code, 2) << c.message;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
  }
}

json without_timings(json doc) {
  doc.erase("run_dir");
  doc.erase("generated_at");
  for (auto& t : doc["sections"]["port_trace"]["tables"]) {
    for (auto& row : t["rows"]) {
      for (const char* k : {"build_s", "forward_s", "backward_s"}) row.erase(k);
    }
  }
  return doc;
}

TEST(PortTrace, ShardsMergedEqualTheUnshardedSweep) {
  TempDir run;
  std::string zoo = kFixtures + "/models/zoo.txt";
  auto whole = run_onramp({"port", "trace", "--models", zoo, "--json", "--out", run.path() + "/all"});
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  std::vector<std::string> merge{"port", "merge", "--json"};
  for (int k = 0; k < 2; ++k) {
    std::string file = run.path() + "/shard-" + std::to_string(k) + ".json";
    auto r = run_onramp({"port", "trace", "--models", zoo, "--shard", std::to_string(k) + "/2", "--json", "-o", file,
                         "--out", run.path() + "/s" + std::to_string(k)});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    merge.push_back(file);
  }
  auto merged = run_onramp(merge);
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  json a = without_timings(json::parse(whole.out));
  json b = without_timings(json::parse(merged.out));
  EXPECT_EQ(a, b);
  const json& models = table(a["sections"]["port_trace"], "models");
  ASSERT_EQ(models["rows"].size(), 3u);
  EXPECT_EQ(models["rows"][2]["status"], "BadRequest");
  merge.pop_back();
  auto partial = run_onramp(merge);
  EXPECT_EQ(partial.exit_code, 2);
  EXPECT_NE(partial.err.find("shard 1/2 is missing"), std::string::npos) << partial.err;
}

}  // namespace
}  // namespace onramp::e2e
