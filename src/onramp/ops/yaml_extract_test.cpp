#include "onramp/ops/yaml_extract.h"

#include <gtest/gtest.h>

namespace onramp::ops {
namespace yaml_extract_test {  // one per file: a unity batch joins several

TEST(YamlLists, BackendCodegenYamlKeys) {
  auto e = extract_yaml(R"(backend: XLA
cpp_namespace: torch_xla
full_codegen:
  - abs
  - add.Tensor
supported:
  # comment
  - _adaptive_avg_pool2d
  - func: my_op(Tensor self) -> Tensor
autograd:
  - einsum
nested:
  inner:
    - relu
)", "codegen/xla_native_functions.yaml");
  ASSERT_EQ(e.inventories.size(), 4u);
  EXPECT_EQ(e.inventories[0].name, "full_codegen");
  EXPECT_EQ(e.inventories[0].line, 3);
  EXPECT_EQ(e.inventories[0].members[1].text, "add.Tensor");
  EXPECT_EQ(e.inventories[0].members[1].line, 5);
  EXPECT_EQ(e.inventories[1].name, "supported");
  EXPECT_EQ(e.inventories[1].members[1].text, "my_op(Tensor self) -> Tensor");
  EXPECT_EQ(e.inventories[2].name, "autograd");
  EXPECT_EQ(e.inventories[3].name, "nested.inner");
}

TEST(YamlLists, MalformedYamlIsADiagnosticWithLine) {
  auto e = extract_yaml("supported:\n  - abs\n  - [unclosed\n", "bad.yaml");
  EXPECT_TRUE(e.inventories.empty());
  ASSERT_EQ(e.diagnostics.size(), 1u);
  EXPECT_GE(e.diagnostics[0].line, 3);
  EXPECT_NE(e.diagnostics[0].problem.find("malformed YAML"), std::string::npos);
}

// yaml-cpp's LoadAll never returned on a stray comma.
TEST(YamlLists, StrayCommaEnds) {
  auto e = extract_yaml(",a", "comma.yaml");
  EXPECT_TRUE(e.inventories.empty());
}

TEST(YamlLists, EveryDocumentOfAStreamKeepsItsFileLines) {
  auto e = extract_yaml("first:\n  - a\n---\nsecond:\n  - b\n--- \n,\n", "two.yaml");
  ASSERT_EQ(e.inventories.size(), 2u);
  EXPECT_EQ(e.inventories[0].name, "first");
  EXPECT_EQ(e.inventories[1].name, "second");
  EXPECT_EQ(e.inventories[1].line, 4);
  EXPECT_EQ(e.inventories[1].members[0].line, 5);
}

}  // namespace
}  // namespace onramp::ops
