#pragma once
// Every Python script onramp runs, named once: the key of the embedded file
// (util/embedded.h), which is its path in the source tree. Scripts for the
// sandbox run from the run directory (python/sandbox.h); the short ones run
// outside it go to the interpreter as `-c` (their text, embedded).
namespace onramp::python::scripts {

// Run in the sandbox.
inline constexpr const char* kApiProbe = "src/onramp/probe/python/api_probe.py";
inline constexpr const char* kImportProbe = "src/onramp/probe/python/import_probe.py";
inline constexpr const char* kRenameSites = "src/onramp/probe/python/rename_sites.py";
inline constexpr const char* kIntegration = "src/onramp/integration/python/integration.py";
inline constexpr const char* kMatrixFirst = "src/onramp/integration/python/matrix_first.py";  // integration.py imports it
inline constexpr const char* kRunStatements = "src/onramp/examples/python/run_statements.py";
inline constexpr const char* kPortScan = "src/onramp/port/python/scan.py";
inline constexpr const char* kPortTrace = "src/onramp/port/python/trace.py";
inline constexpr const char* kExitHelper = "src/onramp/python/python/onramp_exit.py";  // every script imports it

// Run with -c.
inline constexpr const char* kInterpreterQuery = "src/onramp/python/python/interpreter_query.py";
inline constexpr const char* kPipDefaultIndex = "src/onramp/index/python/pip_default_index.py";
inline constexpr const char* kTorchVersion = "src/onramp/host/python/torch_version.py";

}  // namespace onramp::python::scripts
