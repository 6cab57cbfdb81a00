#include "onramp/port/cudaism_rules.h"

#include <gtest/gtest.h>

#include <utility>

#include "onramp/util/test_cases.h"

namespace onramp::port {
namespace cudaism_rules_test {  // one per file: a unity batch joins several

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
  auto name_rule = [](const std::string& name) { return rule_for(site(SiteKind::name, name)); };
  onramp::testing::expect_text_cases(name_rule, {{"torch.cuda.amp.autocast", "amp-autocast"},
                                                 {"torch.cuda.amp.custom_fwd", "amp-other"},
                                                 {"torch.cuda.synchronize", "cuda-synchronize"},
                                                 {"torch.cuda.Stream", "cuda-stream"},
                                                 {"torch.cuda.CUDAGraph", "cuda-graph"},
                                                 {"torch.cuda.max_memory_allocated", "cuda-memory"},
                                                 {"torch.cuda.ipc_collect", "cuda-other"},
                                                 {"torch.backends.cuda.matmul.allow_tf32", "cuda-matmul-tf32"},
                                                 {"torch.backends.cudnn.deterministic", "cudnn-switch"},
                                                 {"torch.cudaish", ""}});
}

TEST(CudaismRules, StringRulesUseCallAndKeywordContext) {
  const std::pair<Site, std::string> cases[] = {
      {site(SiteKind::string, "cuda", "torch.autocast"), "autocast-cuda-string"},
      {site(SiteKind::string, "cuda", "AutoModel.from_pretrained", "device_map"), "device-map-cuda"},
      {site(SiteKind::string, "cuda", "torch.device"), "cuda-device-string"},
      {site(SiteKind::string, "cuda:{}"), "cuda-indexed-device-string"},
      {site(SiteKind::string, "nccl", "init_process_group"), "nccl-backend"},
      {site(SiteKind::string, "CUDA_VISIBLE_DEVICES"), "env-cuda-visible-devices"},
      {site(SiteKind::string, "CUDA_LAUNCH_BLOCKING"), "env-cuda"},
      {site(SiteKind::string, "CUBLAS_WORKSPACE_CONFIG"), "env-cublas-cudnn"},
      {site(SiteKind::string, "cudart"), ""},
      {site(SiteKind::method, "cuda"), "dot-cuda"}};
  for (const auto& [where, rule] : cases) {
    SCOPED_TRACE(where.text + " in " + where.in_call + " " + where.keyword);
    EXPECT_EQ(rule_for(where), rule);
  }
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
