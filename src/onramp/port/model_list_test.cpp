#include "onramp/port/model_list.h"

#include <gtest/gtest.h>

#include <set>

#include "onramp/port/op_trace.h"

namespace onramp::port {
namespace model_list_test {  // one per file: a unity batch joins several

TEST(Shard, ParsesKOverNWithKZeroBased) {
  auto s = parse_shard("2/4");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->index, 2u);
  EXPECT_EQ(s->count, 4u);
  EXPECT_EQ(s->text(), "2/4");
  for (const char* bad : {"4/4", "1/0", "a/2", "1", "1/2/3", "-1/2", "/2", "1/"}) {
    auto r = parse_shard(bad);
    EXPECT_FALSE(r) << bad;
    if (!r) {
      EXPECT_NE(r.error().message.find(bad), std::string::npos);
    }
  }
}

TEST(Shard, TheShardsOfAListPartitionIt) {
  auto models = parse_models_file("a\nb\nc\nd\ne\nf\ng\n", "m.txt");
  ASSERT_TRUE(models);
  for (size_t n : {1u, 2u, 3u, 7u, 10u}) {
    std::multiset<size_t> seen;
    for (size_t k = 0; k < n; ++k) {
      for (const auto& m : select_shard(*models, Shard{k, n})) seen.insert(m.index);
    }
    EXPECT_EQ(seen.size(), 7u) << n;
    EXPECT_EQ(std::set<size_t>(seen.begin(), seen.end()).size(), 7u) << n;
  }
  auto first = select_shard(*models, Shard{1, 3});
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0].spec, "b");
  EXPECT_EQ(first[1].spec, "e");
}

TEST(ModelsFile, SkipsCommentsAndBlankLinesAndKeepsLineNumbers) {
  auto models = parse_models_file("# zoo\n\ntorchvision:resnet18  # small\n  script:m.py:f\n", "zoo.txt");
  ASSERT_TRUE(models);
  ASSERT_EQ(models->size(), 2u);
  EXPECT_EQ((*models)[0].spec, "torchvision:resnet18");
  EXPECT_EQ((*models)[1].line, 4);
  EXPECT_EQ((*models)[1].index, 1u);
  auto empty = parse_models_file("# nothing\n", "zoo.txt");
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().message.find("zoo.txt"), std::string::npos);
  EXPECT_FALSE(read_models_file("/nonexistent/zoo.txt"));
}

TEST(ModelSpec, ParsesTorchvisionAndScriptSpecs) {
  auto tv = parse_model_spec("torchvision:resnet18");
  ASSERT_TRUE(tv);
  EXPECT_EQ(tv->torchvision_name, "resnet18");
  EXPECT_FALSE(tv->is_script());
  auto script = parse_model_spec("script:models/m.py:build", "/zoo");
  ASSERT_TRUE(script);
  EXPECT_EQ(script->script_file, "/zoo/models/m.py");
  EXPECT_EQ(script->script_function, "build");
  EXPECT_EQ(script->text, "script:/zoo/models/m.py:build");
  for (const char* bad : {"resnet18", "torchvision:", "script:m.py", "script::f", "script:m.py:", "hf:bert"}) {
    EXPECT_FALSE(parse_model_spec(bad)) << bad;
  }
}

TEST(InputShape, ParsesPositiveDimensions) {
  auto s = parse_input_shape("1,3,224,224");
  ASSERT_TRUE(s);
  EXPECT_EQ(*s, (std::vector<int64_t>{1, 3, 224, 224}));
  for (const char* bad : {"", "1,,3", "1,x", "0,3", "-1", "1,3,"}) EXPECT_FALSE(parse_input_shape(bad)) << bad;
}

}  // namespace
}  // namespace onramp::port
