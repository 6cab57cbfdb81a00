#pragma once
// PyTorch's integration points for an out-of-tree accelerator, as
// data/integration.toml lists them (docs/integration.md explains each).
#include <string>
#include <string_view>
#include <vector>

#include "onramp/util/error.h"

namespace onramp::integration {

struct Point {
  std::string id;        // "device_guard"
  std::string title;     // "Device guard"
  std::string source;    // the PyTorch document it comes from
  std::string group;     // "probe", "runtime" or "autoload": where onramp checks it
  std::string check;     // how it is checked without the device
  std::string hardware;  // what cannot be told without the device
  std::vector<std::string> ops;  // the op overloads a point names (the minimum operator set)
};

// The [[point]] tables of `toml_text`, in order; every field is required and
// ids are unique.
Result<std::vector<Point>> parse_points(std::string_view toml_text, const std::string& origin);

// data/integration.toml, embedded at build time.
const std::vector<Point>& builtin_points();

}  // namespace onramp::integration
