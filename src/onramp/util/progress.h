#pragma once
// Progress for a person watching a long run: a sink each command makes where
// it begins and passes down (options' `progress`, a sandbox's). It goes to
// stderr, never into a report; analyses write to a terminal only through it.
#include <functional>
#include <string>

namespace onramp {

using Progress = std::function<void(const std::string&)>;

// The terminal's sink: "onramp: MESSAGE" on stderr, one line at a time from
// any thread (util/jobs.h).
Progress stderr_progress();

// Says nothing (the default of options made in code and tests).
inline void no_progress(const std::string&) {}

}  // namespace onramp
