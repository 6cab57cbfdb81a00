#include "onramp/census/gitattributes.h"

#include <fnmatch.h>

#include <algorithm>
#include <sstream>

#include "onramp/census/languages.h"

namespace onramp::census {

bool glob_match(std::string_view pattern, std::string_view text) {
  std::string p(pattern), t(text);
  if (p.starts_with("**/")) {
    std::string rest = p.substr(3);
    for (size_t at = 0;; ) {
      if (fnmatch(rest.c_str(), t.c_str() + at, FNM_PATHNAME) == 0) return true;
      size_t slash = t.find('/', at);
      if (slash == std::string::npos) return false;
      at = slash + 1;
    }
  }
  if (p.ends_with("/**")) {
    std::string dir = p.substr(0, p.size() - 3);
    size_t slash = t.find('/');
    while (slash != std::string::npos) {
      if (fnmatch(dir.c_str(), t.substr(0, slash).c_str(), FNM_PATHNAME) == 0) return true;
      slash = t.find('/', slash + 1);
    }
    return false;
  }
  return fnmatch(p.c_str(), t.c_str(), FNM_PATHNAME) == 0;
}

void GitAttributes::add_file(const std::string& path, std::string_view text) {
  std::string base(path.substr(0, path.size() - basename_of(path).size()));
  std::istringstream in{std::string(text)};
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::istringstream words(line);
    std::string pattern, attr;
    if (!(words >> pattern) || pattern[0] == '#') continue;
    while (words >> attr) {
      bool value = true;
      std::string name = attr;
      if (name[0] == '-' || name[0] == '!') {
        value = false;
        name = name.substr(1);
      } else if (size_t eq = name.find('='); eq != std::string::npos) {
        std::string v = name.substr(eq + 1);
        name = name.substr(0, eq);
        value = v != "false" && v != "0";
      }
      if (name == "linguist-generated" || name == "linguist-vendored") {
        rules_.push_back({base, pattern, name, value, path + ":" + std::to_string(number)});
      }
    }
  }
}

bool GitAttributes::path_independent() const {
  return std::all_of(rules_.begin(), rules_.end(),
                     [](const AttributeRule& r) { return r.pattern.find('/') == std::string::npos; });
}

std::optional<std::pair<bool, std::string>> GitAttributes::lookup(std::string_view path,
                                                                  std::string_view attribute) const {
  std::optional<std::pair<bool, std::string>> result;
  for (const auto& r : rules_) {
    if (r.attribute != attribute || !path.starts_with(r.base)) continue;
    std::string_view rel = path.substr(r.base.size());
    std::string_view pattern = r.pattern;
    bool anchored = pattern.find('/') != std::string_view::npos && !pattern.starts_with("**/");
    if (pattern.starts_with('/')) pattern.remove_prefix(1);
    bool hit = anchored ? glob_match(pattern, rel) : glob_match(pattern, basename_of(rel)) ||
                                                         glob_match(std::string("**/") + std::string(pattern), rel);
    if (hit) result = std::make_pair(r.value, r.origin);
  }
  return result;
}

}  // namespace onramp::census
