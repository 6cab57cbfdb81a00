// Hand-written: a JUnit file is a few elements, and no Debian XML writer is
// worth the dependency for that.
#include "onramp/report/junit.h"

#include <fmt/format.h>

namespace onramp::report {
namespace {

std::string testcase(const BudgetResult& r) {
  const std::string reads = r.budget.figure.empty() ? r.budget.table : r.budget.figure;
  std::string out = fmt::format("    <testcase classname=\"onramp.budgets.{}\" name=\"{}\"",
                                xml_escape(reads.substr(0, reads.find('.'))), xml_escape(r.budget.name));
  if (r.status == BudgetStatus::pass) return out + "/>\n";
  out += ">\n";
  std::string details = fmt::format("reads: {}\nlimit: {}\nresult: {}\nmethod: {}\nevidence: {}\n", reads, r.limit,
                                    r.message, r.method, r.evidence);
  if (!r.budget.why.empty()) details += "why: " + r.budget.why + "\n";
  if (!r.failed()) {
    out += fmt::format("      <skipped message=\"{}\"/>\n", xml_escape(r.message));
  } else {
    const char* type = r.status == BudgetStatus::fail ? "budget_exceeded" : "not_measured";
    out += fmt::format("      <failure message=\"{}\" type=\"{}\">{}</failure>\n", xml_escape(r.message), type,
                       xml_escape(details));
  }
  return out + "    </testcase>\n";
}

}  // namespace

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\t': out += "&#9;"; break;
      case '\n': out += "&#10;"; break;
      case '\r': out += "&#13;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += "\xEF\xBF\xBD";
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string budgets_junit_xml(const BudgetEvaluation& e) {
  size_t failures = e.failures(), skipped = 0;
  for (const auto& r : e.results) skipped += (r.status == BudgetStatus::not_measured && !r.failed()) ? 1 : 0;
  std::string suite = "onramp budgets (" + e.budget_origin + ")";
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"onramp\" tests=\"{0}\" failures=\"{1}\" errors=\"0\" skipped=\"{2}\">\n",
                     e.results.size(), failures, skipped);
  out += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">\n",
                     xml_escape(suite), e.results.size(), failures, skipped);
  for (const auto& r : e.results) out += testcase(r);
  return out + "  </testsuite>\n</testsuites>\n";
}

}  // namespace onramp::report
