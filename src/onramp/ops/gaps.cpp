#include "onramp/ops/gaps.h"

#include <algorithm>
#include <functional>

#include "onramp/ops/methods.h"

namespace onramp::ops {
namespace {

struct GapContext {
  const ResolvedMember& m;
  const std::string& family;
  const AtenSchema& schema;
  const std::set<std::string>& registered;
};

bool is_out_form(const GapContext& c) {
  if (c.m.op.overload == "out" || c.m.op.overload.ends_with("_out") || c.m.op.name.ends_with("_out")) return true;
  const AtenOp* op = c.schema.find(c.m.op.full_name());
  return op && op->out;
}

struct GapRule {
  const char* key;
  const char* label;
  const char* rule;
  std::function<bool(const GapContext&)> fits;
};

// The order is the precedence: an entry goes to the first class that fits.
const std::vector<GapRule>& gap_rules() {
  static const std::vector<GapRule> rules{
      {"private", "Private/internal", "the op name starts with an underscore",
       [](const GapContext& c) { return c.m.op.name.starts_with("_"); }},
      {"sparse", "Sparse/coalesced", "family sparse in data/ops_rules.toml", [](const GapContext& c) { return c.family == "sparse"; }},
      {"quantized", "Quantized", "family quantized in data/ops_rules.toml", [](const GapContext& c) { return c.family == "quantized"; }},
      {"nested", "Nested tensors", "family nested in data/ops_rules.toml", [](const GapContext& c) { return c.family == "nested"; }},
      {"vendor", "Vendor-specific kernel", "family vendor (mkldnn, miopen, cudnn, mps, ...) in data/ops_rules.toml",
       [](const GapContext& c) { return c.family == "vendor"; }},
      {"special", "Special function", "family special (special_*)", [](const GapContext& c) { return c.family == "special"; }},
      {"linalg", "Linear algebra", "family linalg (linalg_*)", [](const GapContext& c) { return c.family == "linalg"; }},
      {"fft", "FFT", "family fft (fft_*)", [](const GapContext& c) { return c.family == "fft"; }},
      {"out_of_registered", "out= variant of a registered functional op",
       "an out= form whose base op the backend's implemented inventories hold",
       [](const GapContext& c) { return is_out_form(c) && c.registered.contains(fold_to_base(strip_out_and_backward(c.m.op).name)); }},
      {"backward", "Backward helper", "the op name contains _backward",
       [](const GapContext& c) { return c.m.op.name.find("_backward") != std::string::npos; }},
      {"decomposed", "Served by decomposition in core",
       "every overload of the name is CompositeImplicitAutograd in the schema (it decomposes into other ops)",
       [](const GapContext& c) { return c.m.op.resolved && c.schema.name_is_composite(c.m.op.name); }},
      {"other", "Other", "none of the above, including entries that resolve to no ATen op",
       [](const GapContext&) { return true; }},
  };
  return rules;
}

}  // namespace

std::vector<GapClass> classify_gaps(const OpInventory& inventory, const AtenSchema& schema, const OpsRules& rules,
                                    const std::set<std::string>& registered) {
  const auto& table = gap_rules();
  std::vector<GapClass> out;
  for (const auto& r : table) out.push_back({r.key, r.label, r.rule, {}});
  for (const auto& m : inventory.members) {
    if (m.sentinel()) continue;
    std::string family(rules.family_of(m.op.name));
    GapContext c{m, family, schema, registered};
    for (size_t i = 0; i < table.size(); ++i) {
      if (table[i].fits(c)) {
        out[i].members.push_back(m.member.text);
        break;
      }
    }
  }
  for (auto& g : out) std::sort(g.members.begin(), g.members.end());
  return out;
}

}  // namespace onramp::ops
