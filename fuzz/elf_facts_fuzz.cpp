// The ELF reader for native payloads in wheels: machine, SONAME, NEEDED and
// glibc/glibcxx floors. The first byte picks a small prefix limit, so that the
// path that finds the dynamic segment after the kept prefix runs too; the
// input is fed in two pieces, as archive blocks arrive.
#include "fuzz_input.h"
#include "onramp/wheel/elf_facts.h"

ONRAMP_FUZZ_TARGET(elf_facts) {
  if (size < 1) return 0;
  std::string_view bytes = onramp::fuzz::as_text(data + 1, size - 1);
  if (!onramp::wheel::starts_like_elf(bytes)) return 0;
  onramp::wheel::ElfScanner scanner(64 + data[0] * 16);
  size_t half = bytes.size() / 2;
  scanner.feed(bytes.data(), half);
  scanner.feed(bytes.data() + half, bytes.size() - half);
  auto facts = scanner.finish();
  for (const auto& needed : facts.needed) (void)onramp::wheel::version_less(needed, facts.glibc_floor);
  return 0;
}
