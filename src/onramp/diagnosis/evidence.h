#pragma once
// The evidence a failure rests on, normalised so that one failure seen in two
// places (the probe's import, and `import torch` with the backend autoloaded)
// reads the same in both: the key findings are linked by (audit/causes.h).
// And what an undefined C++ symbol in a loader's message says: the symbol
// demangled and which of torch's libraries it is expected from.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace onramp::diagnosis {

// `text` with what differs between two runs of one failure made alike:
// absolute paths cut to their last component (a venv, a run directory, a
// temporary file), hexadecimal addresses to "0x…", whitespace runs to one
// space; at most 300 bytes. Hand-written: a few token rules, no grammar.
std::string normalized(std::string_view text);

struct UndefinedSymbol {
  std::string mangled;    // "_ZN3c104impl3fooEv"
  std::string demangled;  // "c10::impl::foo()", or the mangled name where it does not demangle
  std::string library;    // "libc10.so" (c10::), "libtorch_cpu.so" (at::, torch::), or "" for another namespace
};

// The service a failure could not reach, named by the client that asked for
// it: the outermost package its traceback passed through other than torch
// (`packages`, outermost first: the one the caller called into), else the
// host of the first URL in its message, else "". Hand-written: one token rule.
std::string service_name(std::string_view message, const std::vector<std::string>& packages);

// The symbol of "undefined symbol: NAME" in a dynamic loader's message.
std::optional<UndefinedSymbol> undefined_symbol(std::string_view message);

}  // namespace onramp::diagnosis
