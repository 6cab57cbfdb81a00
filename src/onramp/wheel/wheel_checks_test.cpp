#include "onramp/wheel/wheel_checks.h"

#include <gtest/gtest.h>

#include "onramp/report/finding_graph.h"

namespace onramp::wheel {
namespace wheel_checks_test {  // one per file: a unity batch joins several

std::vector<std::string> facts_of(const RecordCheck& check) {
  report::Section s;
  add_record_check(s, check, "wheel.whl");
  std::vector<std::string> facts;
  for (const auto& f : s.findings) facts.push_back(f.fact);
  return facts;
}

// One member whose size and hash both differ from RECORD (intel-extension-for-pytorch 2.8.0's METADATA:
// 8008 bytes recorded, 8004 in the archive) is one fact: both findings rest on it.
TEST(RecordCheckFindings, OneMemberThatDiffersInSizeAndHashIsOneFact) {
  RecordCheck one{"x.dist-info/RECORD", 10, {}, {}, {{"x.dist-info/METADATA", 8008, 8004}}, 9, {"x.dist-info/METADATA"}};
  EXPECT_EQ(facts_of(one), (std::vector<std::string>{"record_member x.dist-info/METADATA",
                                                     "record_member x.dist-info/METADATA"}));
  // Another member missing as well: the second finding rests on that one, a fact of its own.
  RecordCheck two = one;
  two.missing = {"x/gone.py"};
  EXPECT_EQ(facts_of(two),
            (std::vector<std::string>{"record_member x.dist-info/METADATA", "record_member x/gone.py"}));
}

}  // namespace wheel_checks_test
}  // namespace onramp::wheel
