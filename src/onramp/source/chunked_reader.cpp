#include "onramp/source/chunked_reader.h"

namespace onramp::source {

void LineChunker::feed(std::string_view bytes) {
  while (!bytes.empty()) {
    size_t last_nl = bytes.rfind('\n');
    if (last_nl == std::string_view::npos) {
      size_t room = limit_ - std::min(limit_, carry_.size());
      size_t take = std::min(room, bytes.size());
      carry_.append(bytes.substr(0, take));
      bytes.remove_prefix(take);
      if (carry_.size() >= limit_) {
        sink_(carry_);
        carry_.clear();
      }
      continue;
    }
    std::string_view head = bytes.substr(0, last_nl + 1);
    if (carry_.empty()) {
      sink_(head);
    } else {
      carry_.append(head);
      sink_(carry_);
      carry_.clear();
    }
    bytes.remove_prefix(last_nl + 1);
  }
}

void LineChunker::finish() {
  if (!carry_.empty()) sink_(carry_);
  carry_.clear();
}

}  // namespace onramp::source
