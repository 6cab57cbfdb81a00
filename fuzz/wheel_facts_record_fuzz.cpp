// A wheel's facts read back from the cache (wheel/facts_store.h): a file
// anything may have written or cut short, checked field by field.
#include <nlohmann/json.hpp>
#include <string>

#include "fuzz_input.h"
#include "onramp/wheel/facts_store.h"

ONRAMP_FUZZ_TARGET(wheel_facts_record) {
  std::string text(onramp::fuzz::as_text(data, size));
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_discarded()) (void)onramp::wheel::facts_from_json(j);
  return 0;
}
