#include "onramp/audit/last_resolution.h"

#include <gtest/gtest.h>

#include "onramp/util/test_temp_dir.h"

namespace onramp::audit {
namespace last_resolution_test {  // one per file: a unity batch joins several

using report::Json;

AuditOptions options_for(const std::string& target) {
  AuditOptions o;
  o.target = target;
  o.sandbox.python = python::PythonRequest("/opt/py/bin/python");
  o.index.index_url = "http://127.0.0.1:1/simple";
  return o;
}

TEST(LastResolution, TheRequestNamesWhatChangesTheResolution) {
  auto a = resolution_request(options_for("demo==1.0"));
  EXPECT_EQ(a, resolution_request(options_for("demo==1.0")));
  EXPECT_NE(a, resolution_request(options_for("demo==2.0")));
  auto other_python = options_for("demo==1.0");
  other_python.sandbox.python = python::PythonRequest("/opt/other/bin/python");
  EXPECT_NE(a, resolution_request(other_python));
  auto with_torch = options_for("demo==1.0");
  with_torch.index.torch = "2.13.0";
  EXPECT_NE(a, resolution_request(with_torch));
  auto with_args = options_for("demo==1.0");
  with_args.pip_args = {"--pre"};
  EXPECT_NE(a, resolution_request(with_args));
  EXPECT_EQ(last_resolution_file("/c", a), last_resolution_file("/c", resolution_request(options_for("demo==1.0"))));
  EXPECT_NE(last_resolution_file("/c", a), last_resolution_file("/c", resolution_request(with_args)));
  EXPECT_EQ(last_resolution_file("/c", a).parent_path(), "/c/resolutions");
}

TEST(LastResolution, IsWrittenAndReadBackWhileItsFilesAreThere) {
  testing::TempDir dir;
  std::string wheel = dir.write("files/demo-1.0-py3-none-any.whl", "w");
  std::string helper = dir.write("files/helper-2.0-py3-none-any.whl", "h");
  auto request = resolution_request(options_for("demo==1.0"));
  LastResolution last{"/opt/py/bin/python", {wheel},
                      {{"demo-1.0-py3-none-any.whl", wheel}, {"helper-2.0-py3-none-any.whl", helper}}};
  auto root = dir.path() / "cache";
  EXPECT_FALSE(read_last_resolution(root, request));
  ASSERT_TRUE(write_last_resolution(root, request, last));
  auto back = read_last_resolution(root, request);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, last);
  // Another request's record is not this one's.
  EXPECT_FALSE(read_last_resolution(root, resolution_request(options_for("demo==2.0"))));
  // A file it names is gone (pruned from the cache): no record to begin from.
  std::filesystem::remove(helper);
  auto gone = read_last_resolution(root, request);
  ASSERT_FALSE(gone);
  EXPECT_NE(gone.error().message.find("helper-2.0-py3-none-any.whl is gone"), std::string::npos) << gone.error().message;
}

TEST(LastResolution, ARecordThatIsNotOneIsRefusedWithItsReason) {
  auto request = resolution_request(options_for("demo==1.0"));
  auto why = [&](const Json& j) {
    auto got = parse_last_resolution(j.dump(), request);
    return got ? std::string("accepted") : got.error().message;
  };
  Json good{{"schema", kLastResolutionSchema},
            {"request", request},
            {"host_python", "/opt/py/bin/python"},
            {"wheels", Json::array({"/c/a.whl"})},
            {"files", Json::array({Json::array({"a.whl", "/c/a.whl"})})}};
  EXPECT_EQ(why(good), "accepted");
  EXPECT_EQ(parse_last_resolution("{not json", request).error().message, "not a JSON object");
  EXPECT_EQ(why(Json::array()), "not a JSON object");
  auto bad = good;
  bad["schema"] = "onramp.last-resolution/0";
  EXPECT_EQ(why(bad), "not onramp.last-resolution/1");
  bad = good;
  bad["request"]["target"] = "demo==2.0";
  EXPECT_EQ(why(bad), "made for another request");
  bad = good;
  bad["host_python"] = 3;
  EXPECT_EQ(why(bad), "\"host_python\" is not a path");
  bad = good;
  bad["wheels"] = Json::array({1});
  EXPECT_EQ(why(bad), "\"wheels\" holds a non-string");
  bad = good;
  bad["files"] = Json::array();
  EXPECT_EQ(why(bad), "\"files\" is not a non-empty list");
  bad = good;
  bad["files"] = Json::array({Json::array({"a.whl"})});
  EXPECT_EQ(why(bad), "\"files\" holds an entry that is not [name, path]");
  bad = good;
  bad["files"] = Json::array({Json::array({"../a.whl", "/c/a.whl"})});
  EXPECT_EQ(why(bad), "\"files\": a file name holding a slash");
}

TEST(LastResolution, AWheelhouseIsLinkedAndListedInNameOrder) {
  testing::TempDir dir;
  std::string a = dir.write("files/a.whl", "a"), b = dir.write("files/b.whl", "b");
  std::vector<std::pair<std::string, std::string>> files{{"b.whl", b}, {"a.whl", a}};
  ASSERT_TRUE(link_wheelhouse(dir.path() / "house", files));
  EXPECT_EQ(wheelhouse_files(dir.path() / "house"),
            (std::vector<std::pair<std::string, std::string>>{{"a.whl", a}, {"b.whl", b}}));
  auto again = link_wheelhouse(dir.path() / "house", files);
  ASSERT_FALSE(again);
  EXPECT_NE(again.error().message.find("house/b.whl"), std::string::npos) << again.error().message;
  EXPECT_TRUE(wheelhouse_files(dir.path() / "none").empty());
}

}  // namespace
}  // namespace onramp::audit
