#include "onramp/ops/schema.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>

#include "onramp/ops/test_schema.h"
#include "onramp/util/text_file.h"

namespace onramp::ops {
namespace schema_test {  // one per file: a unity batch joins several

TEST(AtenSchema, ReadsNameOverloadAndProperties) {
  auto s = testing::tiny_schema();
  const AtenOp* add = s.find("add.Tensor");
  ASSERT_NE(add, nullptr);
  EXPECT_TRUE(add->functional);
  EXPECT_TRUE(add->core);
  EXPECT_FALSE(add->composite);  // structured_delegate: not a decomposition
  EXPECT_EQ(add->line, 2);
  EXPECT_TRUE(s.find("add_.Tensor")->inplace);
  EXPECT_TRUE(s.find("add.out")->out);
  EXPECT_TRUE(s.find("adaptive_avg_pool2d_backward")->backward);
  EXPECT_TRUE(s.find("_coalesce")->is_private);
  EXPECT_EQ(s.find("_coalesce")->family, "sparse");
  EXPECT_EQ(s.find("linalg_det")->family, "linalg");
  EXPECT_EQ(s.find("miopen_convolution")->family, "vendor");
  EXPECT_TRUE(s.find("dropout")->composite);  // no dispatch: CompositeImplicitAutograd
  EXPECT_TRUE(s.has_core_tag());
  EXPECT_EQ(s.core_names(), (std::set<std::string>{"adaptive_avg_pool2d", "add", "relu"}));
}

TEST(AtenSchema, MalformedYamlNamesFileAndLine) {
  auto r = AtenSchema::parse("- func: add(Tensor self) -> Tensor\n  dispatch: [unclosed\n", "", "bad.yaml",
                             OpsRules::builtin());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message.rfind("bad.yaml:", 0), 0u) << r.error().message;
}

TEST(AtenSchema, NotASchemaIsAnError) {
  auto r = AtenSchema::parse("backend: XLA\n", "", "x.yaml", OpsRules::builtin());
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("x.yaml"), std::string::npos);
}

TEST(AtenSchema, SplitsNamespacedSchemaStrings) {
  EXPECT_EQ(split_op_name("aten::add.Tensor(Tensor self) -> Tensor"), (std::pair<std::string, std::string>{"add", "Tensor"}));
  EXPECT_EQ(split_op_name("relu"), (std::pair<std::string, std::string>{"relu", ""}));
}

// What a plain scan of a schema's lines counts: "- func:" entries, and "tags:" lines that name core
// (torchgen's files write each on one line).
struct ScannedCounts {
  size_t funcs = 0;
  size_t core_lines = 0;
};

ScannedCounts scan_lines(const std::string& path) {
  ScannedCounts out;
  std::istringstream lines(util::read_text_file(path).value_or(""));
  for (std::string line; std::getline(lines, line);) {
    out.funcs += line.starts_with("- func:");
    out.core_lines += line.starts_with("  tags:") && std::regex_search(line, std::regex(R"(\bcore\b)"));
  }
  return out;
}

size_t core_tagged(const AtenSchema& s) {
  size_t tagged = 0;
  for (const auto& op : s.ops()) tagged += op.core;
  return tagged;
}

// The torch 2.x host the suite runs on (`make host` makes it from the torch file on this machine):
// the schema its torchgen packages, read whole, with the core set of torch 2.
TEST(AtenSchema, Torch2SchemaHasTheCoreSet) {
  namespace fs = std::filesystem;
  fs::path lib = fs::path(ONRAMP_TORCH2_PYTHON).parent_path().parent_path() / "lib";
  std::string path;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(lib, ec)) {
    fs::path candidate = e.path() / "site-packages/torchgen/packaged/ATen/native/native_functions.yaml";
    if (fs::exists(candidate)) path = candidate.string();
  }
  ASSERT_FALSE(path.empty()) << "no torchgen schema under " << lib << ": `make host` makes the torch 2.x host";
  auto s = value_or_fatal(AtenSchema::load(path, OpsRules::builtin()));
  ScannedCounts scanned = scan_lines(path);
  EXPECT_GT(scanned.funcs, 2500u);
  EXPECT_EQ(s.ops().size(), scanned.funcs);
  EXPECT_TRUE(s.has_core_tag());
  EXPECT_EQ(core_tagged(s), scanned.core_lines);
  EXPECT_GT(core_tagged(s), 150u);
  EXPECT_TRUE(s.name_is_core("add"));
}

// Debian's own torchgen: torch 1.13 on Debian 12 (no `core` tag yet), 2.6 on
// Debian 13 (tagged). The counts are checked against a plain scan of the file's
// lines ("- func:" entries; "tags:" lines that name core), which this schema
// writes one per line.
TEST(AtenSchema, DebiansTorchgenSchemaHasTheCoreTagFromTorch2) {
  const std::string dir = "/usr/lib/python3/dist-packages/";
  std::string path = dir + "torchgen/packaged/ATen/native/native_functions.yaml";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no Debian torchgen at " << path;
  std::string version = util::read_text_file(dir + "torch/version.py").value_or("");
  size_t at = version.find("__version__ = '");
  ASSERT_NE(at, std::string::npos) << dir << "torch/version.py has no __version__";
  bool torch1 = version.compare(at + 15, 2, "1.") == 0;
  auto s = value_or_fatal(AtenSchema::load(path, OpsRules::builtin()));
  ScannedCounts scanned = scan_lines(path);
  EXPECT_EQ(s.ops().size(), scanned.funcs);
  EXPECT_EQ(s.has_core_tag(), !torch1) << version.substr(at, 30);
  EXPECT_EQ(core_tagged(s), scanned.core_lines);
  if (!torch1) {
    EXPECT_GT(core_tagged(s), 150u);
  }
}

}  // namespace
}  // namespace onramp::ops
