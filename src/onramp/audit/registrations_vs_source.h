#pragma once
// The dispatcher's answer set beside the source's: the ops the probe saw the
// backend register for PrivateUse1 at run time (the probe section's
// "runtime_registered" listing) against the ops the source registers (the ops
// section's implemented registration inventories), with the differences both
// ways. Added to the probe section when both sections exist.
#include "onramp/report/model.h"

namespace onramp::audit {

void add_registrations_vs_source(report::Report& report);

}  // namespace onramp::audit
