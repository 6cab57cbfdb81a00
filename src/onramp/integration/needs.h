#pragma once
// Which integration point a failed example statement needs: the rule that
// ties an example's failure to a scorecard row (docs/integration.md, "What
// an example needs"). Each point's `needed_by` entries (data/integration.toml)
// say what such a statement shows: text in its source (the API it calls) and
// text in its failure ("Type: message", the example run's own words). The
// first point, in the table's order, with an entry that matches and whose row
// says it is missing here (missing_here) is the one; a point the scorecard
// found provided, or could not tell (needs_device, not_in_this_torch), is never
// blamed.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onramp/integration/points.h"

namespace onramp::integration {

// absent, raises or partial: the row shows the point missing, or part of it.
bool missing_here(std::string_view status);

struct NeedMatch {
  std::string point;  // the point's id
  std::string shown;  // what matched, in words: "its statement has `torch.Generator(`"
};

// `status`: each point's row status (by id); `device`: the device name the
// checks used ("" skips the entries that name {device}); `source`: the
// failed statement (its first line); `failure`: "Type: message".
std::optional<NeedMatch> needed_point(const std::vector<Point>& points, const std::map<std::string, std::string>& status,
                                      const std::string& device, const std::string& source,
                                      const std::string& failure);

}  // namespace onramp::integration
