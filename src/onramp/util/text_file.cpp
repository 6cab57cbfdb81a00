#include "onramp/util/text_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace onramp::util {

Result<std::string> read_text_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return fail(path + ": cannot read: " + std::strerror(EISDIR));
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(path + ": cannot read: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return fail(path + ": cannot read: " + std::strerror(errno));
  return text.str();
}

}  // namespace onramp::util
