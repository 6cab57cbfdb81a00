#pragma once
// A finding's title: the claim in one line of at most 100 characters, shown
// first in every view, with its text (the detail) one step away. The title
// its maker or its diagnosis rule wrote (Finding::title), else the text's
// first clause (up to ": ", ". " or "; " outside parentheses and quotes)
// when that is a claim of 12 to 100 characters, else the text shortened at a
// word or punctuation with "…" (util::shortened).
#include <string>

#include "onramp/report/model.h"

namespace onramp::report {

inline constexpr size_t kTitleLimit = 100;

std::string finding_title(const Finding& finding);

}  // namespace onramp::report
