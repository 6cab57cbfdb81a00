#pragma once
// Turns a wheel's facts into a report section: identity and tags, metadata,
// sizes per top-level directory, native payload with ELF facts, the RECORD
// check, importable modules, and the checks against an interpreter and a
// README. Every figure names its method and its evidence.
#include <optional>
#include <string>

#include "onramp/report/model.h"
#include "onramp/python/interpreter.h"
#include "onramp/report/section_keys.h"
#include "onramp/wheel/wheel_facts.h"

namespace onramp::wheel {

struct WheelContext {
  std::string section_key = keys::kSection;
  std::optional<python::InterpreterFacts> interpreter;
  std::string interpreter_error;  // why there are no interpreter facts
  std::string readme_path;        // empty: no README check
  std::string readme_text;
};

report::Section wheel_section(const WheelFacts& facts, const WheelContext& context);

// ELF members, largest first (ties by path).
std::vector<const ArchiveMember*> native_members(const WheelArchive& archive);

}  // namespace onramp::wheel
