// What a package index and pip hand back: a project's page in PEP 691's JSON
// form and PEP 503's HTML form, pip's installation report, its "Requirement
// already satisfied" lines, the "Compatible tags" block of `pip debug
// --verbose`, and the file names the pages list
// (wheel tags, versions, manylinux floors), judged against the tags read.
#include "fuzz_input.h"
#include "onramp/packaging/pip_report.h"
#include "onramp/index/simple_page.h"
#include "onramp/packaging/tags.h"

ONRAMP_FUZZ_TARGET(index_pages) {
  using namespace onramp::index;
  std::string_view text = onramp::fuzz::as_text(data, size);
  const std::string base = "https://index.invalid/simple/project/";
  auto tags = parse_pip_debug_tags(text);
  for (auto page : {parse_json_page(text, base), parse_html_page(text, base)}) {
    if (!page) continue;
    for (const auto& file : page->files) {
      (void)version_of_file(file.file_name);
      auto wheel = wheel_tags(file.file_name);
      if (!wheel) continue;
      for (const auto& tag : *wheel) (void)manylinux_floor(tag.platform);
      if (tags) (void)judge_wheel(*wheel, *tags, "2.36");
    }
  }
  for (const auto& r : parse_already_satisfied(text)) (void)r.name;
  if (auto report = parse_pip_report(text, "report.json")) {
    attribute_requirements(report->install, "project>=1", {"extra"});
    for (const auto& dist : report->install) (void)url_file_name(dist.url);
  }
  return 0;
}
