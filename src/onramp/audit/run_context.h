#pragma once
// What an audit asks of the machine, asked once and passed down to each step:
// the interpreters (each asked once per state, python/interpreter.h) and the
// wheels (each read once, wheel/wheel_reads.h), both made where the audit
// begins. The runner they hold runs every child process of the audit.
#include "onramp/python/interpreter.h"
#include "onramp/util/process.h"
#include "onramp/wheel/wheel_reads.h"

namespace onramp::audit {

struct RunContext {
  python::Interpreters& interpreters;
  wheel::WheelReads& wheels;
  ProcessRunner& runner() const { return interpreters.runner(); }
};

}  // namespace onramp::audit
