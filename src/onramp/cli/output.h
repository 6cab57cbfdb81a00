#pragma once
// Output options every reporting subcommand shares: --json, --markdown,
// --html and --output FILE (default: standard output).
#include <CLI/CLI.hpp>
#include <string>

#include "onramp/report/render.h"

namespace onramp::cli {

struct OutputOptions {
  bool json = false;
  bool markdown = false;
  bool html = false;
  std::string output;  // empty: stdout

  void declare(CLI::App& app);
  report::Format format() const;
  // Renders and writes the report; throws FatalError when the file cannot be written.
  void emit(const report::Report& report) const;
  // Writes already rendered text where emit() would (for documents that are not a Report).
  void write(const std::string& text) const;
};

}  // namespace onramp::cli
