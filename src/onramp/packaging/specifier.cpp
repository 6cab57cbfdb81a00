// PEP 440 version specifiers: the operator table and the matching rules of
// the PEP (and of packaging, which pip uses).
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "onramp/util/text.h"
#include "onramp/packaging/pep440.h"

namespace onramp::wheel {
namespace {

struct OpSpelling {
  std::string_view text;
  SpecifierOp op;
};

// Longest spellings first, so that "===" is not read as "==" and "=".
constexpr std::array<OpSpelling, 8> kOps{{{"===", SpecifierOp::arbitrary},
                                          {"~=", SpecifierOp::compatible},
                                          {"==", SpecifierOp::equal},
                                          {"!=", SpecifierOp::not_equal},
                                          {"<=", SpecifierOp::less_equal},
                                          {">=", SpecifierOp::greater_equal},
                                          {"<", SpecifierOp::less},
                                          {">", SpecifierOp::greater}}};

std::string_view spelling(SpecifierOp op) {
  for (const auto& o : kOps) {
    if (o.op == op) return o.text;
  }
  return "";
}

// Only releases ("1.2", "1!2") may carry the ".*" wildcard.
bool is_plain_release(const Pep440Version& v) {
  return !v.is_prerelease() && !v.is_postrelease() && !v.has_local();
}

}  // namespace

Result<Specifier> Specifier::parse(std::string_view text) {
  std::string_view s = util::trim(text);
  Specifier spec;
  const OpSpelling* found = nullptr;
  for (const auto& o : kOps) {
    if (s.starts_with(o.text)) {
      found = &o;
      break;
    }
  }
  if (!found) return fail(fmt::format("'{}' is not a version specifier (no operator)", text));
  spec.op_ = found->op;
  std::string_view version = util::trim(s.substr(found->text.size()));
  if (version.empty()) return fail(fmt::format("'{}': the specifier has no version", text));
  if (spec.op_ == SpecifierOp::arbitrary) {
    spec.version_text_ = std::string(version);
    return spec;
  }
  bool may_wildcard = spec.op_ == SpecifierOp::equal || spec.op_ == SpecifierOp::not_equal;
  if (version.ends_with(".*")) {
    if (!may_wildcard) return fail(fmt::format("'{}': only == and != take a .* wildcard", text));
    spec.wildcard_ = true;
    version.remove_suffix(2);
  }
  auto parsed = Pep440Version::parse(version);
  if (!parsed) return fail(fmt::format("'{}': {}", text, parsed.error().message));
  if (spec.wildcard_ && !is_plain_release(*parsed)) {
    return fail(fmt::format("'{}': a .* wildcard must follow a plain release", text));
  }
  if (parsed->has_local() && !may_wildcard) {
    return fail(fmt::format("'{}': only == and != may name a local version", text));
  }
  if (spec.op_ == SpecifierOp::compatible && parsed->release().size() < 2) {
    return fail(fmt::format("'{}': ~= needs at least two release numbers", text));
  }
  spec.version_text_ = std::string(version);
  spec.version_ = std::move(*parsed);
  return spec;
}

std::string Specifier::to_string() const {
  return fmt::format("{}{}{}", spelling(op_), version_text_, wildcard_ ? ".*" : "");
}

bool Specifier::names_prerelease() const {
  switch (op_) {
    case SpecifierOp::equal:
    case SpecifierOp::compatible:
    case SpecifierOp::less_equal:
    case SpecifierOp::greater_equal: return version_->is_prerelease();
    case SpecifierOp::arbitrary: {
      auto v = Pep440Version::parse(version_text_);
      return v && v->is_prerelease();
    }
    default: return false;
  }
}

// ==X.* compares the release, padded with zeros, up to the prefix's length.
bool Specifier::prefix_match(const Pep440Version& v) const {
  if (v.epoch() != version_->epoch()) return false;
  const auto& prefix = version_->release();
  for (size_t i = 0; i < prefix.size(); ++i) {
    uint64_t n = i < v.release().size() ? v.release()[i] : 0;
    if (n != prefix[i]) return false;
  }
  return true;
}

bool Specifier::matches(const Pep440Version& v) const {
  const Pep440Version& spec = *version_;
  switch (op_) {
    case SpecifierOp::equal:
      if (wildcard_) return prefix_match(v);
      return (spec.has_local() ? v : v.without_local()) == spec;
    case SpecifierOp::not_equal:
      if (wildcard_) return !prefix_match(v);
      return (spec.has_local() ? v : v.without_local()) != spec;
    case SpecifierOp::less_equal: return v.without_local() <= spec;
    case SpecifierOp::greater_equal: return v.without_local() >= spec;
    case SpecifierOp::less:
      // <V excludes V's own pre-releases unless V is itself a pre-release.
      if (!(v < spec)) return false;
      return spec.is_prerelease() || !v.is_prerelease() || v.base() != spec.base();
    case SpecifierOp::greater:
      // >V excludes V's post-releases (unless V is one) and V's local versions.
      if (!(v > spec)) return false;
      if (!spec.is_postrelease() && v.is_postrelease() && v.base() == spec.base()) return false;
      return !(v.has_local() && v.base() == spec.base());
    case SpecifierOp::compatible: {
      // ~=X.Y.Z means >=X.Y.Z together with ==X.Y.*.
      if (v.without_local() < spec) return false;
      Specifier prefix;
      prefix.op_ = SpecifierOp::equal;
      prefix.wildcard_ = true;
      auto release = spec.release();
      release.pop_back();
      std::string text = spec.epoch() ? fmt::format("{}!", spec.epoch()) : "";
      for (size_t i = 0; i < release.size(); ++i) text += fmt::format("{}{}", i ? "." : "", release[i]);
      prefix.version_ = *Pep440Version::parse(text);
      return prefix.prefix_match(v);
    }
    case SpecifierOp::arbitrary: return util::equal_ignoring_case(v.normalized(), version_text_);
  }
  return false;
}

bool Specifier::contains(const Pep440Version& version, std::optional<bool> allow_prereleases) const {
  bool prereleases = allow_prereleases.value_or(names_prerelease());
  if (version.is_prerelease() && !prereleases) return false;
  return matches(version);
}

bool Specifier::contains_text(std::string_view version_text, std::optional<bool> allow_prereleases) const {
  if (op_ == SpecifierOp::arbitrary) return util::equal_ignoring_case(util::trim(version_text), version_text_);
  auto v = Pep440Version::parse(version_text);
  return v && contains(*v, allow_prereleases);
}

Result<SpecifierSet> SpecifierSet::parse(std::string_view text) {
  SpecifierSet set;
  for (std::string_view rest = text; !rest.empty();) {
    size_t comma = rest.find(',');
    std::string_view item = util::trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? "" : rest.substr(comma + 1);
    if (item.empty()) continue;
    auto spec = Specifier::parse(item);
    if (!spec) return std::unexpected(spec.error());
    set.specifiers_.push_back(std::move(*spec));
  }
  return set;
}

bool SpecifierSet::contains(const Pep440Version& version, std::optional<bool> allow_prereleases) const {
  if (!allow_prereleases) {
    allow_prereleases = std::any_of(specifiers_.begin(), specifiers_.end(),
                                    [](const Specifier& s) { return s.names_prerelease(); });
  }
  if (version.is_prerelease() && !*allow_prereleases) return false;
  return std::all_of(specifiers_.begin(), specifiers_.end(),
                     [&](const Specifier& s) { return s.contains(version, true); });
}

bool SpecifierSet::contains_text(std::string_view version_text, std::optional<bool> allow_prereleases) const {
  auto v = Pep440Version::parse(version_text);
  if (!v) {
    // Only === can match a string that is not a PEP 440 version.
    return !specifiers_.empty() && std::all_of(specifiers_.begin(), specifiers_.end(), [&](const Specifier& s) {
      return s.contains_text(version_text, allow_prereleases);
    });
  }
  return contains(*v, allow_prereleases);
}

std::string SpecifierSet::to_string() const {
  std::vector<std::string> parts;
  for (const auto& s : specifiers_) parts.push_back(s.to_string());
  std::sort(parts.begin(), parts.end());
  return util::join(parts, ",");
}

}  // namespace onramp::wheel
