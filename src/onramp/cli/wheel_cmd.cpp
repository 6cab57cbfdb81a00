#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "onramp/cli/command.h"
#include "onramp/cli/path_arg.h"
#include "onramp/cli/output.h"
#include "onramp/cli/shared_options.h"
#include "onramp/wheel/wheel_run.h"

namespace onramp::cli {
namespace {

struct WheelArgs {
  std::vector<std::string> wheels;
  python::PythonRequest python;
  std::string readme;
  wheel::ArchiveLimits limits;
  OutputOptions output;
};

int run_wheel(const WheelArgs& args) {
  SandboxRunner runner;
  python::Interpreters interpreters(runner, TimeLimits());
  wheel::WheelReads reads;
  args.output.emit(report::Json{{"kind", "wheel"}, {"paths", args.wheels}},
                    wheel::run_wheel_sections(interpreters, reads, {args.wheels, args.python, args.readme, args.limits}));
  return 0;
}

void declare_wheel(CLI::App& app, WheelArgs& args) {
  app.add_option("WHEEL", args.wheels, "A .whl file; several are reported one after another")->check(path_arg())->required();
  add_python_option(app, args.python, "Requires-Python and the torch requirement are judged against it");
  app.add_option("--readme", args.readme, "Check the README's stated Python requirement against Requires-Python")->check(path_arg());
  app.add_option("--max-unpacked", args.limits.max_unpacked_bytes,
                 "Refuse a wheel whose members declare more unpacked bytes than this")
      ->check(positive_number())
      ->capture_default_str()
      ->type_name("BYTES");
  app.add_option("--max-ratio", args.limits.max_ratio,
                 fmt::format("Refuse a wheel that unpacks to more than this many times its size, above {} MiB",
                             args.limits.ratio_floor_bytes >> 20))
      ->check(positive_number())
      ->capture_default_str();
}

}  // namespace

Command wheel_command() {
  return make_command<WheelArgs>("wheel", "Read a wheel without installing it: metadata, sizes, native payload, requirements",
                           R"(Examples:
  onramp wheel dist/torch_tpu-0.2.0-cp312-cp312-manylinux_2_31_x86_64.whl
  onramp wheel --readme README.md --python python3.12 torch_tpu-0.2.0-*.whl
  onramp wheel --json -o wheel.json dist/*.whl

Nothing is extracted or installed; the zip is read in place.)",
                           declare_wheel, run_wheel);
}

}  // namespace onramp::cli
