#pragma once
// PEP 440 versions and version specifiers, as pip and packaging read them:
// normalisation of alternative spellings, the full ordering (epochs, pre-,
// post- and dev-releases, local versions), and every specifier operator
// (~=, ==, ==X.*, !=, <=, >=, <, >, ===) with the PEP's pre-release rules.
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onramp/util/error.h"

namespace onramp::wheel {

class Pep440Version {
 public:
  // Parses any PEP 440 spelling ("1.0RC1", "v2.14.1+cpu", "1!2.0.post3.dev4").
  static Result<Pep440Version> parse(std::string_view text);

  std::string normalized() const;  // the canonical spelling, e.g. "1.0rc1"
  std::string public_version() const;  // without the local label
  std::string base_version() const;    // epoch and release only
  bool is_prerelease() const { return pre_.has_value() || dev_.has_value(); }
  bool is_postrelease() const { return post_.has_value(); }
  bool is_devrelease() const { return dev_.has_value(); }
  bool has_local() const { return !local_.empty(); }
  const std::vector<uint64_t>& release() const { return release_; }
  uint64_t epoch() const { return epoch_; }

  Pep440Version without_local() const;
  Pep440Version base() const;  // epoch and release only

  std::strong_ordering operator<=>(const Pep440Version& other) const;
  bool operator==(const Pep440Version& other) const {
    return (*this <=> other) == std::strong_ordering::equal;
  }

 private:
  struct Pre {
    int letter = 0;  // 0 a, 1 b, 2 rc
    uint64_t number = 0;
  };
  // A local segment is a number (sorts above any word) or a lower-case word.
  struct LocalPart {
    bool numeric = false;
    uint64_t number = 0;
    std::string word;
  };
  uint64_t epoch_ = 0;
  std::vector<uint64_t> release_;
  std::optional<Pre> pre_;
  std::optional<uint64_t> post_;
  std::optional<uint64_t> dev_;
  std::vector<LocalPart> local_;
};

enum class SpecifierOp { compatible, equal, not_equal, less_equal, greater_equal, less, greater, arbitrary };

class Specifier {
 public:
  static Result<Specifier> parse(std::string_view text);

  // allow_prereleases empty: the PEP's default (pre-releases only when the
  // specifier itself names one).
  bool contains(const Pep440Version& version, std::optional<bool> allow_prereleases = {}) const;
  bool contains_text(std::string_view version_text, std::optional<bool> allow_prereleases = {}) const;
  bool names_prerelease() const;
  std::string to_string() const;
  SpecifierOp op() const { return op_; }
  const std::string& version_text() const { return version_text_; }

 private:
  bool matches(const Pep440Version& v) const;
  bool prefix_match(const Pep440Version& v) const;
  SpecifierOp op_ = SpecifierOp::equal;
  std::string version_text_;  // as written, without the operator (and the ".*")
  bool wildcard_ = false;
  std::optional<Pep440Version> version_;  // absent only for ===
};

// A comma-separated set; a version matches when every specifier matches.
class SpecifierSet {
 public:
  static Result<SpecifierSet> parse(std::string_view text);
  bool contains(const Pep440Version& version, std::optional<bool> allow_prereleases = {}) const;
  bool contains_text(std::string_view version_text, std::optional<bool> allow_prereleases = {}) const;
  bool empty() const { return specifiers_.empty(); }
  const std::vector<Specifier>& specifiers() const { return specifiers_; }
  std::string to_string() const;  // sorted by text, comma-joined

 private:
  std::vector<Specifier> specifiers_;
};

}  // namespace onramp::wheel
