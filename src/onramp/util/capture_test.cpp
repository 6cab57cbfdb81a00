#include "onramp/util/capture.h"

#include <gtest/gtest.h>

namespace onramp {
namespace {

TEST(BoundedCapture, KeepsSmallOutputWhole) {
  BoundedCapture c(8, 4);
  c.append("hello");
  c.append(" you");
  EXPECT_EQ(c.text(), "hello you");
  EXPECT_FALSE(c.cut());
  EXPECT_EQ(c.total_bytes(), 9u);
}

TEST(BoundedCapture, CutsAFloodKeepingHeadAndTail) {
  BoundedCapture c(4, 3);
  for (int i = 0; i < 1000; ++i) c.append("0123456789");
  EXPECT_EQ(c.head(), "0123");
  EXPECT_EQ(c.tail(), "789");
  EXPECT_EQ(c.total_bytes(), 10000u);
  EXPECT_EQ(c.cut_bytes(), 10000u - 7u);
  EXPECT_NE(c.text().find("9993 bytes cut"), std::string::npos);
}

TEST(BoundedCapture, TailTracksTheLastBytesAcrossSmallAppends) {
  BoundedCapture c(2, 5);
  std::string all;
  for (char ch = 'a'; ch <= 'z'; ++ch) {
    c.append(std::string(1, ch));
    all += ch;
  }
  EXPECT_EQ(c.head(), "ab");
  EXPECT_EQ(c.tail(), "vwxyz");
  EXPECT_EQ(c.cut_bytes(), 26u - 7u);
}

}  // namespace
}  // namespace onramp
