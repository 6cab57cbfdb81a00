#pragma once
// JUnit XML for CI (GitHub Actions, GitLab, Jenkins): one testcase per budget.
#include <string>
#include <string_view>

#include "onramp/report/budget.h"

namespace onramp::report {

// Escapes text for XML 1.0 attributes and content; characters XML 1.0 cannot
// hold (control characters other than tab, newline, carriage return) become U+FFFD.
std::string xml_escape(std::string_view text);

// A <testsuites> document: a failed budget is a <failure> whose message holds
// the value and the limit and whose body adds method, evidence and why; a
// budget allowed to be missing is <skipped>.
std::string budgets_junit_xml(const BudgetEvaluation& evaluation);

}  // namespace onramp::report
