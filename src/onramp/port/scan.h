#pragma once
// onramp port scan: which CUDA-only calls a user's Python makes. Files are
// parsed by Python's own `ast` in the sandbox (python/scan.py); each site it
// reports takes the first CUDA-ism rule that matches.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "onramp/port/cudaism_rules.h"
#include "onramp/python/sandbox.h"
#include "onramp/util/error.h"

namespace onramp::port {

struct FileError {
  std::string kind;  // SyntaxError, UnicodeDecodeError, OSError ...
  std::string message;
  int line = 0;
};

struct ScannedFile {
  std::string path;  // as the user named it (argument joined with the walk)
  size_t lines = 0;
  std::vector<Site> sites;  // sorted by line, column
  std::optional<FileError> error;
};

struct ScanResult {
  std::vector<ScannedFile> files;  // sorted by path
  std::string python_version;
  std::string command;  // as run, for evidence
};

struct InputFile {
  std::string display;  // the path the report shows
  std::string absolute;
};

// Python files under each path: a file is taken as named, a directory is
// walked for *.py, skipping hidden directories, __pycache__ and virtual
// environments (a pyvenv.cfg). Sorted by display path. A missing path is an
// error naming it.
Result<std::vector<InputFile>> collect_python_files(const std::vector<std::string>& paths);

// Reads the scanner's JSON document; `inputs` maps its absolute paths back
// to display paths, in the order they were sent.
Result<ScanResult> parse_scan_output(const nlohmann::json& document, const std::vector<InputFile>& inputs);

// Runs the scanner over `inputs` in the sandbox, within the sandbox's limits.
Result<ScanResult> run_scan(python::Sandbox& box, const std::vector<InputFile>& inputs, const CudaismRules& rules);

}  // namespace onramp::port
