// The rule that ties a failed example statement to an integration point
// (integration/needs.h): the statement's source and its failure message come
// from the target's README and from code the target runs, the device name
// from the backend; a point table may come from a hand-edited
// data/integration.toml. Input: the device name, the source and the failure,
// one per line; the whole input is also read as a points table, and its
// needed_by entries are tried on the same statement.
#include <map>
#include <string>

#include "fuzz_input.h"
#include "onramp/integration/needs.h"
#include "onramp/integration/points.h"

ONRAMP_FUZZ_TARGET(integration_needs) {
  std::string_view text = onramp::fuzz::as_text(data, size);
  auto [device, rest] = onramp::fuzz::split_first_line(text);
  auto [source, failure] = onramp::fuzz::split_first_line(rest);
  std::map<std::string, std::string> status;
  const auto& builtin = onramp::integration::builtin_points();
  const char* statuses[] = {"absent", "raises", "partial", "provided"};
  for (size_t i = 0; i < builtin.size(); ++i) status[builtin[i].id] = statuses[i % 4];
  (void)onramp::integration::needed_point(builtin, status, std::string(device), std::string(source),
                                          std::string(failure));
  if (auto points = onramp::integration::parse_points(text, "fuzz.toml")) {
    std::map<std::string, std::string> all;
    for (const auto& p : *points) all[p.id] = "absent";
    (void)onramp::integration::needed_point(*points, all, std::string(device), std::string(source),
                                            std::string(failure));
  }
  return 0;
}
