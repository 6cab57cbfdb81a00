#include "onramp/util/text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace onramp::util {

std::string_view trim(std::string_view text, std::string_view chars) {
  size_t begin = text.find_first_not_of(chars);
  if (begin == std::string_view::npos) return text.substr(text.size());
  return text.substr(begin, text.find_last_not_of(chars) - begin + 1);
}

std::string lowercase(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string shortened(std::string_view text, size_t limit) {
  constexpr std::string_view kEllipsis = "\u2026";
  limit = std::max<size_t>(limit, 8);
  if (text.size() <= limit) return std::string(text);
  size_t room = limit - kEllipsis.size();
  auto continuation = [&](size_t i) { return (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80; };
  size_t cut = room;
  while (cut > 0 && continuation(cut)) --cut;  // never inside a UTF-8 character
  for (size_t i = room; i > room / 2; --i) {
    char c = text[i];
    if (kWhitespace.find(c) != std::string_view::npos) {
      cut = i;
      break;
    }
    if (std::string_view(".,;:!?)]}").find(text[i - 1]) != std::string_view::npos) {
      cut = i;
      break;
    }
  }
  std::string out(trim(text.substr(0, cut), kWhitespace));
  return out + std::string(kEllipsis);
}

std::string one_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte != 0x7f) {
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      out += fmt::format("\\x{:02x}", byte);
    }
  }
  return out;
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += separator;
    out += items[i];
  }
  return out;
}

std::string human_bytes(double bytes, std::optional<ByteUnit> unit) {
  static constexpr const char* kUnits[] = {"B", "KB", "MB", "GB", "TB"};
  int u = 0;
  if (unit) {
    double divisor = 1;
    for (; u < static_cast<int>(*unit); ++u) divisor *= 1000.0;
    bytes /= divisor;
  } else {
    while (bytes >= 1000.0 && u < 4) {
      bytes /= 1000.0;
      ++u;
    }
  }
  return u == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.1f} {}", bytes, kUnits[u]);
}

}  // namespace onramp::util
