#include "onramp/index/http.h"

#include <curl/curl.h>
#include <fmt/format.h>

#include <memory>
#include <mutex>

#include "onramp/util/time_ledger.h"

namespace onramp::index {
namespace {

void global_init() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Transfer {
  const SinkFn* sink = nullptr;
  const ProgressFn* progress = nullptr;
  uint64_t done = 0;
  uint64_t expected = 0;
  uint64_t max_bytes = 0;
  bool over_limit = false;
  // A resumed download: the handle, to read the status at the first chunk.
  CURL* handle = nullptr;
  const DownloadOptions* resume = nullptr;
  uint64_t offset = 0;  // bytes held before this transfer that the server is continuing
  bool first_chunk = true;
  bool restart_failed = false;
  CURLcode rc = CURLE_OK;
};

// At the first chunk of a resumed download: a 206 (or a file:// URL, which
// curl seeks) continues the held bytes; anything else is the whole file.
bool accept_first_chunk(Transfer& t) {
  t.first_chunk = false;
  if (!t.resume || t.resume->resume_from == 0) return true;
  long status = 0;
  curl_easy_getinfo(t.handle, CURLINFO_RESPONSE_CODE, &status);
  if (status == 206 || status == 0) {
    t.offset = t.resume->resume_from;
    return true;
  }
  if (t.resume->restart && t.resume->restart()) return true;
  t.restart_failed = true;
  return false;
}

size_t on_data(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  size_t n = size * count;
  if (t->first_chunk && !accept_first_chunk(*t)) return 0;
  if (t->max_bytes && t->done + n > t->max_bytes) {
    t->over_limit = true;
    return 0;
  }
  if (!(*t->sink)(data, n)) return 0;
  t->done += n;
  return n;
}

int on_progress(void* user, curl_off_t total, curl_off_t now, curl_off_t, curl_off_t) {
  auto* t = static_cast<Transfer*>(user);
  if (total > 0) t->expected = static_cast<uint64_t>(total);
  uint64_t whole = t->expected ? t->offset + t->expected : t->resume ? t->resume->expected_bytes : 0;
  if (t->progress && *t->progress) (*t->progress)(t->offset + static_cast<uint64_t>(now), whole);
  return 0;
}

using Easy = std::unique_ptr<CURL, decltype(&curl_easy_cleanup)>;

Easy make_easy(const std::string& url, Transfer& t) {
  global_init();
  Easy easy(curl_easy_init(), &curl_easy_cleanup);
  CURL* c = easy.get();
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(c, CURLOPT_MAXREDIRS, 10L);
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https,file");
  curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_USERAGENT, user_agent().c_str());
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 30L);
  // A stalled server: under 1 byte/s for 60 s ends the transfer.
  curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 60L);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl_easy_setopt(c, CURLOPT_XFERINFODATA, &t);
  return easy;
}

Result<long> perform(CURL* c, const std::string& url, Transfer& t) {
  CURLcode rc;
  {
    util::OutsideSpan transfer(util::Spent::network);
    rc = t.rc = curl_easy_perform(c);
  }
  long status = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
  curl_off_t length = -1;
  curl_easy_getinfo(c, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
  uint64_t expected = length > 0 ? static_cast<uint64_t>(length) : t.expected;
  if (t.over_limit) return fail(fmt::format("{}: larger than {} bytes", url, t.max_bytes));
  if (t.restart_failed) return fail(fmt::format("{}: the server sent the whole file again and the held part could not be dropped", url));
  if (rc == CURLE_PARTIAL_FILE) {
    return fail(fmt::format("{}: the server stopped after {} of {} bytes", url, t.done, expected));
  }
  if (rc != CURLE_OK) return fail(fmt::format("{}: {}", url, curl_easy_strerror(rc)));
  if (status >= 400) return fail(fmt::format("{}: HTTP status {}", url, status));
  if (expected && t.done < expected) {
    return fail(fmt::format("{}: the server stopped after {} of {} bytes", url, t.done, expected));
  }
  return status;
}

}  // namespace

std::string user_agent() { return std::string("onramp/") + ONRAMP_VERSION; }

Result<HttpResponse> http_get(const std::string& url, const std::string& accept, uint64_t max_bytes) {
  HttpResponse r;
  SinkFn sink = [&r](const char* data, size_t n) {
    r.body.append(data, n);
    return true;
  };
  Transfer t{&sink, nullptr, 0, 0, max_bytes, false};
  Easy easy = make_easy(url, t);
  curl_slist* headers = curl_slist_append(nullptr, ("Accept: " + accept).c_str());
  curl_easy_setopt(easy.get(), CURLOPT_HTTPHEADER, headers);
  auto status = perform(easy.get(), url, t);
  char* type = nullptr;
  curl_easy_getinfo(easy.get(), CURLINFO_CONTENT_TYPE, &type);
  if (type) r.content_type = type;
  curl_slist_free_all(headers);
  if (!status) return std::unexpected(status.error());
  r.status = *status;
  return r;
}

Result<Downloaded> http_download(const std::string& url, const SinkFn& sink, const ProgressFn& progress,
                                 const DownloadOptions& options) {
  Transfer t{&sink, &progress, 0, 0, 0, false};
  t.resume = &options;
  Easy easy = make_easy(url, t);
  t.handle = easy.get();
  if (options.resume_from > 0) {
    curl_easy_setopt(easy.get(), CURLOPT_RESUME_FROM_LARGE, static_cast<curl_off_t>(options.resume_from));
  }
  auto status = perform(easy.get(), url, t);
  // curl refuses a 200 answer to a range request before any byte arrives:
  // drop the held part and take the whole file.
  if (!status && t.rc == CURLE_RANGE_ERROR && options.restart && options.restart()) {
    DownloadOptions whole = options;
    whole.resume_from = 0;
    return http_download(url, sink, progress, whole);
  }
  if (!status) return std::unexpected(status.error());
  return Downloaded{t.offset + t.done, t.offset > 0};
}

}  // namespace onramp::index
