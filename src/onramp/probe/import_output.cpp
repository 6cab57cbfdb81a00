#include "onramp/probe/import_output.h"

#include <algorithm>
#include <charconv>

#include "onramp/util/text.h"

namespace onramp::probe {
namespace {

constexpr std::string_view kBegin = "onramp-import-begin";
constexpr std::string_view kEnd = "onramp-import-end";
constexpr std::string_view kImportTime = "import time:";

bool parse_micros(std::string_view field, double& seconds) {
  field = util::trim(field);
  long long micros = 0;
  auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), micros);
  if (ec != std::errc() || end != field.data() + field.size()) return false;
  seconds = static_cast<double>(micros) / 1e6;
  return true;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    auto nl = text.find('\n');
    lines.push_back(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  }
  return lines;
}

}  // namespace

bool parse_importtime_line(std::string_view line, ImportTimeEntry& entry) {
  if (!line.starts_with(kImportTime)) return false;
  line.remove_prefix(kImportTime.size());
  auto bar1 = line.find('|');
  auto bar2 = bar1 == std::string_view::npos ? bar1 : line.find('|', bar1 + 1);
  if (bar2 == std::string_view::npos) return false;
  if (!parse_micros(line.substr(0, bar1), entry.self_seconds)) return false;
  if (!parse_micros(line.substr(bar1 + 1, bar2 - bar1 - 1), entry.cumulative_seconds)) return false;
  std::string_view name = line.substr(bar2 + 1);
  size_t spaces = name.find_first_not_of(' ');
  if (spaces == std::string_view::npos) return false;
  // One space follows the bar; each nesting level adds two. A line printed
  // by the target may have none, which must not wrap around to depth -1.
  entry.depth = spaces == 0 ? 0 : static_cast<int>((spaces - 1) / 2);
  entry.module = std::string(util::trim(name));
  return true;
}

ImportOutput split_import_stderr(std::string_view stderr_text) {
  auto all = split_lines(stderr_text);
  auto begin = std::find(all.begin(), all.end(), kBegin);
  auto end = begin == all.end() ? all.end() : std::find(begin, all.end(), kEnd);
  ImportOutput out;
  out.delimited = begin != all.end() && end != all.end();
  auto first = begin == all.end() ? all.begin() : begin + 1;
  for (auto it = first; it != end; ++it) {
    ImportTimeEntry entry;
    if (parse_importtime_line(*it, entry)) {
      out.importtime.push_back(std::move(entry));
    } else if (!util::trim(*it).empty() && !it->starts_with(kImportTime)) {
      out.lines.emplace_back(*it);
    }
  }
  return out;
}

std::vector<ImportTimeEntry> top_imports(std::vector<ImportTimeEntry> entries, size_t n, bool by_cumulative) {
  auto key = [by_cumulative](const ImportTimeEntry& e) { return by_cumulative ? e.cumulative_seconds : e.self_seconds; };
  std::sort(entries.begin(), entries.end(), [&](const auto& a, const auto& b) {
    if (key(a) != key(b)) return key(a) > key(b);
    return a.module < b.module;
  });
  if (entries.size() > n) entries.resize(n);
  return entries;
}

}  // namespace onramp::probe
