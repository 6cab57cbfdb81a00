#include "onramp/diagnosis/evidence.h"

#include <cxxabi.h>

#include <cctype>
#include <cstdlib>
#include <memory>

namespace onramp::diagnosis {
namespace {

constexpr size_t kNormalizedLimit = 300;

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool is_hex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

// Where a path token ends: whitespace, a quote, a bracket, or ':' / ',' / ';'
// followed by a space or the end (the loader's "lib.so: cannot open").
size_t path_end(std::string_view text, size_t at) {
  size_t i = at;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (is_space(c) || c == '\'' || c == '"' || c == '(' || c == ')' || c == '[' || c == ']') break;
    if ((c == ':' || c == ',' || c == ';') && (i + 1 == text.size() || is_space(text[i + 1]))) break;
  }
  return i;
}

std::string demangle(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status),
                                             std::free);
  return status == 0 && out ? std::string(out.get()) : mangled;
}

// The library of torch that defines a namespace's symbols.
std::string library_of(std::string_view demangled) {
  // A nested name may begin with a return type or a const qualifier: look for the first namespace.
  for (auto [ns, library] : {std::pair{"c10::", "libc10.so"}, std::pair{"at::", "libtorch_cpu.so"},
                             std::pair{"torch::", "libtorch_cpu.so"}, std::pair{"caffe2::", "libtorch_cpu.so"}}) {
    auto at = demangled.find(ns);
    if (at != std::string_view::npos && (at == 0 || !std::isalnum(static_cast<unsigned char>(demangled[at - 1])))) {
      return library;
    }
  }
  return "";
}

}  // namespace

std::string normalized(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size() && out.size() < kNormalizedLimit;) {
    char c = text[i];
    bool token_start = i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1]));
    if (c == '/' && token_start) {
      size_t end = path_end(text, i);
      std::string_view path = text.substr(i, end - i);
      auto slash = path.find_last_of('/');
      out += path.substr(slash + 1);
      i = end;
    } else if (c == '0' && token_start && i + 2 < text.size() && (text[i + 1] == 'x' || text[i + 1] == 'X') &&
               is_hex(text[i + 2])) {
      out += "0x…";
      i += 2;
      while (i < text.size() && is_hex(text[i])) ++i;
    } else if (is_space(c)) {
      if (!out.empty() && out.back() != ' ') out += ' ';
      while (i < text.size() && is_space(text[i])) ++i;
    } else {
      out += c;
      ++i;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string service_name(std::string_view message, const std::vector<std::string>& packages) {
  for (const auto& p : packages) {
    if (p != "torch") return p;
  }
  for (std::string_view scheme : {"https://", "http://", "grpc://", "wss://"}) {
    auto at = message.find(scheme);
    if (at == std::string_view::npos) continue;
    std::string_view rest = message.substr(at + scheme.size());
    auto end = rest.find_first_of("/:?#'\" \t\n)]>,");
    std::string host(rest.substr(0, end));
    if (!host.empty()) return host;
  }
  return "";
}

std::optional<UndefinedSymbol> undefined_symbol(std::string_view message) {
  constexpr std::string_view kMarker = "undefined symbol: ";
  auto at = message.find(kMarker);
  if (at == std::string_view::npos) return std::nullopt;
  size_t start = at + kMarker.size(), end = start;
  while (end < message.size() && !is_space(message[end]) && message[end] != '\'' && message[end] != '"' &&
         message[end] != ')' && message[end] != ',')
    ++end;
  if (end == start) return std::nullopt;
  UndefinedSymbol s;
  s.mangled = std::string(message.substr(start, end - start));
  s.demangled = s.mangled.starts_with("_Z") ? demangle(s.mangled) : s.mangled;
  s.library = library_of(s.demangled);
  return s;
}

}  // namespace onramp::diagnosis
