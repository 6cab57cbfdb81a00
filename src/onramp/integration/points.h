#pragma once
// PyTorch's integration points for an out-of-tree accelerator, as
// data/integration.toml lists them (docs/integration.md explains each).
#include <string>
#include <string_view>
#include <vector>

#include "onramp/util/error.h"

namespace onramp::integration {

// One entry of a point's `needed_by`: a failed example statement needs the
// point when its source contains `source` and its failure ("Type: message")
// contains `message`; an empty pattern matches anything, and "{device}"
// stands for the device name the scorecard's checks used (integration/needs.h).
struct Need {
  std::string source;
  std::string message;
};

struct Point {
  std::string id;        // "device_guard"
  std::string title;     // "Device guard"
  std::string source;    // the PyTorch document it comes from
  std::string group;     // "probe", "runtime" or "autoload": where onramp checks it
  std::string check;     // how it is checked without the device
  std::string hardware;  // what cannot be told without the device
  std::vector<std::string> ops;  // the op overloads a point names (the minimum operator set)
  std::vector<Need> needed_by;   // [[point.needed_by]]: what an example that needs the point shows
};

// The [[point]] tables of `toml_text`, in order; every field is required and
// ids are unique.
Result<std::vector<Point>> parse_points(std::string_view toml_text, const std::string& origin);

// data/integration.toml, embedded at build time.
const std::vector<Point>& builtin_points();

}  // namespace onramp::integration
