#pragma once
// The report section "index": the facts `onramp resolve` gathered, as
// figures, tables and findings. Lays out; computes nothing but sums.
#include "onramp/index/resolve.h"
#include "onramp/report/model.h"

namespace onramp::index {

report::Section index_section(const IndexFacts& facts);

}  // namespace onramp::index
