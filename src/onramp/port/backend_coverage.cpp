#include "onramp/port/backend_coverage.h"

#include <filesystem>

#include "onramp/ops/aten_locator.h"
#include "onramp/ops/discovery.h"
#include "onramp/ops/profile.h"
#include "onramp/port/aten_dispatch.h"
#include "onramp/source/source.h"

namespace onramp::port {
namespace {

void add_members(const ops::OpInventory& inv, std::map<std::string, std::string>& into) {
  for (const auto& m : inv.members) {
    if (m.sentinel()) continue;
    into.emplace(m.op.full_name(), inv.path + ":" + std::to_string(m.member.line));
  }
}

// Registrations are the ground truth of what is implemented; a backend whose
// registrations are generated (none found) is read from its declared lists.
void add_implemented(const ops::Discovery& found, BackendCoverage& out) {
  bool any_registration = false;
  for (const auto& inv : found.inventories) {
    if (inv.kind == ops::InventoryKind::cpp_registration && inv.meaning == "implemented") {
      add_members(inv, out.registered);
      any_registration = true;
    }
  }
  if (any_registration) return;
  for (const auto& inv : found.inventories) {
    if (inv.meaning == "implemented") add_members(inv, out.registered);
  }
}

}  // namespace

Result<BackendCoverage> load_backend_coverage(const BackendRequest& request) {
  auto profile = ops::load_profile(request.profile);
  if (!profile) return std::unexpected(profile.error());
  if (!std::filesystem::is_directory(request.source)) {
    return fail(request.source + ": not a directory (the backend's source tree)");
  }
  auto where = ops::locate_aten_schema(request.aten, request.python);
  if (!where) return std::unexpected(where.error());
  const auto& rules = ops::OpsRules::builtin();
  auto schema = ops::AtenSchema::load(where->path, rules);
  if (!schema) return std::unexpected(schema.error());
  auto dispatch = load_aten_dispatch(where->path);
  if (!dispatch) return std::unexpected(dispatch.error());
  auto src = source::open(request.source, {});
  if (!src) return std::unexpected(src.error());
  ops::Discovery found = ops::discover(**src, *schema, rules, {}, &*profile);

  BackendCoverage out;
  out.backend = profile->display_name.empty() ? profile->name : profile->display_name;
  out.source = request.source + " (profile " + profile->origin + ", schema " + where->evidence + ")";
  add_implemented(found, out);
  for (const auto& inv : found.inventories) {
    if (inv.meaning == "unregistered") add_members(inv, out.unregistered);
    if (inv.meaning == "falls_back_to_cpu") add_members(inv, out.falls_back);
  }
  if (!found.fallbacks.empty()) {
    const auto& f = found.fallbacks.front();
    out.boxed_fallback = f.path + ":" + std::to_string(f.line) + " (boxed fallback for " + f.dispatch_key + ")";
  }
  for (const auto& [op, kernel] : dispatch->composite) {
    out.decomposition[op] = dispatch->origin + ":" + std::to_string(kernel.line) + " (" + kernel.kind + ")";
  }
  return out;
}

}  // namespace onramp::port
