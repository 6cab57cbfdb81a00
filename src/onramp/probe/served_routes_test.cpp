#include "onramp/probe/served_routes.h"

#include <gtest/gtest.h>

#include <sstream>

#include "onramp/util/text_file.h"

namespace onramp::probe {
namespace served_routes_test {  // one per file: a unity batch joins several

// torch._C._dispatch_dump_table of six ops on torch 2.13.0+cpu, plain and
// after `import onramp_ref` (trimmed to CPU, the PrivateUse1 keys and the
// backend fallbacks), one "## OP (WHO on torch VERSION)" header per table.
std::map<std::string, std::string> privateuse1_lines() {
  auto text = util::read_text_file(std::string(ONRAMP_SOURCE_DIR) +
                                   "/src/onramp/probe/testdata/dispatch_dump_torch2.13.txt");
  EXPECT_TRUE(text) << text.error().message;
  std::map<std::string, std::string> out;
  std::istringstream in(text.value_or(""));
  std::string line, header;
  while (std::getline(in, line)) {
    if (line.starts_with("## ")) {
      header = line.substr(3);
      out[header] = "";
    } else if (line.starts_with("PrivateUse1: ")) {
      out[header] = line;
    }
  }
  return out;
}

TEST(DispatchEntry, EveryRecordedLineParses) {
  auto text = util::read_text_file(std::string(ONRAMP_SOURCE_DIR) +
                                   "/src/onramp/probe/testdata/dispatch_dump_torch2.13.txt");
  std::istringstream in(text.value_or(""));
  std::string line;
  int parsed = 0;
  while (std::getline(in, line)) {
    if (line.starts_with("## ")) continue;
    auto e = parse_dispatch_entry(line);
    ASSERT_TRUE(e) << line;
    EXPECT_FALSE(e->where.empty());
    ++parsed;
  }
  EXPECT_GT(parsed, 100);
}

TEST(DispatchEntry, ReadsKeyWhereKindAndFallthrough) {
  auto e = parse_dispatch_entry(
      "ADInplaceOrView: fallthrough registered at /p/VariableFallbackKernel.cpp:103 [backend fallback]");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->key, "ADInplaceOrView");
  EXPECT_TRUE(e->fallthrough);
  EXPECT_EQ(e->where, "/p/VariableFallbackKernel.cpp:103");
  EXPECT_EQ(e->kind, "backend fallback");
  EXPECT_FALSE(parse_dispatch_entry("PrivateUse1: registered at x.cpp:1"));
  EXPECT_FALSE(parse_dispatch_entry("PrivateUse1 [kernel]"));
  EXPECT_FALSE(parse_dispatch_entry(""));
}

TEST(DispatchEntry, PlainTorchHasADefaultBackendKernelForAStructuredOpButNoneForItsDelegate) {
  auto lines = privateuse1_lines();
  auto add = parse_dispatch_entry(lines.at("aten::add.Tensor (plain torch on torch 2.13.0+cpu)"));
  ASSERT_TRUE(add);
  EXPECT_EQ(add->kind, "default backend kernel");
  EXPECT_EQ(lines.at("aten::add.out (plain torch on torch 2.13.0+cpu)"), "");
  auto linear = parse_dispatch_entry(lines.at("aten::linear (plain torch on torch 2.13.0+cpu)"));
  ASSERT_TRUE(linear);
  EXPECT_EQ(linear->kind, "math kernel");
  auto own = parse_dispatch_entry(lines.at("aten::add.out (onramp_ref on torch 2.13.0+cpu)"));
  ASSERT_TRUE(own);
  EXPECT_EQ(own->kind, "kernel");
  EXPECT_EQ(own->where, "../../csrc/ops/aten_ops.cpp:191");
}

OpFacts facts_of(const std::string& line, bool own) { return {true, own, parse_dispatch_entry(line), std::nullopt}; }

std::string delegate(const std::string& op) { return op == "add.Tensor" || op == "mul.Tensor" ? op.substr(0, 3) + ".out" : ""; }

TEST(ServedRoute, AComputedKernelAloneIsNotServed) {
  auto lines = privateuse1_lines();
  ServedFacts plain;
  plain.measured = true;
  plain.ops["add.Tensor"] = facts_of(lines.at("aten::add.Tensor (plain torch on torch 2.13.0+cpu)"), false);
  plain.ops["add.out"] = facts_of("", false);
  plain.ops["ones_like"] = facts_of(lines.at("aten::ones_like (plain torch on torch 2.13.0+cpu)"), false);
  plain.ops["linear"] = facts_of(lines.at("aten::linear (plain torch on torch 2.13.0+cpu)"), false);
  auto add = served_route(plain, "add.Tensor", delegate);
  EXPECT_EQ(add.route, Route::missing);
  EXPECT_EQ(add.via, "add.out");
  EXPECT_EQ(served_route(plain, "add.out", delegate).route, Route::missing);
  EXPECT_EQ(served_route(plain, "ones_like", delegate).route, Route::composite_explicit);
  EXPECT_EQ(served_route(plain, "linear", delegate).route, Route::composite_implicit);
  EXPECT_EQ(served_route(plain, "nope", delegate).route, Route::unknown_op);
}

TEST(ServedRoute, ThroughTheDelegateTheBackendRegisters) {
  auto lines = privateuse1_lines();
  ServedFacts f;
  f.measured = true;
  f.ops["add.Tensor"] = facts_of(lines.at("aten::add.Tensor (plain torch on torch 2.13.0+cpu)"), false);
  f.ops["add.out"] = facts_of(lines.at("aten::add.out (onramp_ref on torch 2.13.0+cpu)"), true);
  auto add = served_route(f, "add.Tensor", delegate);
  EXPECT_EQ(add.route, Route::via_delegate);
  EXPECT_EQ(add.via, "add.out");
  EXPECT_EQ(add.where, "../../csrc/ops/aten_ops.cpp:191");
  EXPECT_EQ(served_route(f, "add.out", delegate).route, Route::own_kernel);
}

TEST(ServedRoute, TheBoxedFallbackServesWhatNothingElseDoesAndSaysWhatIsNotKnown) {
  ServedFacts f;
  f.measured = true;
  f.fallback_before = false;
  f.fallback_after = true;
  std::string fallback = "PrivateUse1: registered at ../csrc/fallback.cpp:12 [backend fallback]";
  f.ops["mul.Tensor"] = facts_of("PrivateUse1: registered at /a/RegisterX.cpp:9 [default backend kernel]", false);
  f.ops["mul.out"] = facts_of(fallback, false);
  f.ops["lt.Scalar_out"] = facts_of(fallback, false);
  auto mul = served_route(f, "mul.Tensor", delegate);
  EXPECT_EQ(mul.route, Route::boxed_fallback);
  EXPECT_EQ(mul.via, "mul.out");
  EXPECT_EQ(mul.where, "../csrc/fallback.cpp:12");
  auto lt = served_route(f, "lt.Scalar_out", delegate);
  EXPECT_EQ(lt.route, Route::boxed_fallback);
  EXPECT_NE(lt.note.find("cannot be told"), std::string::npos);
}

TEST(ServedFacts, ReadsRecordsByTypeAndSaysWhyNotMeasured) {
  python::ScriptRun run;
  python::read_records(
      "{\"kind\":\"introspection\",\"available\":false,\"missing\":[\"_dispatch_dump_table\"]}\n"
      "{\"kind\":\"fallback\",\"before\":\"x\",\"after\":true}\n"
      "{\"kind\":\"op\",\"op\":7}\n"
      "{\"kind\":\"op\",\"op\":\"mm\",\"known\":true,\"own\":true,\"dump\":\"junk\"}\n",
      run);
  auto f = read_served_facts(run);
  EXPECT_FALSE(f.measured);
  EXPECT_EQ(f.not_measured, "this torch has no torch._C._dispatch_dump_table");
  EXPECT_FALSE(f.fallback_before);
  EXPECT_EQ(f.fallback_after, true);
  ASSERT_EQ(f.ops.size(), 1u);
  EXPECT_FALSE(f.ops.at("mm").entry);
}

}  // namespace
}  // namespace onramp::probe
