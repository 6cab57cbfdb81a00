// Wheel archives (libarchive underneath) with small limits, so the hostile
// input checks (member paths, sizes, ratio, count, UTF-8) all run. The reader
// takes a path, so each input is written to one temporary file first.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz_input.h"
#include "onramp/wheel/wheel_archive.h"

namespace {

std::string make_scratch() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/onramp-fuzz-wheel-XXXXXX";
  int fd = mkstemp(pattern.data());
  if (fd < 0) std::abort();
  close(fd);
  return pattern;
}

const std::string& scratch_path() {
  static const std::string path = make_scratch();
  // Registered once the path is built, so that it runs before the path's
  // destructor (registered from inside its initialiser, it ran after, on a
  // destroyed string, and every replay left its file behind).
  static const bool removed_at_exit = std::atexit([] { unlink(scratch_path().c_str()); }) == 0;
  (void)removed_at_exit;
  return path;
}

}  // namespace

ONRAMP_FUZZ_TARGET(wheel_archive) {
  const std::string& path = scratch_path();
  FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) std::abort();
  std::fwrite(data, 1, size, file);
  std::fclose(file);

  onramp::wheel::ArchiveLimits limits;
  limits.max_unpacked_bytes = 1 << 20;
  limits.ratio_floor_bytes = 1 << 12;
  limits.max_members = 64;
  limits.max_text_bytes = 1 << 16;
  (void)onramp::wheel::read_wheel_archive(path, limits);
  (void)onramp::wheel::declared_unpacked_bytes(path, limits);
  return 0;
}
