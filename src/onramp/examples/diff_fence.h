#pragma once
// The documented port: a ```diff or ```patch fence is the backend's own
// statement of what porting costs. Per fence, code lines only (the text
// after the leading + or -, neither blank nor a comment): lines added, lines
// removed, and how many pair as changed (a run of - lines directly followed
// by a run of + lines pairs min of the two counts). Added lines are
// classified by data/port_changes.toml.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "onramp/report/model.h"
#include "onramp/examples/example_sources.h"

namespace onramp::examples {

struct ChangeClass {
  std::string id;
  std::string label;
  std::vector<std::string> starts_with;
  std::vector<std::string> contains;
  bool changed_only = false;
};

struct ChangeRules {
  std::vector<std::string> comment;
  std::vector<ChangeClass> classes;

  static Result<ChangeRules> parse(std::string_view toml, const std::string& origin);
  static const ChangeRules& builtin();  // data/port_changes.toml
  bool is_code(std::string_view line) const;  // line without its +/-
  // The class id of an added line; `changed` when it replaces a removed line.
  std::string classify(std::string_view line, bool changed) const;
};

struct DiffCount {
  size_t added = 0;
  size_t removed = 0;
  size_t changed = 0;                     // added lines that replace a removed one
  std::map<std::string, size_t> classes;  // class id -> added lines
};

DiffCount count_diff(std::string_view fence_text, const ChangeRules& rules);

// Figures and a per-fence table for every diff fence of the files (nothing
// when there is none).
void add_diff_fences(report::Section& section, const std::vector<ExampleFile>& files);

}  // namespace onramp::examples
