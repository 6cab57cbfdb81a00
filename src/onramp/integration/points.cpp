#include "onramp/integration/points.h"

#include <set>

#include "onramp/util/embedded.h"
#include "onramp/util/toml_file.h"

namespace onramp::integration {

Result<std::vector<Point>> parse_points(std::string_view toml_text, const std::string& origin) {
  auto parsed = util::parse_toml(toml_text, origin);
  if (!parsed) return std::unexpected(parsed.error());
  const auto* list = (*parsed)["point"].as_array();
  if (!list || list->empty()) return fail(origin + ": no [[point]] tables");
  std::vector<Point> out;
  std::set<std::string> ids;
  for (size_t i = 0; i < list->size(); ++i) {
    const auto* t = (*list)[i].as_table();
    std::string where = origin + ": point " + std::to_string(i + 1);
    if (!t) return fail(where + " is not a table");
    Point p;
    for (auto [key, field] : {std::pair{"id", &p.id}, {"title", &p.title}, {"source", &p.source},
                              {"group", &p.group}, {"check", &p.check}, {"hardware", &p.hardware}}) {
      auto value = (*t)[key].value<std::string>();
      if (!value || value->empty()) return fail(where + " has no " + key);
      *field = *value;
    }
    p.ops = util::toml_strings(*t, "ops");
    if (auto needs = (*t)["needed_by"]; needs) {
      const auto* entries = needs.as_array();
      if (!entries) return fail(where + ": needed_by is not an array of tables");
      for (size_t j = 0; j < entries->size(); ++j) {
        const auto* n = (*entries)[j].as_table();
        std::string entry = where + ": needed_by " + std::to_string(j + 1);
        if (!n) return fail(entry + " is not a table");
        Need need{(*n)["source"].value_or(std::string()), (*n)["message"].value_or(std::string())};
        if (need.source.empty() && need.message.empty()) return fail(entry + " has neither source nor message");
        p.needed_by.push_back(std::move(need));
      }
    }
    if (p.group != "probe" && p.group != "runtime" && p.group != "autoload") {
      return fail(where + ": group \"" + p.group + "\" is not probe, runtime or autoload");
    }
    if (!ids.insert(p.id).second) return fail(where + ": id \"" + p.id + "\" given twice");
    out.push_back(std::move(p));
  }
  return out;
}

const std::vector<Point>& builtin_points() {
  static const std::vector<Point> points =
      value_or_fatal(parse_points(embedded::get("data/integration.toml"), "data/integration.toml"));
  return points;
}

}  // namespace onramp::integration
