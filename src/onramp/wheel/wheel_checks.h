#pragma once
// The judgements of `onramp wheel`: RECORD against the archive, whether the
// wheel can be imported at all, Requires-Python and the torch requirement
// against an interpreter, and a README's Python claim against the metadata.
#include <string>

#include "onramp/report/model.h"
#include "onramp/wheel/wheel_facts.h"
#include "onramp/wheel/wheel_section.h"

namespace onramp::wheel {

void add_record_check(report::Section& s, const RecordCheck& record, const std::string& evidence);
void add_importable(report::Section& s, const WheelFacts& f, const std::string& evidence);
void add_interpreter_checks(report::Section& s, const WheelFacts& f, const WheelContext& c,
                            const std::string& metadata_evidence);
void add_readme_check(report::Section& s, const WheelFacts& f, const WheelContext& c,
                      const std::string& metadata_evidence);

}  // namespace onramp::wheel
