// PEP 440 versions and specifiers, PEP 508 requirements and wheel file names.
// The first line is a version, the rest a specifier set; when both parse, the
// version is matched against it, and against itself, so that comparison runs
// on arbitrary versions.
#include "fuzz_input.h"
#include "onramp/packaging/metadata.h"
#include "onramp/packaging/pep440.h"

ONRAMP_FUZZ_TARGET(pep440) {
  std::string_view text = onramp::fuzz::as_text(data, size);
  auto [version_text, specifier_text] = onramp::fuzz::split_first_line(text);
  auto version = onramp::wheel::Pep440Version::parse(version_text);
  if (version) {
    (void)version->normalized();
    (void)version->public_version();
    (void)version->base_version();
    (void)(*version <=> version->base());
    (void)(*version == version->without_local());
  }
  auto specifiers = onramp::wheel::SpecifierSet::parse(specifier_text);
  if (specifiers) {
    (void)specifiers->to_string();
    if (version) {
      (void)specifiers->contains(*version);
      (void)specifiers->contains(*version, true);
    }
    (void)specifiers->contains_text(version_text);
  }
  (void)onramp::wheel::parse_requirement(text);
  (void)onramp::wheel::parse_wheel_file_name(version_text);
  return 0;
}
