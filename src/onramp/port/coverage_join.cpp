#include "onramp/port/coverage_join.h"

namespace onramp::port {
namespace {

// An entry without an overload ("_cdist_forward") stands for every overload.
const std::string* lookup(const std::map<std::string, std::string>& list, const std::string& op) {
  if (auto it = list.find(op); it != list.end()) return &it->second;
  auto dot = op.find('.');
  if (dot == std::string::npos) return nullptr;
  if (auto it = list.find(op.substr(0, dot)); it != list.end()) return &it->second;
  return nullptr;
}

}  // namespace

std::string_view to_string(OpStatus status) {
  switch (status) {
    case OpStatus::registered: return "registered";
    case OpStatus::via_delegate: return "via_delegate";
    case OpStatus::boxed_fallback: return "boxed_fallback";
    case OpStatus::missing: return "missing";
    case OpStatus::decomposition: return "decomposition";
    case OpStatus::falls_back_to_cpu: return "falls_back_to_cpu";
    case OpStatus::unregistered: return "unregistered";
    case OpStatus::unknown: return "unknown";
  }
  return "unknown";
}

std::optional<OpStatus> op_status_from(std::string_view text) {
  for (auto s : {OpStatus::registered, OpStatus::via_delegate, OpStatus::decomposition, OpStatus::falls_back_to_cpu,
                 OpStatus::boxed_fallback, OpStatus::unregistered, OpStatus::unknown, OpStatus::missing}) {
    if (to_string(s) == text) return s;
  }
  return std::nullopt;
}

bool not_served(OpStatus status) {
  return status == OpStatus::unregistered || status == OpStatus::unknown || status == OpStatus::missing;
}

OpVerdict BackendCoverage::classify(const std::string& op) const {
  if (auto it = registered.find(op); it != registered.end()) return {OpStatus::registered, it->second, "", ""};
  if (auto d = delegate.find(op); d != delegate.end()) {
    if (auto it = registered.find(d->second); it != registered.end()) {
      return {OpStatus::via_delegate, it->second, d->second, ""};
    }
  }
  if (auto it = decomposition.find(op); it != decomposition.end()) return {OpStatus::decomposition, it->second, "", ""};
  if (const auto* where = lookup(falls_back, op)) return {OpStatus::falls_back_to_cpu, *where, "", ""};
  if (!boxed_fallback.empty()) return {OpStatus::falls_back_to_cpu, boxed_fallback, "", ""};
  if (const auto* where = lookup(unregistered, op)) return {OpStatus::unregistered, *where, "", ""};
  return {OpStatus::unknown, "", "", ""};
}

JoinResult join_ops(const std::vector<std::string>& ops, const BackendCoverage& coverage) {
  JoinResult out;
  for (const auto& op : ops) out[op] = coverage.classify(op);
  return out;
}

}  // namespace onramp::port
