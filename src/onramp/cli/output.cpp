#include "onramp/cli/output.h"
#include "onramp/cli/path_arg.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

#include "onramp/util/error.h"

namespace onramp::cli {

void OutputOptions::declare(CLI::App& app) {
  auto* j = app.add_flag("--json", json, "Write the report as JSON (schema: docs/report-schema.md)");
  auto* m = app.add_flag("--markdown", markdown, "Write the report as Markdown");
  auto* h = app.add_flag("--html", html, "Write the report as a self-contained HTML page with charts");
  j->excludes(m, h);
  m->excludes(h);
  app.add_option("-o,--output", output, "Write the report to FILE instead of standard output")->check(path_arg());
}

report::Format OutputOptions::format() const {
  if (json) return report::Format::json;
  if (markdown) return report::Format::markdown;
  if (html) return report::Format::html;
  return report::Format::text;
}

void OutputOptions::emit(const report::Report& report) const { write(report::render(report, format())); }

void OutputOptions::write(const std::string& text) const {
  if (output.empty()) {
    std::cout << text << std::flush;
    return;
  }
  std::ofstream out(output, std::ios::binary);
  if (!out) throw FatalError(output + ": cannot write: " + std::strerror(errno));
  out << text;
  if (!out.flush()) throw FatalError(output + ": write failed: " + std::strerror(errno));
}

}  // namespace onramp::cli
