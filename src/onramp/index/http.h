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

struct DownloadOptions {
  // Bytes already held: asked for the rest with a range request. A server
  // that answers with the whole file instead calls `restart` first (the
  // holder drops what it had; returning false aborts).
  uint64_t resume_from = 0;
  std::function<bool()> restart;
  // The file's size as the index or pip's report gave it, for progress when
  // the server does not say (0: unknown).
  uint64_t expected_bytes = 0;
};

struct Downloaded {
  uint64_t bytes = 0;    // the file's size: bytes held before plus bytes received
  bool resumed = false;  // the server sent only the rest
};

// Streams `url` into `sink`. A transfer that ends before the length the
// server announced is an error ("stopped after N of M bytes"). Progress
// counts the whole file, resumed bytes included.
Result<Downloaded> http_download(const std::string& url, const SinkFn& sink, const ProgressFn& progress,
                                 const DownloadOptions& options = {});

// "onramp/VERSION": how onramp's requests name themselves.
std::string user_agent();

}  // namespace onramp::index
