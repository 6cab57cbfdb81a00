#pragma once
// Report files: reading a saved report back (`onramp diff` and `onramp
// budget` take any report.json that an onramp command wrote,
// docs/report-schema.md), and writing a rendered one.
#include <string>

#include "onramp/report/model.h"
#include "onramp/util/error.h"

namespace onramp::report {

// What onramp writes; what diff and budget read (docs/report-schema.md says
// what /2 and /3 added: an older report reads as a /3 whose new fields are absent).
inline constexpr const char* kReportSchema = "onramp.report/3";
inline constexpr const char* kReportSchemasRead[] = {"onramp.report/1", "onramp.report/2", "onramp.report/3"};

// Checks that a parsed document is an onramp report; `origin` names it in the error.
Result<void> check_report_json(const Json& document, const std::string& origin);

// Reads and checks a report.json. Errors name the file and the problem in one line.
Result<Json> load_report_json(const std::string& path);

// Writes a rendered report (JSON, Markdown, HTML, JUnit XML) to `path`,
// replacing it. Errors name the file and the reason in one line.
Result<void> write_report_file(const std::string& path, const std::string& text);

}  // namespace onramp::report
