#pragma once
// Output options every reporting subcommand shares: --json, --markdown,
// --html, --output FILE (default: standard output), and for the terminal view
// --color, --brief and --details.
#include <CLI/CLI.hpp>
#include <functional>
#include <string>

#include "onramp/report/render.h"

namespace onramp::cli {

struct OutputOptions {
  bool json = false;
  bool markdown = false;
  bool html = false;
  bool brief = false;
  bool details = false;
  std::string color = "auto";
  std::string output;  // empty: stdout

  void declare(CLI::App& app);
  report::Format format() const;
  // The terminal view's layout: fitted and coloured on a terminal, as it is
  // in a pipe or a file (so the same input gives the same bytes there).
  report::TextStyle text_style() const;
  // Renders and writes the report; throws FatalError when the file cannot be written.
  void emit(const report::Report& report) const;
  // emit() of the report of `target` made of `sections` (and the run directory, where there is one).
  void emit(report::Json target, std::vector<report::Section> sections, std::string run_dir = "") const;
  // Renders the terminal view in `style` and writes it where emit() would.
  void emit_text(const report::Report& report, const report::TextStyle& style) const;
  // Writes already rendered text where emit() would (for documents that are not a Report).
  void write(const std::string& text) const;
  // A document of its own schema (a diff, a comparison): its own JSON with --json, its own page with
  // --html where it has one (`as_html` not empty), else `view`, the document as a report, like emit().
  void emit_document(const std::function<std::string()>& as_json, const std::function<std::string()>& as_html,
                     const std::function<report::Report()>& view) const;
};

}  // namespace onramp::cli
