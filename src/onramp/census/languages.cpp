#include "onramp/census/languages.h"

#include <algorithm>
#include <toml++/toml.h>

#include "onramp/util/embedded.h"
#include "onramp/util/text.h"
#include "onramp/util/toml_file.h"

namespace onramp::census {
std::string_view basename_of(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string_view extension_of(std::string_view path) {
  std::string_view base = basename_of(path);
  size_t dot = base.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return {};
  return base.substr(dot + 1);
}

Result<LanguageTable> LanguageTable::parse(std::string_view toml_text, const std::string& origin) {
  auto parsed = util::parse_toml(toml_text, origin);
  if (!parsed) return std::unexpected(parsed.error());
  const toml::table& doc = *parsed;
  LanguageTable table;
  const auto* list = doc["language"].as_array();
  if (!list) return fail(origin + ": no [[language]] entries");
  for (const auto& node : *list) {
    const auto* t = node.as_table();
    if (!t) return fail(origin + ": a [[language]] entry is not a table");
    Language lang;
    lang.name = (*t)["name"].value_or(std::string());
    if (lang.name.empty()) return fail(origin + ": a [[language]] entry has no name");
    lang.line_comments = util::toml_strings(*t, "line_comments");
    if (const auto* blocks = (*t)["block_comments"].as_array()) {
      for (const auto& b : *blocks) {
        const auto* pair = b.as_array();
        if (!pair || pair->size() != 2) return fail(origin + ": " + lang.name + ": block_comments needs [open, close] pairs");
        lang.block_comments.emplace_back((*pair)[0].value_or(std::string()), (*pair)[1].value_or(std::string()));
      }
    }
    for (const auto& d : util::toml_strings(*t, "strings")) {
      if (d.size() != 1) return fail(origin + ": " + lang.name + ": string delimiters are single characters");
      lang.string_delimiters += d;
    }
    lang.docstrings = (*t)["docstrings"].value_or(false);
    size_t index = table.languages_.size();
    for (const auto& f : util::toml_strings(*t, "filenames")) table.by_filename_.emplace(f, index);
    for (const auto& e : util::toml_strings(*t, "extensions")) table.by_extension_.emplace(e, index);
    table.languages_.push_back(std::move(lang));
  }
  return table;
}

const LanguageTable& LanguageTable::builtin() {
  static const LanguageTable table =
      value_or_fatal(parse(embedded::get("data/languages.toml"), "data/languages.toml"));
  return table;
}

const Language* LanguageTable::detect(std::string_view path) const {
  std::string_view base = basename_of(path);
  if (auto it = by_filename_.find(base); it != by_filename_.end()) return &languages_[it->second];
  std::string_view ext = extension_of(path);
  if (ext.empty()) return nullptr;
  if (auto it = by_extension_.find(ext); it != by_extension_.end()) return &languages_[it->second];
  if (auto it = by_extension_.find(util::lowercase(ext)); it != by_extension_.end()) return &languages_[it->second];
  return nullptr;
}

}  // namespace onramp::census
