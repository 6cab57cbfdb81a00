// coverage_from_report: a backend's coverage read back from a saved report's
// "ops" section (the inventories table and each inventory's counted table).
#include "onramp/report/section_keys.h"
#include "onramp/ops/ops_report.h"
#include "onramp/port/backend_coverage.h"
#include "onramp/report/json_fields.h"

namespace onramp::port {
namespace {

using namespace report::fields;
using report::Json;

const Json* table_named(const Json& section, const std::string& key) {
  for (const auto& t : array_field(section, "tables")) {
    if (text_field(t, "key") == key) return &t;
  }
  return nullptr;
}

std::string describe_target(const Json& document) {
  const Json* target = report::field(document, "target");
  if (!target) return "an unnamed target";
  std::string text = text_field(*target, "path", "an unnamed target");
  if (std::string rev = text_field(*target, "rev"); !rev.empty()) text += " @ " + rev;
  return text;
}

std::string backend_name(const Json& document, const std::string& origin) {
  if (const Json* target = report::field(document, "target")) {
    if (std::string backend = text_field(*target, "backend"); !backend.empty()) return backend;
    if (std::string profile = text_field(*target, "profile"); !profile.empty()) return profile;
    if (std::string path = text_field(*target, "path"); !path.empty()) return path;
  }
  return origin;
}

}  // namespace

Result<BackendCoverage> coverage_from_report(const Json& document, const std::string& origin) {
  const Json* sections = report::field(document, "sections");
  const Json* ops = sections ? report::field(*sections, ops::keys::kSection) : nullptr;
  if (!ops) {
    return fail(origin + ": the report has no \"ops\" section (write one with `onramp ops TREE --json -o FILE` "
                "or `onramp audit`)");
  }
  const Json* listing = table_named(*ops, ops::keys::kInventoriesTable);
  if (!listing) return fail(origin + ": the ops section has no \"inventories\" table");
  std::vector<InventoryOps> inventories;
  for (const auto& row : array_field(*listing, "rows")) {
    std::string where = text_field(row, "where"), name = text_field(row, "name");
    std::string key = ops::counted_table_key(where, name);
    const Json* counted = table_named(*ops, key);
    if (!counted) {
      return fail(origin + ": inventory " + where + " " + name + " has no \"" + key +
                  "\" table (the report predates member lists: run onramp ops again)");
    }
    InventoryOps& inv = inventories.emplace_back(InventoryOps{text_field(row, "kind"), text_field(row, "meaning"), {}});
    for (const auto& op_row : array_field(*counted, "rows")) {
      std::string method = text_field(op_row, "method");
      if (method == "resolved" || method == "unresolved") {
        inv.ops.emplace_back(text_field(op_row, "op"), where + " " + name + " (" + origin + ")");
      }
    }
  }
  BackendCoverage out;
  out.backend = backend_name(document, origin);
  out.source = origin + " (ops report of " + describe_target(document);
  add_inventories(inventories, out);
  if (const Json* fallbacks = table_named(*ops, ops::keys::kFallbacksTable)) {
    const Json& rows = array_field(*fallbacks, "rows");
    if (!rows.empty()) {
      out.boxed_fallback = text_field(rows.front(), "where") + " (boxed fallback for " +
                           text_field(rows.front(), "dispatch_key") + ", " + origin + ")";
    }
  }
  return out;
}

}  // namespace onramp::port
