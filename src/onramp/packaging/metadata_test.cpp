#include "onramp/packaging/metadata.h"

#include <gtest/gtest.h>

#include "onramp/util/test_cases.h"

namespace onramp::wheel {
namespace metadata_test {  // one per file: a unity batch joins several

constexpr const char* kMetadata =
    "Metadata-Version: 2.1\r\n"
    R"(Name: torch-tpu
Version: 0.2.0
Summary: PyTorch on TPU
Home-page: https://example.org/torch_tpu
Project-URL: Source, https://example.org/src
Requires-Python: >=3.12
Requires-Dist: torch (>=2.11,<=2.15)
Requires-Dist: numpy; extra == "test"
Description-Content-Type: text/markdown
License: Apache
        2.0

Requires-Dist: not-a-field-this-is-the-body
)";

TEST(CoreMetadata, ReadsTheFieldsItNeeds) {
  auto m = parse_core_metadata(kMetadata, "METADATA");
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->metadata_version, "2.1");
  EXPECT_EQ(m->name, "torch-tpu");
  EXPECT_EQ(m->version, "0.2.0");
  EXPECT_EQ(m->summary, "PyTorch on TPU");
  EXPECT_EQ(m->requires_python, ">=3.12");
  ASSERT_EQ(m->requires_dist.size(), 2u);
  EXPECT_EQ(m->requires_dist[0], "torch (>=2.11,<=2.15)");
  EXPECT_EQ(m->project_urls,
            (std::vector<std::string>{"Home-page, https://example.org/torch_tpu", "Source, https://example.org/src"}));
}

TEST(CoreMetadata, TheLongDescriptionIsTheBodyElseTheDescriptionField) {
  auto m = parse_core_metadata(kMetadata, "METADATA");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->description, "Requires-Dist: not-a-field-this-is-the-body\n");
  auto crlf = parse_core_metadata("Metadata-Version: 2.1\r\nName: a\r\nVersion: 1\r\n"
                                  "Description-Content-Type: text/markdown\r\n\r\n# A\r\n", "M");
  ASSERT_TRUE(crlf);
  EXPECT_EQ(crlf->description, "# A\r\n");
  EXPECT_EQ(crlf->description_content_type, "text/markdown");
  auto field = parse_core_metadata("Metadata-Version: 1.2\nName: a\nVersion: 1\nDescription: old style\n", "M");
  ASSERT_TRUE(field);
  EXPECT_EQ(field->description, "old style");
  EXPECT_EQ(field->description_content_type, "");
}

TEST(CoreMetadata, NamesTheMissingRequiredFields) {
  auto m = parse_core_metadata("Metadata-Version: 2.1\nSummary: x\n", "p-1.dist-info/METADATA");
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().message, "p-1.dist-info/METADATA: required field missing: Name, Version");
  EXPECT_FALSE(parse_core_metadata("this is not a header\n", "M"));
  EXPECT_FALSE(parse_core_metadata(" continuation first\n", "M"));
}

TEST(WheelInfo, ReadsTagsAndPurelib) {
  auto w = parse_wheel_info("Wheel-Version: 1.0\nGenerator: bdist_wheel (0.40.0)\nRoot-Is-Purelib: false\n"
                            "Tag: cp311-cp311-linux_x86_64\nTag: cp311-abi3-linux_x86_64\n",
                            "WHEEL");
  ASSERT_TRUE(w);
  EXPECT_EQ(w->wheel_version, "1.0");
  EXPECT_EQ(w->root_is_purelib, false);
  EXPECT_EQ(w->tags.size(), 2u);
  EXPECT_FALSE(parse_wheel_info("Generator: x\n", "WHEEL"));
}

// What `text` parses to; an empty requirement, and a failure, when it does not parse.
Requirement requirement(std::string_view text) {
  auto r = parse_requirement(text);
  EXPECT_TRUE(r) << text;
  return r ? *r : Requirement{};
}

TEST(Requirement, ParsesThePep508FormsWheelsUse) {
  const Requirement versioned = requirement("torch (>=2.11,<=2.15)");
  EXPECT_EQ(versioned.name, "torch");
  EXPECT_EQ(versioned.specifier, ">=2.11,<=2.15");
  const Requirement extras =
      requirement("Foo_Bar.baz[cuda, test]>=1.0,!=1.3; python_version < \"3.12\" and extra == 'x'");
  EXPECT_EQ(extras.normalized_name, "foo-bar-baz");
  EXPECT_EQ(extras.extras, (std::vector<std::string>{"cuda", "test"}));
  EXPECT_EQ(extras.specifier, ">=1.0,!=1.3");
  EXPECT_EQ(extras.marker, "python_version < \"3.12\" and extra == 'x'");
  const Requirement at_url = requirement("pkg @ https://example.org/pkg.whl ; sys_platform == 'linux'");
  EXPECT_EQ(at_url.url, "https://example.org/pkg.whl");
  EXPECT_EQ(at_url.marker, "sys_platform == 'linux'");
  EXPECT_EQ(requirement("numpy").specifier, "");
  onramp::testing::expect_none_hold(parse_requirement,
                                    {"torch >=two", "-bad", "torch (>=1", "torch[cuda >=1", "pkg @ "});
  EXPECT_EQ(requirement(" \tname  ").name, "name");
  EXPECT_FALSE(parse_requirement("name.>=1"));  // the dot is not part of the name, nor a specifier
}

TEST(Requirement, WhitespaceRunsAreReadInLinearTime) {
  // A fuzzing input that kept a whole-line std::regex backtracking for seconds.
  std::string text = "Metad" + std::string(123, '\r') + "4isum\xca\x31\x90\x8c; e-nne-a\x8fny.whst\"\n6Descr";
  auto r = parse_requirement(text);
  EXPECT_FALSE(r);
  std::string spaces = "torch" + std::string(100000, ' ') + ">=2.0" + std::string(100000, '\t') + ";" +
                       std::string(100000, ' ');
  auto big = parse_requirement(spaces);
  ASSERT_TRUE(big) << big.error().message;
  EXPECT_EQ(big->specifier, ">=2.0");
  EXPECT_EQ(big->marker, "");
}

TEST(Record, ReadsQuotedCsv) {
  auto rows = parse_record("a/b.py,sha256=abc,12\n\"dir/with,comma.py\",sha256=def,3\np.dist-info/RECORD,,\n",
                           "RECORD");
  ASSERT_TRUE(rows) << rows.error().message;
  ASSERT_EQ(rows->size(), 3u);
  EXPECT_EQ((*rows)[1].path, "dir/with,comma.py");
  EXPECT_EQ((*rows)[0].size, 12u);
  EXPECT_FALSE((*rows)[2].size);
  auto record = [](const std::string& text) { return parse_record(text, "RECORD"); };
  onramp::testing::expect_none_hold(record, {"a,b\n", "a,h,12x\n"});
}

TEST(WheelFileName, SplitsThePep427Parts) {
  auto w = parse_wheel_file_name("torch_tpu-0.2.0-cp312-cp312-manylinux_2_31_x86_64.whl");
  ASSERT_TRUE(w);
  EXPECT_EQ(w->distribution, "torch_tpu");
  EXPECT_EQ(w->version, "0.2.0");
  EXPECT_EQ(w->platform_tag, "manylinux_2_31_x86_64");
  w = parse_wheel_file_name("pkg-1.0-1build-py3-none-any.whl");
  ASSERT_TRUE(w);
  EXPECT_EQ(w->build, "1build");
  onramp::testing::expect_none_hold(parse_wheel_file_name, {"pkg-1.0-py3-none-any.zip", "pkg-1.0-x-py3-none-any.whl",
                                                           "pkg-1.0-any.whl", "pkg-one-py3-none-any.whl"});
}

}  // namespace
}  // namespace onramp::wheel
