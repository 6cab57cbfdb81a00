#include "onramp/ops/cpp_extract.h"

#include <gtest/gtest.h>

#include <chrono>

#include "onramp/ops/test_inventories.h"

namespace onramp::ops {
namespace cpp_extract_test {  // one per file: a unity batch joins several

Extraction run(const std::string& text) { return extract_cpp(text, "op_names.h", OpsRules::builtin()); }

using testing::named;

// The members' texts, in order: the sentinels' or the others'.
std::vector<std::string> member_texts(const RawInventory& inv, bool sentinels) {
  std::vector<std::string> out;
  for (const auto& m : inv.members) {
    if (m.sentinel.empty() != sentinels) out.push_back(m.text);
  }
  return out;
}

TEST(CppEnum, MembersCommentsAttributesAndSentinels) {
  auto e = run(R"(
// op names
enum class [[nodiscard]] OpName : uint16_t {
  kMinOpMinus1 = -1,
  kAdd,            // add.Tensor
  kAddOut /* out= */,
  kMul [[deprecated]] = 5,
  kFirstOp = kAdd,
  kSub, // subtract
  kPlaceholder,  // not a real op
#if 0
  kDisabled,
#else
  kEnabled,
#endif
  kMaxOpPlus1
};
)");
  const RawInventory* inv = named(e, "OpName");
  ASSERT_NE(inv, nullptr);
  EXPECT_EQ(inv->kind, InventoryKind::cpp_enum);
  EXPECT_EQ(inv->line, 3);
  EXPECT_EQ(member_texts(*inv, false), (std::vector<std::string>{"kAdd", "kAddOut", "kMul", "kSub", "kEnabled"}));
  EXPECT_EQ(member_texts(*inv, true), (std::vector<std::string>{"kMinOpMinus1", "kFirstOp", "kPlaceholder", "kMaxOpPlus1"}));
  EXPECT_TRUE(e.diagnostics.empty());
}

TEST(CppEnum, MacroInsideEnumIsReportedWithItsLine) {
  auto e = run("enum Ops {\n  kA,\n  FOR_EACH_OP(X)\n  kB,\n};\n");
  ASSERT_NE(named(e, "Ops"), nullptr);
  EXPECT_EQ(member_texts(*named(e, "Ops"), false), (std::vector<std::string>{"kA", "kB"}));
  ASSERT_EQ(e.diagnostics.size(), 1u);
  EXPECT_EQ(e.diagnostics[0].line, 3);
  EXPECT_NE(e.diagnostics[0].problem.find("FOR_EACH_OP"), std::string::npos);
}

TEST(CppEnum, UnterminatedEnumIsADiagnosticNotACrash) {
  auto e = run("enum class OpName {\n  kAdd,\n  kMul,\n");
  EXPECT_EQ(named(e, "OpName"), nullptr);
  ASSERT_FALSE(e.diagnostics.empty());
  EXPECT_EQ(e.diagnostics[0].line, 1);
  EXPECT_NE(e.diagnostics[0].problem.find("unterminated enum OpName"), std::string::npos);
}

TEST(CppEnum, ForwardDeclarationIsNotAnInventory) {
  auto e = run("enum class OpName : int;\nenum Color { kRed, kGreen };\n");
  EXPECT_EQ(named(e, "OpName"), nullptr);
  EXPECT_NE(named(e, "Color"), nullptr);
}

TEST(CppRegistration, ImplSelectiveNameAndDispatchKey) {
  auto e = run(R"(
TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("add.Tensor", TORCH_FN(add_tensor));
  m.impl(TORCH_SELECTIVE_NAME("aten::relu"), TORCH_FN(relu));
  m.impl("mul.out", &mul_out);
}
TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
  m.fallback(torch::CppFunction::makeFromBoxedFunction<&cpu_fallback>());
}
)");
  const RawInventory* inv = named(e, "aten/PrivateUse1");
  ASSERT_NE(inv, nullptr);
  EXPECT_EQ(inv->kind, InventoryKind::cpp_registration);
  EXPECT_EQ(inv->dispatch_key, "PrivateUse1");
  EXPECT_EQ(member_texts(*inv, false), (std::vector<std::string>{"add.Tensor", "aten::relu", "mul.out"}));
  ASSERT_EQ(e.fallbacks.size(), 1u);
  EXPECT_EQ(e.fallbacks[0].dispatch_key, "PrivateUse1");
  EXPECT_EQ(e.fallbacks[0].line, 8);
}

TEST(CppStringList, VectorArrayAndMapInitializers) {
  auto e = run(R"(
static const std::vector<std::string> kSupported = {"add.Tensor", "mul" /* c */, "re" "lu"};
const char* kNames[] = {
  "a",  // comment, with a "quote"
  "b",
};
std::unordered_map<std::string, int> kCosts{{"add", 1}, {"mul", 2}};
void f() { g("x", "y"); }
)");
  ASSERT_NE(named(e, "kSupported"), nullptr);
  EXPECT_EQ(member_texts(*named(e, "kSupported"), false), (std::vector<std::string>{"add.Tensor", "mul", "relu"}));
  ASSERT_NE(named(e, "kNames"), nullptr);
  EXPECT_EQ(named(e, "kNames")->members.size(), 2u);
  ASSERT_NE(named(e, "kCosts"), nullptr);
  EXPECT_EQ(member_texts(*named(e, "kCosts"), false), (std::vector<std::string>{"add", "mul"}));
  EXPECT_EQ(named(e, "f"), nullptr);  // a function body is not a list
}

TEST(CppLexing, UnterminatedStringAndCommentHaveLines) {
  auto e = run("const char* x = \"open;\nint y;\n/* never closed\n");
  ASSERT_EQ(e.diagnostics.size(), 2u);
  EXPECT_EQ(e.diagnostics[0].line, 1);
  EXPECT_NE(e.diagnostics[0].problem.find("unterminated string"), std::string::npos);
  EXPECT_EQ(e.diagnostics[1].line, 3);
}

TEST(CppLexing, RawStringsAndNonUtf8DoNotConfuseTheReader) {
  std::string text = "auto s = R\"x(enum Fake { kA, kB };)x\";\nconst char* z = \"\xff\xfe\";\n";
  text += "enum Real {\xc3 kA, kB };\n";
  auto e = run(text);
  EXPECT_EQ(named(e, "Fake"), nullptr);
  ASSERT_NE(named(e, "Real"), nullptr);
  EXPECT_EQ(named(e, "Real")->members.size(), 2u);
}

TEST(CppLexing, LargeGeneratedFileIsReadInOnePass) {
  std::string text = "enum class Big {\n";
  for (int i = 0; i < 400000; ++i) text += "  kOp" + std::to_string(i) + ",  // generated\n";
  text += "};\n";
  for (int i = 0; i < 200000; ++i) text += "static const char* s" + std::to_string(i) + "[] = {\"a\", \"b\"};\n";
  ASSERT_GT(text.size(), 10u << 20);
  auto e = run(text);
  ASSERT_NE(named(e, "Big"), nullptr);
  EXPECT_EQ(named(e, "Big")->members.size(), 400000u);
  EXPECT_EQ(e.inventories.size(), 200001u);
}

TEST(CppConditions, MembersKnowTheirIfBranchAndGuardsAreNotConditions) {
  auto e = run("#ifndef OPS_H\n#define OPS_H\nenum class OpName {\n  kAdd,\n#ifdef USE_FFT\n  kFftFft,\n#else\n"
               "  kMul,\n#endif\n#if 0\n  kGone,\n#else\n  kSum,\n#endif\n#if defined(A)\n#if B > 1\n  kRelu,\n"
               "#endif\n#endif\n};\n#endif\n");
  const RawInventory* inv = named(e, "OpName");
  ASSERT_NE(inv, nullptr);
  std::vector<std::string> got;
  for (const auto& m : inv->members) got.push_back(m.text + "|" + m.condition);
  EXPECT_EQ(got, (std::vector<std::string>{"kAdd|", "kFftFft|#ifdef USE_FFT", "kMul|#else of #ifdef USE_FFT", "kSum|",
                                           "kRelu|#if defined(A) / #if B > 1"}));
}

TEST(CppRegistration, LibraryDefinitionsAreTheBackendsOwnOps) {
  auto e = run("TORCH_LIBRARY(mybackend, m) {\n  m.def(\"fused_gelu(Tensor x) -> Tensor\");\n  m.def(\"scan(Tensor x) -> Tensor\");\n}\n"
               "TORCH_LIBRARY_FRAGMENT(mybackend, m) {\n  m.def(\"extra(Tensor x) -> Tensor\");\n}\n"
               "TORCH_LIBRARY_IMPL(mybackend, PrivateUse1, m) {\n  m.impl(\"fused_gelu\", f);\n}\n");
  ASSERT_EQ(e.custom_ops.size(), 3u);
  EXPECT_EQ(e.custom_ops[0].ns, "mybackend");
  EXPECT_EQ(e.custom_ops[0].schema, "fused_gelu(Tensor x) -> Tensor");
  EXPECT_EQ(e.custom_ops[2].line, 6);
  const RawInventory* inv = named(e, "mybackend/PrivateUse1");
  ASSERT_NE(inv, nullptr);
  EXPECT_EQ(inv->ns, "mybackend");
  EXPECT_EQ(inv->members.size(), 1u);
}

TEST(CppRegistration, AliasesAndRegisteringMacrosAreRecordedPerFile) {
  auto e = run("#define TPU PrivateUse1\n#define VERSION 3\n#define REG(op) m.impl(#op, f);\n"
               "TORCH_LIBRARY_IMPL(aten, TPU, m) {\n  REG(add);\n  m.impl(opname, f);\n}\n");
  ASSERT_EQ(e.aliases.size(), 1u);
  EXPECT_EQ(e.aliases[0].name, "TPU");
  EXPECT_EQ(e.aliases[0].target, "PrivateUse1");
  ASSERT_EQ(e.macros.size(), 1u);
  EXPECT_EQ(e.macros[0].templates, (std::vector<std::vector<std::string>>{{"#op"}}));
  ASSERT_EQ(e.macro_uses.size(), 1u);
  EXPECT_EQ(e.macro_uses[0].args, (std::vector<std::string>{"add"}));
  EXPECT_EQ(e.macro_uses[0].block_line, 4);
  EXPECT_EQ(named(e, "aten/TPU")->macro_names, 1);
}

}  // namespace
}  // namespace onramp::ops
