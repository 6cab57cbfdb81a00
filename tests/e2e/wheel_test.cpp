#include <gtest/gtest.h>

#include <filesystem>

#include "harness.h"
#include "wheel_fixtures.h"

namespace onramp::e2e {
namespace wheel_test {  // one per file: a unity batch joins several

using nlohmann::json;

json wheel_json(const std::vector<std::string>& extra) {
  std::vector<std::string> args{"wheel", "--json", "--python", kSystemPython};
  args.insert(args.end(), extra.begin(), extra.end());
  auto r = run_onramp(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);
}

json value(const json& report, const std::string& key) { return figure(report, "wheel", key).at("value"); }

// Sizes, files and per-directory totals agree with Python's zipfile.
TEST(WheelE2E, PureWheelFiguresMatchZipfile) {
  std::string whl = fixture_wheel("onramp_pure");
  ASSERT_FALSE(whl.empty());
  json report = wheel_json({whl});
  json want = zip_facts(whl);
  EXPECT_EQ(value(report, "name"), "onramp-pure");
  EXPECT_EQ(value(report, "version"), "1.2.0");
  EXPECT_EQ(value(report, "file_tags"), "py3-none-any");
  EXPECT_EQ(value(report, "archive_bytes"), want["archive_bytes"]);
  EXPECT_EQ(value(report, "unpacked_bytes"), want["unpacked_bytes"]);
  EXPECT_EQ(value(report, "files"), want["files"]);
  json rows = table(report, "wheel", "top_level")["rows"];
  ASSERT_EQ(rows.size(), want["top_level"].size());
  for (const auto& row : rows) EXPECT_EQ(row["bytes"], want["top_level"][row["directory"].get<std::string>()]);
  EXPECT_EQ(value(report, "native_files"), 0);
  EXPECT_EQ(value(report, "importable_modules"), json::array({"onramp_pure"}));
  EXPECT_EQ(value(report, "requires_python"), ">=3.8");
  EXPECT_EQ(value(report, "requires_python_satisfied"), true);
  json reqs = table(report, "wheel", "requires_dist")["rows"];
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0]["name"], "pytest");
  EXPECT_EQ(reqs[0]["specifier"], ">=7");
  // As the build backend wrote it: setuptools on Python 3.11 quotes 'test', on 3.13 "test".
  std::string marker = reqs[0]["marker"];
  EXPECT_TRUE(marker == "extra == 'test'" || marker == "extra == \"test\"") << marker;
  EXPECT_EQ(table(report, "wheel", "project_urls")["rows"].size(), 2u);
  for (const char* key : {"record_missing", "record_extra", "record_size_mismatches"}) EXPECT_EQ(value(report, key), 0) << key;
  EXPECT_EQ(value(report, "record_rows"), want["files"]);
}

// The compiled extension's ELF facts agree with binutils' readelf on the
// extracted file.
TEST(WheelE2E, NativeWheelElfFactsMatchReadelf) {
  std::string whl = fixture_wheel("onramp_native");
  ASSERT_FALSE(whl.empty());
  json report = wheel_json({whl});
  json want = zip_facts(whl);
  ASSERT_EQ(want["native_files"].size(), 1u);
  EXPECT_EQ(value(report, "native_files"), 1);
  EXPECT_EQ(value(report, "native_bytes"), want["native_bytes"]);
  json largest = table(report, "wheel", "native_largest")["rows"];
  ASSERT_EQ(largest.size(), 1u);
  EXPECT_EQ(largest[0]["path"], want["native_files"][0]);
  TempDir dir;
  shell(std::string("cd '") + dir.path() + "' && " + kSystemPython + " -m zipfile -e '" + whl + "' x");
  std::string so = dir.path() + "/x/" + want["native_files"][0].get<std::string>();
  std::string dynamic = command_output("readelf -d '" + so + "'");
  for (const auto& lib : largest[0]["needed"]) {
    EXPECT_NE(dynamic.find("Shared library: [" + lib.get<std::string>() + "]"), std::string::npos) << lib;
  }
  std::string versions = command_output("readelf -V '" + so + "' | grep -o 'GLIBC_[0-9.]*' | sort -V | tail -1");
  EXPECT_EQ("GLIBC_" + value(report, "glibc_floor").get<std::string>() + "\n", versions);
  EXPECT_EQ(value(report, "importable_modules"), json::array({"onramp_native"}));
  EXPECT_EQ(value(report, "root_is_purelib"), false);
  std::string torch = command_output(std::string(kSystemPython) + " -c \"from importlib.metadata import version; print(version('torch'))\"");
  if (!torch.empty()) {
    EXPECT_EQ(value(report, "torch_installed").get<std::string>() + "\n", torch);
    EXPECT_EQ(value(report, "torch_satisfied"), true);  // torch>=1.0
  }
}

TEST(WheelE2E, PlaceholderReleaseIsABlocker) {
  json report = wheel_json({fixture_wheel("onramp_placeholder")});
  EXPECT_EQ(value(report, "version"), "0.0.0");
  EXPECT_EQ(value(report, "importable_count"), 0);
  bool blocker = false;
  for (const auto& f : report["sections"]["wheel"]["findings"]) {
    blocker |= f["severity"] == "blocker" && f["text"].get<std::string>().find("placeholder") != std::string::npos;
  }
  EXPECT_TRUE(blocker);
}

// The article's wheel in miniature: README and metadata disagree, the
// interpreter and torch are outside the wheel's ranges, RECORD is wrong.
TEST(WheelE2E, TorchTpuLookalikeShowsEveryDisagreement) {
  TempDir dir;
  std::string whl = make_wheel("torch_tpu", dir.path(), "/bin/true");
  dir.write("README.md", "# torch_tpu\n\nInstall on Python 3.11+ with pip.\n");
  std::string version = command_output(std::string(kSystemPython) + " -c \"import sys; print('%d.%d' % sys.version_info[:2])\"");
  json report = wheel_json({"--readme", dir.path() + "/README.md", whl});
  EXPECT_EQ(value(report, "requires_python"), ">=3.12");
  EXPECT_EQ(value(report, "readme_python_minimum"), "3.11");
  EXPECT_EQ(value(report, "metadata_python_minimum"), "3.12");
  EXPECT_EQ(value(report, "readme_agrees"), false);
  EXPECT_EQ(figure(report, "wheel", "readme_python_minimum")["evidence"], dir.path() + "/README.md:3: Install on Python 3.11+ with pip.");
  EXPECT_EQ(value(report, "requires_python_satisfied"), version < "3.12\n" ? false : true);
  EXPECT_EQ(value(report, "torch_satisfied"), false);  // >=2.11,<=2.15 against Debian's 1.13
  EXPECT_EQ(value(report, "record_missing"), 1);
  EXPECT_EQ(value(report, "record_extra"), 1);
  EXPECT_EQ(value(report, "record_size_mismatches"), 1);
  json problems = table(report, "wheel", "record_problems")["rows"];
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_EQ(problems[0]["path"], "torch_tpu/gone.py");
  EXPECT_EQ(problems[1]["path"], "torch_tpu/extra.py");
  EXPECT_EQ(problems[2]["recorded"], 12001);
  EXPECT_EQ(problems[2]["actual"], 12000);
  EXPECT_EQ(value(report, "native_bytes"), std::filesystem::file_size("/bin/true"));
  std::string severities;
  for (const auto& f : report["sections"]["wheel"]["findings"]) severities += f["severity"].get<std::string>() + " ";
  EXPECT_NE(severities.find("friction"), std::string::npos);
}

TEST(WheelE2E, OutputIsDeterministicAndRendersInEveryFormat) {
  std::string whl = fixture_wheel("onramp_native");
  std::vector<std::string> epoch{"SOURCE_DATE_EPOCH=1700000000"};
  auto a = run_onramp({"wheel", "--json", "--python", kSystemPython, whl}, epoch);
  auto b = run_onramp({"wheel", "--json", "--python", kSystemPython, whl}, epoch);
  EXPECT_EQ(a.out, b.out);
  auto text = run_onramp({"wheel", "--python", kSystemPython, whl});
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("Native payload"), std::string::npos);
  auto md = run_onramp({"wheel", "--markdown", "--python", kSystemPython, whl});
  EXPECT_EQ(md.exit_code, 0);
  EXPECT_NE(md.out.find("| "), std::string::npos);
}

struct Hostile {
  const char* kind;
  const char* error;  // a part of the one-line message
  std::vector<std::string> options;
};

// Test names and failure messages show the kind, not the struct's bytes.
void PrintTo(const Hostile& h, std::ostream* os) { *os << h.kind; }

class HostileWheel : public ::testing::TestWithParam<Hostile> {};

// One clear line on stderr, exit code 2, nothing written anywhere.
TEST_P(HostileWheel, IsRefusedWithOneClearError) {
  const Hostile& h = GetParam();
  TempDir dir;
  std::string path = make_wheel(h.kind, dir.path());
  ASSERT_FALSE(path.empty());
  auto before = tree(dir.path());
  std::vector<std::string> args{"wheel"};
  args.insert(args.end(), h.options.begin(), h.options.end());
  args.push_back(path);
  auto r = run_onramp(args);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(h.error), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(tree(dir.path()), before);
}

INSTANTIATE_TEST_SUITE_P(
    WheelE2E, HostileWheel,
    ::testing::Values(Hostile{"truncated", "truncated or corrupt", {}}, Hostile{"corrupt", "is corrupt", {}},
                      Hostile{"bomb_ratio", "ratio of", {}},
                      Hostile{"bomb_size", "the absolute limit", {"--max-unpacked", "1000000"}},
                      Hostile{"dotdot", "has a '..' path component", {}}, Hostile{"absolute", "has an absolute path", {}},
                      Hostile{"symlink", "is a symbolic link", {}}, Hostile{"duplicate", "appears twice", {}},
                      Hostile{"non_utf8", "member name is not UTF-8: 'hostile/\\xff\\xfe", {}},
                      Hostile{"no_name", "required field missing: Name, Version", {}},
                      Hostile{"not_zip", "not a zip archive", {}}, Hostile{"not_wheel_name", "not a wheel", {}},
                      Hostile{"no_dist_info", "no NAME-VERSION.dist-info", {}}),
    [](const auto& param_info) { return std::string(param_info.param.kind); });

TEST(WheelE2E, MissingFileAndBadPythonAreClearErrors) {
  auto r = run_onramp({"wheel", "/nonexistent/x-1.0-py3-none-any.whl"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/nonexistent/x-1.0-py3-none-any.whl: no such file"), std::string::npos) << r.err;
  r = run_onramp({"wheel", "--python", "/nonexistent/python", fixture_wheel("onramp_pure")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/nonexistent/python"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace onramp::e2e
