#include "onramp/wheel/wheel_run.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "onramp/python/interpreter.h"
#include "onramp/report/section_keys.h"
#include "onramp/wheel/wheel_section.h"
#include "onramp/util/text_file.h"

namespace onramp::wheel {

std::vector<report::Section> run_wheel_sections(python::Interpreters& interpreters, WheelReads& reads,
                                                const WheelRunOptions& options) {
  WheelContext context;
  if (!options.readme.empty()) {
    context.readme_path = options.readme;
    context.readme_text = value_or_fatal(util::read_text_file(options.readme));
  }
  std::vector<WheelFacts> facts;
  for (const auto& path : options.wheels) facts.push_back(value_or_fatal(reads.read(path, options.limits)));
  if (auto py = interpreters.choose(options.python)) {
    context.interpreter = std::move(*py);
  } else if (options.python.named()) {
    throw FatalError(py.error().message);
  } else {
    context.interpreter_error = py.error().message;
  }
  std::vector<report::Section> sections;
  for (const auto& f : facts) {
    context.section_key =
        facts.size() == 1 ? keys::kSection : keys::kSection + (":" + std::filesystem::path(f.archive.path).filename().string());
    sections.push_back(wheel_section(f, context));
    // The README is the first wheel's (the backend's): its dependencies' metadata is not held to it.
    context.readme_path.clear();
    context.readme_text.clear();
  }
  return sections;
}

}  // namespace onramp::wheel
