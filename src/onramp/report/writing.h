#pragma once
// The words every section writer uses, brought in with one line inside its
// own namespace: `using namespace report::writing;`.
#include "onramp/report/model.h"

namespace onramp::report::writing {

using report::Figure;
using report::Finding;
using report::Json;
using report::Section;
using report::Severity;
using report::Table;

}  // namespace onramp::report::writing
