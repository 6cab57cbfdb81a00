#pragma once
// Turns a discovery into the report's "ops" section: figures, inventory,
// counting-method, gap, sentinel and unresolved tables, findings.
#include <optional>
#include <string>

#include "onramp/ops/discovery.h"
#include "onramp/report/model.h"

namespace onramp::ops {

struct OpsReportInput {
  const Discovery& discovery;
  const AtenSchema& schema;
  const OpsRules& rules;
  std::string schema_evidence;     // how the schema was found
  const profile::BackendProfile* profile;   // nullptr: meanings were guessed
  std::string claim;               // "" when none
  std::optional<long> claim_value;
  std::string claim_source;
  std::string source_evidence;     // the target as described
};

report::Section build_ops_section(const OpsReportInput& in);

// The key of the json_only table listing every op each counting method counts
// for the inventory at WHERE ("path:line") named NAME: rows {method, op}.
std::string counted_table_key(const std::string& where, const std::string& name);

// Invalid UTF-8 bytes shown as \xNN, so any file's text can go into a report.
std::string printable(std::string_view text);

}  // namespace onramp::ops
