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
  EXPECT_TRUE(choice.rows[0].why.starts_with("no wheel of the release for Python 3.13; wheels judged by their Python "
                                             "and ABI tags alone: its supported tags are unknown (not asked)"))
      << choice.rows[0].why;
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

python::InterpreterFacts facts(const std::string& version, const std::string& platform = "") {
  python::InterpreterFacts f;
  f.python = f.executable = "/p/python" + version;
  f.python_version = version;
  f.platform = platform;
  return f;
}

TEST(HostChoice, WheelTagsAndAbi3WhenTheSupportedTagsAreUnknown) {
  std::string why;
  std::vector<index::IndexFile> abi3{wheel_file("x-1.0-cp39-abi3-manylinux_2_17_x86_64.whl")};
  EXPECT_TRUE(wheel_for_python(facts("3.12.1"), abi3, false, why));
  EXPECT_FALSE(wheel_for_python(facts("3.8.18"), abi3, false, why));
  std::vector<index::IndexFile> ft{wheel_file("x-1.0-cp313-cp313t-manylinux_2_17_x86_64.whl")};
  EXPECT_FALSE(wheel_for_python(facts("3.13.0"), ft, false, why));
  // On Linux, sysconfig's platform still refuses another platform's wheel; elsewhere it is not judged.
  std::vector<index::IndexFile> mac{wheel_file("x-1.0-cp311-cp311-macosx_11_0_arm64.whl")};
  EXPECT_FALSE(wheel_for_python(facts("3.11.7", "linux-x86_64"), mac, false, why));
  EXPECT_EQ(why, "no wheel of the release for Python 3.11");
  EXPECT_TRUE(wheel_for_python(facts("3.11.7"), mac, false, why));
  std::vector<index::IndexFile> arm{wheel_file("x-1.0-cp311-cp311-manylinux_2_17_aarch64.whl")};
  EXPECT_FALSE(wheel_for_python(facts("3.11.7", "linux-x86_64"), arm, false, why));
  EXPECT_TRUE(wheel_for_python(facts("3.11.7", "linux-aarch64"), arm, false, why));
  std::vector<index::IndexFile> musl{wheel_file("x-1.0-cp311-cp311-musllinux_1_2_x86_64.whl")};
  EXPECT_TRUE(wheel_for_python(facts("3.11.7", "linux-x86_64"), musl, false, why));
}

// A CPython 3.11's supported tags on glibc 2.36 x86_64, in pip's order (a short cut of sys_tags()).
python::InterpreterFacts linux_311() {
  python::InterpreterFacts f = facts("3.11.7", "linux-x86_64");
  f.libc = "glibc 2.36";
  f.tags_source = "pip._vendor.packaging.tags.sys_tags()";
  index::CompatibleTags t;
  for (const char* abi : {"cp311", "abi3", "none"}) {
    for (const char* plat : {"manylinux_2_36_x86_64", "manylinux_2_17_x86_64", "manylinux2014_x86_64", "linux_x86_64"}) {
      t.tags.push_back({"cp311", abi, plat});
    }
  }
  for (const char* py : {"cp310", "cp39"}) t.tags.push_back({py, "abi3", "manylinux_2_17_x86_64"});
  t.tags.push_back({"py3", "none", "manylinux_2_17_x86_64"});
  t.tags.push_back({"py311", "none", "any"});
  t.tags.push_back({"py3", "none", "any"});
  f.tags = t;
  return f;
}

// The same Python on musl 1.2 (Alpine).
python::InterpreterFacts musl_311() {
  python::InterpreterFacts f = facts("3.11.7", "linux-x86_64");
  f.tags_source = "packaging.tags.sys_tags()";
  f.tags = index::CompatibleTags{{{"cp311", "cp311", "musllinux_1_2_x86_64"},
                                  {"cp311", "cp311", "musllinux_1_1_x86_64"},
                                  {"cp311", "cp311", "linux_x86_64"},
                                  {"cp311", "abi3", "musllinux_1_2_x86_64"},
                                  {"py3", "none", "any"}}};
  return f;
}

TEST(WheelForPython, ThePlatformOfTheSupportedTagsDecides) {
  std::string why;
  std::vector<index::IndexFile> mac{wheel_file("x-1.0-cp311-cp311-macosx_11_0_arm64.whl")};
  EXPECT_FALSE(wheel_for_python(linux_311(), mac, false, why));
  EXPECT_EQ(why, "no wheel of the release installs on it: x-1.0-cp311-cp311-macosx_11_0_arm64.whl: platform "
                 "macosx_11_0_arm64 is not among those pip accepts with cp311-cp311 (manylinux_2_36_x86_64, "
                 "manylinux_2_17_x86_64, manylinux2014_x86_64 and 1 more)");
  // Python and ABI alone would have taken it: that is today's rule only where the tags are unknown.
  python::InterpreterFacts unknown = linux_311();
  unknown.tags.reset();
  unknown.platform.clear();
  EXPECT_TRUE(wheel_for_python(unknown, mac, false, why));
}

TEST(WheelForPython, ManylinuxFloorsAndMusllinux) {
  std::string why;
  std::vector<index::IndexFile> low{wheel_file("x-1.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl")};
  EXPECT_TRUE(wheel_for_python(linux_311(), low, false, why));
  std::vector<index::IndexFile> high{wheel_file("x-1.0-cp311-cp311-manylinux_2_39_x86_64.whl")};
  EXPECT_FALSE(wheel_for_python(linux_311(), high, false, why));
  EXPECT_NE(why.find("glibc floor: manylinux_2_39 needs glibc >= 2.39; this machine has 2.36"), std::string::npos) << why;
  std::vector<index::IndexFile> musl{wheel_file("x-1.0-cp311-cp311-musllinux_1_2_x86_64.whl")};
  EXPECT_FALSE(wheel_for_python(linux_311(), musl, false, why));
  EXPECT_TRUE(wheel_for_python(musl_311(), musl, false, why));
  EXPECT_FALSE(wheel_for_python(musl_311(), low, false, why));
}

TEST(WheelForPython, Abi3AndPureWheelsAndPipsPreference) {
  std::string why;
  std::vector<index::IndexFile> abi3{wheel_file("x-1.0-cp39-abi3-manylinux_2_17_x86_64.whl")};
  EXPECT_TRUE(wheel_for_python(linux_311(), abi3, false, why));
  std::vector<index::IndexFile> abi3_mac{wheel_file("x-1.0-cp39-abi3-macosx_11_0_arm64.whl")};
  EXPECT_FALSE(wheel_for_python(linux_311(), abi3_mac, false, why));
  std::vector<index::IndexFile> pure{wheel_file("x-1.0-py3-none-any.whl")};
  EXPECT_TRUE(wheel_for_python(linux_311(), pure, false, why));
  EXPECT_TRUE(wheel_for_python(musl_311(), pure, false, why));
  // Several install: the one whose tag pip prefers, whatever the page's order.
  std::vector<index::IndexFile> several{wheel_file("x-1.0-py3-none-any.whl"),
                                        wheel_file("x-1.0-cp39-abi3-manylinux_2_17_x86_64.whl"),
                                        wheel_file("x-1.0-cp311-cp311-manylinux_2_17_x86_64.whl")};
  auto best = wheel_for_python(linux_311(), several, false, why);
  ASSERT_TRUE(best);
  EXPECT_EQ(best->file_name, "x-1.0-cp311-cp311-manylinux_2_17_x86_64.whl");
  // Requires-Python still refuses a wheel whose tags fit.
  std::vector<index::IndexFile> strict{wheel_file("x-1.0-py3-none-any.whl", ">=3.12")};
  EXPECT_FALSE(wheel_for_python(linux_311(), strict, false, why));
  EXPECT_EQ(why, "its wheels' Requires-Python >=3.12 refuses Python 3.11.7");
  EXPECT_TRUE(wheel_for_python(linux_311(), strict, true, why));
}

TEST(PlatformWords, FromTheMostSpecificTagElseSysconfig) {
  EXPECT_EQ(platform_words(linux_311()), "linux x86_64 (glibc 2.36)");
  EXPECT_EQ(platform_words(musl_311()), "linux x86_64 (musl 1.2)");
  python::InterpreterFacts unknown = facts("3.11.7", "linux-x86_64");
  unknown.libc = "glibc 2.31";
  EXPECT_EQ(platform_words(unknown), "linux x86_64 (glibc 2.31)");
  EXPECT_EQ(platform_words(facts("3.11.7")), "");
}

Candidate with(const python::InterpreterFacts& f, const std::string& path) { return {path, f, "", path}; }

TEST(HostChoice, NoFileForThisPlatformIsOneCauseWithNoPythonOrTorchRemedy) {
  std::vector<std::string> asked;
  python::InterpreterFacts py312 = linux_311();
  py312.python_version = "3.12.1";
  std::vector<Candidate> c{with(py312, "/a/python3.12"), with(linux_311(), "/a/python3.11")};
  std::vector<index::IndexFile> files{wheel_file("x-1.0-cp312-cp312-macosx_11_0_arm64.whl")};
  auto choice = choose_host(c, files, "x 1.0", false, lookups({"3.11", "3.12"}, &asked));
  EXPECT_FALSE(choice.python);
  EXPECT_TRUE(asked.empty()) << "no torch is looked up for a release nothing here installs";
  ASSERT_TRUE(choice.nothing_installs);
  EXPECT_EQ(choice.nothing_installs->text,
            "no file of x 1.0 installs on linux x86_64 (glibc 2.36): it publishes only macosx_11_0_arm64 wheels for "
            "cp312");
  EXPECT_EQ(choice.stop, choice.nothing_installs->text);
  const std::string& remedy = choice.nothing_installs->remedy;
  EXPECT_EQ(remedy.find("--allow-torch-download"), std::string::npos) << remedy;
  EXPECT_EQ(remedy.find("--python"), std::string::npos) << remedy;
  EXPECT_NE(remedy.find("a wheel for linux x86_64 (glibc 2.36) or an sdist"), std::string::npos) << remedy;
  EXPECT_NE(choice.nothing_installs->tags_evidence.find(
                "/p/python3.11.7: 17 tags from pip._vendor.packaging.tags.sys_tags(), most preferred "
                "cp311-cp311-manylinux_2_36_x86_64"),
            std::string::npos)
      << choice.nothing_installs->tags_evidence;
  for (const auto& row : choice.rows) {
    EXPECT_FALSE(row.taken);
    EXPECT_NE(row.why.find("wheels judged by its 17 supported tags"), std::string::npos) << row.why;
  }
}

TEST(HostChoice, AnSdistInstallsAnywhereUntilItsBuildFails) {
  std::vector<Candidate> c{with(linux_311(), "/a/python3.11")};
  index::IndexFile sdist = wheel_file("x-1.0.tar.gz");
  sdist.is_wheel = false;
  std::vector<index::IndexFile> files{wheel_file("x-1.0-cp312-cp312-macosx_11_0_arm64.whl"), sdist};
  auto choice = choose_host(c, files, "x 1.0", false, lookups({"3.11"}));
  ASSERT_TRUE(choice.python) << choice.stop;
  EXPECT_FALSE(choice.wheel);
  EXPECT_FALSE(choice.nothing_installs);
  EXPECT_NE(choice.rows[0].why.find("no wheel that installs here: pip builds the sdist x-1.0.tar.gz"), std::string::npos)
      << choice.rows[0].why;
}

TEST(HostChoice, WheelsForThisPlatformButOtherPythonsNameThePythons) {
  std::vector<Candidate> c{with(linux_311(), "/a/python3.11")};
  std::vector<index::IndexFile> files{wheel_file("x-1.0-cp313-cp313-manylinux_2_17_x86_64.whl")};
  auto choice = choose_host(c, files, "x 1.0", false, lookups({"3.11"}));
  ASSERT_TRUE(choice.nothing_installs);
  EXPECT_EQ(choice.stop, "x 1.0 has wheels for cp313; this machine has Python 3.11.7: install a Python it accepts, or "
                         "pass --python PY");
  EXPECT_EQ(choice.nothing_installs->text, "x 1.0 has wheels for cp313; this machine has Python 3.11.7");
}

TEST(HostChoice, AnotherPlatformsWheelNeverChoosesAPythonEvenWhenAnotherFits) {
  // 3.12 has only a macOS wheel of its own; 3.11 has a Linux one: 3.11 is taken.
  python::InterpreterFacts py312 = linux_311();
  py312.python_version = "3.12.1";
  for (auto& t : py312.tags->tags) {
    if (t.python == "cp311") t.python = "cp312";
    if (t.abi == "cp311") t.abi = "cp312";
  }
  std::vector<Candidate> c{with(py312, "/a/python3.12"), with(linux_311(), "/a/python3.11")};
  std::vector<index::IndexFile> files{wheel_file("x-1.0-cp312-cp312-macosx_11_0_arm64.whl"),
                                      wheel_file("x-1.0-cp311-cp311-manylinux_2_17_x86_64.whl")};
  auto choice = choose_host(c, files, "x 1.0", false, lookups({"3.11", "3.12"}));
  ASSERT_TRUE(choice.python) << choice.stop;
  EXPECT_EQ(choice.python->python_version, "3.11.7");
  EXPECT_EQ(choice.wheel->file_name, "x-1.0-cp311-cp311-manylinux_2_17_x86_64.whl");
  EXPECT_NE(choice.rows[0].why.find("platform macosx_11_0_arm64 is not among those pip accepts"), std::string::npos)
      << choice.rows[0].why;
}

}  // namespace
}  // namespace onramp::host
