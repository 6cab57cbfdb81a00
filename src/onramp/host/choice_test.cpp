#include "onramp/host/choice.h"

#include <gtest/gtest.h>

namespace onramp::host {
namespace choice_test {  // one per file: a unity batch joins several

Candidate running(const std::string& path, const std::string& version, const std::string& real = "") {
  python::InterpreterFacts f;
  f.python = path;
  f.executable = path;
  f.python_version = version;
  return {path, f, "", real.empty() ? path : real};
}

Candidate broken(const std::string& path) { return {path, std::nullopt, "pyenv: " + path + ": command not found", ""}; }

index::IndexFile wheel_file(const std::string& name, const std::string& requires_python = "") {
  index::IndexFile f;
  f.file_name = name;
  f.url = "http://index/" + name;
  f.requires_python = requires_python;
  f.is_wheel = true;
  return f;
}

// Local torch files: only for these Python minors ("3.11").
Lookups lookups(std::vector<std::string> minors_with_torch, std::vector<std::string>* asked = nullptr) {
  Lookups l;
  l.torch_requirement = [](const index::IndexFile&) { return std::string("torch>=2.11,<3"); };
  l.local_torch = [=](const python::InterpreterFacts& py, const std::string& wanted) -> Result<TorchFile> {
    if (asked) asked->push_back(py.executable);
    std::string minor = py.python_version.substr(0, py.python_version.rfind('.'));
    for (const auto& m : minors_with_torch) {
      if (m == minor) return TorchFile{"2.13.0+cpu", "/opt/wheels/torch-2.13.0+cpu-cp311.whl", false, "a CPU build", {}, "pip"};
    }
    return fail("no file on this machine satisfies " + wanted);
  };
  return l;
}

TEST(HostChoice, TakesTheNewestPythonWithAFittingWheelAndALocalTorch) {
  std::vector<std::string> asked;
  std::vector<Candidate> c{running("/usr/bin/python3", "3.11.2"), broken("python3.12"),
                           running("/pyenv/3.13.0/bin/python3", "3.13.0"), running("/pyenv/3.11.7/bin/python3", "3.11.7"),
                           running("python3.11", "3.11.7", "/pyenv/3.11.7/bin/python3")};
  auto choice = choose_host(c, {wheel_file("demo-1.0-py3-none-any.whl")}, "demo 1.0", false, lookups({"3.11"}, &asked));
  ASSERT_TRUE(choice.stop.empty()) << choice.stop;
  ASSERT_TRUE(choice.python && choice.torch);
  EXPECT_EQ(choice.python->python_version, "3.11.7");
  EXPECT_EQ(choice.torch->version, "2.13.0+cpu");
  EXPECT_EQ(choice.torch_requirement, "torch>=2.11,<3");
  // 3.13 first (no torch for it), then 3.11.7 taken; 3.11.2 never asked.
  EXPECT_EQ(asked, (std::vector<std::string>{"/pyenv/3.13.0/bin/python3", "/pyenv/3.11.7/bin/python3"}));
  ASSERT_EQ(choice.rows.size(), 5u);
  EXPECT_EQ(choice.rows[0].python, "3.13.0");
  EXPECT_NE(choice.rows[0].why.find("no torch file on this machine for Python 3.13"), std::string::npos) << choice.rows[0].why;
  EXPECT_TRUE(choice.rows[1].taken);
  EXPECT_NE(choice.rows[2].why.find("not tried"), std::string::npos);
  EXPECT_NE(choice.rows[3].why.find("the same interpreter"), std::string::npos);
  EXPECT_NE(choice.rows[4].why.find("not usable: pyenv: python3.12: command not found"), std::string::npos);
}

TEST(HostChoice, APythonTheReleaseHasNoWheelForIsPassedOver) {
  std::vector<Candidate> c{running("/a/python3.13", "3.13.0"), running("/a/python3.11", "3.11.7")};
  std::vector<index::IndexFile> files{wheel_file("demo-1.0-cp311-cp311-manylinux_2_17_x86_64.whl")};
  auto choice = choose_host(c, files, "demo 1.0", false, lookups({"3.11", "3.13"}));
  ASSERT_TRUE(choice.python);
  EXPECT_EQ(choice.python->python_version, "3.11.7");
  EXPECT_EQ(choice.rows[0].why, "no wheel of the release for Python 3.13");
}

TEST(HostChoice, ABackendForPythonsThisMachineLacksStopsWithOneLineNamingThem) {
  std::vector<Candidate> c{running("/a/python3.11", "3.11.7"), running("/a/python3.10", "3.10.13")};
  std::vector<index::IndexFile> files{wheel_file("demo-1.0-cp314-cp314-manylinux_2_17_x86_64.whl"),
                                      wheel_file("demo-1.0-py3-none-any.whl", ">=3.14")};
  auto choice = choose_host(c, files, "demo 1.0", false, lookups({"3.11"}));
  EXPECT_FALSE(choice.python);
  EXPECT_EQ(choice.stop,
            "demo 1.0 has wheels for cp314, py3 with Requires-Python >=3.14; this machine has Python 3.11.7, 3.10.13: "
            "install a Python it accepts, or pass --python PY");
  EXPECT_NE(choice.rows[0].why.find("Requires-Python >=3.14 refuses Python 3.11.7"), std::string::npos) << choice.rows[0].why;
  // Ignoring Requires-Python lets the py3 wheel fit.
  EXPECT_TRUE(choose_host(c, files, "demo 1.0", true, lookups({"3.11"})).torch);
}

TEST(HostChoice, NoLocalTorchStopsNamingTheTorchAndBothWaysToGiveIt) {
  std::vector<Candidate> c{running("/a/python3.12", "3.12.1")};
  auto choice = choose_host(c, {wheel_file("demo-1.0-py3-none-any.whl")}, "demo 1.0", false, lookups({}));
  EXPECT_FALSE(choice.torch);
  ASSERT_TRUE(choice.python);  // for --allow-torch-download
  EXPECT_NE(choice.stop.find("demo 1.0 needs torch>=2.11,<3 for Python 3.12.1"), std::string::npos) << choice.stop;
  EXPECT_NE(choice.stop.find("find-links"), std::string::npos);
  EXPECT_NE(choice.stop.find("--allow-torch-download"), std::string::npos);
}

TEST(HostChoice, AnotherInterpreterOfTheSamePythonIsNotAskedAgain) {
  std::vector<std::string> asked;
  std::vector<Candidate> c{running("/a/python3.12", "3.12.1"), running("/b/python3.12", "3.12.3")};
  auto choice = choose_host(c, {wheel_file("demo-1.0-py3-none-any.whl")}, "demo 1.0", false, lookups({}, &asked));
  EXPECT_EQ(asked.size(), 1u);
  EXPECT_NE(choice.rows[1].why.find("another Python 3.12 was tried"), std::string::npos) << choice.rows[1].why;
}

// Local torch files by Python minor: "cuda" gives a CUDA build (taken only when no CPU one is anywhere).
Lookups builds(std::vector<std::pair<std::string, std::string>> by_minor) {
  Lookups l = lookups({});
  l.local_torch = [=](const python::InterpreterFacts& py, const std::string& wanted) -> Result<TorchFile> {
    std::string minor = py.python_version.substr(0, py.python_version.rfind('.'));
    for (const auto& [m, kind] : by_minor) {
      if (m != minor) continue;
      if (kind == "cuda") return TorchFile{"2.14.1", "/w/torch-2.14.1.whl", true, "a CUDA build (Requires-Dist: nvidia-cublas-cu12)", {}, "pip"};
      return TorchFile{"2.13.0+cpu", "/w/torch-2.13.0+cpu.whl", false, "a CPU build: its local version +cpu",
                       {{"2.14.1", "/w/torch-2.14.1.whl", {"nvidia-cublas-cu12"}, "pip"}}, "pip"};
    }
    return fail("no file on this machine satisfies " + wanted);
  };
  return l;
}

TEST(HostChoice, AnOlderPythonWithACpuTorchIsPreferredToANewerOneWithOnlyACudaTorch) {
  std::vector<Candidate> c{running("/a/python3.13", "3.13.0"), running("/a/python3.11", "3.11.7")};
  auto choice = choose_host(c, {wheel_file("demo-1.0-py3-none-any.whl")}, "demo 1.0", false,
                            builds({{"3.13", "cuda"}, {"3.11", "cpu"}}));
  ASSERT_TRUE(choice.python && choice.torch);
  EXPECT_EQ(choice.python->python_version, "3.11.7");
  EXPECT_EQ(choice.torch->version, "2.13.0+cpu");
  EXPECT_FALSE(choice.rows[0].taken);
  EXPECT_NE(choice.rows[0].why.find("but it is a CUDA build (Requires-Dist: nvidia-cublas-cu12); a Python with a CPU "
                                    "torch is preferred"),
            std::string::npos)
      << choice.rows[0].why;
  EXPECT_TRUE(choice.rows[1].taken);
  EXPECT_NE(choice.rows[1].why.find("passed over torch 2.14.1 (/w/torch-2.14.1.whl): a CUDA build, Requires-Dist "
                                    "nvidia-cublas-cu12"),
            std::string::npos)
      << choice.rows[1].why;
}

TEST(HostChoice, OnlyCudaTorchesTakesTheNewestPythonWithOneAndSaysSo) {
  std::vector<Candidate> c{running("/a/python3.13", "3.13.0"), running("/a/python3.12", "3.12.1"),
                           running("/a/python3.11", "3.11.7")};
  auto choice = choose_host(c, {wheel_file("demo-1.0-py3-none-any.whl")}, "demo 1.0", false,
                            builds({{"3.12", "cuda"}, {"3.11", "cuda"}}));
  ASSERT_TRUE(choice.python && choice.torch) << choice.stop;
  EXPECT_TRUE(choice.stop.empty());
  EXPECT_EQ(choice.python->python_version, "3.12.1");
  EXPECT_TRUE(choice.torch->cuda);
  EXPECT_TRUE(choice.rows[1].taken);
  EXPECT_FALSE(choice.rows[2].taken);
  EXPECT_EQ(choice.rows[1].why.rfind("taken: no Python here has a CPU torch that fits; ", 0), 0u) << choice.rows[1].why;
}

TEST(HostChoice, NothingRunsStops) {
  auto choice = choose_host({broken("python3")}, {}, "demo 1.0", false, lookups({"3.11"}));
  EXPECT_NE(choice.stop.find("no Python interpreter runs on this machine"), std::string::npos);
}

TEST(HostChoice, WheelTagsAndAbi3) {
  std::string why;
  std::vector<index::IndexFile> abi3{wheel_file("x-1.0-cp39-abi3-manylinux_2_17_x86_64.whl")};
  EXPECT_TRUE(wheel_for_python("3.12.1", abi3, false, why));
  EXPECT_FALSE(wheel_for_python("3.8.18", abi3, false, why));
  std::vector<index::IndexFile> ft{wheel_file("x-1.0-cp313-cp313t-manylinux_2_17_x86_64.whl")};
  EXPECT_FALSE(wheel_for_python("3.13.0", ft, false, why));
}

}  // namespace
}  // namespace onramp::host
