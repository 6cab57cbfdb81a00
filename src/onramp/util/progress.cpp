#include "onramp/util/progress.h"

#include <iostream>
#include <mutex>
#include <string>

namespace onramp {

// Steps may report from several threads (util/jobs.h): one line at a time.
void progress(std::string_view message) {
  static std::mutex writing;
  std::string line = "onramp: " + std::string(message) + "\n";
  std::lock_guard lock(writing);
  std::cerr << line << std::flush;
}

}  // namespace onramp
