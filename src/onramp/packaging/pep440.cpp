#include "onramp/packaging/pep440.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <regex>

#include "onramp/util/text.h"

namespace onramp::wheel {
namespace {

// The PEP's own regular expression (Appendix B), applied to lower-cased text.
const std::regex& version_pattern() {
  static const std::regex re(
      R"(^\s*v?(?:([0-9]+)!)?([0-9]+(?:\.[0-9]+)*))"
      R"(([-_.]?(alpha|a|beta|b|preview|pre|c|rc)[-_.]?([0-9]+)?)?)"
      R"(((?:-([0-9]+))|(?:[-_.]?(post|rev|r)[-_.]?([0-9]+)?))?)"
      R"(([-_.]?(dev)[-_.]?([0-9]+)?)?)"
      R"((?:\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?\s*$)");
  return re;
}

std::optional<uint64_t> to_number(std::string_view digits) {
  if (digits.empty()) return 0;  // an omitted number is an implicit 0
  uint64_t n = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return std::nullopt;
  return n;
}

int pre_letter(const std::string& spelling) {
  if (spelling == "a" || spelling == "alpha") return 0;
  if (spelling == "b" || spelling == "beta") return 1;
  return 2;  // c, rc, pre, preview
}

constexpr const char* kPreNames[] = {"a", "b", "rc"};

template <typename T>
std::strong_ordering compare_optional(const std::optional<T>& a, const std::optional<T>& b,
                                      bool absent_is_greatest) {
  if (a.has_value() != b.has_value()) {
    bool a_greater = absent_is_greatest ? !a.has_value() : a.has_value();
    return a_greater ? std::strong_ordering::greater : std::strong_ordering::less;
  }
  if (!a) return std::strong_ordering::equal;
  return *a <=> *b;
}

std::vector<uint64_t> strip_trailing_zeros(std::vector<uint64_t> release) {
  while (release.size() > 1 && release.back() == 0) release.pop_back();
  return release;
}

}  // namespace

Result<Pep440Version> Pep440Version::parse(std::string_view text) {
  // std::regex recurses once per character matched: a version of megabytes
  // would exhaust the stack. No real version comes near this.
  constexpr size_t kMaxLength = 256;
  if (text.size() > kMaxLength) {
    return fail(fmt::format("'{}...' is not a PEP 440 version (longer than {} characters)", text.substr(0, 40),
                            kMaxLength));
  }
  std::string s = util::lowercase(text);
  std::smatch m;
  if (!std::regex_match(s, m, version_pattern())) {
    return fail(fmt::format("'{}' is not a PEP 440 version", text));
  }
  Pep440Version v;
  auto number = [&](int group) -> Result<uint64_t> {
    auto n = to_number(m[group].matched ? std::string_view(&*m[group].first, m[group].length()) : "");
    if (!n) return fail(fmt::format("'{}': a number is too large", text));
    return *n;
  };
  if (auto epoch = number(1)) {
    v.epoch_ = *epoch;
  } else {
    return std::unexpected(epoch.error());
  }
  for (std::string_view rest = std::string_view(&*m[2].first, m[2].length()); !rest.empty();) {
    size_t dot = rest.find('.');
    auto n = to_number(rest.substr(0, dot));
    if (!n) return fail(fmt::format("'{}': a release number is too large", text));
    v.release_.push_back(*n);
    rest = dot == std::string_view::npos ? "" : rest.substr(dot + 1);
  }
  if (m[3].matched) {
    auto n = number(5);
    if (!n) return std::unexpected(n.error());
    v.pre_ = Pre{pre_letter(m[4].str()), *n};
  }
  if (m[6].matched) {
    auto n = number(m[7].matched ? 7 : 9);
    if (!n) return std::unexpected(n.error());
    v.post_ = *n;
  }
  if (m[10].matched) {
    auto n = number(12);
    if (!n) return std::unexpected(n.error());
    v.dev_ = *n;
  }
  if (m[13].matched) {
    std::string local = m[13].str();
    std::replace_if(local.begin(), local.end(), [](char c) { return c == '-' || c == '_'; }, '.');
    for (size_t start = 0; start <= local.size();) {
      size_t dot = std::min(local.find('.', start), local.size());
      std::string part = local.substr(start, dot - start);
      LocalPart lp;
      lp.numeric = std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
      if (lp.numeric) {
        auto n = to_number(part);
        if (!n) return fail(fmt::format("'{}': a local number is too large", text));
        lp.number = *n;
      } else {
        lp.word = part;
      }
      v.local_.push_back(std::move(lp));
      start = dot + 1;
    }
  }
  return v;
}

std::string Pep440Version::base_version() const {
  std::string out = epoch_ ? fmt::format("{}!", epoch_) : "";
  for (size_t i = 0; i < release_.size(); ++i) out += fmt::format("{}{}", i ? "." : "", release_[i]);
  return out;
}

std::string Pep440Version::public_version() const {
  std::string out = base_version();
  if (pre_) out += fmt::format("{}{}", kPreNames[pre_->letter], pre_->number);
  if (post_) out += fmt::format(".post{}", *post_);
  if (dev_) out += fmt::format(".dev{}", *dev_);
  return out;
}

std::string Pep440Version::normalized() const {
  std::string out = public_version();
  for (size_t i = 0; i < local_.size(); ++i) {
    out += i ? "." : "+";
    out += local_[i].numeric ? std::to_string(local_[i].number) : local_[i].word;
  }
  return out;
}

Pep440Version Pep440Version::without_local() const {
  Pep440Version v = *this;
  v.local_.clear();
  return v;
}

Pep440Version Pep440Version::base() const {
  Pep440Version v;
  v.epoch_ = epoch_;
  v.release_ = release_;
  return v;
}

// The ordering of packaging's _cmpkey: trailing release zeros do not count;
// a dev-only release sorts before the pre-releases of its version; no
// post-release sorts first; no dev-release sorts last; local labels sort
// after the public version, numbers above words, longer above its prefix.
std::strong_ordering Pep440Version::operator<=>(const Pep440Version& o) const {
  if (auto c = epoch_ <=> o.epoch_; c != 0) return c;
  if (auto c = strip_trailing_zeros(release_) <=> strip_trailing_zeros(o.release_); c != 0) return c;
  auto pre_key = [](const Pep440Version& v) -> std::pair<int, std::pair<int, uint64_t>> {
    if (!v.pre_ && !v.post_ && v.dev_) return {-1, {0, 0}};
    if (!v.pre_) return {1, {0, 0}};
    return {0, {v.pre_->letter, v.pre_->number}};
  };
  if (auto c = pre_key(*this) <=> pre_key(o); c != 0) return c;
  if (auto c = compare_optional(post_, o.post_, false); c != 0) return c;
  if (auto c = compare_optional(dev_, o.dev_, true); c != 0) return c;
  for (size_t i = 0; i < std::min(local_.size(), o.local_.size()); ++i) {
    const auto& a = local_[i];
    const auto& b = o.local_[i];
    if (a.numeric != b.numeric) return a.numeric ? std::strong_ordering::greater : std::strong_ordering::less;
    if (auto c = a.numeric ? a.number <=> b.number : a.word <=> b.word; c != 0) return c;
  }
  return local_.size() <=> o.local_.size();
}

}  // namespace onramp::wheel
