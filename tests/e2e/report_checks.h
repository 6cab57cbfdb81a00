#pragma once
// The checks every report an end-to-end test makes must pass, whatever the
// test asks of it: each blocker and friction has a title (the claim in one
// line of at most 100 characters), and a title shortened with "…" was cut at
// whitespace or punctuation of its text, never mid-word. run_onramp applies
// them to every report it sees (JSON on stdout, DIR/report.json after --out DIR).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace onramp::e2e {

// Adds a test failure for each finding of `report` that breaks the rules above; `where` names the report.
void expect_readable_report(const nlohmann::json& report, const std::string& where);

// The reports a run of onramp left: its stdout when that is a report, and
// the report.json of the directory after --out. Each is checked.
void check_reports_of_run(const std::vector<std::string>& args, const std::string& out);

}  // namespace onramp::e2e
