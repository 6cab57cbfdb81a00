#pragma once
// The CUDA-ism rule table (data/cudaisms.toml): what the scanner looks for
// and, for each site it reports, the first rule that matches it.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "onramp/util/error.h"

namespace onramp::port {

// What the scanner saw: a dotted name, a method call, or a string.
enum class SiteKind { name, method, string };
std::string_view to_string(SiteKind kind);

struct CudaismRule {
  std::string id;
  std::string category;
  SiteKind site = SiteKind::name;
  std::string match;    // fnmatch(3) glob over the site's text
  std::string in_call;  // string sites: glob over the enclosing call's name; empty: any
  std::string keyword;  // string sites: the keyword argument it must be; empty: any
  std::string replacement;
  bool portable = false;
  double effort = 1;
  std::string note;
};

// One site as the scanner reports it.
struct Site {
  SiteKind kind = SiteKind::name;
  std::string text;
  int line = 0;
  int col = 0;
  bool guarded = false;
  std::string in_call;
  std::string keyword;
  std::string code;  // the source line, stripped
};

struct CudaismRules {
  std::vector<CudaismRule> rules;  // in table order: the first match wins
  std::vector<std::string> guard_names;
  std::vector<std::string> guard_strings;
  std::string origin;  // where the table came from

  const CudaismRule* match(const Site& site) const;
  // The candidates the scanner should report: {"names", "methods", "strings"}
  // globs, and the guard tests: {"names", "strings"}.
  nlohmann::json scanner_interest() const;
  nlohmann::json scanner_guards() const;
};

Result<CudaismRules> parse_cudaism_rules(std::string_view toml_text, const std::string& origin);
// The embedded data/cudaisms.toml.
const CudaismRules& builtin_cudaism_rules();

}  // namespace onramp::port
