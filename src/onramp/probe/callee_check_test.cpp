#include "onramp/probe/callee_check.h"

#include <gtest/gtest.h>

namespace onramp::probe {
namespace callee_check_test {  // one per file: a unity batch joins several

// PrivateUse1 lines as torch 2.13 prints them (dispatch_dump_torch2.13.txt).
constexpr const char* kComposite =
    "PrivateUse1: registered at /a/RegisterCompositeExplicitAutograd_0.cpp:14642 [default backend kernel]";
constexpr const char* kMath = "PrivateUse1: registered at /a/RegisterCompositeImplicitAutograd_0.cpp:9 [math kernel]";
constexpr const char* kOwn = "PrivateUse1: registered at ../csrc/ops/aten_ops.cpp:191 [kernel]";
constexpr const char* kFallback = "PrivateUse1: registered at ../onramp_ref/variants.py:67 [backend fallback]";

std::string no_delegate(const std::string&) { return ""; }

void add(ServedFacts& f, const std::string& op, const std::string& line, bool own,
         std::optional<std::vector<std::string>> callees = std::nullopt) {
  OpFacts o{true, own, parse_dispatch_entry(line), std::nullopt};
  if (callees) o.callees = Callees{true, *callees, ""};
  f.ops[op] = std::move(o);
}

ServedFacts measured() {
  ServedFacts f;
  f.measured = true;
  return f;
}

TEST(CalleeCheck, ACompositeWhoseCalleeHasNoRouteIsMissingWithTheChain) {
  ServedFacts f = measured();
  add(f, "masked_fill.Scalar", kComposite, false, std::vector<std::string>{"clone", "masked_fill_.Scalar"});
  add(f, "clone", kComposite, false, std::vector<std::string>{"empty_like", "copy_"});
  add(f, "empty_like", kComposite, false, std::vector<std::string>{"empty.memory_format"});
  add(f, "empty.memory_format", kOwn, true);
  add(f, "copy_", kComposite, false, std::vector<std::string>{});
  add(f, "masked_fill_.Scalar", "", false);
  auto r = served_route(f, "masked_fill.Scalar", no_delegate);
  EXPECT_EQ(r.route, Route::missing);
  EXPECT_EQ(r.via, "masked_fill_.Scalar");
  EXPECT_EQ(r.note.find("masked_fill.Scalar -> masked_fill_.Scalar: missing"), 0u) << r.note;
  EXPECT_EQ(r.where, "/a/RegisterCompositeExplicitAutograd_0.cpp:14642");
  // Its served callee alone is composite with every callee served.
  auto clone = served_route(f, "clone", no_delegate);
  EXPECT_EQ(clone.route, Route::composite_explicit);
  EXPECT_NE(clone.note.find("each served: empty_like, copy_"), std::string::npos) << clone.note;
}

TEST(CalleeCheck, TheChainGoesThroughNestedComposites) {
  ServedFacts f = measured();
  add(f, "t", kComposite, false, std::vector<std::string>{"transpose.int"});
  add(f, "transpose.int", kComposite, false, std::vector<std::string>{"as_strided"});
  add(f, "as_strided", "", false);
  auto v = check_callees(f, "t", no_delegate);
  EXPECT_TRUE(v.checked);
  EXPECT_EQ(chain_text(v.missing_chain), "t -> transpose.int -> as_strided: missing");
  add(f, "as_strided", kOwn, true);
  EXPECT_EQ(served_route(f, "t", no_delegate).route, Route::composite_explicit);
}

TEST(CalleeCheck, NotCheckedSaysWhyAndKeepsTheCompositeRoute) {
  ServedFacts f = measured();
  add(f, "linear", kMath, false);
  auto r = served_route(f, "linear", no_delegate);
  EXPECT_EQ(r.route, Route::composite_implicit);
  EXPECT_NE(r.note.find("callees not checked: the probe did not run it"), std::string::npos) << r.note;
  f.ops["linear"].callees = Callees{false, {}, "its traced arguments cannot be rebuilt on meta"};
  EXPECT_NE(served_route(f, "linear", no_delegate).note.find("cannot be rebuilt"), std::string::npos);
}

TEST(CalleeCheck, ACalleeServedOnlyByTheBoxedFallbackIsNamedAndACycleEnds) {
  ServedFacts f = measured();
  add(f, "a", kMath, false, std::vector<std::string>{"b", "c"});
  add(f, "b", kMath, false, std::vector<std::string>{"a"});
  add(f, "c", kFallback, false);
  auto r = served_route(f, "a", no_delegate);
  EXPECT_EQ(r.route, Route::composite_implicit);
  EXPECT_NE(r.note.find("reached only through the boxed fallback: c"), std::string::npos) << r.note;
}

TEST(CalleeCheck, ReadsCalleesRecordsInAnyOrder) {
  python::ScriptRun run;
  python::read_records(
      "{\"kind\":\"introspection\",\"available\":true,\"missing\":[]}\n"
      "{\"kind\":\"callees\",\"op\":\"t\",\"checked\":true,\"callees\":[\"transpose.int\",7,\"\"]}\n"
      "{\"kind\":\"op\",\"op\":\"t\",\"known\":true,\"own\":false,\"dump\":\"" +
          std::string(kComposite) +
          "\"}\n"
          "{\"kind\":\"callees\",\"op\":\"x\",\"checked\":false}\n",
      run);
  auto f = read_served_facts(run);
  ASSERT_TRUE(f.ops.at("t").callees);
  EXPECT_EQ(f.ops.at("t").callees->ops, std::vector<std::string>{"transpose.int"});
  EXPECT_TRUE(f.ops.at("t").known);
  EXPECT_EQ(f.ops.at("x").callees->why, "the probe gave no reason");
  EXPECT_FALSE(f.ops.at("x").known);
}

}  // namespace
}  // namespace onramp::probe
