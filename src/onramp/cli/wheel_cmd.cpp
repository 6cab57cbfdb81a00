#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "onramp/cli/command.h"
#include "onramp/cli/output.h"
#include "onramp/runtime/interpreter.h"
#include "onramp/wheel/wheel_section.h"

namespace onramp::cli {
namespace {

struct WheelArgs {
  std::vector<std::string> wheels;
  std::string python;
  std::string readme;
  wheel::ArchiveLimits limits;
  OutputOptions output;
};

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in || std::filesystem::is_directory(path)) throw FatalError(path + ": cannot read the README");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int run_wheel(const WheelArgs& args) {
  wheel::WheelContext context;
  if (!args.readme.empty()) {
    context.readme_path = args.readme;
    context.readme_text = read_text_file(args.readme);
  }
  // Read every wheel first: a bad one stops the command before any output.
  std::vector<wheel::WheelFacts> facts;
  for (const auto& path : args.wheels) facts.push_back(value_or_fatal(wheel::read_wheel_facts(path, args.limits)));
  SandboxRunner runner;
  if (auto py = runtime::choose_interpreter(runner, args.python)) {
    context.interpreter = std::move(*py);
  } else if (!args.python.empty()) {
    throw FatalError(py.error().message);
  } else {
    context.interpreter_error = py.error().message;
  }
  report::Report report;
  report.target = report::Json{{"kind", "wheel"}, {"paths", args.wheels}};
  for (const auto& f : facts) {
    context.section_key = facts.size() == 1 ? "wheel" : "wheel:" + std::filesystem::path(f.archive.path).filename().string();
    report.sections.push_back(wheel::wheel_section(f, context));
  }
  args.output.emit(report);
  return 0;
}

}  // namespace

Command wheel_command() {
  return {"wheel", "Read a wheel without installing it: metadata, sizes, native payload, requirements",
          [](CLI::App& app) -> Action {
            auto args = std::make_shared<WheelArgs>();
            app.add_option("WHEEL", args->wheels, "A .whl file; several are reported one after another")->required();
            app.add_option("--python", args->python,
                           "Judge Requires-Python and the torch requirement against this interpreter "
                           "(default: python3 if it has torch, else /usr/bin/python3)");
            app.add_option("--readme", args->readme, "Check the README's stated Python requirement against Requires-Python");
            app.add_option("--max-unpacked", args->limits.max_unpacked_bytes,
                           "Refuse a wheel whose members declare more unpacked bytes than this (default 16 GiB)")
                ->type_name("BYTES");
            app.add_option("--max-ratio", args->limits.max_ratio,
                           "Refuse a wheel that unpacks to more than this many times its size, above 32 MiB (default 100)");
            args->output.declare(app);
            app.footer(R"(Examples:
  onramp wheel dist/torch_tpu-0.2.0-cp312-cp312-manylinux_2_31_x86_64.whl
  onramp wheel --readme README.md --python python3.12 torch_tpu-0.2.0-*.whl
  onramp wheel --json -o wheel.json dist/*.whl

Nothing is extracted or installed; the zip is read in place.)");
            return [args] { return run_wheel(*args); };
          }};
}

}  // namespace onramp::cli
