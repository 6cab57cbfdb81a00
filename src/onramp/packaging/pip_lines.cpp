#include "onramp/packaging/pip_lines.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "onramp/util/text.h"

namespace onramp::index {
namespace {

// pip frames a subprocess's output with box-drawing characters ("│", "╰─>"),
// which are stripped with the blanks.
std::string unframed(const std::string& line) {
  static const std::vector<std::string> frames{"\xe2\x94\x82", "\xe2\x95\xb0\xe2\x94\x80>"};  // │ and ╰─>
  std::string_view t = line;
  for (bool cut = true; cut;) {
    cut = false;
    t = util::trim(t);
    for (const auto& f : frames) {
      if (t.starts_with(f)) {
        t.remove_prefix(f.size());
        cut = true;
      }
    }
  }
  return std::string(t);
}

std::vector<std::string> unframed_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(unframed(line));
  return out;
}

bool mentions_error(const std::string& line) {
  return util::lowercase(line).find("error") != std::string::npos;
}

// The lines of the first subprocess output block: after "[N lines of output]", up to "[end of output]".
std::vector<std::string> subprocess_block(const std::vector<std::string>& lines) {
  std::vector<std::string> out;
  bool inside = false;
  for (const auto& l : lines) {
    if (!inside) {
      inside = l.starts_with("[") && l.ends_with("lines of output]");
      continue;
    }
    if (l == "[end of output]") break;
    if (!l.empty()) out.push_back(l);
  }
  return out;
}

// pip's closing words that say nothing about the cause.
bool generic(const std::string& l) {
  for (const char* prefix : {"hint:", "note:", "ERROR: Failed to build", "ERROR: Could not build wheels",
                             "ERROR: Failed building wheel", "error: subprocess-exited-with-error",
                             "error: metadata-generation-failed", "ERROR: Exception:"}) {
    if (l.starts_with(prefix)) return true;
  }
  return l.find("for help visit") != std::string::npos || l.find("See above for") != std::string::npos;
}

void add_once(std::vector<std::string>& out, const std::string& line) {
  if (!line.empty() && std::find(out.begin(), out.end(), line) == out.end()) out.push_back(line);
}

}  // namespace

std::vector<std::string> refusal_lines(const std::string& pip_output) {
  std::vector<std::string> out;
  auto lines = unframed_lines(pip_output);
  bool conflict = false;
  for (const auto& l : lines) {
    if (conflict) {
      if (l.empty()) conflict = false;
      else add_once(out, l);
      continue;
    }
    if (l == "The conflict is caused by:") {
      conflict = true;
    } else if ((l.starts_with("ERROR: ") || l.find("requires a different Python") != std::string::npos) &&
               !generic(l)) {
      add_once(out, l);
    } else if (l.starts_with("×") && !generic(l)) {
      // "× Preparing metadata (pyproject.toml) did not run successfully."
      add_once(out, l);
    }
  }
  // A subprocess (a build of metadata) that failed says why in its own lines.
  for (const auto& l : build_error_lines(pip_output, 3)) {
    if (!l.starts_with("ERROR: ")) add_once(out, l);
  }
  return out;
}

std::vector<std::string> build_error_lines(const std::string& pip_output, size_t max) {
  auto lines = unframed_lines(pip_output);
  std::vector<std::string> block = subprocess_block(lines), out;
  for (const auto& l : block) {
    if (out.size() < max && mentions_error(l)) out.push_back(l);
  }
  for (const auto& l : block) {
    if (out.size() < max && out.empty()) out.push_back(l);  // a block that names no error: its first line
  }
  if (!out.empty()) return out;
  // pip's own words that name the cause, else whatever error it printed.
  for (bool generic_too : {false, true}) {
    for (const auto& l : lines) {
      if (out.size() < max && l.starts_with("ERROR: ") && (generic_too || !generic(l))) add_once(out, l);
    }
    if (!out.empty()) break;
  }
  return out;
}

}  // namespace onramp::index
