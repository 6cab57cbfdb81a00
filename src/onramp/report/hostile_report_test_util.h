#pragma once
// For tests of the readers of saved reports (diff, budgets): a report with
// the right schema and wrong types everywhere else.
#include "onramp/report/model.h"

namespace onramp::report::testing {

// A report another tool wrote, or edited by hand, with wrong types anywhere.
inline Json hostile_report() {
  return Json::parse(R"({
    "schema": "onramp.report/1", "target": 5, "generated_at": [],
    "sections": {"census": {"title": 7,
      "figures": [3, {"key": 5, "value": "x"}, {"key": "files_total", "label": [], "value": {}, "unit": 1},
                  {"key": "import_cold_s", "value": 1, "not_measured": 2}],
      "tables": [1, {"key": "t", "columns": "no", "rows": [1, "a", {"x": 1}, null]},
                 {"key": "lines_by_language", "columns": [4, {"key": 1}], "rows": 3}],
      "findings": [{"severity": 1, "text": null}, "x"]}}})");
}

}  // namespace onramp::report::testing
