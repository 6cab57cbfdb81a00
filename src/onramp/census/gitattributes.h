#pragma once
// linguist-generated / linguist-vendored from .gitattributes files, so that
// a repository's own declaration of generated and vendored code is honoured.
// Hand-written matcher: libgit2's attribute lookup needs a repository and
// plain directories have none. Patterns follow gitattributes(5): no slash
// matches the basename at any depth, a slash anchors to the file's directory,
// "**/" matches any leading directories, "/**" everything below.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace onramp::census {

struct AttributeRule {
  std::string base;     // directory of the .gitattributes file, "" or "dir/"
  std::string pattern;
  std::string attribute;  // "linguist-generated" or "linguist-vendored"
  bool value = true;
  std::string origin;     // path:line
};

class GitAttributes {
 public:
  // Adds the rules of one .gitattributes file found at `path`.
  void add_file(const std::string& path, std::string_view text);
  // The last matching rule's value for attribute, with its origin.
  std::optional<std::pair<bool, std::string>> lookup(std::string_view path,
                                                     std::string_view attribute) const;
  bool empty() const { return rules_.empty(); }
  // True when no pattern holds a slash: then a rule's match depends on the
  // file's basename only, not on where the file sits below the rules' base.
  bool path_independent() const;

 private:
  std::vector<AttributeRule> rules_;
};

bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace onramp::census
