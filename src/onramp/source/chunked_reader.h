#pragma once
// Feeds a byte stream to a sink in chunks that end on line boundaries, so
// that line-oriented consumers never see a token split across chunks. A line
// longer than the limit is split at the limit (bounded memory).
#include <functional>
#include <string>
#include <string_view>

namespace onramp::source {

class LineChunker {
 public:
  explicit LineChunker(const std::function<void(std::string_view)>& sink, size_t limit = 1 << 20)
      : sink_(sink), limit_(limit) {}
  void feed(std::string_view bytes);
  void finish();

 private:
  const std::function<void(std::string_view)>& sink_;
  size_t limit_;
  std::string carry_;
};

}  // namespace onramp::source
