#include "onramp/census/context.h"

#include "onramp/census/paths.h"

namespace onramp::census {

void PathContext::push(const GitAttributes* attrs, uint32_t attrs_id) {
  if (attrs && !attrs->empty()) frames_.push_back({attrs, attrs_id, ""});
}

PathContext PathContext::root(const GitAttributes* attrs, uint32_t attrs_id) {
  PathContext c;
  c.push(attrs, attrs_id);
  return c;
}

PathContext PathContext::enter(std::string_view name, const GitAttributes* attrs, uint32_t attrs_id) const {
  PathContext c = *this;
  // A composite source's top directories are named as given ("a/tests"), so
  // every component of the name is checked.
  std::string dir = std::string(name) + "/";
  c.test_dir_ = test_dir_ || census::under_test_dir(dir);
  c.vendored_dir_ = vendored_dir_ || census::under_vendored_dir(dir);
  for (auto& f : c.frames_) f.rel += dir;
  c.push(attrs, attrs_id);
  return c;
}

std::optional<bool> PathContext::attribute(std::string_view file_name, std::string_view attribute) const {
  std::optional<bool> value;
  for (const auto& f : frames_) {
    if (auto hit = f.rules->lookup(f.rel + std::string(file_name), attribute)) value = hit->first;
  }
  return value;
}

std::string PathContext::key() const {
  std::string k;
  k += test_dir_ ? 'T' : 't';
  k += vendored_dir_ ? 'V' : 'v';
  for (const auto& f : frames_) {
    k += '|';
    k += std::to_string(f.id);
    // Length-prefixed: a name may hold any byte but '/' and NUL.
    if (!f.rules->path_independent()) k += ':' + std::to_string(f.rel.size()) + ':' + f.rel;
  }
  return k;
}

}  // namespace onramp::census
