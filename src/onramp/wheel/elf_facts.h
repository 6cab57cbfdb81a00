#pragma once
// ELF facts of a shared object, read from its bytes as they stream out of the
// archive: the libraries it needs (DT_NEEDED), its soname, and the highest
// GLIBC_ / GLIBCXX_ symbol versions it requires (the floor a system must meet).
// Hand-written on <elf.h> because libelf is not a dependency and the few
// fields needed sit in fixed-layout structs near the start of the file.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace onramp::wheel {

struct ElfFacts {
  std::string machine;  // "x86_64", "aarch64", ... or "machine N"
  std::string soname;
  std::vector<std::string> needed;  // in file order
  std::string glibc_floor;          // e.g. "2.17"; empty when none is required
  std::string glibcxx_floor;        // e.g. "3.4.21"
  std::string not_read;             // why the dynamic facts could not be read
  bool operator==(const ElfFacts&) const = default;
};

bool starts_like_elf(std::string_view first_bytes);

// Fed the bytes of one file in order; keeps at most `prefix_limit` bytes of
// the start of the file plus the dynamic segment wherever it lies.
class ElfScanner {
 public:
  explicit ElfScanner(size_t prefix_limit = 64u << 20) : prefix_limit_(prefix_limit) {}
  void feed(const char* data, size_t size);
  ElfFacts finish() const;

 private:
  void locate_dynamic();
  size_t prefix_limit_;
  std::string prefix_;
  uint64_t offset_ = 0;  // bytes fed so far
  bool located_ = false;
  uint64_t dyn_offset_ = 0, dyn_size_ = 0;
  std::string dynamic_;
};

// Compares dotted version strings numerically ("2.17" < "2.34").
bool version_less(std::string_view a, std::string_view b);

}  // namespace onramp::wheel
