// Inventory member names mapped to ATen ops: CamelCase to snake_case and
// the suffix rules (Out, Backward, overload names) against a small schema.
#include "fuzz_input.h"
#include "onramp/ops/names.h"
#include "onramp/ops/test_schema.h"

ONRAMP_FUZZ_TARGET(op_names) {
  static const onramp::ops::AtenSchema schema = onramp::ops::testing::tiny_schema();
  std::string_view text = onramp::fuzz::as_text(data, size);
  (void)onramp::ops::camel_to_snake(text);
  (void)onramp::ops::resolve_member(text, schema);
  (void)onramp::ops::split_op_name(text);
  return 0;
}
