#include "onramp/ops/aten_locator.h"

#include <filesystem>
#include <vector>

#include "onramp/util/capture.h"

namespace onramp::ops {
namespace {

constexpr const char* kWhereIsTorchgen = "import os, torchgen; print(os.path.dirname(torchgen.__file__))";
constexpr const char* kPackagedSchema = "/packaged/ATen/native/native_functions.yaml";

std::string trim_line(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

Result<SchemaLocation> locate_aten_schema(const std::string& aten, const std::string& python) {
  namespace fs = std::filesystem;
  if (!aten.empty()) {
    std::error_code ec;
    std::string path = fs::is_directory(aten, ec) ? aten + "/native_functions.yaml" : aten;
    if (!fs::is_regular_file(path, ec)) return fail(path + ": no such native_functions.yaml");
    return SchemaLocation{path, path};
  }
  std::vector<std::string> candidates = python.empty() ? std::vector<std::string>{"python3", "/usr/bin/python3"}
                                                       : std::vector<std::string>{python};
  std::string tried;
  for (const auto& py : candidates) {
    auto r = util::capture_stdout({py, "-c", kWhereIsTorchgen});
    tried += (tried.empty() ? "" : ", ") + py;
    if (!r || r->exit_code != 0) continue;
    std::string path = trim_line(r->out) + kPackagedSchema;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) continue;
    return SchemaLocation{path, py + " -c '" + kWhereIsTorchgen + "'"};
  }
  return fail("no ATen schema: no Python with torchgen found (tried " + tried +
              "); pass --python PATH or --aten native_functions.yaml");
}

}  // namespace onramp::ops
