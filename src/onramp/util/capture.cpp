#include "onramp/util/capture.h"

#include <algorithm>

namespace onramp {

void BoundedCapture::append(std::string_view bytes) {
  total_ += bytes.size();
  size_t to_head = std::min(bytes.size(), head_limit_ - head_.size());
  head_.append(bytes.substr(0, to_head));
  bytes.remove_prefix(to_head);
  if (bytes.empty() || tail_limit_ == 0) return;
  if (bytes.size() >= tail_limit_) {
    tail_.assign(bytes.substr(bytes.size() - tail_limit_));
    return;
  }
  tail_.append(bytes);
  if (tail_.size() > 2 * tail_limit_) tail_.erase(0, tail_.size() - tail_limit_);
}

size_t BoundedCapture::tail_size() const { return std::min(tail_.size(), tail_limit_); }

std::string BoundedCapture::tail() const { return tail_.substr(tail_.size() - tail_size()); }

std::string BoundedCapture::ending(size_t max_bytes) const {
  std::string kept = cut() ? tail() : head_ + tail();
  return kept.size() > max_bytes ? kept.substr(kept.size() - max_bytes) : kept;
}

std::string BoundedCapture::text() const {
  if (!cut()) return head_ + tail();
  std::string marker = "\n[onramp: " + std::to_string(cut_bytes()) + " bytes cut]\n";
  return head_ + marker + tail();
}

}  // namespace onramp
