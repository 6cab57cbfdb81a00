#include "onramp/util/jobs.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <latch>
#include <optional>
#include <stdexcept>
#include <vector>

namespace onramp::util {
namespace jobs_test {  // one per file: a unity batch joins several

TEST(JobGroup, TwoJobsRunTwoTasksAtOnce) {
  // Each task waits for the other: this ends only if both ran at the same time.
  std::latch both(2);
  JobGroup jobs(2);
  for (int i = 0; i < 2; ++i) jobs.add([&] { both.arrive_and_wait(); });
  jobs.wait();
  SUCCEED();
}

TEST(JobGroup, NeverMoreTasksAtOnceThanJobs) {
  std::atomic<int> running{0}, most{0};
  JobGroup jobs(2);
  for (int i = 0; i < 8; ++i) {
    jobs.add([&] {
      int now = ++running;
      for (int seen = most.load(); now > seen && !most.compare_exchange_weak(seen, now);) {
      }
      --running;
    });
  }
  jobs.wait();
  EXPECT_LE(most.load(), 2);
  EXPECT_GE(most.load(), 1);
}

TEST(JobGroup, OneJobRunsTasksInOrderAsTheyAreAdded) {
  std::vector<int> order;
  JobGroup jobs(1);
  jobs.add([&] {
    order.push_back(1);
    jobs.add([&] { order.push_back(2); });  // work that depends on the first
  });
  jobs.add([&] { order.push_back(3); });
  jobs.wait();
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
}

TEST(JobSlots, ServeTicketsInTheOrderTheyWereTaken) {
  // One slot, tickets taken in order here, their threads started in reverse:
  // each pushes while it holds the only slot, so the pushes follow the tickets.
  JobSlots slots(1);
  slots.acquire(slots.ticket());  // held until every thread waits
  std::vector<unsigned long long> tickets;
  for (int i = 0; i < 8; ++i) tickets.push_back(slots.ticket());
  std::vector<int> served;
  std::vector<std::thread> threads;
  for (int i = 7; i >= 0; --i) {
    threads.emplace_back([&, i] {
      slots.acquire(tickets[static_cast<size_t>(i)]);
      served.push_back(i);
      slots.release();
    });
  }
  slots.release();
  for (auto& t : threads) t.join();
  EXPECT_EQ(served, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(SlotLease, ALentSlotRunsQueuedWorkWhileItsTaskWaits) {
  // Two jobs: the first task holds one slot; the lending task lends the other
  // and waits until the third task (queued behind them) has run: this ends
  // only if the lent slot served it. It then takes a slot again before it
  // goes on, and never more than two tasks worked at once.
  JobGroup jobs(2);
  std::latch second_ran(1), first_lent(1);
  std::atomic<int> running{0}, most{0};
  auto count = [&] {
    int now = ++running;
    for (int seen = most.load(); now > seen && !most.compare_exchange_weak(seen, now);) {
    }
  };
  jobs.add([&] { first_lent.wait(); });  // holds the other slot until the lent one was lent
  jobs.add_lending([&](SlotLease& lease) {
    lease.lend();
    first_lent.count_down();
    second_ran.wait();
    lease.reclaim();
    count();
    --running;
  });
  jobs.add([&] {
    count();
    second_ran.count_down();
    --running;
  });
  jobs.wait();
  EXPECT_LE(most.load(), 2);
}

TEST(SlotLease, WithOneJobThereIsNothingToLendTo) {
  JobGroup jobs(1);
  bool asked = false;
  jobs.add_lending([&](SlotLease& lease) {
    asked = true;
    lease.lend();  // does nothing, and does not block
    lease.reclaim();
  });
  EXPECT_TRUE(asked);
}

TEST(JobGroup, TasksAddedByATaskAreWaitedFor) {
  std::atomic<int> done{0};
  JobGroup jobs(3);
  jobs.add([&] {
    for (int i = 0; i < 3; ++i) jobs.add([&] { ++done; });
    ++done;
  });
  jobs.wait();
  EXPECT_EQ(done.load(), 4);
}

TEST(JobGroup, TheFirstExceptionIsRethrownAfterEveryTaskEnded) {
  std::atomic<int> done{0};
  JobGroup jobs(2);
  jobs.add([] { throw std::runtime_error("first"); });
  for (int i = 0; i < 3; ++i) jobs.add([&] { ++done; });
  EXPECT_THROW(jobs.wait(), std::runtime_error);
  EXPECT_EQ(done.load(), 3);
}

TEST(WorkSpan, ASpanAloneRanAlone) {
  WorkSpan span(false);
  EXPECT_EQ(span.peak(), 1);
}

TEST(WorkSpan, SpansOpenTogetherCountEachOther) {
  std::optional<WorkSpan> first(std::in_place, false);
  {
    WorkSpan second(false);
    WorkSpan third(true);
    EXPECT_EQ(second.peak(), 3);
    EXPECT_EQ(third.peak(), 3);
  }
  EXPECT_EQ(first->peak(), 3);  // it saw the others start while it was open
  WorkSpan later(false);
  EXPECT_EQ(later.peak(), 2);   // the first is still open; the others ended
  first.reset();
  WorkSpan alone(false);
  EXPECT_EQ(later.peak(), 2);
  EXPECT_EQ(alone.peak(), 2);   // `later` is still open
}

TEST(DefaultJobs, IsAtLeastOne) { EXPECT_GE(default_jobs(), 1); }

}  // namespace
}  // namespace onramp::util
