#include "onramp/util/sha256.h"

#include <gtest/gtest.h>

namespace onramp::util {
namespace sha256_test {  // one per file: a unity batch joins several

TEST(Sha256Text, IsWhatSha256sumPrints) {
  // printf 'hello\n' | sha256sum
  EXPECT_EQ(sha256_text("hello\n"), "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03");
  EXPECT_EQ(sha256_text(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

}  // namespace
}  // namespace onramp::util
