#include "onramp/diagnosis/outcome.h"

#include <gtest/gtest.h>

#include "onramp/report/finding_title.h"

namespace onramp::diagnosis {
namespace outcome_test {  // one per file: a unity batch joins several

// torch's "Could not run" names the op on its first line and lists every dispatch key's kernel after it.
const std::string kCouldNotRun =
    "Could not run 'aten::lt.Scalar_out' with arguments from the 'PrivateUse1' backend. This could be because the "
    "operator doesn't exist for this backend.\n"
    "CPU: registered at aten/src/ATen/RegisterCPU.cpp:31419 [kernel]\n"
    "Meta: registered at aten/src/ATen/RegisterMeta.cpp:26984 [kernel]\n";

TEST(FailureFinding, TheFirstLineIsInTheSentenceWholeAndTheMessageIsTheLog) {
  Failure f = diagnosed("NotImplementedError", kCouldNotRun);
  report::Finding finding = failure_finding("`x < 1` on 'ref'", f, "cmd");
  EXPECT_NE(finding.text.find("doesn't exist for this backend."), std::string::npos) << finding.text;
  EXPECT_EQ(finding.text.find("RegisterCPU"), std::string::npos) << "log lines stay out of the sentence";
  EXPECT_EQ(finding.text.find('\n'), std::string::npos);
  EXPECT_EQ(finding.log, kCouldNotRun.substr(0, kCouldNotRun.size() - 1));  // trimmed: the last newline
  ASSERT_NE(f.diagnosis, nullptr);
  EXPECT_EQ(report::finding_title(finding), "aten::lt.Scalar_out has no PrivateUse1 kernel");
}

TEST(FailureFinding, AOneLineMessageHasNoLogAndIsNeverCut) {
  std::string message = "device " + std::string(600, 'x') + " is not known";
  Failure f = diagnosed("ValueError", message);
  report::Finding finding = failure_finding("`torch.device(d)`", f, "cmd");
  EXPECT_TRUE(finding.log.empty());
  EXPECT_NE(finding.text.find(message), std::string::npos) << "the whole message is in the text";
  // No rule matched: the title says what failed and how.
  EXPECT_EQ(finding.diagnosis, "");
  EXPECT_EQ(report::finding_title(finding), "`torch.device(d)`: ValueError");
  // A table's cell holds it whole too: a view fits it to its width.
  EXPECT_EQ(failure_line(f), "ValueError: " + message);
  EXPECT_EQ(failure_line(diagnosed("NotImplementedError", kCouldNotRun)),
            "NotImplementedError: " + kCouldNotRun.substr(0, kCouldNotRun.find('\n')));
}

TEST(FailureFinding, TheWrapperIsNamedByItsFirstLine) {
  Raised raised{"RuntimeError", "Failed to load the backend extension: foo.\nYou can disable extension auto-loading",
                "ImportError", "libfoo.so: undefined symbol: _ZN3c104impl3barEv", {}};
  Failure f = diagnosed(raised);
  report::Finding finding = failure_finding("import foo", f, "cmd");
  EXPECT_NE(finding.text.find("(raised inside RuntimeError: Failed to load the backend extension: foo.)"),
            std::string::npos)
      << finding.text;
}

}  // namespace outcome_test
}  // namespace onramp::diagnosis
