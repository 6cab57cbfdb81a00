#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "harness.h"

namespace onramp::e2e {
namespace ops_test {  // one per file: a unity batch joins several

using nlohmann::json;

const char* kSchema = ONRAMP_SOURCE_DIR "/tests/e2e/fixtures/ops/native_functions.yaml";

// A backend tree in the forms real backends use, written here.
void write_backend(const TempDir& dir) {
  std::string ops = "#pragma once\n// Op names lowered by the backend.\nenum class OpName : uint16_t {\n"
                    "  kMinOpMinus1 = -1,\n";
  for (const char* m : {"kAdd", "kAddOut", "kAdd_Tensor", "kMul", "kMulOut", "kRelu", "kReluBackward", "kSum",
                        "kSumDimIntList", "kMaxDim", "kAdaptiveAvgPool2d", "kAdaptiveAvgPool2dBackward", "kFill_Scalar",
                        "kConvolution", "kConvolutionBackward", "kMyFusedKernel"}) {
    ops += std::string("  ") + m + ",\n";
  }
  ops += "#if 0\n  kDisabled,\n#endif\n  kMaxOpPlus1  // not a real op\n};\n";
  dir.write("csrc/ops/op_names.h", ops);
  std::string reg = "TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {\n";
  for (const char* op : {"add.Tensor", "add.out", "mul.Tensor", "mul.out", "relu", "sum", "sum.dim_IntList",
                         "max.dim", "fill_.Scalar", "convolution", "adaptive_avg_pool2d"}) {
    reg += std::string("  m.impl(\"") + op + "\", TORCH_FN(k));\n";
  }
  reg += "}\nTORCH_LIBRARY_IMPL(_, PrivateUse1, m) {\n  m.fallback(torch::CppFunction::makeFromBoxedFunction<&f>());\n}\n";
  dir.write("csrc/register.cpp", reg);
  dir.write("tests/native_functions_data.py",
            "# Temporary: should be emptied.\nUNREGISTERED_OPS = frozenset([\n"
            "    '_coalesce', 'sparse_mask', 'quantize_per_tensor', 'nested_to_padded_tensor',\n"
            "    'miopen_convolution', 'special_erfcx', 'linalg_det', 'add.out', 'relu_backward',\n"
            "    'dropout', 'fft_fft', 'mish',  # trailing comment\n])\n");
  dir.write("codegen/backend_native_functions.yaml",
            "backend: Mine\nsupported:\n  - add.Tensor\n  - mul.Tensor\n  - relu\n  - sum\n  - max.dim\n"
            "  - convolution\n  - adaptive_avg_pool2d\n  - fill_.Scalar\n  - mish\n  - dropout\nautograd:\n  - relu\n");
  dir.write("README.md", "A backend.\n");
}

json ops_json(const std::vector<std::string>& extra) {
  std::vector<std::string> args{"ops", "--aten", kSchema, "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  auto r = run_onramp(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);
}

const json* table(const json& report, const std::string& key_prefix) {
  for (const auto& t : report["sections"]["ops"]["tables"]) {
    if (t["key"].get<std::string>().rfind(key_prefix, 0) == 0) return &t;
  }
  return nullptr;
}

const json* row_where(const json& t, const std::string& col, const std::string& value) {
  for (const auto& r : t["rows"]) {
    if (r[col] == value) return &r;
  }
  return nullptr;
}

TEST(Ops, DiscoversEveryInventoryFormWithoutAProfile) {
  TempDir dir;
  write_backend(dir);
  json j = ops_json({dir.path()});
  const json* inv = table(j, "inventories");
  ASSERT_NE(inv, nullptr);
  std::vector<std::string> where;
  for (const auto& r : (*inv)["rows"]) where.push_back(r["where"].get<std::string>() + " " + r["name"].get<std::string>());
  EXPECT_EQ(where, (std::vector<std::string>{"codegen/backend_native_functions.yaml:2 supported",
                                             "csrc/ops/op_names.h:3 OpName", "csrc/register.cpp:1 aten/PrivateUse1",
                                             "tests/native_functions_data.py:2 UNREGISTERED_OPS"}));
  const json* e = row_where(*inv, "name", "OpName");
  EXPECT_EQ((*e)["members"], 18);
  EXPECT_EQ((*e)["sentinels"], 2);
  EXPECT_EQ((*e)["resolved"], 15);
  EXPECT_EQ((*e)["meaning_from"], "guessed from the name");
  EXPECT_EQ((*row_where(*inv, "name", "UNREGISTERED_OPS"))["meaning"], "unregistered");
  const json* unresolved = table(j, "unresolved");
  ASSERT_NE(row_where(*unresolved, "member", "kMyFusedKernel"), nullptr);
  EXPECT_EQ((*row_where(*unresolved, "member", "kMyFusedKernel"))["where"], "csrc/ops/op_names.h:20");
  const json* fallbacks = table(j, "fallbacks");
  ASSERT_EQ((*fallbacks)["rows"].size(), 1u);
  EXPECT_EQ((*fallbacks)["rows"][0]["dispatch_key"], "PrivateUse1");
}

TEST(Ops, MethodsSideBySideAgainstAClaim) {
  TempDir dir;
  write_backend(dir);
  json j = ops_json({dir.path(), "--claim", "12 core ATen ops"});
  const json* m = table(j, "methods:csrc/ops/op_names.h:3");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ((*row_where(*m, "method", "Raw entries"))["value"], 18);
  EXPECT_EQ((*row_where(*m, "method", "Raw entries"))["vs_claim"], 6);
  // kAdd/kAddOut -> add; kAdd_Tensor -> add_.Tensor; kRelu/kReluBackward -> relu; ...
  EXPECT_EQ((*row_where(*m, "method", "Out/Backward suffixes stripped"))["value"], 11);
  EXPECT_EQ((*row_where(*m, "method", "Forward ops with a matching backward"))["value"], 3);
  bool claim_finding = false;
  for (const auto& f : j["sections"]["ops"]["findings"]) {
    claim_finding |= f["text"].get<std::string>().find("12 core ATen ops") != std::string::npos;
  }
  EXPECT_TRUE(claim_finding);
}

TEST(Ops, GapClassesForTheUnregisteredList) {
  TempDir dir;
  write_backend(dir);
  json j = ops_json({dir.path()});
  const json* g = table(j, "gaps:tests/native_functions_data.py:2");
  ASSERT_NE(g, nullptr);
  auto count = [&](const std::string& cls) { return (*row_where(*g, "class", cls))["count"].get<int>(); };
  EXPECT_EQ(count("Private/internal"), 1);
  EXPECT_EQ(count("Sparse/coalesced"), 1);
  EXPECT_EQ(count("Quantized"), 1);
  EXPECT_EQ(count("Nested tensors"), 1);
  EXPECT_EQ(count("Vendor-specific kernel"), 1);
  EXPECT_EQ(count("out= variant of a registered functional op"), 1);
  EXPECT_EQ(count("Backward helper"), 1);
  EXPECT_EQ(count("Served by decomposition in core"), 1);
  EXPECT_EQ(count("Other"), 1);  // mish
}

TEST(Ops, ProfileDeclaresMeaningsAndReportsWhatIsMissing) {
  TempDir dir;
  write_backend(dir);
  json j = ops_json({dir.path(), "--profile", "torch_tpu"});
  const json* inv = table(j, "inventories");
  EXPECT_EQ((*row_where(*inv, "name", "OpName"))["meaning_from"], "profile");
  EXPECT_EQ(j["target"]["profile"], "torch_tpu");
  bool claim = false;
  for (const auto& f : j["sections"]["ops"]["figures"]) claim |= f["key"] == "claim";
  EXPECT_TRUE(claim);
  json x = ops_json({dir.path(), "--profile", "torch_xla"});
  int missing = 0;
  for (const auto& f : x["sections"]["ops"]["findings"]) {
    missing += f["text"].get<std::string>().find("no such inventory was found") != std::string::npos;
  }
  EXPECT_EQ(missing, 4);
}

TEST(Ops, ReadsAGitRepositoryAtARevision) {
  TempDir dir;
  write_backend(dir);
  std::string git = "git -C " + dir.path() + " -c user.name=t -c user.email=t@t ";
  ASSERT_EQ(shell(git + "init -q && " + git + "add -A && " + git + "commit -qm one"), 0);
  dir.write("csrc/ops/op_names.h", "enum class OpName { kAdd };\n");
  ASSERT_EQ(shell(git + "commit -qam two"), 0);
  json head = ops_json({dir.path(), "--rev", "HEAD"});
  json first = ops_json({dir.path(), "--rev", "HEAD~1"});
  EXPECT_EQ(row_where(*table(head, "inventories"), "name", "OpName"), nullptr);
  EXPECT_NE(row_where(*table(first, "inventories"), "name", "OpName"), nullptr);
}

TEST(Ops, BadInputIsReportedWithPathAndLine) {
  TempDir dir;
  write_backend(dir);
  dir.write("bad/broken.yaml", "supported:\n  - add\n  - [oops\n");
  dir.write("bad/unterminated.h", "enum class Broken {\n  kAdd,\n");
  dir.write("bad/macro.h", "enum Ops {\n  kAdd,\n  EXPAND_OPS(X)\n};\n");
  dir.write("bad/latin1.py", "OPS = ['caf\xe9', 'b']\nX = [\n");
  dir.write("bad/latin1_ops.py", "OPS = ['add', 'mul', 'relu', 'sum', 'mish', 'dropout', 'convolution', 'linalg_det', "
                                 "'fft_fft', 'sparse_mask', 'caf\xe9']\n");
  json j = ops_json({dir.path()});
  const json* unresolved = table(j, "unresolved");
  ASSERT_NE(row_where(*unresolved, "member", "caf\\xE9"), nullptr);  // invalid UTF-8 shown as \xNN
  const json* p = table(j, "problems");
  ASSERT_NE(p, nullptr);
  std::vector<std::string> where;
  for (const auto& r : (*p)["rows"]) where.push_back(r["where"]);
  // yaml-cpp notices the unclosed flow sequence where the input ends, line 4.
  EXPECT_EQ(where, (std::vector<std::string>{"bad/broken.yaml:4", "bad/latin1.py:2", "bad/macro.h:3",
                                             "bad/unterminated.h:1"}));
}

// Two versions of a backend: v2 registers mish and convolution_backward and
// no longer registers relu. The diff names the ops under each method.
TEST(Ops, DiffNamesTheOpsAddedAndRemovedUnderEachMethod) {
  TempDir v1, v2, out;
  write_backend(v1);
  write_backend(v2);
  std::string reg = "TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {\n";
  for (const char* op : {"add.Tensor", "add.out", "mul.Tensor", "mul.out", "sum", "sum.dim_IntList", "max.dim",
                         "fill_.Scalar", "convolution", "convolution_backward", "adaptive_avg_pool2d", "mish"}) {
    reg += std::string("  m.impl(\"") + op + "\", TORCH_FN(k));\n";
  }
  v2.write("csrc/register.cpp", reg + "}\n");
  for (const auto& [tree, file] : {std::pair{&v1, "/old.json"}, std::pair{&v2, "/new.json"}}) {
    auto r = run_onramp({"ops", "--aten", kSchema, "--json", "-o", out.path() + file, tree->path()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  auto r = run_onramp({"diff", "--json", out.path() + "/old.json", out.path() + "/new.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json counted, diff = json::parse(r.out);
  for (const auto& t : diff["sections"]["ops"]["tables"]) {
    if (t["key"] == "counted:csrc/register.cpp:1:aten/PrivateUse1") counted = t;
  }
  ASSERT_FALSE(counted.is_null()) << r.out;
  EXPECT_EQ(counted["key_columns"], json::array({"method", "op"}));
  std::set<std::string> changes;
  for (const auto& row : counted["rows"]) {
    changes.insert(row["change"].get<std::string>() + " " + row["key"]["method"].get<std::string>() + " " +
                   row["key"]["op"].get<std::string>());
  }
  for (const char* expected :
       {"added raw_entries convolution_backward", "added raw_entries mish", "removed raw_entries relu",
        "added suffixes_stripped mish", "removed suffixes_stripped relu", "added overloads_collapsed mish",
        "added forward_with_backward convolution", "added resolved convolution_backward"}) {
    EXPECT_TRUE(changes.contains(expected)) << expected << " in " << counted.dump(1);
  }
  // convolution_backward counts as convolution once suffixes are stripped: no change there.
  EXPECT_FALSE(changes.contains("added suffixes_stripped convolution_backward"));
  EXPECT_FALSE(changes.contains("added suffixes_stripped convolution"));
  auto text = run_onramp({"diff", out.path() + "/old.json", out.path() + "/new.json"});
  EXPECT_NE(text.out.find("Counted under each method: csrc/register.cpp:1 aten/PrivateUse1: rows"),
            std::string::npos) << text.out;
  // People reading the ops report itself see the listing's size, not 100 rows.
  auto own = run_onramp({"ops", "--aten", kSchema, v1.path()});
  EXPECT_NE(own.out.find("rows, listed in the JSON report (table \"counted:csrc/register.cpp:1:aten/PrivateUse1\")"),
            std::string::npos) << own.out;
}

TEST(Ops, OutputIsDeterministicAndHasEveryFormat) {
  TempDir dir;
  write_backend(dir);
  auto a = run_onramp({"ops", "--aten", kSchema, "--markdown", dir.path()});
  auto b = run_onramp({"ops", "--aten", kSchema, "--markdown", dir.path()});
  EXPECT_EQ(a.exit_code, 0);
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out.find("Counting methods"), std::string::npos);
  auto t = run_onramp({"ops", "--aten", kSchema, dir.path()});
  EXPECT_EQ(t.exit_code, 0);
  EXPECT_NE(t.out.find("Gap classes"), std::string::npos);
}

TEST(Ops, UnusableArgumentsAreOneLineErrors) {
  auto r = run_onramp({"ops", "--aten", "/no/such/native_functions.yaml", "."});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/no/such/native_functions.yaml"), std::string::npos);
  auto p = run_onramp({"ops", "--aten", kSchema, "--profile", "no_such_backend", "."});
  EXPECT_EQ(p.exit_code, 2);
  EXPECT_NE(p.err.find("unknown profile"), std::string::npos);
  TempDir dir;
  dir.write("schema.yaml", "- func: add(Tensor self\n  dispatch: [x\n");
  auto s = run_onramp({"ops", "--aten", dir.path() + "/schema.yaml", "."});
  EXPECT_EQ(s.exit_code, 2);
  EXPECT_NE(s.err.find("schema.yaml:"), std::string::npos);
}

}  // namespace
}  // namespace onramp::e2e
