#include "onramp/index/http.h"

#include <curl/curl.h>
#include <fmt/format.h>

#include <chrono>
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
};

size_t on_data(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  size_t n = size * count;
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
  if (t->progress && *t->progress) (*t->progress)(static_cast<uint64_t>(now), t->expected);
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

Result<long> perform(CURL* c, const std::string& url, const Transfer& t) {
  auto start = std::chrono::steady_clock::now();
  CURLcode rc = curl_easy_perform(c);
  util::add_time(util::Spent::network, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  long status = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
  curl_off_t length = -1;
  curl_easy_getinfo(c, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
  uint64_t expected = length > 0 ? static_cast<uint64_t>(length) : t.expected;
  if (t.over_limit) return fail(fmt::format("{}: larger than {} bytes", url, t.max_bytes));
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

Result<uint64_t> http_download(const std::string& url, const SinkFn& sink, const ProgressFn& progress) {
  Transfer t{&sink, &progress, 0, 0, 0, false};
  Easy easy = make_easy(url, t);
  auto status = perform(easy.get(), url, t);
  if (!status) return std::unexpected(status.error());
  return t.done;
}

}  // namespace onramp::index
