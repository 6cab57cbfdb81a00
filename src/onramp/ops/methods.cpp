#include "onramp/ops/methods.h"

#include <cctype>
#include <set>

namespace onramp::ops {
namespace {

constexpr std::string_view kBackward = "_backward";

std::set<std::string> stripped_keys(const OpInventory& inv, bool with_overload) {
  std::set<std::string> keys;
  for (const auto& m : inv.members) {
    if (m.sentinel()) continue;
    OpRef s = strip_out_and_backward(m.op);
    keys.insert(with_overload ? s.full_name() : s.name);
  }
  return keys;
}

std::set<std::string> folded_names(const OpInventory& inv) {
  std::set<std::string> names;
  for (const auto& n : stripped_keys(inv, false)) names.insert(fold_to_base(n));
  return names;
}

size_t forward_with_backward(const OpInventory& inv) {
  std::set<std::string> backward_of;
  for (const auto& m : inv.members) {
    if (m.sentinel()) continue;
    const std::string& n = m.op.name;
    if (size_t at = n.rfind(kBackward); at != std::string::npos && at > 0) backward_of.insert(n.substr(0, at));
  }
  size_t n = 0;
  for (const auto& name : folded_names(inv)) n += backward_of.contains(name);
  return n;
}

}  // namespace

OpRef strip_out_and_backward(const OpRef& op) {
  OpRef s = op;
  if (s.overload == "out" || s.overload.ends_with("_out")) s.overload.clear();
  if (s.name.ends_with("_out")) s.name.resize(s.name.size() - 4);
  if (size_t at = s.name.rfind(kBackward); at != std::string::npos && at > 0 && at + kBackward.size() == s.name.size()) {
    s.name.resize(at);
  }
  return s;
}

std::string fold_to_base(std::string name) {
  if (name.ends_with("_out")) name.resize(name.size() - 4);
  if (name.size() > 1 && name.back() == '_' && !name.ends_with("__")) name.pop_back();
  return name;
}

std::optional<long> claim_number(const std::string& claim) {
  size_t i = 0;
  while (i < claim.size() && !std::isdigit(static_cast<unsigned char>(claim[i]))) ++i;
  if (i == claim.size()) return std::nullopt;
  long v = 0;
  for (; i < claim.size() && (std::isdigit(static_cast<unsigned char>(claim[i])) || claim[i] == ','); ++i) {
    if (claim[i] != ',') v = v * 10 + (claim[i] - '0');
  }
  return v;
}

std::vector<CountingMethod> count_every_way(const OpInventory& inv, const AtenSchema& schema) {
  std::vector<CountingMethod> out;
  out.push_back({"raw_entries", "Raw entries", "every member as written, sentinels included", inv.members.size(), ""});
  size_t helpers = 0;
  for (const auto& m : inv.members) helpers += !m.sentinel() && m.op.name.starts_with("_");
  out.push_back({"minus_sentinels_and_helpers", "Less sentinels and internal helpers",
                 "members less sentinels (bounds, counts, aliases) and internal helpers (a leading underscore)",
                 inv.op_count() - helpers, ""});
  out.push_back({"suffixes_stripped", "Out/Backward suffixes stripped",
                 "distinct names once the out= overload or _out suffix and the _backward suffix are removed; "
                 "other overloads still count separately (sentinels excluded from here on)",
                 stripped_keys(inv, true).size(), ""});
  out.push_back({"overloads_collapsed", "Overloads collapsed to the base op",
                 "as above, then every overload of a name counts once", stripped_keys(inv, false).size(), ""});
  out.push_back({"inplace_out_folded", "In-place and out= forms folded into the base op",
                 "as above, then an in-place name (trailing _) counts as its functional base op",
                 folded_names(inv).size(), ""});
  out.push_back({"forward_with_backward", "Forward ops with a matching backward",
                 "base ops from the line above for which the inventory also holds name_backward",
                 forward_with_backward(inv), ""});
  CountingMethod core{"core_aten", "In the core ATen set",
                      "resolved members folded to their base op that carry the schema's core tag on some overload",
                      std::nullopt, ""};
  if (schema.has_core_tag()) {
    std::set<std::string> names;
    for (const auto& m : inv.members) {
      if (m.sentinel() || !m.op.resolved) continue;
      std::string base = fold_to_base(m.op.name);
      if (schema.name_is_core(base) || schema.name_is_core(m.op.name)) names.insert(base);
    }
    core.value = names.size();
  } else {
    core.not_measured = schema.origin() + " has no core tag (PyTorch before 2.1); pass --aten with a newer "
                        "native_functions.yaml";
  }
  out.push_back(std::move(core));
  out.push_back({"resolved", "Resolved to an ATen op", "members (sentinels excluded) that name an op of the schema, "
                 "directly or through the CamelCase mapping", inv.resolved_count(), ""});
  out.push_back({"unresolved", "Not resolved to an ATen op",
                 "members (sentinels excluded) that name no op of the schema", inv.op_count() - inv.resolved_count(), ""});
  return out;
}

}  // namespace onramp::ops
