#include "onramp/port/backend_coverage.h"

#include <filesystem>

#include "onramp/ops/aten_locator.h"
#include "onramp/ops/discovery.h"
#include "onramp/profile/profile.h"
#include "onramp/port/aten_dispatch.h"
#include "onramp/port/module_coverage.h"
#include "onramp/report/report_file.h"
#include "onramp/source/source.h"

namespace onramp::port {
namespace {

bool is_implemented(const std::string& meaning) { return meaning == "implemented" || meaning == "supported"; }

void add_ops(const InventoryOps& inv, std::map<std::string, std::string>& into) {
  for (const auto& [op, where] : inv.ops) into.emplace(op, where);
}

Result<BackendCoverage> coverage_from_tree(const BackendRequest& request, const ops::AtenSchema& schema) {
  auto profile = profile::load_profile(request.backend);
  if (!profile) return std::unexpected(profile.error());
  if (request.source.empty()) {
    return fail("--backend " + request.backend + " needs --backend-src DIR (the backend's source tree), "
                "or give a saved ops report (.json) instead of a profile");
  }
  if (!std::filesystem::is_directory(request.source)) {
    return fail(request.source + ": not a directory (the backend's source tree)");
  }
  auto src = source::open(request.source, {});
  if (!src) return std::unexpected(src.error());
  ops::Discovery found = ops::discover(**src, schema, ops::OpsRules::builtin(), {}, &*profile);

  BackendCoverage out;
  out.backend = profile->display_name.empty() ? profile->name : profile->display_name;
  out.source = request.source + " (profile " + profile->origin;
  std::vector<InventoryOps> inventories;
  for (const auto& inv : found.inventories) {
    InventoryOps& view = inventories.emplace_back(InventoryOps{std::string(ops::to_string(inv.kind)), inv.meaning, {}});
    for (const auto& m : inv.members) {
      if (m.sentinel()) continue;
      view.ops.emplace_back(m.op.full_name(), (m.member.path.empty() ? inv.path : m.member.path) + ":" +
                                                  std::to_string(m.member.line));
    }
  }
  add_inventories(inventories, out);
  if (!found.fallbacks.empty()) {
    const auto& f = found.fallbacks.front();
    const std::string& key = f.alias_evidence.empty() ? f.dispatch_key : f.alias_evidence;
    out.boxed_fallback = f.path + ":" + std::to_string(f.line) + " (boxed fallback for " + key + ")";
  }
  return out;
}

}  // namespace

bool is_saved_report(const std::string& backend) { return backend.ends_with(".json"); }

void add_inventories(const std::vector<InventoryOps>& inventories, BackendCoverage& out) {
  bool any_registration = false;
  for (const auto& inv : inventories) {
    // Registrations are the ground truth; a codegen YAML's dispatch entries become registrations.
    bool registers = inv.kind == "cpp_registration" || inv.kind == "yaml_dispatch";
    if (registers && is_implemented(inv.meaning)) {
      add_ops(inv, out.registered);
      any_registration = true;
    }
  }
  for (const auto& inv : inventories) {
    if (!any_registration && is_implemented(inv.meaning)) add_ops(inv, out.registered);
    if (inv.meaning == "unregistered") add_ops(inv, out.unregistered);
    if (inv.meaning == "falls_back_to_cpu") add_ops(inv, out.falls_back);
  }
}

Result<BackendCoverage> load_backend_coverage(python::Interpreters& interpreters, const BackendRequest& request) {
  auto where = ops::locate_aten_schema(interpreters, request.aten, request.python);
  if (!where) return std::unexpected(where.error());
  auto schema = ops::AtenSchema::load(where->path, ops::OpsRules::builtin());
  if (!schema) return std::unexpected(schema.error());
  auto dispatch = request.dispatch ? Result<AtenDispatch>(*request.dispatch) : load_aten_dispatch(where->path);
  if (!dispatch) return std::unexpected(dispatch.error());

  Result<BackendCoverage> coverage = fail("");
  if (request.backend.starts_with(kModulePrefix)) {
    if (!request.sandbox) return fail("--backend " + request.backend + ": no sandbox to import it in");
    coverage = coverage_from_module(request.backend.substr(kModulePrefix.size()));
  } else if (is_saved_report(request.backend)) {
    auto document = report::load_report_json(request.backend);
    if (!document) return std::unexpected(document.error());
    coverage = coverage_from_report(*document, request.backend);
  } else {
    coverage = coverage_from_tree(request, *schema);
  }
  if (!coverage) return coverage;
  coverage->source += ", schema " + where->evidence + ")";
  coverage->delegate = dispatch->delegate;
  for (const auto& [op, kernel] : dispatch->composite) {
    coverage->decomposition[op] = dispatch->origin + ":" + std::to_string(kernel.line) + " (" + kernel.kind + ")";
  }
  return coverage;
}

}  // namespace onramp::port
