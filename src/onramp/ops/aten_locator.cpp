#include "onramp/ops/aten_locator.h"

#include <filesystem>

#include "onramp/python/interpreter.h"

namespace onramp::ops {
namespace {

constexpr const char* kPackagedSchema = "/packaged/ATen/native/native_functions.yaml";

}  // namespace

Result<SchemaLocation> locate_aten_schema(python::Interpreters& interpreters, const std::string& aten,
                                          const python::PythonRequest& python) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!aten.empty()) {
    std::string path = fs::is_directory(aten, ec) ? aten + "/native_functions.yaml" : aten;
    if (!fs::is_regular_file(path, ec)) return fail(path + ": no such native_functions.yaml");
    return SchemaLocation{path, path};
  }
  auto facts = interpreters.choose(python, /*need_torch=*/true);
  if (!facts) {
    return fail("no ATen schema: " + facts.error().message + "; pass --python PATH or --aten native_functions.yaml");
  }
  std::string path = facts->torchgen_dir + kPackagedSchema;
  if (facts->torchgen_dir.empty() || !fs::is_regular_file(path, ec)) {
    return fail("no ATen schema: " + python::describe(*facts) +
                " has no torchgen with a packaged native_functions.yaml; pass --aten native_functions.yaml");
  }
  return SchemaLocation{path, "the torchgen of " + python::describe(*facts) + " (" + facts->command + ")"};
}

}  // namespace onramp::ops
