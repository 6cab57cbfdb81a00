#pragma once
// The ATen schema: PyTorch's native_functions.yaml (and tags.yaml beside it),
// read with yaml-cpp. Each op is name + overload with the properties the
// counting methods and gap classes need.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "onramp/ops/rules.h"
#include "onramp/util/error.h"

namespace onramp::ops {

struct AtenOp {
  std::string name;      // "add_"
  std::string overload;  // "Tensor", "" for the default overload
  int line = 0;          // 1-based line of its `func:` in the yaml
  bool inplace = false;     // name ends with a single '_'
  bool out = false;         // writes to out= arguments
  bool functional = false;  // neither in-place nor out=
  bool backward = false;    // a backward helper (name contains "_backward")
  bool is_private = false;  // leading '_'
  bool core = false;        // tagged `core`
  bool composite = false;   // CompositeImplicitAutograd: served by decomposition
  std::string family;       // "sparse", "linalg", ... or ""

  std::string full_name() const { return overload.empty() ? name : name + "." + overload; }
};

class AtenSchema {
 public:
  // Parses native_functions.yaml text; `tags_text` (tags.yaml) may be empty.
  static Result<AtenSchema> parse(std::string_view yaml_text, std::string_view tags_text,
                                  const std::string& origin, const OpsRules& rules);
  // Reads native_functions.yaml and, when it is there, tags.yaml beside it.
  static Result<AtenSchema> load(const std::string& native_functions_path, const OpsRules& rules);

  const std::vector<AtenOp>& ops() const { return ops_; }
  const std::string& origin() const { return origin_; }
  // Whether the schema marks a core set (tag `core` declared or used).
  bool has_core_tag() const { return has_core_tag_; }

  const AtenOp* find(std::string_view full_name) const;  // "add.Tensor", "relu"
  bool has_name(std::string_view name) const;           // any overload of "add"
  // Ops of one name, every overload.
  std::vector<const AtenOp*> overloads_of(std::string_view name) const;
  // Whether any overload of `name` is tagged core.
  bool name_is_core(std::string_view name) const;
  // Whether every overload of `name` is CompositeImplicitAutograd.
  bool name_is_composite(std::string_view name) const;
  // Distinct op names tagged core (any overload).
  std::set<std::string> core_names() const;

 private:
  std::string origin_;
  bool has_core_tag_ = false;
  std::vector<AtenOp> ops_;
  std::map<std::string, size_t, std::less<>> by_full_name_;
  std::multimap<std::string, size_t, std::less<>> by_name_;
};

// Splits "aten::add.Tensor(Tensor self) -> Tensor" or "add.Tensor" into
// name and overload; strips a namespace and the argument list.
std::pair<std::string, std::string> split_op_name(std::string_view text);

}  // namespace onramp::ops
