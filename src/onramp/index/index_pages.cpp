#include "onramp/index/index_pages.h"

#include <curl/curl.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <sstream>

#include "onramp/index/http.h"
#include "onramp/wheel/metadata.h"

namespace onramp::index {
namespace {

constexpr const char* kAccept = "application/vnd.pypi.simple.v1+json, text/html;q=0.01";

std::string unquote(std::string v) {
  if (v.size() >= 2 && (v.front() == '\'' || v.front() == '"') && v.back() == v.front()) v = v.substr(1, v.size() - 2);
  return v;
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace

PipIndexConfig parse_pip_config_list(std::string_view text) {
  PipIndexConfig out;
  std::optional<std::string> global_index, install_index, global_extra, install_extra;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) {
    size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string key = line.substr(0, eq), value = unquote(line.substr(eq + 1));
    if (key == "global.index-url") global_index = value;
    if (key == "install.index-url") install_index = value;
    if (key == "global.extra-index-url") global_extra = value;
    if (key == "install.extra-index-url") install_extra = value;
  }
  if (install_index) out.index_url = install_index, out.index_url_key = "install.index-url";
  else if (global_index) out.index_url = global_index, out.index_url_key = "global.index-url";
  if (auto extra = install_extra ? install_extra : global_extra) out.extra_index_urls = words(*extra);
  return out;
}

std::string project_page_url(const std::string& index_url, const std::string& project) {
  std::string base = index_url;
  if (!base.ends_with("/")) base += "/";
  return base + wheel::normalize_name(project) + "/";
}

std::string local_path_of(const std::string& url) {
  if (!url.starts_with("file://")) return "";
  CURLU* u = curl_url();
  std::string out;
  char* path = nullptr;
  if (u && curl_url_set(u, CURLUPART_URL, url.c_str(), 0) == CURLUE_OK &&
      curl_url_get(u, CURLUPART_PATH, &path, CURLU_URLDECODE) == CURLUE_OK) {
    out = path;
  }
  curl_free(path);
  curl_url_cleanup(u);
  return out;
}

PageRead read_project_page(const std::string& index_url, const std::string& project) {
  PageRead read;
  read.index_url = index_url;
  read.page_url = project_page_url(index_url, project);
  bool local = index_url.starts_with("file://");
  // A directory on disk has no content negotiation: PEP 503 puts index.html in it.
  std::string fetch_url = local ? read.page_url + "index.html" : read.page_url;
  auto response = http_get(fetch_url, kAccept);
  if (!response) {
    read.error = response.error().message;
    return read;
  }
  bool json = response->content_type.find("json") != std::string::npos;
  read.form = json ? "PEP 691 JSON" : "PEP 503 HTML";
  auto page = json ? parse_json_page(response->body, read.page_url) : parse_html_page(response->body, read.page_url);
  if (!page) {
    read.error = page.error().message;
    return read;
  }
  read.page = std::move(*page);
  for (auto& f : read.page.files) {
    struct stat st {};
    std::string path = local_path_of(f.url);
    if (!f.size && !path.empty() && ::stat(path.c_str(), &st) == 0) f.size = static_cast<uint64_t>(st.st_size);
  }
  return read;
}

}  // namespace onramp::index
