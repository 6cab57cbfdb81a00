#pragma once
// For tests of time limits: an executable "python" that answers onramp's
// interpreter query (python -I -c ...) at once, as a Python 3.11 without
// torch whose site directory is SITE, and never ends for anything else (a
// venv, pip, a script), so that the limit the caller runs it under is what
// stops it.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace onramp::testing {

inline std::string write_never_ending_python(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir / "site");
  std::filesystem::path path = dir / "python";
  std::ofstream out(path);
  out << "#!/bin/sh\n"
         "if [ \"$1\" = -I ] && [ \"$2\" = -c ]; then\n"
         "  echo '{\"python\": \"3.11.7\", \"executable\": \"" << path.string() << "\", \"venv\": false, "
         "\"site\": [\"" << (dir / "site").string() << "\"]}'\n"
         "  exit 0\n"
         "fi\n"
         "while :; do sleep 1; done\n";
  out.close();
  ::chmod(path.c_str(), 0755);
  return path.string();
}

}  // namespace onramp::testing
