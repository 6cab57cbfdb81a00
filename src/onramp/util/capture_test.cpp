#include "onramp/util/capture.h"

#include <gtest/gtest.h>

namespace onramp {
namespace capture_test {  // one per file: a unity batch joins several

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

TEST(BoundedCapture, TheEndingIsTheLastBytesKeptWhetherTheStreamWasCutOrNot) {
  BoundedCapture small(8, 64);
  small.append("Traceback\nModuleNotFoundError: torch\n");  // past the head, not cut
  EXPECT_FALSE(small.cut());
  EXPECT_EQ(small.tail(), "k\nModuleNotFoundError: torch\n");
  EXPECT_EQ(small.ending(), "Traceback\nModuleNotFoundError: torch\n");
  EXPECT_EQ(small.ending(6), "torch\n");
  BoundedCapture tiny(64, 8);
  tiny.append("one line\n");  // all in the head: tail() is empty
  EXPECT_EQ(tiny.tail(), "");
  EXPECT_EQ(tiny.ending(), "one line\n");
  BoundedCapture flood(4, 3);
  for (int i = 0; i < 100; ++i) flood.append("0123456789");
  EXPECT_EQ(flood.ending(), "789");
}

}  // namespace
}  // namespace onramp
