// Builds the reference backend (examples/reference-backend) with the machine's
// torch and runs its smoke tests: the demo target that onramp audits must
// itself build, install as a wheel, and compute correctly.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "harness.h"

namespace onramp::e2e {
namespace reference_backend_test {  // one per file: a unity batch joins several

const std::string kBackendDir = std::string(ONRAMP_SOURCE_DIR) + "/examples/reference-backend";
const std::string kPython = "/usr/bin/python3";

// Compiles the extension in place (incremental) and, given a directory, builds the wheel into it.
int build_backend(const std::string& wheel_dir = "") {
  return shell("PYTHON=" + kPython + " '" + kBackendDir + "/build.sh'" + (wheel_dir.empty() ? "" : " '" + wheel_dir + "'") +
               " >&2");
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ReferenceBackend, BuildsAWheelWhoseMetadataDisagreesWithTheReadme) {
  TempDir out;
  ASSERT_EQ(build_backend(out.path() + "/dist"), 0);
  std::vector<std::filesystem::path> wheels;
  for (const auto& entry : std::filesystem::directory_iterator(out.path() + "/dist")) wheels.push_back(entry.path());
  ASSERT_EQ(wheels.size(), 1u);
  EXPECT_EQ(wheels[0].filename().string().rfind("onramp_ref-0.1.0-", 0), 0u) << wheels[0];
  EXPECT_EQ(wheels[0].extension(), ".whl");

  const std::string metadata = out.path() + "/METADATA";
  ASSERT_EQ(shell(kPython + " -c 'import sys, zipfile; w = zipfile.ZipFile(sys.argv[1]); "
                            "sys.stdout.write(w.read(\"onramp_ref-0.1.0.dist-info/METADATA\").decode())' '" +
                  wheels[0].string() + "' > '" + metadata + "'"),
            0);
  const std::string text = read_file(metadata);
  EXPECT_NE(text.find("Requires-Python: >=3.12\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Requires-Dist: torch"), std::string::npos) << text;
  EXPECT_NE(read_file(kBackendDir + "/README.md").find("Python 3.11+"), std::string::npos);
}

// Its smoke tests, run where build.sh compiled it for this interpreter and
// torch (build/py<X.Y>-torch<version>/src), on each host the machine has.
void expect_smoke_tests_pass(const std::string& python) {
  std::string env = "PYTHON='" + python + "' ";
  ASSERT_EQ(shell(env + "'" + kBackendDir + "/build.sh' >&2"), 0);
  EXPECT_EQ(shell("cd \"$(" + env + "'" + kBackendDir + "/build.sh' --where)\" && '" + python +
                  "' -m unittest discover -s tests >&2"),
            0);
}

TEST(ReferenceBackend, SmokeTestsPassOnTheDebianHost) { expect_smoke_tests_pass(kPython); }

TEST(ReferenceBackend, SmokeTestsPassOnTheTorch2Host) { expect_smoke_tests_pass(ONRAMP_TORCH2_PYTHON); }

TEST(ReferenceBackend, EachHostGetsItsOwnBuildDirectory) {
  TempDir out;
  ASSERT_EQ(shell("PYTHON=" + kPython + " '" + kBackendDir + "/build.sh' --where > '" + out.path() + "/a'"), 0);
  ASSERT_EQ(shell("PYTHON='" + std::string(ONRAMP_TORCH2_PYTHON) + "' '" + kBackendDir + "/build.sh' --where > '" +
                  out.path() + "/b'"),
            0);
  std::string a = read_file(out.path() + "/a"), b = read_file(out.path() + "/b");
  EXPECT_NE(a, b);
  EXPECT_NE(a.find("/build/py3."), std::string::npos) << a;
  EXPECT_NE(b.find("-torch2."), std::string::npos) << b;
}

}  // namespace
}  // namespace onramp::e2e
