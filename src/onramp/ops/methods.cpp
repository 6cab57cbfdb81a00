#include "onramp/ops/methods.h"

#include <cctype>
#include <set>

namespace onramp::ops {
namespace {

constexpr std::string_view kBackward = "_backward";

using Names = std::vector<std::string>;

Names sorted(std::set<std::string> names) { return {names.begin(), names.end()}; }

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

std::set<std::string> forward_with_backward(const OpInventory& inv) {
  std::set<std::string> backward_of;
  for (const auto& m : inv.members) {
    if (m.sentinel()) continue;
    const std::string& n = m.op.name;
    if (size_t at = n.rfind(kBackward); at != std::string::npos && at > 0) backward_of.insert(n.substr(0, at));
  }
  std::set<std::string> out;
  for (const auto& name : folded_names(inv)) {
    if (backward_of.contains(name)) out.insert(name);
  }
  return out;
}

// Non-sentinel members in inventory order, as the normalized op name each was read as.
Names member_names(const OpInventory& inv, bool (*keep)(const ResolvedMember&)) {
  Names out;
  for (const auto& m : inv.members) {
    if (keep(m)) out.push_back(m.op.full_name());
  }
  return out;
}

CountingMethod counted(std::string key, std::string label, std::string rule, Names items) {
  size_t n = items.size();
  return {std::move(key), std::move(label), std::move(rule), n, "", std::move(items)};
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

std::string strip_suffixes_as_written(std::string text) {
  static constexpr std::string_view kSuffixes[] = {"Out", "_out", ".out", "Backward", "_backward"};
  for (bool stripped = true; stripped;) {
    stripped = false;
    for (std::string_view s : kSuffixes) {
      if (text.size() > s.size() && text.ends_with(s)) {
        text.resize(text.size() - s.size());
        stripped = true;
      }
    }
  }
  return text;
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
  Names written;
  for (const auto& m : inv.members) written.push_back(m.member.text);
  out.push_back(counted("raw_entries", "Raw entries", "every member as written, sentinels included", std::move(written)));
  out.push_back(counted("minus_sentinels_and_helpers", "Less sentinels and internal helpers",
                        "members less sentinels (bounds, counts, aliases) and internal helpers (a leading underscore)",
                        member_names(inv, [](const ResolvedMember& m) { return !m.sentinel() && !m.op.name.starts_with("_"); })));
  out.push_back(counted("suffixes_stripped", "Out/Backward suffixes stripped",
                        "distinct names once the out= overload or _out suffix and the _backward suffix are removed; "
                        "other overloads still count separately (sentinels excluded from here on)",
                        sorted(stripped_keys(inv, true))));
  std::set<std::string> as_written;
  for (const auto& m : inv.members) {
    if (!m.sentinel()) as_written.insert(strip_suffixes_as_written(m.member.text));
  }
  out.push_back(counted("suffixes_stripped_as_written", "Out/Backward suffixes stripped from the names as written",
                        "distinct members as written once a trailing Out, _out, .out, Backward or _backward is removed "
                        "(repeatedly), without mapping to ATen names first: the article's count of the enum "
                        "(sentinels excluded)",
                        sorted(std::move(as_written))));
  out.push_back(counted("overloads_collapsed", "Overloads collapsed to the base op",
                        "as above, then every overload of a name counts once", sorted(stripped_keys(inv, false))));
  out.push_back(counted("inplace_out_folded", "In-place and out= forms folded into the base op",
                        "as above, then an in-place name (trailing _) counts as its functional base op",
                        sorted(folded_names(inv))));
  out.push_back(counted("forward_with_backward", "Forward ops with a matching backward",
                        "base ops from the line above for which the inventory also holds name_backward",
                        sorted(forward_with_backward(inv))));
  CountingMethod core{"core_aten", "In the core ATen set",
                      "resolved members folded to their base op that carry the schema's core tag on some overload",
                      std::nullopt, "", {}};
  if (schema.has_core_tag()) {
    std::set<std::string> names;
    for (const auto& m : inv.members) {
      if (m.sentinel() || !m.op.resolved) continue;
      std::string base = fold_to_base(m.op.name);
      if (schema.name_is_core(base) || schema.name_is_core(m.op.name)) names.insert(base);
    }
    core.items = sorted(std::move(names));
    core.value = core.items.size();
  } else {
    core.not_measured = schema.origin() + " has no core tag (PyTorch before 2.1); pass --aten with a newer "
                        "native_functions.yaml";
  }
  out.push_back(std::move(core));
  out.push_back(counted("resolved", "Resolved to an ATen op", "members (sentinels excluded) that name an op of the schema, "
                        "directly or through the CamelCase mapping",
                        member_names(inv, [](const ResolvedMember& m) { return !m.sentinel() && m.op.resolved; })));
  out.push_back(counted("unresolved", "Not resolved to an ATen op",
                        "members (sentinels excluded) that name no op of the schema",
                        member_names(inv, [](const ResolvedMember& m) { return !m.sentinel() && !m.op.resolved; })));
  return out;
}

}  // namespace onramp::ops
