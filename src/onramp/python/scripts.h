#pragma once
// Every Python script onramp runs, named once: the key of the embedded file
// (util/embedded.h), which is its path in the source tree. Scripts for the
// sandbox run from the run directory (python/sandbox.h); the short ones run
// outside it go to the interpreter as `-c` (their text, embedded).
namespace onramp::python::scripts {

// Run in the sandbox: the probe's runs,
inline constexpr const char *kApiProbe = "src/onramp/probe/python/api_probe.py",
                            *kImportProbe = "src/onramp/probe/python/import_probe.py",
                            *kRenameSites = "src/onramp/probe/python/rename_sites.py";
// the integration scorecard's groups (integration.py imports matrix_first.py),
inline constexpr const char *kIntegration = "src/onramp/integration/python/integration.py",
                            *kMatrixFirst = "src/onramp/integration/python/matrix_first.py";
// the examples, statement by statement, and the port's scan and trace,
inline constexpr const char *kRunStatements = "src/onramp/examples/python/run_statements.py",
                            *kPortScan = "src/onramp/port/python/scan.py", *kPortTrace = "src/onramp/port/python/trace.py";
// and the helpers written beside each: the one every script imports last,
// and the one that records an exception with the innermost of its chain.
inline constexpr const char *kExitHelper = "src/onramp/python/python/onramp_exit.py",
                            *kErrorsHelper = "src/onramp/python/python/onramp_errors.py";

// Run with -c, outside the sandbox: an interpreter's facts (python::Runner's
// bare policy), pip's default index and a host's torch (as the user).
inline constexpr const char *kInterpreterQuery = "src/onramp/python/python/interpreter_query.py",
                            *kPipDefaultIndex = "src/onramp/index/python/pip_default_index.py",
                            *kTorchVersion = "src/onramp/host/python/torch_version.py";

}  // namespace onramp::python::scripts
