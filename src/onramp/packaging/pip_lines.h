#pragma once
// pip's own words about why it failed, read from its printed output. pip has
// no machine-readable form of a refusal or a failed build (its --report is
// not written when it fails), so its lines are read: they quote requirements
// and build output from the index's packages, so the text is hostile
// (fuzz/pip_lines_fuzz.cpp).
#include <cstddef>
#include <string>
#include <vector>

namespace onramp::index {

// The lines that say why pip refused, in the order printed: "ERROR: Cannot
// install ...", the lines under "The conflict is caused by:", "Could not find
// a version that satisfies ...", "No matching distribution found for ...", a
// Requires-Python refusal, and the first error lines of a build subprocess.
// Never pip's closing hints ("hint: See above for details.", "note: ...",
// "for help visit ..."). Empty when pip printed none of them.
std::vector<std::string> refusal_lines(const std::string& pip_output);

// The first error lines of a failed build's own output (the block pip frames
// with "[N lines of output]" ... "[end of output]"): those that say "error",
// else the block's first line; without a block, pip's own "ERROR:" lines. At
// most `max` lines, each trimmed.
std::vector<std::string> build_error_lines(const std::string& pip_output, size_t max);

}  // namespace onramp::index
