#include "onramp/ops/merge.h"

#include <gtest/gtest.h>

#include <set>

#include "onramp/ops/cpp_extract.h"
#include "onramp/ops/test_inventories.h"
#include "onramp/ops/yaml_extract.h"
#include "onramp/util/test_cases.h"

namespace onramp::ops {
namespace merge_test {  // one per file: a unity batch joins several

Extraction files(const std::vector<std::pair<std::string, std::string>>& texts) {
  Extraction all;
  for (const auto& [path, text] : texts) all.append(extract_cpp(text, path, OpsRules::builtin()));
  return all;
}

using testing::named;

// The members' texts, in no order.
std::set<std::string> texts(const RawInventory& inv) {
  auto in_order = testing::texts(inv);
  return {in_order.begin(), in_order.end()};
}

// One block per kernel file, the key an alias defined in a header.
TEST(Merge, BlocksSpreadOverFilesBecomeOneInventoryThroughADefineAlias) {
  std::vector<std::pair<std::string, std::string>> tree{{"csrc/common/config.h", "#pragma once\n#define TPU PrivateUse1\n"}};
  const char* ops[] = {"add.Tensor", "mul.Tensor", "relu", "sum", "max.dim", "convolution", "fill_.Scalar", "mish"};
  for (size_t i = 0; i < std::size(ops); ++i) {
    tree.emplace_back("csrc/ops/k" + std::to_string(i) + ".cpp",
                      "#include \"config.h\"\n// kernel\nTORCH_LIBRARY_IMPL(aten, TPU, m) {\n  m.impl(\"" +
                          std::string(ops[i]) + "\", TORCH_FN(f));\n}\n");
  }
  tree.emplace_back("csrc/ops/more.cpp", "TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {\n  m.impl(\"relu\", f);\n"
                                         "  m.impl(\"dropout\", f);\n}\nTORCH_LIBRARY_IMPL(_, TPU, m) {\n  m.fallback(f);\n}\n");
  Merged m = merge_extraction(files(tree), nullptr);
  const RawInventory* inv = named(m, "aten/PrivateUse1");
  ASSERT_NE(inv, nullptr);
  EXPECT_EQ(inv->path, "(tree)");
  EXPECT_EQ(inv->line, 0);
  EXPECT_EQ(inv->blocks, 9u);
  EXPECT_EQ(inv->files.size(), 9u);
  EXPECT_EQ(inv->members.size(), 10u);  // relu twice: raw entries keep both
  EXPECT_EQ(texts(*inv).size(), 9u);
  EXPECT_EQ(inv->key_shown, "TPU (= PrivateUse1, at csrc/common/config.h:2)");
  EXPECT_EQ(inv->members.front().path, "csrc/ops/k0.cpp");
  EXPECT_EQ(inv->members.front().line, 4);
  ASSERT_EQ(m.fallbacks.size(), 1u);
  EXPECT_EQ(m.fallbacks[0].resolved_key, "PrivateUse1");
  ASSERT_EQ(m.blocks.size(), 10u);  // the fallback's block too, under namespace _
  EXPECT_EQ(m.blocks[0].path, "csrc/ops/k0.cpp");
  EXPECT_EQ(m.blocks[0].key_written, "TPU");
  EXPECT_EQ(m.blocks[0].merged_into, "(tree) aten/PrivateUse1");
}

TEST(Merge, OneBlockKeepsItsPlaceAndConstexprAliasesResolve) {
  Merged m = merge_extraction(
      files({{"a.h", "constexpr auto kMine = c10::DispatchKey::PrivateUse1;\n"},
             {"b.cpp", "TORCH_LIBRARY_IMPL(aten, kMine, m) {\n  m.impl(\"add.Tensor\", f);\n}\n"}}),
      nullptr);
  const RawInventory* inv = named(m, "aten/PrivateUse1");
  ASSERT_NE(inv, nullptr);
  EXPECT_EQ(inv->path, "b.cpp");
  EXPECT_EQ(inv->line, 1);
  EXPECT_EQ(inv->key_shown, "kMine (= PrivateUse1, at a.h:1)");
  EXPECT_TRUE(inv->members[0].path.empty());
}

TEST(Merge, ConflictingAliasesAreReported) {
  Merged m = merge_extraction(files({{"a.h", "#define TPU PrivateUse1\n"}, {"b.h", "#define TPU XLA\n"},
                                     {"c.cpp", "TORCH_LIBRARY_IMPL(aten, TPU, m) { m.impl(\"relu\", f); }\n"}}),
                              nullptr);
  ASSERT_NE(named(m, "aten/PrivateUse1"), nullptr);
  ASSERT_EQ(m.diagnostics.size(), 1u);
  EXPECT_EQ(m.diagnostics[0].path, "b.h");
  EXPECT_NE(m.diagnostics[0].problem.find("a.h:1"), std::string::npos);
}

TEST(Merge, MacroUsesAreExpandedWithTheirDefinesFromAnotherFile) {
  Merged m = merge_extraction(
      files({{"reg.h", "#define REGISTER_OP(name) m.impl(#name, TORCH_FN(name##_kernel));\n"
                       "#define REGISTER_UNUSED(name) m.impl(#name \".out\", f);\n"
                       "#define FOREACH_OP(OP)                              \\\n"
                       "  TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {       \\\n"
                       "    m.impl(\"_foreach_\" #OP, f);                  \\\n"
                       "    m.impl(\"_foreach_\" #OP \"_\", f);            \\\n"
                       "  }\n"},
             {"ops.cpp", "TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {\n  REGISTER_OP(add);\n  REGISTER_OP(mul);\n"
                         "  m.impl(dynamic_name, f);\n  UNKNOWN_REG(x);\n}\nFOREACH_OP(abs)\nFOREACH_OP(exp)\n"}}),
      nullptr);
  const RawInventory* inv = named(m, "aten/PrivateUse1");
  ASSERT_NE(inv, nullptr);
  EXPECT_EQ(texts(*inv), (std::set<std::string>{"add", "mul", "_foreach_abs", "_foreach_abs_", "_foreach_exp",
                                                "_foreach_exp_"}));
  EXPECT_EQ(inv->blocks, 3u);
  EXPECT_EQ(inv->macro_names, 1);  // m.impl(dynamic_name, ...)
  EXPECT_EQ(m.unknown_macro_uses, 1u);
  ASSERT_EQ(m.macros.size(), 3u);
  size_t unread = 0, built = 0;
  for (const auto& r : m.macros) unread += r.unread, built += r.members;
  EXPECT_EQ(built, 6u);
  EXPECT_EQ(unread, 1u);  // REGISTER_UNUSED's one impl, never used
  for (const auto& mem : inv->members) {
    if (mem.text == "add") {
      EXPECT_EQ(mem.macro, "REGISTER_OP");
    }
  }
}

TEST(Merge, ProfileChoosesBlocksByKeyAndFileGlob) {
  profile::BackendProfile p;
  profile::ProfileInventory kernels;
  kernels.name = "kernels";
  kernels.key = "PrivateUse1";
  kernels.files = "csrc/kernels/*";
  kernels.meaning = "implemented";
  p.inventories.push_back(kernels);
  Merged m = merge_extraction(
      files({{"csrc/kernels/a/x.cpp", "TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) { m.impl(\"relu\", f); }\n"},
             {"csrc/kernels/y.cpp", "TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) { m.impl(\"sum\", f); }\n"},
             {"test/z.cpp", "TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) { m.impl(\"mish\", f); }\n"}}),
      &p);
  const RawInventory* inv = named(m, "kernels");
  ASSERT_NE(inv, nullptr);
  EXPECT_EQ(inv->path, "csrc/kernels/*");
  EXPECT_EQ(inv->declared_by, 0);
  EXPECT_EQ(texts(*inv), (std::set<std::string>{"relu", "sum"}));
  ASSERT_NE(named(m, "aten/PrivateUse1"), nullptr);
  EXPECT_EQ(texts(*named(m, "aten/PrivateUse1")), (std::set<std::string>{"mish"}));
}

TEST(Merge, DispatchYamlOfABackendIsKeptAndACopyOfPyTorchsSchemaIsNot) {
  Extraction all = extract_yaml("- func: add.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)\n"
                                "  dispatch:\n    PrivateUse1: add_out_x\n"
                                "- func: relu(Tensor self) -> Tensor\n  dispatch:\n    PrivateUse1: relu_x\n"
                                "- func: mish(Tensor self) -> Tensor\n",
                                "backend/x_native_functions.yaml");
  all.append(extract_yaml("- func: add.Tensor(Tensor self, Tensor other) -> Tensor\n  dispatch:\n"
                          "    CPU, CUDA: add\n    PrivateUse1: add_p\n"
                          "- func: relu(Tensor self) -> Tensor\n  dispatch:\n    CPU: relu\n"
                          "- func: sum(Tensor self) -> Tensor\n  dispatch:\n    CompositeExplicitAutograd: sum\n",
                          "third_party/native_functions.yaml"));
  Merged m = merge_extraction(std::move(all), nullptr);
  ASSERT_EQ(m.inventories.size(), 1u);
  EXPECT_EQ(m.inventories[0].path, "backend/x_native_functions.yaml");
  EXPECT_EQ(m.inventories[0].name, "dispatch:PrivateUse1");
  EXPECT_EQ(m.inventories[0].members.size(), 2u);
  ASSERT_EQ(m.schema_copies.size(), 1u);
  EXPECT_EQ(m.schema_copies[0].file.path, "third_party/native_functions.yaml");
  EXPECT_EQ(m.schema_copies[0].file.only_pytorch_keys, 2);
  ASSERT_EQ(m.backend_lists.size(), 1u);
  EXPECT_EQ(m.backend_lists[0].entries, 3);
  EXPECT_EQ(m.backend_lists[0].with_dispatch, 2);
}

TEST(Merge, FilesGlobCrossesDirectories) {
  onramp::testing::expect_pair_cases<bool>(
      files_match, {{{"csrc/*", "csrc/a/b.cpp"}, true}, {{"*.cpp", "x/y.cpp"}, true}, {{"csrc/*", "test/a.cpp"}, false}});
}

}  // namespace
}  // namespace onramp::ops
