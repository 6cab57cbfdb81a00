// The TOML inputs (toml++ underneath): languages table, backend profiles,
// diagnosis rules and ops rules. A user can point onramp at their own profile,
// so each must turn bad TOML into an error naming the file.
#include "fuzz_input.h"
#include "onramp/census/languages.h"
#include "onramp/profile/profile.h"
#include "onramp/ops/rules.h"
#include "onramp/diagnosis/diagnosis.h"

ONRAMP_FUZZ_TARGET(toml_tables) {
  std::string_view text = onramp::fuzz::as_text(data, size);
  if (auto table = onramp::census::LanguageTable::parse(text, "fuzz.toml")) {
    (void)table->detect("a/b.py");
    (void)table->detect("CMakeLists.txt");
  }
  (void)onramp::profile::parse_profile(text, "fuzz.toml");
  if (auto diagnoses = onramp::diagnosis::Diagnoses::parse(text, "fuzz.toml")) {
    (void)diagnoses->find("RuntimeError", "Expected one of cpu, cuda device type at start of device string: tpu");
  }
  if (auto rules = onramp::ops::OpsRules::parse(text, "fuzz.toml")) {
    (void)rules->family_of("add");
    (void)rules->sentinel_reason("NumOps", "// count");
    (void)rules->guess_meaning("UNREGISTERED_OPS");
  }
  return 0;
}
