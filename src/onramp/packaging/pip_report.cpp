#include "onramp/packaging/pip_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "onramp/packaging/json_text.h"
#include "onramp/packaging/metadata.h"

namespace onramp::index {
namespace {

using nlohmann::json;


// download_info.archive_info: "hashes" {"sha256": ...} since pip 23, else "hash" "sha256=...".
std::string sha256_of(const json& archive_info) {
  if (!archive_info.is_object()) return "";
  if (auto h = archive_info.find("hashes"); h != archive_info.end() && h->is_object()) {
    std::string s = string_at(*h, "sha256");
    if (!s.empty()) return s;
  }
  std::string hash = string_at(archive_info, "hash");
  return hash.starts_with("sha256=") ? hash.substr(7) : "";
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Does a Requires-Dist entry count, given who holds it and the extras asked for?
bool entry_applies(const wheel::Requirement& r, bool holder_requested, const std::vector<std::string>& extras) {
  if (r.marker.find("extra") == std::string::npos) return true;
  if (!holder_requested) return false;
  return std::any_of(extras.begin(), extras.end(), [&](const std::string& e) {
    return r.marker.find("\"" + e + "\"") != std::string::npos || r.marker.find("'" + e + "'") != std::string::npos;
  });
}

}  // namespace

std::string url_file_name(std::string_view url) {
  url = url.substr(0, url.find_first_of("?#"));
  std::string_view last = url.substr(url.rfind('/') == std::string_view::npos ? 0 : url.rfind('/') + 1);
  std::string out;
  for (size_t i = 0; i < last.size(); ++i) {
    if (last[i] == '%' && i + 2 < last.size() && hex_value(last[i + 1]) >= 0 && hex_value(last[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(last[i + 1]) * 16 + hex_value(last[i + 2]));
      i += 2;
    } else {
      out += last[i];
    }
  }
  return out;
}

Result<PipReport> parse_pip_report(std::string_view text, std::string_view where) {
  json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return fail(fmt::format("{}: not a JSON object", where));
  auto install = doc.find("install");
  if (install == doc.end() || !install->is_array()) return fail(fmt::format("{}: no \"install\" list", where));
  PipReport report;
  report.pip_version = string_at(doc, "pip_version");
  for (const auto& item : *install) {
    if (!item.is_object() || !item.contains("metadata") || !item["metadata"].is_object()) {
      return fail(fmt::format("{}: an \"install\" entry without metadata", where));
    }
    const json& meta = item["metadata"];
    ResolvedDistribution d;
    d.name = string_at(meta, "name");
    d.version = string_at(meta, "version");
    if (d.name.empty() || d.version.empty()) return fail(fmt::format("{}: an entry without a name or version", where));
    d.normalized_name = wheel::normalize_name(d.name);
    d.requires_python = string_at(meta, "requires_python");
    if (auto rd = meta.find("requires_dist"); rd != meta.end() && rd->is_array()) {
      for (const auto& r : *rd) {
        if (r.is_string()) d.requires_dist.push_back(r.get<std::string>());
      }
    }
    if (auto info = item.find("download_info"); info != item.end() && info->is_object()) {
      d.url = string_at(*info, "url");
      d.file_name = url_file_name(d.url);
      if (auto a = info->find("archive_info"); a != info->end()) d.sha256 = sha256_of(*a);
    }
    // Read by type: json's value() throws on a field of another type (found by fuzzing).
    auto requested = item.find("requested");
    d.requested = requested != item.end() && requested->is_boolean() && requested->get<bool>();
    report.install.push_back(std::move(d));
  }
  std::sort(report.install.begin(), report.install.end(),
            [](const auto& a, const auto& b) { return a.normalized_name < b.normalized_name; });
  return report;
}

void attribute_requirements(std::vector<ResolvedDistribution>& dists, const std::string& top_level,
                            const std::vector<std::string>& extras) {
  for (auto& d : dists) {
    d.asked_by.clear();
    if (d.requested) d.asked_by.push_back(top_level);
  }
  for (const auto& holder : dists) {
    for (const auto& entry : holder.requires_dist) {
      auto r = wheel::parse_requirement(entry);
      if (!r || !entry_applies(*r, holder.requested, extras)) continue;
      for (auto& d : dists) {
        if (d.normalized_name == r->normalized_name && &d != &holder) {
          d.asked_by.push_back(fmt::format("{} ({})", holder.name, entry));
        }
      }
    }
  }
}

std::vector<SatisfiedRequirement> parse_already_satisfied(std::string_view pip_output) {
  constexpr std::string_view kPrefix = "Requirement already satisfied: ";
  std::vector<SatisfiedRequirement> out;
  std::set<std::string> seen;
  size_t pos = 0;
  while (pos < pip_output.size()) {
    size_t end = pip_output.find('\n', pos);
    if (end == std::string_view::npos) end = pip_output.size();
    std::string_view line = pip_output.substr(pos, end - pos);
    pos = end + 1;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (!line.starts_with(kPrefix) || !line.ends_with(")")) continue;
    line.remove_prefix(kPrefix.size());
    size_t open = line.rfind(" (");
    size_t in = line.find(" in ");
    if (open == std::string_view::npos || in == std::string_view::npos || in > open) continue;
    SatisfiedRequirement r;
    r.version = std::string(line.substr(open + 2, line.size() - open - 3));
    std::string_view rest = line.substr(0, open);
    if (size_t from = rest.rfind(" (from "); from != std::string_view::npos && from > in && rest.ends_with(")")) {
      r.asked_by = std::string(rest.substr(from + 7, rest.size() - from - 8));
      rest = rest.substr(0, from);
    }
    r.requirement = std::string(rest.substr(0, in));
    r.location = std::string(rest.substr(in + 4));
    auto req = wheel::parse_requirement(r.requirement);
    r.name = req ? req->normalized_name : wheel::normalize_name(r.requirement);
    if (seen.insert(r.name).second) out.push_back(std::move(r));
  }
  return out;
}

}  // namespace onramp::index
