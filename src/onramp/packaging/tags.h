#pragma once
// Which wheels an interpreter takes, judged against pip's own list of
// compatible tags (`pip debug --verbose`, "Compatible tags"): a wheel is
// installable iff one of its tags is in that list, and pip prefers the tag
// that comes first. For a wheel that is not installable, the reason names
// the first tag part that fails: Python tag, ABI, platform, or the glibc
// floor of a manylinux platform.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onramp/util/error.h"

namespace onramp::index {

struct Tag {
  std::string python, abi, platform;
  std::string text() const { return python + "-" + abi + "-" + platform; }
};

struct CompatibleTags {
  std::vector<Tag> tags;  // pip's order: most preferred first
};

// The "Compatible tags: N" block of `pip debug --verbose`.
Result<CompatibleTags> parse_pip_debug_tags(std::string_view text);

// A wheel file name's tag set (compressed tags such as py2.py3 expanded).
Result<std::vector<Tag>> wheel_tags(const std::string& file_name);

struct TagVerdict {
  bool installable = false;
  std::optional<size_t> rank;  // position of the wheel's best tag in pip's list
  std::string reason;          // why not, when not installable
};

// `glibc` is this machine's glibc version ("2.36").
TagVerdict judge_wheel(const std::vector<Tag>& wheel, const CompatibleTags& pip, const std::string& glibc);

// A manylinux platform's glibc floor ("manylinux_2_31_x86_64" -> 2.31, the
// legacy aliases manylinux1/2010/2014 too); nullopt for other platforms.
struct GlibcFloor {
  int major = 0, minor = 0;
  std::string arch;
};
std::optional<GlibcFloor> manylinux_floor(const std::string& platform);

// gnu_get_libc_version().
std::string this_glibc_version();

}  // namespace onramp::index
