#pragma once
// Reading a whole file into memory, with the one error line every caller
// shows: "PATH: cannot read: REASON".
#include <string>

#include "onramp/util/error.h"

namespace onramp::util {

// The file's bytes. A missing file, a directory or a read error fails.
Result<std::string> read_text_file(const std::string& path);

}  // namespace onramp::util
