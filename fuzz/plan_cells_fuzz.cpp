// The cells file of `onramp plan` (toml++ underneath): any text gives cells
// or one line naming the file, and any cells give a plan and a workflow.
#include "fuzz_input.h"
#include "onramp/plan/cells.h"
#include "onramp/plan/jobs.h"
#include "onramp/plan/workflow.h"

ONRAMP_FUZZ_TARGET(plan_cells) {
  std::string_view text = onramp::fuzz::as_text(data, size);
  auto cells = onramp::plan::parse_cells(text, "fuzz.toml");
  if (!cells) {
    if (cells.error().message.find('\n') != std::string::npos) __builtin_trap();
    return 0;
  }
  auto plan = onramp::plan::make_plan(*cells);
  (void)onramp::plan::matrix_json(plan).dump();
  (void)onramp::plan::workflow_yaml(plan);
  return 0;
}
