#include "onramp/util/test_temp_dir.h"
#include "onramp/port/scan.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "onramp/port/fake_runner_test_util.h"
#include "onramp/port/scan_report.h"
#include "onramp/port/scan_stats.h"
#include "onramp/python/sandbox_testing.h"

namespace onramp::port {
namespace scan_test {  // one per file: a unity batch joins several
namespace fs = std::filesystem;
using nlohmann::json;

class ScanTest : public ::testing::Test {
 protected:
  void write(const std::string& rel, const std::string& text) {
    fs::create_directories((dir_ / rel).parent_path());
    std::ofstream(dir_ / rel) << text;
  }
  onramp::testing::TempDir tmp_{"onramp-scan"};
  fs::path dir_ = tmp_.path();
};

json site(const std::string& kind, const std::string& text, int line, bool guarded, const std::string& in_call = "") {
  return {{"kind", kind}, {"text", text}, {"line", line}, {"col", 0}, {"guarded", guarded},
          {"in_call", in_call}, {"keyword", ""}, {"code", "x"}};
}

TEST_F(ScanTest, CollectsPythonFilesAndSkipsHiddenCachesAndVenvs) {
  write("a.py", "");
  write("pkg/b.py", "");
  write("pkg/notes.txt", "");
  write(".git/c.py", "");
  write("pkg/__pycache__/d.py", "");
  write("venv/pyvenv.cfg", "");
  write("venv/lib/e.py", "");
  auto files = collect_python_files({dir_.string()});
  ASSERT_TRUE(files) << files.error().message;
  ASSERT_EQ(files->size(), 2u);
  EXPECT_EQ((*files)[0].display, (dir_ / "a.py").string());
  EXPECT_EQ((*files)[1].display, (dir_ / "pkg/b.py").string());
}

TEST_F(ScanTest, MissingPathIsAnErrorNamingIt) {
  auto files = collect_python_files({(dir_ / "nope.py").string()});
  ASSERT_FALSE(files);
  EXPECT_NE(files.error().message.find("nope.py"), std::string::npos);
}

TEST_F(ScanTest, RunsTheScannerAndTalliesWithTheRules) {
  write("a.py", "");
  write("b.py", "");
  auto inputs = *collect_python_files({dir_.string()});
  testing::ScriptedRunner runner(
      [](const json& request) {
        EXPECT_EQ(request["files"].size(), 2u);
        EXPECT_TRUE(request["interest"].contains("names"));
        return json{{"python", "3.11.2"},
                    {"files",
                     {{{"path", "a"}, {"lines", 10}, {"error", nullptr},
                       {"sites",
                        {site("method", "cuda", 3, false), site("string", "cuda", 3, true, "torch.device"),
                         site("name", "torch.cuda.get_device_name", 5, false),
                         site("name", "torch.cudaless", 6, false)}}},
                      {{"path", "b"}, {"lines", 4}, {"sites", json::array()},
                       {"error", {{"kind", "SyntaxError"}, {"message", "invalid syntax"}, {"line", 2}}}}}}};
      },
      "user noise {\"python\": \"forged\"}\n");
  auto box = onramp::testing::open_sandbox(runner, {}, dir_ / "run");
  const auto& rules = builtin_cudaism_rules();
  auto scan = run_scan(box, inputs, rules);
  ASSERT_TRUE(scan) << scan.error().message;
  EXPECT_EQ(scan->python_version, "3.11.2");
  ASSERT_EQ(scan->files.size(), 2u);
  ASSERT_TRUE(scan->files[1].error);
  EXPECT_EQ(scan->files[1].error->line, 2);

  ScanStats stats = tally_scan(*scan, rules);
  EXPECT_EQ(stats.total.hits, 3u);  // torch.cudaless matches no rule
  EXPECT_EQ(stats.total.unguarded, 2u);
  EXPECT_EQ(stats.total.portable, 2u);
  EXPECT_EQ(stats.total.no_equivalent, 1u);
  EXPECT_EQ(stats.files_with_errors, 1u);
  EXPECT_EQ(stats.lines_with_hits, 2u);
  // dot-cuda 1 + guarded device string 1/2 + device properties 2.
  EXPECT_DOUBLE_EQ(stats.total.effort, 3.5);

  auto section = scan_section(stats, *scan, rules, "onramp port scan x");
  bool syntax_finding = false;
  for (const auto& f : section.findings) syntax_finding |= f.text.find("SyntaxError") != std::string::npos;
  EXPECT_TRUE(syntax_finding);
}

TEST_F(ScanTest, AScannerWithoutAResultIsAnErrorWithItsLastLine) {
  write("a.py", "");
  auto inputs = *collect_python_files({dir_.string()});
  testing::ScriptedRunner runner([](const json&) { return json(nullptr); });
  auto box = onramp::testing::open_sandbox(runner, {}, dir_ / "run");
  auto scan = run_scan(box, inputs, builtin_cudaism_rules());
  ASSERT_FALSE(scan);
  EXPECT_NE(scan.error().message.find("RuntimeError: boom"), std::string::npos);
}


TEST(ScanPercent, RoundsToOneDecimalAndIsNullForNothing) {
  EXPECT_EQ(percent(2, 3), 66.7);
  EXPECT_TRUE(percent(0, 0).is_null());
}

}  // namespace
}  // namespace onramp::port
