#include "onramp/util/embedded.h"

#include <string>

#include "onramp/util/error.h"

namespace onramp::embedded {

std::string_view get(std::string_view path) {
  const auto& files = all();
  auto it = files.find(path);
  if (it == files.end()) throw FatalError("internal: " + std::string(path) + " is not embedded");
  return it->second;
}

}  // namespace onramp::embedded
