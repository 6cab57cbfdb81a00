#include "onramp/audit/steps.h"

#include "onramp/report/section_keys.h"

namespace onramp::audit {

report::Table steps_table(const std::vector<StepRecord>& steps) {
  report::Table t{keys::kStepsTable, "Audit steps",
                  "each step in the order it ran (steps that ran at once, in the order of the list); a step that "
                  "could not run is recorded with its reason and the audit goes on",
                  "onramp audit",
                  {{"step", "Step", ""}, {"status", "Status", ""}, {"seconds", "Seconds", "s"},
                   {"ran_at_once", "Ran at once", ""}, {"detail", "Detail", ""}},
                  {}};
  for (const auto& s : steps) {
    t.rows.push_back(report::Json{{"step", s.name}, {"status", s.status}, {"seconds", s.seconds},
                                  {"ran_at_once", s.ran_at_once}, {"detail", s.reason}});
  }
  return t;
}

std::vector<std::string> failed_steps(const report::Report& report) {
  std::vector<std::string> failed;
  for (const auto& section : report.sections) {
    for (const auto& table : section.tables) {
      if (section.key != keys::kVerdictSection || table.key != keys::kStepsTable) continue;
      for (const auto& row : table.rows) {
        if (row.value("status", std::string()) == "failed") failed.push_back(row.value("step", std::string()));
      }
    }
  }
  return failed;
}

std::function<Result<std::filesystem::path>()> step_dir_maker(const std::filesystem::path& dir) {
  return [dir]() -> Result<std::filesystem::path> {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return fail(dir.string() + ": " + ec.message());
    return dir;
  };
}

}  // namespace onramp::audit
