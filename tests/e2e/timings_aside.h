#pragma once
// A report less what the clock decides, so that two runs of the same work
// (--jobs 1 and --jobs N) can be compared record by record.
#include <nlohmann/json.hpp>

namespace onramp::e2e {

// Text that differs from run to run whatever --jobs is: log lines' time
// stamps and thread ids, and durations written into text.
void clock_text_aside(nlohmann::json& value);

// The report less timing values (unit "s") and their ran_at_once, the
// per-run timing and memory cells, peak memory, the importtime tables' rows
// (ordered by time), clock text, and where the run wrote. Findings are
// compared without their ids.
nlohmann::json timings_aside(nlohmann::json doc);

}  // namespace onramp::e2e
