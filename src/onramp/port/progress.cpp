#include "onramp/port/progress.h"

#include <iostream>

namespace onramp::port {

void progress(std::string_view message) { std::cerr << "onramp: " << message << std::endl; }

}  // namespace onramp::port
