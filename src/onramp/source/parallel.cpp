#include "onramp/source/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace onramp::source {

void for_each_parallel(const Source& src, size_t count, unsigned threads,
                       const std::function<void(Reader&, size_t)>& work) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<size_t>(threads, std::max<size_t>(1, count)));
  std::atomic<size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto worker = [&] {
    try {
      auto reader = src.reader();
      for (size_t i = next++; i < count; i = next++) work(*reader, i);
    } catch (...) {
      std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      next = count;
    }
  };
  {
    std::vector<std::jthread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace onramp::source
