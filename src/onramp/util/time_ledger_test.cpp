#include "onramp/util/time_ledger.h"

#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <thread>

namespace onramp::util {
namespace time_ledger_test {  // one per file: a unity batch joins several

TEST(OutsideSpan, SpansOpenAtOnceCountOnce) {
  // A child process (200 ms) and a transfer (its last 100 ms) overlap: their
  // union is the wall time around both; a sum would exceed it by 100 ms.
  auto wall_start = std::chrono::steady_clock::now();
  double before = outside_time();
  {
    std::optional<OutsideSpan> a, b;
    a.emplace(Spent::child_processes);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    b.emplace(Spent::network);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    a.reset();
    b.reset();
  }
  double counted = outside_time() - before;
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  EXPECT_GE(counted, 0.2);
  EXPECT_LE(counted, wall);
}

TEST(OutsideSpan, NothingOpenCountsNothing) {
  double before = outside_time();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(outside_time(), before);
}

}  // namespace
}  // namespace onramp::util
