#include "onramp/integration/section.h"

#include <gtest/gtest.h>

#include "onramp/integration/groups.h"
#include "onramp/report/section_keys.h"

namespace onramp::integration {
namespace section_test {  // one per file: a unity batch joins several

const report::Figure* figure(const report::Section& s, const std::string& key) {
  for (const auto& f : s.figures) {
    if (f.key == key) return &f;
  }
  return nullptr;
}

std::string status_of(const report::Section& s, const std::string& point) {
  const auto* t = s.table(keys::kRowsTable);
  if (!t) return "";
  for (const auto& row : t->rows) {
    if (row.value("point", "") == point) return row.value("status", "");
  }
  return "";
}

GroupRun group(std::vector<Check> checks, std::optional<long long> count) {
  GroupRun run;
  run.records.torch = {true, true, "", "", 1.0, "", ""};
  run.records.module = {true, true, "", "", 0.1, "", ""};
  run.records.checks = std::move(checks);
  run.records.device_count = count;
  run.records.ended = true;
  run.command = "python integration.py";
  return run;
}

TEST(IntegrationSection, RowsFiguresAndTheHangFinding) {
  ProbeFacts probe;  // the probe reported nothing: its points say so
  GroupRun runtime = group({{"generator", "torch.Generator()", "value", "0", "", "", true, 0},
                            {"serialization", "torch.load()", "raised", "", "RuntimeError", "not available", {}, 0},
                            {"harmless", "off: step", "value", "0.1", "", "", {}, 0}},
                           0);
  runtime.hangs.push_back(
      {"compile", "get_interface_for_device", "timed out after 60 s", "last line", "the group ran again without point compile"});
  GroupRun on = group({{"harmless", "on: step", "value", "0.1", "", "", {}, 0}}, 0);
  auto s = integration_section({builtin_points(), probe, runtime, on});
  EXPECT_EQ(status_of(s, "generator"), "provided");
  EXPECT_EQ(status_of(s, "serialization"), "needs_device");
  EXPECT_EQ(status_of(s, "compile"), "raises");
  EXPECT_EQ(status_of(s, "harmless"), "provided");
  EXPECT_EQ(status_of(s, "device_name"), "raises");  // not measured: said, never "absent"
  ASSERT_NE(figure(s, keys::kPointsProvided), nullptr);
  EXPECT_EQ(figure(s, keys::kPointsProvided)->value, 2);
  EXPECT_EQ(figure(s, keys::kPointsNeedDevice)->value, 1);
  EXPECT_EQ(figure(s, keys::kScorecard)->value, "2 of 16 points provided here, 1 need the device");
  bool hang = false;
  for (const auto& f : s.findings) hang |= f.severity == report::Severity::blocker && f.text.find("without point compile") != std::string::npos;
  EXPECT_TRUE(hang);
  EXPECT_EQ(s.findings.front().severity, report::Severity::info);  // what cannot be told, first
}

TEST(IntegrationSection, TheDeviceFigureNamesTheDeviceTheChecksUsed) {
  ProbeFacts probe;
  probe.device = "from_probe";
  GroupRun runtime = group({}, 0), on = group({}, 0);
  runtime.records.device = "faulty";
  auto s = integration_section({builtin_points(), probe, runtime, on});
  ASSERT_NE(figure(s, keys::kDevice), nullptr);
  EXPECT_EQ(figure(s, keys::kDevice)->value, "faulty");
  runtime.records.device.clear();
  EXPECT_EQ(figure(integration_section({builtin_points(), probe, runtime, on}), keys::kDevice)->value, "from_probe");
  probe.device.clear();
  auto none = integration_section({builtin_points(), probe, runtime, on});
  EXPECT_TRUE(figure(none, keys::kDevice)->value.is_null());
  EXPECT_FALSE(figure(none, keys::kDevice)->not_measured.empty());
}

TEST(IntegrationSection, CpuWorkHurtByAHangFollowsFromTheHangNotASecondRoot) {
  GroupRun runtime = group({{"harmless", "off: step", "value", "0.1", "", "", {}, 0}}, 0);
  GroupRun on = group({}, 0);
  on.hangs.push_back({"harmless", "forward_backward", "timed out after 60 s", "Failed to fetch URL after 30 tries",
                     "it was the group's last point to check, so the group did not run again"});
  auto s = integration_section({builtin_points(), ProbeFacts{}, runtime, on});
  const report::Finding *hang = nullptr, *hurt = nullptr;
  for (const auto& f : s.findings) {
    if (f.text.find("did not return (timed out after 60 s)") != std::string::npos) hang = &f;
    if (f.text.starts_with("With the backend installed, CPU-only work beside it is hurt")) hurt = &f;
  }
  ASSERT_NE(hang, nullptr);
  ASSERT_NE(hurt, nullptr);
  EXPECT_EQ(hang->caused_by, "");
  EXPECT_FALSE(hang->id.empty());
  EXPECT_EQ(hurt->caused_by, hang->id);
  EXPECT_EQ(hurt->caused_by_reason, "the CPU work beside the backend is the check that hung");
  // What the hung interpreter printed is the hang's log, never part of a sentence or a cell.
  EXPECT_EQ(hang->log, "Failed to fetch URL after 30 tries");
  EXPECT_EQ(hang->text.find("Failed to fetch"), std::string::npos) << hang->text;
  EXPECT_EQ(report::Json(s.table(keys::kRowsTable)->rows).dump().find("Failed to fetch"), std::string::npos);
}

TEST(IntegrationSection, AnInterpretersLastLinesAreALogOneLineEach) {
  EXPECT_EQ(last_lines("a\n\nb  \nc\r\nd\n", 3), "b\nc\nd");
  EXPECT_EQ(last_lines("only", 5), "only");
  EXPECT_EQ(last_lines("\n\n", 5), "");
}

}  // namespace
}  // namespace onramp::integration
