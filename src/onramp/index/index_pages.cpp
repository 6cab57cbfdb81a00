#include "onramp/index/index_pages.h"

#include <curl/curl.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <map>
#include <sstream>

#include "onramp/index/http.h"
#include "onramp/packaging/metadata.h"

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
  std::map<std::string, std::pair<int, std::string>> best;  // option -> (precedence, "section.option=value")
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) {
    size_t eq = line.find('='), dot = line.find('.');
    if (eq == std::string::npos || dot == std::string::npos || dot > eq) continue;
    std::string section = line.substr(0, dot), option = line.substr(dot + 1, eq - dot - 1);
    int rank = section == ":env:" ? 3 : section == "install" ? 2 : section == "global" ? 1 : 0;
    if (rank && (!best.count(option) || best[option].first < rank)) best[option] = {rank, line.substr(0, eq) + "=" + unquote(line.substr(eq + 1))};
  }
  auto value = [&](const std::string& option) -> std::optional<std::string> {
    if (!best.count(option)) return std::nullopt;
    const std::string& kv = best[option].second;
    return kv.substr(kv.find('=') + 1);
  };
  if (auto v = value("index-url")) {
    out.index_url = *v;
    out.index_url_key = best["index-url"].second.substr(0, best["index-url"].second.find('='));
  }
  if (auto v = value("extra-index-url")) out.extra_index_urls = words(*v);
  if (auto v = value("find-links")) out.find_links = words(*v);
  if (auto v = value("constraint")) out.constraints = words(*v);
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
