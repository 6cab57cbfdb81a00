#include "onramp/util/progress.h"

#include <iostream>
#include <memory>
#include <mutex>

namespace onramp {

Progress stderr_progress() {
  // Steps may report from several threads: one line at a time.
  auto writing = std::make_shared<std::mutex>();
  return [writing](const std::string& message) {
    std::string line = "onramp: " + message + "\n";
    std::lock_guard lock(*writing);
    std::cerr << line << std::flush;
  };
}

}  // namespace onramp
