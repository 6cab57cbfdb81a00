#include "onramp/packaging/tags.h"

#include <fmt/format.h>
#include <gnu/libc-version.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>

#include "onramp/util/text.h"
#include "onramp/packaging/metadata.h"

namespace onramp::index {
namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, sep);) out.push_back(part);
  return out;
}

// At most `n` items, then how many more.
std::string list_some(const std::vector<std::string>& items, size_t n = 6) {
  std::string out;
  for (size_t i = 0; i < items.size() && i < n; ++i) out += (i ? ", " : "") + items[i];
  if (items.size() > n) out += fmt::format(" and {} more", items.size() - n);
  return out;
}

template <typename Pred>
std::vector<std::string> distinct(const CompatibleTags& pip, Pred pick) {
  std::vector<std::string> out;
  for (const auto& t : pip.tags) {
    std::string v = pick(t);
    if (!v.empty() && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  return out;
}

// How far a wheel tag gets against pip's list: 0 python fails, 1 abi, 2 platform, 3 matches.
int depth(const Tag& w, const CompatibleTags& pip) {
  int best = 0;
  for (const auto& t : pip.tags) {
    int d = t.python != w.python ? 0 : t.abi != w.abi ? 1 : t.platform != w.platform ? 2 : 3;
    best = std::max(best, d);
  }
  return best;
}

std::string platform_reason(const Tag& w, const CompatibleTags& pip, const std::string& glibc) {
  auto floor = manylinux_floor(w.platform);
  auto arches = distinct(pip, [](const Tag& t) {
    auto f = manylinux_floor(t.platform);
    return f ? f->arch : std::string();
  });
  int have_major = 0, have_minor = 0;
  bool known = std::sscanf(glibc.c_str(), "%d.%d", &have_major, &have_minor) == 2;
  bool above = floor && known && std::pair(floor->major, floor->minor) > std::pair(have_major, have_minor);
  if (above && std::find(arches.begin(), arches.end(), floor->arch) != arches.end()) {
    std::string family = w.platform.substr(0, w.platform.size() - floor->arch.size() - 1);  // manylinux_2_31
    return fmt::format("glibc floor: {} needs glibc >= {}.{}; this machine has {}", family, floor->major, floor->minor,
                       glibc);
  }
  auto platforms = distinct(pip, [&](const Tag& t) { return t.python == w.python && t.abi == w.abi ? t.platform : ""; });
  return fmt::format("platform {} is not among those pip accepts with {}-{} ({})", w.platform, w.python, w.abi,
                     list_some(platforms, 3));
}

}  // namespace

Result<CompatibleTags> parse_pip_debug_tags(std::string_view text) {
  std::istringstream in{std::string(text)};
  CompatibleTags out;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (!inside) {
      inside = line.starts_with("Compatible tags:");
      continue;
    }
    if (line.empty() || (line[0] != ' ' && line[0] != '\t')) break;
    auto parts = split(std::string(util::trim(line)), '-');
    if (parts.size() != 3) continue;
    out.tags.push_back({parts[0], parts[1], parts[2]});
  }
  if (!inside) return fail("pip debug --verbose: no \"Compatible tags\" section");
  if (out.tags.empty()) return fail("pip debug --verbose: an empty \"Compatible tags\" section");
  return out;
}

Result<std::vector<Tag>> wheel_tags(const std::string& file_name) {
  auto name = wheel::parse_wheel_file_name(file_name);
  if (!name) return std::unexpected(name.error());
  std::vector<Tag> out;
  for (const auto& py : split(name->python_tag, '.')) {
    for (const auto& abi : split(name->abi_tag, '.')) {
      for (const auto& plat : split(name->platform_tag, '.')) out.push_back({py, abi, plat});
    }
  }
  return out;
}

namespace {

// Reads digits (at least one, no sign) into `out`; false on none or on overflow.
bool read_int(std::string_view& text, int& out) {
  if (text.empty() || text.front() < '0' || text.front() > '9') return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (ec != std::errc()) return false;
  text.remove_prefix(static_cast<size_t>(end - text.data()));
  return true;
}

}  // namespace

// Read by hand, not with std::regex: a platform tag comes from a file name
// on an index page, and std::regex recurses once per character it matches.
std::optional<GlibcFloor> manylinux_floor(const std::string& platform) {
  std::string_view rest(platform);
  constexpr std::string_view kModern = "manylinux_";
  if (rest.starts_with(kModern)) {
    rest.remove_prefix(kModern.size());
    int major = 0, minor = 0;
    if (!read_int(rest, major) || !rest.starts_with('_')) return std::nullopt;
    rest.remove_prefix(1);
    if (!read_int(rest, minor) || !rest.starts_with('_') || rest.size() < 2) return std::nullopt;
    return GlibcFloor{major, minor, std::string(rest.substr(1))};
  }
  // PEP 600's aliases for the legacy names.
  for (auto [name, minor] : {std::pair{std::string_view("manylinux1_"), 5}, {"manylinux2010_", 12},
                             {"manylinux2014_", 17}}) {
    if (rest.starts_with(name) && rest.size() > name.size()) return GlibcFloor{2, minor, std::string(rest.substr(name.size()))};
  }
  return std::nullopt;
}

TagVerdict judge_wheel(const std::vector<Tag>& wheel, const CompatibleTags& pip, const std::string& glibc) {
  TagVerdict v;
  for (size_t i = 0; i < pip.tags.size(); ++i) {
    const Tag& t = pip.tags[i];
    for (const auto& w : wheel) {
      if (w.python == t.python && w.abi == t.abi && w.platform == t.platform) {
        v.installable = true;
        v.rank = i;
        return v;
      }
    }
  }
  if (wheel.empty()) {
    v.reason = "no tags in the file name";
    return v;
  }
  // The wheel tag that gets furthest names the part that fails.
  const Tag* best = &wheel.front();
  int best_depth = -1;
  for (const auto& w : wheel) {
    int d = depth(w, pip);
    if (d > best_depth) best = &w, best_depth = d;
  }
  if (best_depth == 0) {
    v.reason = fmt::format("Python tag {} is not among this interpreter's ({})", best->python,
                           list_some(distinct(pip, [](const Tag& t) { return t.python; })));
  } else if (best_depth == 1) {
    v.reason = fmt::format("ABI {} is not accepted with Python tag {} (accepted: {})", best->abi, best->python,
                           list_some(distinct(pip, [&](const Tag& t) { return t.python == best->python ? t.abi : ""; })));
  } else {
    v.reason = platform_reason(*best, pip, glibc);
  }
  return v;
}

std::string this_glibc_version() { return gnu_get_libc_version(); }

}  // namespace onramp::index
