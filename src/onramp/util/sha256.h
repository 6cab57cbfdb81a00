#pragma once
// SHA-256 of a string (OpenSSL's libcrypto), lower-case hex: the names of
// records kept under the cache.
#include <string>

namespace onramp::util {

std::string sha256_text(const std::string& text);

}  // namespace onramp::util
