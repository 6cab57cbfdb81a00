#pragma once
// A one-file HTTP/1.0 server on loopback for the cache's tests: it can stop
// mid-transfer, honour or ignore a range request, and omit the length.
// Test-only (the e2e index server is Python; this one lets a unit test
// control each connection).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace onramp::index::testing {

struct ServeRule {
  size_t stop_after = std::string::npos;  // close the connection after this many body bytes
  bool honour_range = true;
  bool send_length = true;
};

class TestHttpServer {
 public:
  // Serves `body` at every path; connection i follows rules[i] (the last rule after that).
  TestHttpServer(std::string body, std::vector<ServeRule> rules) : body_(std::move(body)), rules_(std::move(rules)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    socklen_t len = sizeof addr;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    ::listen(fd_, 8);
    thread_ = std::thread([this] { serve(); });
  }
  ~TestHttpServer() {
    stop_ = true;
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
  }
  std::string url(const std::string& name) const { return "http://127.0.0.1:" + std::to_string(port_) + "/" + name; }
  std::vector<std::string> ranges() const {
    std::lock_guard lock(mutex_);
    return ranges_;
  }

 private:
  void serve() {
    for (size_t n = 0; !stop_; ++n) {
      int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      answer(c, rules_[std::min(n, rules_.size() - 1)]);
      ::close(c);
    }
  }
  void answer(int c, const ServeRule& rule) {
    std::string request;
    char buf[4096];
    while (request.find("\r\n\r\n") == std::string::npos) {
      ssize_t got = ::recv(c, buf, sizeof buf, 0);
      if (got <= 0) return;
      request.append(buf, static_cast<size_t>(got));
    }
    size_t from = 0;
    auto at = request.find("Range: bytes=");
    std::string range = at == std::string::npos ? "" : request.substr(at + 13, request.find('-', at) - at - 13);
    {
      std::lock_guard lock(mutex_);
      ranges_.push_back(range);
    }
    if (!range.empty() && rule.honour_range) from = std::stoul(range);
    std::string rest = body_.substr(from);
    std::string head = from ? "HTTP/1.0 206 Partial Content\r\nContent-Range: bytes " + std::to_string(from) + "-" +
                                  std::to_string(body_.size() - 1) + "/" + std::to_string(body_.size()) + "\r\n"
                            : "HTTP/1.0 200 OK\r\n";
    if (rule.send_length) head += "Content-Length: " + std::to_string(rest.size()) + "\r\n";
    head += "\r\n";
    std::string out = head + rest.substr(0, rule.stop_after);
    ::send(c, out.data(), out.size(), MSG_NOSIGNAL);
  }

  std::string body_;
  std::vector<ServeRule> rules_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  mutable std::mutex mutex_;
  std::vector<std::string> ranges_;
};

}  // namespace onramp::index::testing
