#include "onramp/port/aten_dispatch.h"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <sstream>

#include "onramp/ops/schema.h"
#include "onramp/util/text.h"
#include "onramp/util/text_file.h"

namespace onramp::port {
namespace {

// torchgen's rule: no dispatch section and no structured delegate means
// CompositeImplicitAutograd.
std::string composite_kind(const YAML::Node& entry) {
  const YAML::Node dispatch = entry["dispatch"];
  if (!dispatch || !dispatch.IsMap()) return entry["structured_delegate"] ? "" : "CompositeImplicitAutograd";
  for (const char* kind : {"CompositeImplicitAutograd", "CompositeExplicitAutogradNonFunctional",
                           "CompositeExplicitAutograd"}) {
    for (const auto& kv : dispatch) {
      std::stringstream keys(kv.first.as<std::string>());
      std::string key;
      while (std::getline(keys, key, ',')) {
        if (util::trim(key) == kind) return kind;
      }
    }
  }
  return "";
}

// Every key of the dispatch section names the CPU ("CPU", "QuantizedCPU",
// "MkldnnCPU"; a Meta kernel computes shapes only and is set aside).
bool cpu_kernels_only(const YAML::Node& entry) {
  const YAML::Node dispatch = entry["dispatch"];
  if (!dispatch || !dispatch.IsMap() || entry["structured_delegate"]) return false;
  bool any = false;
  for (const auto& kv : dispatch) {
    std::stringstream keys(kv.first.as<std::string>());
    std::string key;
    while (std::getline(keys, key, ',')) {
      std::string_view k = util::trim(key);
      if (k == "Meta") continue;
      if (!k.ends_with("CPU")) return false;
      any = true;
    }
  }
  return any;
}

}  // namespace

const CompositeKernel* AtenDispatch::find(std::string_view full_name) const {
  auto it = composite.find(full_name);
  return it == composite.end() ? nullptr : &it->second;
}

Result<AtenDispatch> parse_aten_dispatch(std::string_view yaml_text, const std::string& origin) {
  AtenDispatch out;
  out.origin = origin;
  try {
    YAML::Node root = YAML::Load(std::string(yaml_text));
    if (!root.IsSequence()) return fail(origin + ": not a native_functions.yaml (top level is not a list)");
    for (const auto& entry : root) {
      if (!entry.IsMap() || !entry["func"]) continue;
      auto [name, overload] = ops::split_op_name(entry["func"].as<std::string>());
      std::string full = overload.empty() ? name : name + "." + overload;
      if (const YAML::Node d = entry["structured_delegate"]; d && d.IsScalar()) out.delegate[full] = d.as<std::string>();
      if (cpu_kernels_only(entry)) out.cpu_only.insert(full);
      std::string kind = composite_kind(entry);
      if (kind.empty()) continue;
      out.composite[full] = CompositeKernel{kind, entry["func"].Mark().line + 1};
    }
  } catch (const YAML::Exception& e) {
    return fail(origin + ":" + std::to_string(e.mark.line + 1) + ": malformed YAML: " + util::one_line(e.msg));
  }
  return out;
}

Result<AtenDispatch> load_aten_dispatch(const std::string& path) {
  auto text = util::read_text_file(path);
  if (!text) return std::unexpected(text.error());
  return parse_aten_dispatch(*text, path);
}

}  // namespace onramp::port
