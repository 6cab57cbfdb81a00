#pragma once
// A documented example that fails because the backend lacks an integration
// point follows from that point (report/3's caused_by). The integration
// section's scorecard says which points are absent, raise or are partial;
// the rule of integration/needs.h (each point's needed_by in
// data/integration.toml) says which point a failed statement needs, from its
// source and its failure as the example run recorded them. A point that some
// example needs becomes a finding of the integration section (one per point),
// and each such example's root failure follows from it.
#include "onramp/report/model.h"

namespace onramp::audit {

// The reason a linked example finding gives, up to what matched.
inline constexpr const char* kNeedsPointReason = "it needs integration point ";

// Links the examples section's root failures (blockers and frictions that
// follow from nothing yet) to the points they need. Findings must have their
// ids (report::assign_finding_ids); new point findings get theirs.
void link_integration_points(report::Report& report);

}  // namespace onramp::audit
