#include "onramp/report/text_table.h"

#include <gtest/gtest.h>

#include "onramp/report/terminal_text.h"

namespace onramp::report {
namespace text_table_test {  // one per file: a unity batch joins several

Table statements() {
  std::string error = "RuntimeError: Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, "
                      "fpga, ort, xla, lazy, vulkan, mps, meta, hpu, privateuseone device type at start of device "
                      "string: ref";
  Table t{"statements_1", "Statements", "m", "e",
          {{"where", "Where", ""}, {"source", "Statement", ""}, {"result", "Result", ""}, {"seconds", "Time", "s"}},
          {Json{{"where", "README.md:52"}, {"source", "import onramp_ref"}, {"result", ""}, {"seconds", 1234567}},
           Json{{"where", "README.md:54"}, {"source", "x = torch.randn((4, 4), device=device)"}, {"result", error},
                {"seconds", 0.25}}}};
  return t;
}

TEST(TextTable, WithoutAWidthEveryCellIsWholeOnOneLine) {
  Table t = statements();
  auto laid = lay_out_table(t, t.rows.size(), 0, 4);
  ASSERT_EQ(laid.lines.size(), 3u);
  EXPECT_FALSE(laid.cut);
  EXPECT_NE(laid.lines[2].find(t.rows[1]["result"].get<std::string>()), std::string::npos);
}

TEST(TextTable, FitsTheWidthWrappingTextAndKeepingNumbersWhole) {
  Table t = statements();
  for (size_t width : {60u, 80u, 120u}) {
    auto laid = lay_out_table(t, t.rows.size(), width, 4);
    for (const auto& line : laid.lines) EXPECT_LE(display_width(line), width) << line;
    EXPECT_TRUE(laid.cut) << width;  // the error message is longer than three lines of its column
    std::string all;
    for (const auto& line : laid.lines) all += line + "\n";
    EXPECT_NE(all.find("1,234,567"), std::string::npos) << all;
    EXPECT_NE(all.find("README.md:52"), std::string::npos) << all;  // the first column stays whole
    EXPECT_NE(all.find("README.md:54"), std::string::npos) << all;
    EXPECT_NE(all.find("…"), std::string::npos);
  }
}

TEST(TextTable, TheWidestColumnGivesWayFirst) {
  Table t = statements();
  auto laid = lay_out_table(t, t.rows.size(), 120, 0);
  // The header line shows where each column starts: the short Statement column keeps its
  // natural width (38 columns, its longest cell) and only Result gives way.
  const std::string& header = laid.lines[0];
  EXPECT_EQ(header.find("Statement"), std::string("README.md:52  ").size()) << header;
  EXPECT_EQ(header.find("Result"), std::string("README.md:52  ").size() + 38 + 2) << header;
}

TEST(TextTable, TooNarrowForColumnsWritesRecords) {
  Table t = statements();
  auto laid = lay_out_table(t, t.rows.size(), 30, 4);
  ASSERT_FALSE(laid.lines.empty());
  EXPECT_EQ(laid.lines[0], "    - Where: README.md:52");
  for (const auto& line : laid.lines) EXPECT_LE(display_width(line), 30u) << line;
}

}  // namespace
}  // namespace onramp::report
