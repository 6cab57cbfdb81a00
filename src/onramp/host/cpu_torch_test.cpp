#include "onramp/host/cpu_torch.h"

#include <gtest/gtest.h>

namespace onramp::host {
namespace cpu_torch_test {  // one per file: a unity batch joins several

const std::vector<std::string> kCudaDeps{"filelock", "nvidia-cublas-cu12==12.4.5.8; platform_system == \"Linux\"",
                                         "nvidia_cudnn_cu12==9.1.0.70", "sympy>=1.13"};

// A fake pip over files listed newest first: the first whose version the
// requirement's "!=V" exclusions leave, as pip would pick the newest.
struct FakePip {
  std::vector<TorchPick> files;
  std::vector<std::string> asked;
  Result<TorchPick> operator()(const std::string& requirement) {
    asked.push_back(requirement);
    for (const auto& f : files) {
      if (requirement.find("!=" + f.version) == std::string::npos) return f;
    }
    return fail("no file on this machine satisfies " + requirement);
  }
};

TorchPick file(const std::string& version, std::vector<std::string> requires_dist = {}) {
  return {version, "/wheels/torch-" + version + ".whl", std::move(requires_dist), "pip install --dry-run torch"};
}

TEST(CpuTorch, CudaRequirementsAreNamedByTheirDistributionNotAnExtra) {
  auto got = cuda_requirements({"nvidia-cublas-cu12==12.4", "NVIDIA_cudnn.cu12>=9", "nvidiax", "numpy",
                                  "nvidia-nccl-cu12; extra == \"cuda\"", " nvidia-cufft-cu12",
                                "cuda-toolkit[cublas,cudart]==13.0.3; platform_system == \"Linux\"", "cuda-toolkits"});
  EXPECT_EQ(got, (std::vector<std::string>{"nvidia-cublas-cu12==12.4", "NVIDIA_cudnn.cu12>=9", " nvidia-cufft-cu12",
                                           "cuda-toolkit[cublas,cudart]==13.0.3; platform_system == \"Linux\""}));
}

TEST(CpuTorch, ACpuBuildIsAPlusCpuLocalVersionOrOneWithoutNvidiaRequirements) {
  EXPECT_NE(cpu_build_reason(file("2.13.0+cpu", kCudaDeps)).find("+cpu"), std::string::npos);
  EXPECT_NE(cpu_build_reason(file("2.13.0+cpu.cxx11.abi")).find("+cpu.cxx11.abi"), std::string::npos);
  EXPECT_NE(cpu_build_reason(file("2.12.0", {"filelock"})).find("none of its 1 Requires-Dist"), std::string::npos);
  EXPECT_EQ(cpu_build_reason(file("2.14.1", kCudaDeps)), "");
  EXPECT_EQ(cpu_build_reason(file("2.14.1+cu121", kCudaDeps)), "");
}

TEST(CpuTorch, ExcludingAddsToTheSpecifier) {
  EXPECT_EQ(excluding("torch>=2.11,<3", "2.14.1"), "torch>=2.11,<3,!=2.14.1");
  EXPECT_EQ(excluding("torch", "2.14.1+cu121"), "torch!=2.14.1+cu121");
  EXPECT_EQ(excluding("torch (>=2.11,<=2.15)", "2.14.1"), "torch (>=2.11,<=2.15,!=2.14.1)");
}

TEST(CpuTorch, ANewerCudaBuildIsPassedOverForTheCpuBuild) {
  FakePip pip{{file("2.14.1", kCudaDeps), file("2.13.0+cpu", {"filelock"})}, {}};
  auto got = prefer_cpu_torch("torch>=2.11,<3", std::ref(pip));
  ASSERT_TRUE(got) << got.error().message;
  EXPECT_EQ(got->version, "2.13.0+cpu");
  EXPECT_FALSE(got->cuda);
  EXPECT_NE(got->build.find("+cpu"), std::string::npos) << got->build;
  ASSERT_EQ(got->passed_over.size(), 1u);
  EXPECT_EQ(got->passed_over[0].version, "2.14.1");
  EXPECT_EQ(got->passed_over[0].path, "/wheels/torch-2.14.1.whl");
  EXPECT_EQ(got->passed_over[0].cuda_requirements.size(), 2u);
  EXPECT_EQ(pip.asked, (std::vector<std::string>{"torch>=2.11,<3", "torch>=2.11,<3,!=2.14.1"}));
}

TEST(CpuTorch, TheFirstPickWhenItIsACpuBuildAsksOnce) {
  FakePip pip{{file("2.13.0+cpu"), file("2.12.0", kCudaDeps)}, {}};
  auto got = prefer_cpu_torch("torch", std::ref(pip));
  ASSERT_TRUE(got);
  EXPECT_EQ(got->version, "2.13.0+cpu");
  EXPECT_TRUE(got->passed_over.empty());
  EXPECT_EQ(pip.asked.size(), 1u);
}

TEST(CpuTorch, OnlyCudaBuildsTakesTheFirstAndSaysSo) {
  FakePip pip{{file("2.14.1+cu124", kCudaDeps), file("2.14.1+cu121", kCudaDeps)}, {}};
  auto got = prefer_cpu_torch("torch>=2.11", std::ref(pip));
  ASSERT_TRUE(got);
  EXPECT_EQ(got->version, "2.14.1+cu124");
  EXPECT_TRUE(got->cuda);
  EXPECT_TRUE(got->passed_over.empty());
  EXPECT_NE(got->build.find("a CUDA build (Requires-Dist: nvidia-cublas-cu12"), std::string::npos) << got->build;
  EXPECT_NE(got->build.find("2 CUDA build(s) seen (2.14.1+cu124, 2.14.1+cu121)"), std::string::npos) << got->build;
  EXPECT_NE(got->build.find("no other file satisfies torch>=2.11,!=2.14.1+cu124,!=2.14.1+cu121"), std::string::npos)
      << got->build;
  EXPECT_EQ(pip.asked.size(), 3u);
}

TEST(CpuTorch, AsksAtMostTheBoundedNumberOfRounds) {
  FakePip pip;
  for (int i = 9; i >= 0; --i) pip.files.push_back(file("2." + std::to_string(i) + ".0", kCudaDeps));
  pip.files.push_back(file("1.0.0+cpu"));
  auto got = prefer_cpu_torch("torch", std::ref(pip), 3);
  ASSERT_TRUE(got);
  EXPECT_TRUE(got->cuda);
  EXPECT_EQ(got->version, "2.9.0");
  EXPECT_EQ(pip.asked.size(), 3u);
  EXPECT_NE(got->build.find("asked 3 times"), std::string::npos) << got->build;
}

TEST(CpuTorch, NoFileAtAllIsTheLookupsError) {
  FakePip pip;
  auto got = prefer_cpu_torch("torch>=9", std::ref(pip));
  ASSERT_FALSE(got);
  EXPECT_NE(got.error().message.find("satisfies torch>=9"), std::string::npos);
}

}  // namespace
}  // namespace onramp::host
