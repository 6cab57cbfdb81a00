#include "onramp/port/cudaism_rules.h"

#include <gtest/gtest.h>

namespace onramp::port {
namespace {

Site site(SiteKind kind, std::string text, std::string in_call = "", std::string keyword = "") {
  Site s;
  s.kind = kind;
  s.text = std::move(text);
  s.in_call = std::move(in_call);
  s.keyword = std::move(keyword);
  return s;
}

std::string rule_for(const Site& s) {
  const CudaismRule* rule = builtin_cudaism_rules().match(s);
  return rule ? rule->id : "";
}

TEST(CudaismRules, BuiltinTableLoads) {
  const auto& rules = builtin_cudaism_rules();
  EXPECT_GE(rules.rules.size(), 30u);
  EXPECT_FALSE(rules.guard_names.empty());
  for (const auto& r : rules.rules) {
    EXPECT_FALSE(r.replacement.empty()) << r.id;
    EXPECT_FALSE(r.note.empty()) << r.id;
    EXPECT_EQ(r.portable, r.replacement != "no equivalent") << r.id;
  }
}

TEST(CudaismRules, SpecificRulesWinOverGeneralOnes) {
  EXPECT_EQ(rule_for(site(SiteKind::name, "torch.cuda.amp.autocast")), "amp-autocast");
  EXPECT_EQ(rule_for(site(SiteKind::name, "torch.cuda.amp.custom_fwd")), "amp-other");
  EXPECT_EQ(rule_for(site(SiteKind::name, "torch.cuda.synchronize")), "cuda-synchronize");
  EXPECT_EQ(rule_for(site(SiteKind::name, "torch.cuda.Stream")), "cuda-stream");
  EXPECT_EQ(rule_for(site(SiteKind::name, "torch.cuda.CUDAGraph")), "cuda-graph");
  EXPECT_EQ(rule_for(site(SiteKind::name, "torch.cuda.max_memory_allocated")), "cuda-memory");
  EXPECT_EQ(rule_for(site(SiteKind::name, "torch.cuda.ipc_collect")), "cuda-other");
  EXPECT_EQ(rule_for(site(SiteKind::name, "torch.backends.cuda.matmul.allow_tf32")), "cuda-matmul-tf32");
  EXPECT_EQ(rule_for(site(SiteKind::name, "torch.backends.cudnn.deterministic")), "cudnn-switch");
  EXPECT_EQ(rule_for(site(SiteKind::name, "torch.cudaish")), "");
}

TEST(CudaismRules, StringRulesUseCallAndKeywordContext) {
  EXPECT_EQ(rule_for(site(SiteKind::string, "cuda", "torch.autocast")), "autocast-cuda-string");
  EXPECT_EQ(rule_for(site(SiteKind::string, "cuda", "AutoModel.from_pretrained", "device_map")), "device-map-cuda");
  EXPECT_EQ(rule_for(site(SiteKind::string, "cuda", "torch.device")), "cuda-device-string");
  EXPECT_EQ(rule_for(site(SiteKind::string, "cuda:{}")), "cuda-indexed-device-string");
  EXPECT_EQ(rule_for(site(SiteKind::string, "nccl", "init_process_group")), "nccl-backend");
  EXPECT_EQ(rule_for(site(SiteKind::string, "CUDA_VISIBLE_DEVICES")), "env-cuda-visible-devices");
  EXPECT_EQ(rule_for(site(SiteKind::string, "CUDA_LAUNCH_BLOCKING")), "env-cuda");
  EXPECT_EQ(rule_for(site(SiteKind::string, "CUBLAS_WORKSPACE_CONFIG")), "env-cublas-cudnn");
  EXPECT_EQ(rule_for(site(SiteKind::string, "cudart")), "");
  EXPECT_EQ(rule_for(site(SiteKind::method, "cuda")), "dot-cuda");
}

TEST(CudaismRules, ScannerInterestCoversEveryRule) {
  auto interest = builtin_cudaism_rules().scanner_interest();
  EXPECT_EQ(interest["methods"], nlohmann::json::array({"cuda"}));
  auto strings = interest["strings"].get<std::vector<std::string>>();
  EXPECT_NE(std::find(strings.begin(), strings.end(), "nccl"), strings.end());
}

TEST(CudaismRules, BadTablesAreErrorsNamingTheFile) {
  auto bad = parse_cudaism_rules("[[rule]]\nid = \"x\"\nsite = \"regex\"\nmatch = \"a\"\n", "t.toml");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("t.toml"), std::string::npos);
  EXPECT_NE(bad.error().message.find("regex"), std::string::npos);
  auto dup = parse_cudaism_rules("[[rule]]\nid=\"a\"\nsite=\"name\"\nmatch=\"x\"\n[[rule]]\nid=\"a\"\nsite=\"name\"\nmatch=\"y\"\n",
                                 "d.toml");
  ASSERT_FALSE(dup);
  EXPECT_NE(dup.error().message.find("duplicate"), std::string::npos);
  EXPECT_FALSE(parse_cudaism_rules("rule = [", "s.toml"));
  EXPECT_FALSE(parse_cudaism_rules("", "e.toml"));
}

}  // namespace
}  // namespace onramp::port
