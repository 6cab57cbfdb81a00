#pragma once
// HTTP(S) and file:// transfers with libcurl: a page GET with an Accept
// header, and a streamed download into a file descriptor. One clear error
// line for every failure (the URL and what went wrong).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "onramp/util/error.h"

namespace onramp::index {

struct HttpResponse {
  long status = 0;  // 0 for file:// URLs
  std::string content_type;
  std::string body;
};

// GETs a page (at most `max_bytes`), following redirects. A status >= 400 is an error.
Result<HttpResponse> http_get(const std::string& url, const std::string& accept, uint64_t max_bytes = 64ull << 20);

// Bytes done, bytes expected (0 when the server does not say).
using ProgressFn = std::function<void(uint64_t, uint64_t)>;
// Receives each chunk; returning false aborts the transfer.
using SinkFn = std::function<bool(const char*, size_t)>;

// Streams `url` into `sink`. A transfer that ends before the length the
// server announced is an error ("stopped after N of M bytes").
Result<uint64_t> http_download(const std::string& url, const SinkFn& sink, const ProgressFn& progress);

// "onramp/VERSION": how onramp's requests name themselves.
std::string user_agent();

}  // namespace onramp::index
