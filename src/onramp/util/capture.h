#pragma once
// Bounded capture of a child's output stream. A flood must never be buffered
// whole: the first `head_limit` bytes and the last `tail_limit` bytes are kept,
// everything between is counted and reported as cut.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace onramp {

class BoundedCapture {
 public:
  BoundedCapture() : BoundedCapture(1 << 20, 64 << 10) {}
  BoundedCapture(size_t head_limit, size_t tail_limit) : head_limit_(head_limit), tail_limit_(tail_limit) {}

  void append(std::string_view bytes);

  uint64_t total_bytes() const { return total_; }
  uint64_t cut_bytes() const { return total_ - head_.size() - tail_size(); }
  bool cut() const { return cut_bytes() > 0; }
  const std::string& head() const { return head_; }
  // The bytes kept past the head: empty when the stream fit in the head.
  std::string tail() const;
  // The stream's last `max_bytes` bytes as kept (from the tail when it was
  // cut, else from the head): what a message quotes as "how it ended".
  std::string ending(size_t max_bytes = 4096) const;
  // head, then a one-line marker naming the bytes cut, then tail.
  std::string text() const;

 private:
  size_t tail_size() const;

  size_t head_limit_;
  size_t tail_limit_;
  uint64_t total_ = 0;
  std::string head_;
  // The tail is kept in a buffer of up to twice its limit and trimmed lazily,
  // so a flood costs amortised O(1) per byte.
  std::string tail_;
};

}  // namespace onramp
