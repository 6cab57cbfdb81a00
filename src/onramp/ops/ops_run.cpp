#include "onramp/ops/ops_run.h"

#include "onramp/ops/aten_locator.h"
#include "onramp/ops/discovery.h"
#include "onramp/ops/methods.h"
#include "onramp/ops/ops_report.h"

namespace onramp::ops {

report::Section run_ops_section(python::Interpreters& interpreters, const source::Source& src,
                                const OpsRunOptions& options) {
  const auto& rules = OpsRules::builtin();
  auto where = value_or_fatal(locate_aten_schema(interpreters, options.aten, options.python));
  auto schema = value_or_fatal(AtenSchema::load(where.path, rules));
  DiscoveryOptions discovery;
  discovery.min_members = options.min_members;
  discovery.threads = options.threads;
  discovery.max_file_size = options.max_file_size;
  Discovery found = discover(src, schema, rules, discovery, options.profile);

  OpsReportInput in{found, schema, rules, where.evidence, options.profile, options.claim, std::nullopt, "--claim",
                    options.source_evidence};
  const profile::BackendProfile* profile = options.profile;
  if (in.claim.empty() && profile && !profile->claims.empty()) {
    in.claim = profile->claims.front().text;
    in.claim_value = profile->claims.front().value;
    in.claim_source = profile->origin + " (claim made in " + profile->claims.front().source + ")";
  }
  if (!in.claim_value && !in.claim.empty()) in.claim_value = claim_number(in.claim);
  return build_ops_section(in);
}

}  // namespace onramp::ops
