#pragma once
// What the census rules need to know about where a directory sits: whether a
// test or vendored directory holds it, and which .gitattributes rules apply
// with which relative path. Two places with the same subtree and the same
// context count the same, so the census counts each (subtree, context) once.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onramp/census/gitattributes.h"

namespace onramp::census {

struct AttributeFrame {
  const GitAttributes* rules = nullptr;
  uint32_t id = 0;   // which .gitattributes content
  std::string rel;   // the directory's path below the rules' base, "" or "a/b/"
};

class PathContext {
 public:
  // The root's context; `attrs` are the rules of the root's .gitattributes.
  static PathContext root(const GitAttributes* attrs, uint32_t attrs_id);
  // The context of subdirectory `name`, whose own .gitattributes is `attrs`.
  PathContext enter(std::string_view name, const GitAttributes* attrs, uint32_t attrs_id) const;

  bool under_test_dir() const { return test_dir_; }
  bool under_vendored_dir() const { return vendored_dir_; }
  // The last matching .gitattributes value of `attribute` for a file here.
  std::optional<bool> attribute(std::string_view file_name, std::string_view attribute) const;
  // Equal keys give equal results for every file below: flags, and for each
  // frame its content id and, when its patterns hold a slash, the relative path.
  std::string key() const;

 private:
  void push(const GitAttributes* attrs, uint32_t attrs_id);
  bool test_dir_ = false, vendored_dir_ = false;
  std::vector<AttributeFrame> frames_;
};

}  // namespace onramp::census
