#include "onramp/util/progress.h"

#include <iostream>

namespace onramp {

void progress(std::string_view message) { std::cerr << "onramp: " << message << std::endl; }

}  // namespace onramp
