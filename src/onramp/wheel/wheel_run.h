#pragma once
// The whole `onramp wheel` analysis: read every wheel (a bad one stops it
// before any output), judge it against an interpreter, and build one section
// per wheel. Shared by the wheel and audit subcommands.
#include <string>
#include <vector>

#include "onramp/python/interpreter.h"
#include "onramp/report/model.h"
#include "onramp/wheel/wheel_archive.h"
#include "onramp/wheel/wheel_reads.h"

namespace onramp::wheel {

struct WheelRunOptions {
  std::vector<std::string> wheels;
  python::PythonRequest python;  // default: python3 if it has torch, else /usr/bin/python3
  std::string readme;  // a README to check the first wheel's stated Python requirement against
  ArchiveLimits limits;
};

// Throws FatalError on a bad wheel or README, or an unusable --python.
std::vector<report::Section> run_wheel_sections(python::Interpreters& interpreters, WheelReads& reads,
                                                const WheelRunOptions& options);

}  // namespace onramp::wheel
