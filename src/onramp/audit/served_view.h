#pragma once
// The served view: the ops the source registers for PrivateUse1 and the ops
// of the source's unregistered-ops inventories, each with the route the
// dispatcher serves it by after the installed backend is imported
// (probe/ask_routes.h). The names say what the source claims; the routes say
// what a call gets: a registered op that another route serves (or none), and
// how many listed-unregistered ops are served anyway, by decompositions,
// delegates and fallbacks.
#include <map>
#include <string>
#include <vector>

#include "onramp/probe/ask_routes.h"
#include "onramp/report/model.h"

namespace onramp::audit {

inline constexpr const char* kRoutesSection = "routes";

struct ServedViewInput {
  std::map<std::string, std::string> source_registered;    // op -> where the source registers it
  std::map<std::string, std::string> listed_unregistered;  // op -> the inventory that lists it
  std::string source_evidence;  // where the two lists were read
  std::string schema_evidence;  // the native_functions.yaml the delegates came from
};

// Every op of both lists, sorted, each once: the ops to ask about.
std::vector<std::string> served_view_ops(const ServedViewInput& in);

// The section: figures, the counts by route, one row per op. Where the routes
// were not measured, the figures are null and say why.
report::Section served_view_section(const ServedViewInput& in, const probe::AskedRoutes& asked);

}  // namespace onramp::audit
