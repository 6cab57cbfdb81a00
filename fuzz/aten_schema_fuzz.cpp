// native_functions.yaml (and tags.yaml after the first line): the ATen schema
// parser, then the queries the coverage analysis makes of a parsed schema;
// and the dispatch sections port reads from the same text (aten_dispatch.h).
#include "fuzz_input.h"
#include "onramp/ops/rules.h"
#include "onramp/ops/schema.h"
#include "onramp/port/aten_dispatch.h"

ONRAMP_FUZZ_TARGET(aten_schema) {
  auto [tags, functions] = onramp::fuzz::split_first_line(onramp::fuzz::as_text(data, size));
  if (auto dispatch = onramp::port::parse_aten_dispatch(functions, "fuzz.yaml")) {
    for (const auto& op : dispatch->cpu_only) (void)dispatch->find(op);
  }
  auto schema = onramp::ops::AtenSchema::parse(functions, tags, "fuzz.yaml", onramp::ops::OpsRules::builtin());
  if (!schema) return 0;
  for (const auto& op : schema->ops()) {
    (void)schema->find(op.full_name());
    (void)schema->overloads_of(op.name);
    (void)schema->name_is_core(op.name);
    (void)schema->name_is_composite(op.name);
    (void)onramp::ops::split_op_name(op.full_name());
  }
  (void)schema->core_names();
  return 0;
}
