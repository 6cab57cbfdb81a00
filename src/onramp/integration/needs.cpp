#include "onramp/integration/needs.h"

namespace onramp::integration {
namespace {

// `pattern` with "{device}" replaced; nullopt when it names the device and none is known.
std::optional<std::string> filled(const std::string& pattern, const std::string& device) {
  const std::string marker = "{device}";
  std::string out = pattern;
  for (size_t at = out.find(marker); at != std::string::npos; at = out.find(marker, at + device.size())) {
    if (device.empty()) return std::nullopt;
    out.replace(at, marker.size(), device);
  }
  return out;
}

std::optional<std::string> matches(const Need& need, const std::string& device, const std::string& source,
                                   const std::string& failure) {
  auto in_source = filled(need.source, device);
  auto in_failure = filled(need.message, device);
  if (!in_source || !in_failure) return std::nullopt;
  if (source.find(*in_source) == std::string::npos || failure.find(*in_failure) == std::string::npos) {
    return std::nullopt;
  }
  std::string shown;
  if (!in_source->empty()) shown = "its statement has `" + *in_source + "`";
  if (!in_failure->empty()) shown += (shown.empty() ? "" : " and ") + std::string("its failure says \"") + *in_failure + "\"";
  return shown;
}

}  // namespace

bool missing_here(std::string_view status) { return status == "absent" || status == "raises" || status == "partial"; }

std::optional<NeedMatch> needed_point(const std::vector<Point>& points, const std::map<std::string, std::string>& status,
                                      const std::string& device, const std::string& source,
                                      const std::string& failure) {
  for (const auto& p : points) {
    auto row = status.find(p.id);
    if (row == status.end() || !missing_here(row->second)) continue;
    for (const auto& need : p.needed_by) {
      if (auto shown = matches(need, device, source, failure)) return NeedMatch{p.id, *shown};
    }
  }
  return std::nullopt;
}

}  // namespace onramp::integration
