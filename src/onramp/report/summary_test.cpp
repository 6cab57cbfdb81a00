#include "onramp/report/summary.h"

#include <gtest/gtest.h>

#include "onramp/report/render.h"
#include "onramp/report/summary_test_util.h"

namespace onramp::report {
namespace summary_test {  // one per file: a unity batch joins several

using testing::audit_report;

TEST(Summary, TheAnswerTheRootsByTitleAndTheHeadlineInTheirOrder) {
  Report r = audit_report();
  Summary s = summarize(r);
  EXPECT_EQ(s.heading, "Verdict: torch-tpu");
  EXPECT_EQ(s.target, "torch-tpu==0.2.0");
  EXPECT_EQ(s.host, "Python 3.11.7, torch 2.13.0+cpu, chosen by --python");
  EXPECT_EQ(s.answer, "Installs and imports; 1 cause blocks it on this machine, and 1 more makes it harder.");
  ASSERT_EQ(s.roots.size(), 2u);
  EXPECT_EQ(s.roots[0].title, "'tpu' is never registered as a device name on this machine");
  EXPECT_EQ(s.roots[0].following, 1u);
  EXPECT_EQ(s.roots[1].title, "import torch_tpu shows 1 warning(s) to every user");
  ASSERT_EQ(s.headline.size(), 3u);  // download, cold import, audit time; the outcome is not a headline
  EXPECT_EQ(s.headline[0]->key, "download_bytes");
  EXPECT_EQ(s.headline[2]->key, "audit_wall_seconds");
}

TEST(Summary, AViewThatKeptOnlyTheVerdictCountsItsCopies) {
  Report r = audit_report();
  Section& verdict = r.sections[0];
  for (const auto& f : r.sections[1].findings) verdict.add(f);  // the copies keep ids and links
  r.sections.resize(1);
  Summary s = summarize(r);
  ASSERT_EQ(s.roots.size(), 2u);
  EXPECT_EQ(s.roots[0].following, 1u);
}

TEST(Summary, TheTerminalViewPutsTheAnswerAndEveryRootInItsFirst24Lines) {
  Report r = audit_report();
  TextStyle style;
  style.width = 100;
  std::string text = render_text(r, style);
  std::string first;
  size_t at = 0;
  for (int line = 0; line < 24 && at != std::string::npos; ++line) {
    size_t end = text.find('\n', at);
    first += text.substr(at, end == std::string::npos ? std::string::npos : end - at + 1);
    at = end == std::string::npos ? end : end + 1;
  }
  for (const char* expected : {"Target: torch-tpu==0.2.0", "Answer: Installs and imports",
                               "'tpu' is never registered as a device name on this machine (1 more follows)",
                               "import torch_tpu shows 1 warning(s) to every user", "Download"}) {
    EXPECT_NE(first.find(expected), std::string::npos) << expected << "\n" << first;
  }
}

TEST(Summary, MarkdownStartsWithTheAnswerForAJobSummary) {
  std::string md = render_markdown(audit_report());
  EXPECT_EQ(md.find("## Verdict: torch-tpu"), 0u) << md;
  EXPECT_LT(md.find("**Answer:** Installs and imports"), md.find("## Probe"));
  EXPECT_NE(md.find("| 'tpu' is never registered as a device name on this machine | blocker | 1 more follows |"),
            std::string::npos)
      << md;
  EXPECT_EQ(render_markdown_summary(audit_report()), md.substr(0, render_markdown_summary(audit_report()).size()));
}

}  // namespace summary_test
}  // namespace onramp::report
