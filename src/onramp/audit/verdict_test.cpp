#include "onramp/audit/verdict.h"

#include <gtest/gtest.h>

namespace onramp::audit {
namespace verdict_test {  // one per file: a unity batch joins several

using report::Figure;

report::Report with_examples(std::vector<Figure> figures) {
  report::Report r;
  report::Section ex{"examples", "Examples", std::move(figures), {}, {}};
  r.sections.push_back(std::move(ex));
  return r;
}

Figure fig(const std::string& key, size_t value) { return Figure{key, key, value, "lines", "m", "e", ""}; }

const report::Finding* finding_with(const report::Section& v, const std::string& words) {
  for (const auto& f : v.findings) {
    if (f.text.find(words) != std::string::npos) return &f;
  }
  return nullptr;
}

TEST(Verdict, RootFailuresAreSummedUpByCauseBeforeTheLinesThatFollow) {
  auto v = build_verdict(with_examples({fig("failure_causes", 3), fig("root_failures", 5),
                                        fig("following_failures", 8)}),
                         "");
  const auto* f = finding_with(v, "3 causes, 5 root failures, 8 lines that follow from them");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, report::Severity::info);
}

TEST(Verdict, TheDocumentedPortStandsBesideTheClaimAboutCodeChanges) {
  auto v = build_verdict(with_examples({fig("diff_fences", 3), fig("diff_lines_added", 8),
                                        fig("diff_lines_removed", 4), fig("diff_lines_changed", 3)}),
                         "PyTorch/XLA", {"450 ops", "minimal code changes"});
  const auto* f = finding_with(v, "The documented port (3 diff fence(s)) adds 8 line(s) of code and removes 4; 3 of "
                                  "the added lines replace a removed one. The backend claims \"minimal code changes\".");
  ASSERT_NE(f, nullptr);
}

TEST(Verdict, NoDiffFencesNoDocumentedPort) {
  auto v = build_verdict(with_examples({fig("root_failures", 0)}), "", {"minimal code changes"});
  EXPECT_EQ(finding_with(v, "documented port"), nullptr);
}

}  // namespace
}  // namespace onramp::audit
