#pragma once
// How every renderer writes a finding's text: "TEXT (PLACE)" when it has a
// place (report/2 keeps the place in a field of its own).
#include <string>

#include "onramp/report/model.h"

namespace onramp::report {

inline std::string text_with_place(const Finding& f) { return f.place.empty() ? f.text : f.text + " (" + f.place + ")"; }

}  // namespace onramp::report
