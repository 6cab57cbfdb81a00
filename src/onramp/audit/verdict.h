#pragma once
// The verdict the seed article wrote by hand, made from data: what the
// README's lines did, the friction figures, what is good design, and every
// counting method for the op claims. Built only from the other sections'
// figures, tables and findings; each figure names the one it came from.
#include <string>
#include <vector>

#include "onramp/report/model.h"

namespace onramp::audit {

// `own`: the audit's findings about itself (a step that could not run, what
// was not measured); a "Not measured" finding is said first.
report::Section build_verdict(const report::Report& report, const std::string& backend_name,
                              const std::vector<std::string>& claims = {}, std::vector<report::Finding> own = {});

}  // namespace onramp::audit
