#include "onramp/integration/lend_watch.h"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <future>
#include <latch>
#include <thread>

#include "onramp/util/test_temp_dir.h"

namespace onramp::integration {
namespace lend_watch_test {  // one per file: a unity batch joins several

TEST(LendSignal, IdleAndBusyRecordsOnlyAskSomething) {
  EXPECT_EQ(lend_signal(R"({"kind": "idle", "point": "harmless", "call": "x", "cpu_share": 0.0})"), LendSignal::idle);
  EXPECT_EQ(lend_signal(R"({"kind": "busy", "point": "harmless", "call": "x"})"), LendSignal::busy);
  EXPECT_EQ(lend_signal(R"({"kind": "begin", "point": "harmless", "call": "x"})"), LendSignal::none);
  EXPECT_EQ(lend_signal(R"({"kind": ["idle"]})"), LendSignal::none);
  EXPECT_EQ(lend_signal(R"(idle)"), LendSignal::none);
  EXPECT_EQ(lend_signal(R"({"kind": "idle"} {"kind": "busy"})"), LendSignal::none);
  EXPECT_EQ(lend_signal(""), LendSignal::none);
}

void append(const std::string& path, const std::string& line) { std::ofstream(path, std::ios::app) << line; }

bool appears(const std::filesystem::path& path) {
  for (int i = 0; i < 200; ++i) {
    if (std::filesystem::exists(path)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

TEST(LendWhileIdle, AnIdleRecordLendsTheSlotAndABusyOneTakesItBackThenSaysGo) {
  // Two slots, one held throughout by another task: the task queued last can
  // run before the watched task ends only in the slot the watched task lends.
  testing::TempDir dir;
  std::string result = dir.at("group.jsonl");
  std::promise<void> queued_ran;
  auto ran = queued_ran.get_future();
  std::latch hold(1);
  util::JobGroup jobs(2);
  jobs.add([&] { hold.wait(); });
  jobs.add_lending([&](util::SlotLease& lease) {
    LendWhileIdle watch(lease, result);
    append(result, R"({"kind": "begin", "point": "harmless", "call": "x"})" "\n");
    append(result, R"({"kind": "idle", "point": "harmless", "call": "x", "cpu_share": 0.0})");  // not ended yet
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    EXPECT_EQ(ran.wait_for(std::chrono::seconds(0)), std::future_status::timeout) << "lent on half a line";
    append(result, "\n");
    EXPECT_EQ(ran.wait_for(std::chrono::seconds(5)), std::future_status::ready) << "the slot was not lent";
    append(result, R"({"kind": "busy", "point": "harmless", "call": "x"})" "\n");
    EXPECT_TRUE(appears(result + ".go"));
    watch.finish();
    EXPECT_FALSE(std::filesystem::exists(result + ".go"));
    hold.count_down();
  });
  jobs.add([&] { queued_ran.set_value(); });
  jobs.wait();
}

TEST(LendWhileIdle, WithOneJobTheGoFollowsBusyAtOnce) {
  // --jobs 1: nothing to lend to, and the script must not wait for nothing.
  testing::TempDir dir;
  std::string result = dir.at("group.jsonl");
  util::SlotLease none(nullptr);
  LendWhileIdle watch(none, result);
  append(result, R"({"kind": "idle", "point": "harmless", "call": "x", "cpu_share": 0.0})" "\n");
  append(result, R"({"kind": "busy", "point": "harmless", "call": "x"})" "\n");
  EXPECT_TRUE(appears(result + ".go"));
}

}  // namespace
}  // namespace onramp::integration
