#include "onramp/audit/steps.h"

namespace onramp::audit {

report::Table steps_table(const std::vector<StepRecord>& steps) {
  report::Table t{"steps", "Audit steps",
                  "each step in the order it ran; a step that could not run is recorded with its reason and the "
                  "audit goes on",
                  "onramp audit",
                  {{"step", "Step", ""}, {"status", "Status", ""}, {"seconds", "Seconds", "s"}, {"detail", "Detail", ""}},
                  {}};
  for (const auto& s : steps) {
    t.rows.push_back(report::Json{{"step", s.name}, {"status", s.status}, {"seconds", s.seconds}, {"detail", s.reason}});
  }
  return t;
}

}  // namespace onramp::audit
