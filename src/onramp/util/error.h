#pragma once
// Errors: leaf functions return Result<T>; Error is recoverable and carries a
// one-line message naming the file and the problem. FatalError aborts the
// command and is caught only in main().
#include <expected>
#include <stdexcept>
#include <string>
#include <utility>

namespace onramp {

struct Error {
  std::string message;
};

template <typename T>
using Result = std::expected<T, Error>;

inline std::unexpected<Error> fail(std::string message) {
  return std::unexpected<Error>(Error{std::move(message)});
}

// Unusable input or environment: one clear line, then a non-zero exit.
class FatalError : public std::runtime_error {
 public:
  explicit FatalError(const std::string& message, int exit_code = 2)
      : std::runtime_error(message), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

// Unwraps a Result or throws its error as fatal.
template <typename T>
T value_or_fatal(Result<T> result) {
  if (!result) throw FatalError(result.error().message);
  if constexpr (!std::is_void_v<T>) return std::move(*result);
}

}  // namespace onramp
