#include "onramp/audit/steps.h"

#include <gtest/gtest.h>

namespace onramp::audit {
namespace steps_test {  // one per file: a unity batch joins several

TEST(StepsTable, SaysWhichStepsRanAtOnceInTheOrderOfTheList) {
  std::vector<StepRecord> steps{{"wheel", "ran", "1 wheel(s)", 0.4, 2},
                                {"install", "ran", "installed", 9.8, 2},
                                {"probe", "ran", "import m", 27.6}};
  auto t = steps_table(steps);
  ASSERT_EQ(t.rows.size(), 3u);
  EXPECT_EQ(t.rows[0]["step"], "wheel");
  EXPECT_EQ(t.rows[0]["ran_at_once"], 2);
  EXPECT_EQ(t.rows[1]["step"], "install");
  EXPECT_EQ(t.rows[1]["ran_at_once"], 2);
  EXPECT_EQ(t.rows[2]["ran_at_once"], 1);  // alone unless said otherwise
}

}  // namespace
}  // namespace onramp::audit
