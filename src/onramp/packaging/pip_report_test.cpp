#include "onramp/packaging/pip_report.h"

#include <gtest/gtest.h>

namespace onramp::index {
namespace pip_report_test {  // one per file: a unity batch joins several

// The shape pip 23 writes (fields onramp does not read left out).
constexpr const char* kReport = R"J({
  "version": "1", "pip_version": "23.2.1",
  "install": [
    {"download_info": {"url": "http://127.0.0.1:1/files/torch_tpu-0.2.0-cp311-cp311-manylinux_2_31_x86_64.whl",
                       "archive_info": {"hash": "sha256=aa", "hashes": {"sha256": "aa"}}},
     "is_direct": false, "requested": true,
     "metadata": {"name": "torch_tpu", "version": "0.2.0", "requires_python": ">=3.12",
                  "requires_dist": ["torch (<=2.15,>=2.11)", "numpy>=2", "pytest; extra == \"test\"",
                                    "jax; extra == 'tpu'"]}},
    {"download_info": {"url": "file:///opt/wheels/torch-2.13.0%2Bcpu-cp311-cp311-linux_x86_64.whl",
                       "archive_info": {"hash": "sha256=bb"}},
     "requested": false, "metadata": {"name": "torch", "version": "2.13.0+cpu", "requires_dist": ["numpy"]}},
    {"download_info": {"url": "http://x/numpy-2.0.0.tar.gz#sha256=cc"}, "requested": false,
     "metadata": {"name": "NumPy", "version": "2.0.0"}},
    {"download_info": {"url": "http://x/pytest-8.0-py3-none-any.whl"}, "requested": false,
     "metadata": {"name": "pytest", "version": "8.0"}},
    {"download_info": {"url": "http://x/jax-1.0-py3-none-any.whl"}, "requested": false,
     "metadata": {"name": "jax", "version": "1.0"}}
  ]})J";

TEST(PipReport, ReadsEveryDistributionSortedByName) {
  auto r = parse_pip_report(kReport, "report.json");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->pip_version, "23.2.1");
  ASSERT_EQ(r->install.size(), 5u);
  EXPECT_EQ(r->install[0].normalized_name, "jax");
  EXPECT_EQ(r->install[1].normalized_name, "numpy");
  EXPECT_EQ(r->install[1].name, "NumPy");
  EXPECT_EQ(r->install[1].file_name, "numpy-2.0.0.tar.gz");
  EXPECT_EQ(r->install[1].sha256, "");
  const auto& torch = r->install[3];
  EXPECT_EQ(torch.version, "2.13.0+cpu");
  EXPECT_EQ(torch.file_name, "torch-2.13.0+cpu-cp311-cp311-linux_x86_64.whl");
  EXPECT_EQ(torch.sha256, "bb");  // the older "hash" field
  const auto& tpu = r->install[4];
  EXPECT_TRUE(tpu.requested);
  EXPECT_EQ(tpu.sha256, "aa");
  EXPECT_EQ(tpu.requires_python, ">=3.12");
  EXPECT_EQ(tpu.requires_dist.size(), 4u);
}

TEST(PipReport, AttributesEachDistributionToWhatAskedForIt) {
  auto r = parse_pip_report(kReport, "report.json");
  ASSERT_TRUE(r);
  attribute_requirements(r->install, "torch-tpu[tpu]==0.2.0", {"tpu"});
  EXPECT_EQ(r->install[4].asked_by, std::vector<std::string>{"torch-tpu[tpu]==0.2.0"});
  EXPECT_EQ(r->install[3].asked_by, std::vector<std::string>{"torch_tpu (torch (<=2.15,>=2.11))"});
  EXPECT_EQ(r->install[1].asked_by, (std::vector<std::string>{"torch (numpy)", "torch_tpu (numpy>=2)"}));
  EXPECT_EQ(r->install[0].asked_by, std::vector<std::string>{"torch_tpu (jax; extra == 'tpu')"});
  // pytest sits behind the "test" extra, which was not asked for.
  EXPECT_TRUE(r->install[2].asked_by.empty());
}

// Found by fuzzing (fuzz/corpus/index_pages/bug-requested-not-a-bool): a
// "requested" that is not a bool threw a JSON type error out of the parser.
TEST(PipReport, FieldsOfAnotherTypeReadAsMissing) {
  auto r = parse_pip_report(R"({"install": [{"download_info": true, "requested": {"name": "jax"},
                                "metadata": {"name": "torch_tpu", "version": "0.2.0"}}]})", "r.json");
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->install.size(), 1u);
  EXPECT_FALSE(r->install[0].requested);
  EXPECT_EQ(r->install[0].url, "");
}

TEST(PipReport, RefusesWhatIsNotAReport) {
  EXPECT_FALSE(parse_pip_report("[]", "r.json"));
  EXPECT_FALSE(parse_pip_report("{\"install\": 3}", "r.json"));
  EXPECT_FALSE(parse_pip_report("{\"install\": [{}]}", "r.json"));
  auto bad = parse_pip_report("not json", "r.json");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "r.json: not a JSON object");
}

// What pip printed of one requirement: as written, where, asked for by, the version.
std::vector<std::string> as_printed(const SatisfiedRequirement& r) {
  return {r.requirement, r.location, r.asked_by, r.version};
}

TEST(PipReport, AlreadySatisfiedLinesNameWhatTheHostHas) {
  auto got = parse_already_satisfied(
      "Looking in links: /w\n"
      "Requirement already satisfied: torch<3,>=2.11 in /h/site-packages (from demo-device==1.0) (2.13.0+cpu)\n"
      "Requirement already satisfied: numpy in /h (x)/site-packages (2.4.6)\r\n"
      "Requirement already satisfied: Torch>=2 in /h/site-packages (from other) (2.13.0+cpu)\n"
      "Requirement already satisfied: broken line without a version\n"
      "Collecting demo-device==1.0\n");
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(as_printed(got[0]),
            (std::vector<std::string>{"torch<3,>=2.11", "/h/site-packages", "demo-device==1.0", "2.13.0+cpu"}));
  EXPECT_EQ(got[0].name, "torch");
  EXPECT_EQ(as_printed(got[1]), (std::vector<std::string>{"numpy", "/h (x)/site-packages", "", "2.4.6"}));
}

TEST(PipReport, FileNameOfUrl) {
  EXPECT_EQ(url_file_name("https://h/p/a%2Bb-1.0.whl?x=1#sha256=00"), "a+b-1.0.whl");
  EXPECT_EQ(url_file_name("a.whl"), "a.whl");
  EXPECT_EQ(url_file_name("http://h/x%2"), "x%2");
}

}  // namespace
}  // namespace onramp::index
