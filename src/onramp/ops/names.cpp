#include "onramp/ops/names.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <vector>

#include "onramp/util/text.h"

namespace onramp::ops {
namespace {

bool upper(char c) { return std::isupper(static_cast<unsigned char>(c)); }
bool lower(char c) { return std::islower(static_cast<unsigned char>(c)); }
bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }

// Case and underscores ignored: "dim_IntList" ~ "dim_int_list" ~ "DimIntList".
std::string fold(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c != '_') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

bool is_identifier(std::string_view s) {
  if (s.empty() || digit(s[0])) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

std::vector<std::string> split_words(const std::string& snake) {
  std::vector<std::string> words;
  size_t start = 0;
  for (size_t i = 0; i <= snake.size(); ++i) {
    if (i == snake.size() || snake[i] == '_') {
      if (i > start) words.push_back(snake.substr(start, i - start));
      start = i + 1;
    }
  }
  return words;
}

// The overload of `name` that `rest` spells, or nullopt.
std::optional<std::string> matching_overload(const AtenSchema& schema, const std::string& name, const std::string& rest) {
  std::string want = fold(rest);
  for (const auto* op : schema.overloads_of(name)) {
    if (fold(op->overload) == want) return op->overload;
  }
  return std::nullopt;
}

// The CamelCase mapping: strip a `k` prefix; text after the first `_` is an
// overload and the `_` itself marks the in-place name (kFill_Scalar ->
// fill_.Scalar, falling back to fill.Scalar); otherwise the longest leading
// run of words that is an op name wins and the remaining words name its
// overload (kAddOut -> add.out, kMaxDim -> max.dim).
OpRef resolve_camel(std::string_view ident, const AtenSchema& schema) {
  if (ident.size() > 1 && ident[0] == 'k' && upper(ident[1])) ident.remove_prefix(1);
  size_t underscore = ident.find('_');
  std::string_view head = ident.substr(0, underscore);
  std::string tail = underscore == std::string_view::npos ? "" : std::string(ident.substr(underscore + 1));
  bool marked_inplace = underscore != std::string_view::npos;
  std::vector<std::string> words = split_words(camel_to_snake(head));
  if (words.empty()) return {std::string(ident), "", false, false};
  for (size_t n = words.size(); n >= 1; --n) {
    auto cut = words.begin() + static_cast<std::ptrdiff_t>(n);
    std::string base = util::join(std::vector<std::string>(words.begin(), cut), "_");
    std::string rest = util::join(std::vector<std::string>(cut, words.end()), "_");
    if (!tail.empty()) rest += (rest.empty() ? "" : "_") + tail;
    std::vector<std::string> names = marked_inplace ? std::vector<std::string>{base + "_", base}
                                                    : std::vector<std::string>{base};
    for (const auto& name : names) {
      if (!schema.has_name(name)) continue;
      if (rest.empty()) return {name, "", true, true};
      if (auto o = matching_overload(schema, name, rest)) return {name, *o, true, true};
    }
  }
  std::string name = util::join(words, "_");
  std::string overload = tail;
  if (overload.empty() && name.ends_with("_out")) name.resize(name.size() - 4), overload = "out";
  return {name, overload, false, true};
}

}  // namespace

std::string camel_to_snake(std::string_view camel) {
  std::string out;
  for (size_t i = 0; i < camel.size(); ++i) {
    char c = camel[i];
    if (upper(c) && i > 0) {
      char prev = camel[i - 1];
      bool next_lower = i + 1 < camel.size() && lower(camel[i + 1]);
      bool boundary = lower(prev) || (upper(prev) && next_lower) || (digit(prev) && next_lower);
      if (boundary && !out.empty() && out.back() != '_') out += '_';
    }
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

OpRef resolve_member(std::string_view text, const AtenSchema& schema) {
  for (std::string_view prefix : {"torch.ops.aten.", "aten."}) {
    if (text.starts_with(prefix)) text.remove_prefix(prefix.size());
  }
  auto [name, overload] = split_op_name(text);
  if (overload == "default") overload.clear();
  if (schema.find(name + (overload.empty() ? "" : "." + overload))) return {name, overload, true, false};
  if (overload.empty() && schema.has_name(name)) return {name, "", true, false};
  bool camel = is_identifier(name) && overload.empty() && std::any_of(name.begin(), name.end(), upper);
  if (camel) return resolve_camel(name, schema);
  return {name, overload, false, false};
}

}  // namespace onramp::ops
