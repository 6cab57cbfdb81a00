// A kept resolution read back from the cache: a file anything may have
// written or cut short, checked before an audit begins an install from it.
#include <string>

#include "fuzz_input.h"
#include "onramp/audit/last_resolution.h"

ONRAMP_FUZZ_TARGET(last_resolution) {
  std::string text(onramp::fuzz::as_text(data, size));
  onramp::audit::AuditOptions options;
  options.target = "demo==1.0";
  options.sandbox.python = onramp::python::PythonRequest("/opt/py/bin/python");
  (void)onramp::audit::parse_last_resolution(text, onramp::audit::resolution_request(options));
  return 0;
}
