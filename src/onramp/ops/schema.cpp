#include "onramp/ops/schema.h"
#include "onramp/util/text.h"
#include "onramp/util/text_file.h"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <sstream>

namespace onramp::ops {
namespace {


bool has_tag(const YAML::Node& tags, std::string_view tag) {
  if (!tags) return false;
  if (tags.IsScalar()) return tags.Scalar() == tag;
  if (tags.IsSequence()) {
    for (const auto& t : tags) {
      if (t.IsScalar() && t.Scalar() == tag) return true;
    }
  }
  return false;
}

// torchgen's rule: an op with no dispatch section and no structured delegate
// is CompositeImplicitAutograd, i.e. it decomposes into other ops.
bool is_composite_implicit(const YAML::Node& entry) {
  const YAML::Node dispatch = entry["dispatch"];
  if (!dispatch || !dispatch.IsMap()) return !entry["structured_delegate"];
  for (const auto& kv : dispatch) {
    const std::string keys = kv.first.as<std::string>();
    if (keys.find("CompositeImplicitAutograd") != std::string::npos) return true;
  }
  return false;
}

// A kwarg-only argument with a `!` alias annotation is an out= argument.
bool writes_out_arguments(std::string_view func) {
  size_t open = func.find('(');
  size_t arrow = func.rfind("->");
  if (open == std::string_view::npos) return false;
  std::string_view args = func.substr(open, arrow == std::string_view::npos ? func.npos : arrow - open);
  size_t star = args.find("*,");
  return star != std::string_view::npos && args.find('!', star) != std::string_view::npos;
}

bool tags_declare_core(std::string_view tags_text, const std::string& origin) {
  if (tags_text.empty()) return false;
  try {
    YAML::Node tags = YAML::Load(std::string(tags_text));
    if (!tags.IsSequence()) return false;
    for (const auto& t : tags) {
      if (t.IsMap() && t["tag"] && t["tag"].as<std::string>() == "core") return true;
    }
  } catch (const YAML::Exception&) {
    (void)origin;  // a broken tags.yaml only means the core set is unknown
  }
  return false;
}

}  // namespace

std::pair<std::string, std::string> split_op_name(std::string_view text) {
  size_t paren = text.find('(');
  if (paren != std::string_view::npos) text = text.substr(0, paren);
  text = util::trim(text);
  if (size_t ns = text.find("::"); ns != std::string_view::npos) text = text.substr(ns + 2);
  size_t dot = text.find('.');
  if (dot == std::string_view::npos) return {std::string(text), {}};
  return {std::string(text.substr(0, dot)), std::string(text.substr(dot + 1))};
}

Result<AtenSchema> AtenSchema::parse(std::string_view yaml_text, std::string_view tags_text,
                                     const std::string& origin, const OpsRules& rules) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml_text));
  } catch (const YAML::Exception& e) {
    return fail(origin + ":" + std::to_string(e.mark.line + 1) + ": malformed YAML: " + util::one_line(e.msg));
  }
  if (!root.IsSequence()) return fail(origin + ": not a native_functions.yaml (top level is not a list)");
  AtenSchema schema;
  schema.origin_ = origin;
  schema.has_core_tag_ = tags_declare_core(tags_text, origin);
  try {
    for (const auto& entry : root) {
      if (!entry.IsMap() || !entry["func"]) continue;
      const std::string func = entry["func"].as<std::string>();
      auto [name, overload] = split_op_name(func);
      AtenOp op;
      op.name = name;
      op.overload = overload;
      op.line = entry["func"].Mark().line + 1;
      op.inplace = name.size() > 1 && name.back() == '_' && !name.ends_with("__");
      op.out = !op.inplace && (writes_out_arguments(func) || overload == "out" || overload.ends_with("_out"));
      op.functional = !op.inplace && !op.out;
      op.backward = name.find("_backward") != std::string::npos;
      op.is_private = name.starts_with("_");
      op.core = has_tag(entry["tags"], "core");
      op.composite = is_composite_implicit(entry);
      op.family = std::string(rules.family_of(name));
      schema.has_core_tag_ = schema.has_core_tag_ || op.core;
      schema.ops_.push_back(std::move(op));
    }
  } catch (const YAML::Exception& e) {
    return fail(origin + ":" + std::to_string(e.mark.line + 1) + ": unexpected entry: " + util::one_line(e.msg));
  }
  if (schema.ops_.empty()) return fail(origin + ": no `func:` entries; not a native_functions.yaml");
  for (size_t i = 0; i < schema.ops_.size(); ++i) {
    schema.by_full_name_.emplace(schema.ops_[i].full_name(), i);
    schema.by_name_.emplace(schema.ops_[i].name, i);
  }
  return schema;
}

Result<AtenSchema> AtenSchema::load(const std::string& native_functions_path, const OpsRules& rules) {
  auto text = util::read_text_file(native_functions_path);
  if (!text) return std::unexpected(text.error());
  std::string tags;
  size_t slash = native_functions_path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : native_functions_path.substr(0, slash);
  if (auto t = util::read_text_file(dir + "/tags.yaml")) tags = std::move(*t);
  return parse(*text, tags, native_functions_path, rules);
}

const AtenOp* AtenSchema::find(std::string_view full_name) const {
  auto it = by_full_name_.find(full_name);
  return it == by_full_name_.end() ? nullptr : &ops_[it->second];
}

bool AtenSchema::has_name(std::string_view name) const { return by_name_.find(name) != by_name_.end(); }

std::vector<const AtenOp*> AtenSchema::overloads_of(std::string_view name) const {
  std::vector<const AtenOp*> out;
  auto [lo, hi] = by_name_.equal_range(name);
  for (auto it = lo; it != hi; ++it) out.push_back(&ops_[it->second]);
  return out;
}

bool AtenSchema::name_is_core(std::string_view name) const {
  for (const auto* op : overloads_of(name)) {
    if (op->core) return true;
  }
  return false;
}

bool AtenSchema::name_is_composite(std::string_view name) const {
  auto ops = overloads_of(name);
  if (ops.empty()) return false;
  for (const auto* op : ops) {
    if (!op->composite) return false;
  }
  return true;
}

std::set<std::string> AtenSchema::core_names() const {
  std::set<std::string> out;
  for (const auto& op : ops_) {
    if (op.core) out.insert(op.name);
  }
  return out;
}

}  // namespace onramp::ops
