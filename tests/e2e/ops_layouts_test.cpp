// The layouts real PrivateUse1 backends use that a per-file reading misses:
// one registration block per kernel file under a #define'd key, names built
// by macros, and a codegen YAML with dispatch sections beside a copy of
// PyTorch's own schema. Each tree is written here.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "harness.h"

namespace onramp::e2e {
namespace ops_layouts_test {  // one per file: a unity batch joins several

using nlohmann::json;

const char* kSchema = ONRAMP_SOURCE_DIR "/tests/e2e/fixtures/ops/native_functions.yaml";

const std::vector<std::string> kKernelOps{"add.Tensor", "add_.Tensor", "add.out", "mul.Tensor", "mul.out", "relu",
                                          "relu_backward", "sum", "sum.dim_IntList", "max.dim", "fill_.Scalar",
                                          "adaptive_avg_pool2d", "convolution", "convolution_backward", "dropout",
                                          "relu"};

// One block per kernel file (each far under the 10-member threshold), the key
// a #define in a header, one name built by a macro, one that no reading gives.
void write_spread_backend(const TempDir& dir, const std::vector<std::string>& ops) {
  dir.write("csrc/common/config.h", "#pragma once\n#define TPU PrivateUse1\n"
                                    "#define REGISTER_OP(name) m.impl(#name, TORCH_FN(name##_tpu));\n");
  for (size_t i = 0; i < ops.size(); ++i) {
    std::string n = (i < 10 ? "0" : "") + std::to_string(i);
    dir.write("csrc/ops/kernels/k" + n + ".cpp", "#include \"common/config.h\"\n// kernel " + n +
                                                     "\nTORCH_LIBRARY_IMPL(aten, TPU, m) {\n  m.impl(\"" + ops[i] +
                                                     "\", TORCH_FN(k" + n + "));\n}\n");
  }
  dir.write("csrc/ops/kernels/macro.cpp", "#include \"common/config.h\"\nTORCH_LIBRARY_IMPL(aten, TPU, m) {\n"
                                          "  REGISTER_OP(linalg_det);\n  m.impl(name_from_table, f);\n}\n");
  dir.write("csrc/ops/kernels/optional.cpp", "#ifdef TPU_WITH_MISH\nTORCH_LIBRARY_IMPL(aten, TPU, m) {\n"
                                             "  m.impl(\"mish\", f);\n}\n#endif\n#if 0\nTORCH_LIBRARY_IMPL(aten, TPU, m) {\n"
                                             "  m.impl(\"fft_fft\", f);\n}\n#endif\n");
}

json ops_json(const std::vector<std::string>& extra) {
  std::vector<std::string> args{"ops", "--aten", kSchema, "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  auto r = run_onramp(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);
}

const json* table(const json& report, const std::string& key) {
  for (const auto& t : report["sections"]["ops"]["tables"]) {
    if (t["key"] == key) return &t;
  }
  return nullptr;
}

const json* row_where(const json& t, const std::string& col, const std::string& value) {
  for (const auto& r : t["rows"]) {
    if (r[col] == value) return &r;
  }
  return nullptr;
}

json figure(const json& report, const std::string& key) {
  for (const auto& f : report["sections"]["ops"]["figures"]) {
    if (f["key"] == key) return f["value"];
  }
  return nullptr;
}

TEST(OpsLayouts, BlocksSpreadOverKernelFilesMergeIntoOneInventoryUnderTheAliasedKey) {
  TempDir dir;
  write_spread_backend(dir, kKernelOps);
  json j = ops_json({dir.path()});
  const json* inv = table(j, "inventories");
  ASSERT_NE(inv, nullptr);
  const json* merged = row_where(*inv, "name", "aten/PrivateUse1");
  ASSERT_NE(merged, nullptr) << inv->dump(1);
  EXPECT_EQ((*merged)["where"], "(tree)");
  EXPECT_EQ((*merged)["dispatch_key"], "TPU (= PrivateUse1, at csrc/common/config.h:2)");
  EXPECT_EQ((*merged)["blocks"], kKernelOps.size() + 2);
  // Every literal and the macro-built linalg_det; the #if 0 block is not read.
  EXPECT_EQ((*merged)["members"], kKernelOps.size() + 2);
  std::set<std::string> distinct(kKernelOps.begin(), kKernelOps.end());
  distinct.insert({"linalg_det", "mish"});
  const json* counted = table(j, "counted:(tree):aten/PrivateUse1");
  ASSERT_NE(counted, nullptr);
  std::set<std::string> resolved;
  for (const auto& r : (*counted)["rows"]) {
    if (r["method"] == "resolved") resolved.insert(r["op"].get<std::string>());
  }
  EXPECT_EQ(resolved, distinct);
  EXPECT_EQ(figure(j, "registrations_named_by_macro_unread"), 1);  // m.impl(name_from_table, ...)
  EXPECT_EQ(figure(j, "registration_blocks"), kKernelOps.size() + 2);
  const json* members = table(j, "members:(tree):aten/PrivateUse1");
  ASSERT_NE(members, nullptr);
  EXPECT_NE(row_where(*members, "where", "csrc/ops/kernels/k03.cpp:4"), nullptr);
  EXPECT_EQ((*row_where(*members, "op", "linalg_det"))["macro"], "REGISTER_OP");
  const json* conditional = table(j, "conditional_members");
  ASSERT_NE(conditional, nullptr);
  EXPECT_EQ((*row_where(*conditional, "member", "mish"))["condition"], "#ifdef TPU_WITH_MISH");
  const json* blocks = table(j, "registration_blocks");
  EXPECT_EQ((*row_where(*blocks, "where", "csrc/ops/kernels/k00.cpp:3"))["key_written"], "TPU");
  const json* methods = table(j, "methods:(tree):aten/PrivateUse1");
  ASSERT_NE(methods, nullptr);
  EXPECT_NE(row_where(*methods, "method", "Out/Backward suffixes stripped from the names as written"), nullptr);
}

TEST(OpsLayouts, DiffComparesTheMergedInventoryOpByOp) {
  TempDir v1, v2, out;
  write_spread_backend(v1, kKernelOps);
  auto more = kKernelOps;
  more[0] = "mish";
  more.push_back("convolution_backward");
  write_spread_backend(v2, more);
  for (const auto& [tree, file] : {std::pair{&v1, "/old.json"}, std::pair{&v2, "/new.json"}}) {
    auto r = run_onramp({"ops", "--aten", kSchema, "--json", "-o", out.path() + file, tree->path()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  auto r = run_onramp({"diff", "--json", out.path() + "/old.json", out.path() + "/new.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json diff = json::parse(r.out), counted;
  for (const auto& t : diff["sections"]["ops"]["tables"]) {
    if (t["key"] == "counted:(tree):aten/PrivateUse1") counted = t;
  }
  ASSERT_FALSE(counted.is_null()) << r.out;
  std::set<std::string> changes;
  for (const auto& row : counted["rows"]) {
    changes.insert(row["change"].get<std::string>() + " " + row["key"]["method"].get<std::string>() + " " +
                   row["key"]["op"].get<std::string>());
  }
  EXPECT_TRUE(changes.contains("removed resolved add.Tensor")) << counted.dump(1);
}

TEST(OpsLayouts, DispatchYamlIsAnInventoryAndACopyOfPyTorchsSchemaIsNot) {
  TempDir dir;
  std::string own;
  const std::vector<std::string> ops{"add.out", "mul.out", "relu", "sum", "max.dim", "convolution", "mish",
                                     "dropout", "adaptive_avg_pool2d", "fill_.Scalar", "sum.dim_IntList"};
  for (const auto& op : ops) own += "- func: " + op + "(Tensor self) -> Tensor\n  dispatch:\n    PrivateUse1: " + op + "_tpu\n";
  own += "- func: linalg_det(Tensor A) -> Tensor\n  dispatch:\n    CompositeExplicitAutograd: det\n";
  own += "- func: fft_fft(Tensor self) -> Tensor\n";
  dir.write("csrc/aten/tpu_native_functions.yaml", own);
  dir.write("third_party/torch/native_functions.yaml", read_file(kSchema));
  json j = ops_json({dir.path()});
  const json* inv = table(j, "inventories");
  const json* yaml = row_where(*inv, "name", "dispatch:PrivateUse1");
  ASSERT_NE(yaml, nullptr) << inv->dump(1);
  EXPECT_EQ((*yaml)["where"], "csrc/aten/tpu_native_functions.yaml:1");
  EXPECT_EQ((*yaml)["kind"], "yaml_dispatch");
  EXPECT_EQ((*yaml)["members"], ops.size());
  EXPECT_EQ((*inv)["rows"].size(), 1u);
  const json* files = table(j, "dispatch_yaml_files");
  ASSERT_NE(files, nullptr);
  const json* copy = row_where(*files, "where", "third_party/torch/native_functions.yaml:2");  // its first entry
  const json* list = row_where(*files, "where", "csrc/aten/tpu_native_functions.yaml:1");
  ASSERT_TRUE(copy && list) << files->dump(1);
  EXPECT_EQ((*copy)["reads_as"], "a copy of PyTorch's schema, not an inventory");
  EXPECT_EQ((*list)["reads_as"], "a backend's own list");
  EXPECT_EQ((*list)["entries"], ops.size() + 2);
  EXPECT_EQ((*yaml)["meaning"], "implemented");
  EXPECT_EQ(figure(j, "schema_copies"), 1);
}

TEST(OpsLayouts, AProfileNamesRegistrationsByKeyAndFileGlob) {
  TempDir dir;
  write_spread_backend(dir, kKernelOps);
  dir.write("profile.toml", "name = \"spread\"\n[[inventories]]\nkey = \"TPU\"\nfiles = \"csrc/ops/kernels/k*\"\n"
                            "name = \"kernels\"\nmeaning = \"implemented\"\n"
                            "[[inventories]]\nkey = \"XLA\"\nname = \"xla\"\nmeaning = \"implemented\"\n");
  json j = ops_json({dir.path(), "--profile", dir.path() + "/profile.toml"});
  const json* inv = table(j, "inventories");
  const json* declared = row_where(*inv, "name", "kernels");
  ASSERT_NE(declared, nullptr) << inv->dump(1);
  EXPECT_EQ((*declared)["where"], "csrc/ops/kernels/k*");
  EXPECT_EQ((*declared)["meaning_from"], "profile");
  EXPECT_EQ((*declared)["members"], kKernelOps.size());
  bool missing = false;
  for (const auto& f : j["sections"]["ops"]["findings"]) {
    missing |= f["text"].get<std::string>().find("registrations for key XLA") != std::string::npos;
  }
  EXPECT_TRUE(missing);
}

TEST(OpsLayouts, CustomOpsAreCountedApart) {
  TempDir dir;
  write_spread_backend(dir, kKernelOps);
  dir.write("csrc/custom.cpp", "TORCH_LIBRARY(tpu, m) {\n  m.def(\"fused_gelu(Tensor x) -> Tensor\");\n"
                               "  m.def(\"fused_gelu.out(Tensor x, *, Tensor(a!) out) -> Tensor(a!)\");\n}\n");
  json j = ops_json({dir.path()});
  EXPECT_EQ(figure(j, "custom_ops_defined"), 2);
  EXPECT_EQ((*table(j, "custom_ops"))["rows"].size(), 2u);
}

}  // namespace
}  // namespace onramp::e2e
