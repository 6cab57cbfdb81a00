#include "onramp/port/trace_merge.h"

#include <gtest/gtest.h>

#include "onramp/report/render.h"

namespace onramp::port {
namespace trace_merge_test {  // one per file: a unity batch joins several
using nlohmann::json;

OpTrace trace(size_t index, std::string model, OpCounts forward, OpCounts backward) {
  OpTrace t;
  t.index = index;
  t.model = std::move(model);
  t.forward = std::move(forward);
  t.backward = std::move(backward);
  t.parameters = 10 * (index + 1);
  t.input_shapes = {{1, 3, 8, 8}};
  t.seconds = {{"build", 0.5}, {"forward", 0.25}};
  t.torch_version = "1.13.0";
  t.python_version = "3.11.2";
  return t;
}

TraceRun whole_run() {
  TraceRun run;
  run.models_total = 4;
  run.models_file = "zoo.txt";
  run.backward = true;
  run.backend = "ref";
  run.backend_source = "examples/reference-backend";
  run.traces = {trace(0, "torchvision:a", {{"add.Tensor", 3}, {"relu_", 2}}, {{"threshold_backward", 2}}),
                trace(1, "torchvision:b", {{"t", 1}}, {}),
                trace(2, "torchvision:c", {{"add.Tensor", 1}}, {}),
                trace(3, "torchvision:d", {}, {})};
  run.traces[3].error_kind = "BadRequest";
  run.traces[3].error = "unknown model torchvision:d";
  run.join = {{"add.Tensor", {OpStatus::via_delegate, "ops.cpp:1", "add.out", ""}},
              {"relu_", {OpStatus::unknown, "", "", ""}},
              {"threshold_backward", {OpStatus::unregistered, "gaps.py:2", "", ""}},
              {"t", {OpStatus::decomposition, "nf.yaml:9 (CompositeExplicitAutograd)", "", ""}}};
  return run;
}

json report_json(const TraceRun& run) {
  report::Report r;
  r.target = trace_target(run);
  r.sections.push_back(trace_section(run));
  json doc = json::parse(report::render_json(r));
  doc.erase("generated_at");
  return doc;
}

TraceRun shard_of(const TraceRun& whole, size_t k, size_t n) {
  TraceRun run = whole;
  run.shard = Shard{k, n};
  run.traces.clear();
  run.join.clear();
  for (const auto& t : whole.traces) {
    if (t.index % n != k) continue;
    run.traces.push_back(t);
    for (const auto& op : t.all_ops()) run.join[op] = whole.join.at(op);
  }
  return run;
}

TEST(TraceMerge, MergedShardsGiveTheUnshardedReport) {
  TraceRun whole = whole_run();
  std::vector<TraceRun> shards;
  std::vector<std::string> names;
  for (size_t k = 0; k < 3; ++k) {
    auto read = read_trace_report(report_json(shard_of(whole, k, 3)), "s" + std::to_string(k));
    ASSERT_TRUE(read) << read.error().message;
    shards.push_back(*read);
    names.push_back("s" + std::to_string(k));
  }
  auto merged = merge_trace_runs(shards, names);
  ASSERT_TRUE(merged) << merged.error().message;
  EXPECT_EQ(report_json(*merged), report_json(whole));
}

TEST(TraceMerge, TheVerdictCountsWhatTheBackendDoesNotServe) {
  TraceRun whole = whole_run();
  size_t missing = 0;
  EXPECT_EQ(verdict_text(whole.traces[0], whole, missing),
            "torchvision:a needs 3 ops; 2 are not registered by ref: relu_, threshold_backward");
  EXPECT_EQ(missing, 2u);
}

TEST(TraceMerge, MissingDuplicateOrForeignShardsAreErrors) {
  TraceRun whole = whole_run();
  auto s0 = *read_trace_report(report_json(shard_of(whole, 0, 2)), "s0");
  auto s1 = *read_trace_report(report_json(shard_of(whole, 1, 2)), "s1");
  auto missing = merge_trace_runs({s0}, {"s0"});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("1/2 is missing"), std::string::npos);
  auto twice = merge_trace_runs({s0, s0}, {"s0", "s0b"});
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().message.find("given twice"), std::string::npos);
  TraceRun other = s1;
  other.backward = false;
  EXPECT_FALSE(merge_trace_runs({s0, other}, {"s0", "other"}));
  auto unsharded = *read_trace_report(report_json(whole), "whole");
  EXPECT_FALSE(merge_trace_runs({unsharded}, {"whole"}));
  EXPECT_FALSE(read_trace_report(json{{"sections", json::object()}}, "x.json"));
}

TEST(TraceOutput, ParsesTheTracersDocument) {
  json doc{{"phases", {{"forward", {{"relu", 2}}}, {"backward", json::object()}}},
           {"error", {{"kind", "NotImplementedError"}, {"message", "no kernel"}}},
           {"parameters", 7}, {"input_shapes", {{1, 2}}}, {"seconds", {{"forward", 0.5}}},
           {"notes", {"n"}}, {"torch", "1.13"}, {"python", "3.11"}};
  auto t = parse_trace_output(doc, "torchvision:x");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->forward.at("relu"), 2u);
  EXPECT_FALSE(t->ok());
  EXPECT_EQ(t->error_kind, "NotImplementedError");
  EXPECT_EQ(*t->parameters, 7u);
  EXPECT_EQ(t->seconds.at("forward"), 0.5);
  EXPECT_EQ(t->all_ops(), std::vector<std::string>{"relu"});
  EXPECT_FALSE(parse_trace_output(json::object(), "m"));
}

TEST(TraceOutput, ReadsEachOpsArgumentsAndThePhaseThatTimedOut) {
  json doc{{"phases", {{"forward", {{"masked_fill.Scalar", 1}}}}},
           {"args", {{"masked_fill.Scalar", {{"args", {{{"tensor", {2, 3}}, {"dtype", "float32"}}, 0.0}}}},
                     {"forged", 7}}},
           {"error", {{"kind", "PhaseTimeout"}, {"phase", "forward"}, {"message", "the forward phase ran past"}}}};
  auto t = parse_trace_output(doc, "m");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(t->timed_out_phase, "forward");
  EXPECT_EQ(t->error_kind, "PhaseTimeout");
  EXPECT_TRUE(t->op_args.contains("masked_fill.Scalar"));
  EXPECT_FALSE(t->op_args.contains("forged"));  // not an object: dropped
  json odd{{"phases", json::object()}, {"args", {1, 2}}, {"error", {{"kind", "PhaseTimeout"}, {"phase", 3}}}};
  auto o = parse_trace_output(odd, "m");
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_TRUE(o->op_args.empty());
  EXPECT_EQ(o->timed_out_phase, "?");
  json other{{"phases", json::object()}, {"error", {{"kind", "RuntimeError"}, {"phase", "forward"}}}};
  EXPECT_EQ(parse_trace_output(other, "m")->timed_out_phase, "");
}

TEST(TraceOutput, AForgedOrMalformedDocumentIsAnErrorNotACrash) {
  json doc{{"phases", {{"forward", {{"relu", 2}}}}}, {"notes", {{"a", 2}}}};
  auto t = parse_trace_output(doc, "m");
  ASSERT_FALSE(t);
  EXPECT_TRUE(t.error().message.starts_with("trace output for m: unreadable: ")) << t.error().message;
  // A shape of strings, or of a float past any integer (fuzz: trace_output; nlohmann's cast of it
  // to int64_t is undefined behaviour), is refused before it is read.
  const std::string not_whole = "trace output for m: input_shapes is not a list of shapes of whole numbers";
  for (json shapes : {json{{"a", 2}}, json{{2.88889e+125}}, json{{1, 2.5}}, json{3}, json("1,2")}) {
    json d{{"phases", json::object()}, {"input_shapes", shapes}};
    auto r = parse_trace_output(d, "m");
    ASSERT_FALSE(r) << shapes.dump();
    EXPECT_EQ(r.error().message, not_whole) << shapes.dump();
  }
  json phases{{"phases", 3}};
  EXPECT_FALSE(parse_trace_output(phases, "m"));
  json kinds{{"phases", json::object()}, {"error", {{"kind", 5}, {"message", nullptr}}}};
  auto k = parse_trace_output(kinds, "m");
  ASSERT_TRUE(k) << k.error().message;
  EXPECT_EQ(k->error_kind, "Error");
  EXPECT_EQ(k->error, "");
}

TEST(TraceMerge, AHandEditedShardWithWrongTypesOrMissingFieldsReadsOrFailsCleanly) {
  TraceRun whole = whole_run();
  json doc = report_json(shard_of(whole, 0, 2));
  for (auto& table : doc["sections"]["port_trace"]["tables"]) {
    for (auto& row : table["rows"]) {
      row.erase("error");
      row.erase("parameters");
      row.erase("forward_s");
      row.erase("where");
      if (table["key"] == "models") row["status"] = "Crash";
    }
  }
  auto read = read_trace_report(doc, "s0.json");
  ASSERT_TRUE(read) << read.error().message;
  ASSERT_FALSE(read->traces.empty());
  EXPECT_EQ(read->traces[0].error_kind, "Crash");
  EXPECT_EQ(read->traces[0].error, "");
  EXPECT_FALSE(read->traces[0].parameters);
  doc["target"]["models_total"] = "four";
  auto wrong = read_trace_report(doc, "s0.json");
  ASSERT_FALSE(wrong);
  EXPECT_TRUE(wrong.error().message.starts_with("s0.json: not a readable `onramp port trace --json` report: "))
      << wrong.error().message;
}

}  // namespace
}  // namespace onramp::port
