#pragma once
// Running independent pieces of work at the same time, at most N at once
// (--jobs), and counting how many did. A `JobGroup` runs each task on its own
// thread; a task holds one of the group's slots while it runs, so N bounds
// the work itself, not the threads. A task may add further tasks (work that
// depends on it). Callers keep results in slots of their own and read them
// after wait(), so what a report records never depends on which task ended
// first.
#include <condition_variable>
#include <exception>
#include <functional>
#include <future>
#include <mutex>
#include <optional>
#include <vector>

#include "onramp/util/time_ledger.h"

namespace onramp::util {

// std::thread::hardware_concurrency, at least 1: --jobs's default.
int default_jobs();

// A counting semaphore whose size is known only at run time. Waiters are
// served in the order they came (a ticket each), so that work added first
// starts first.
class JobSlots {
 public:
  explicit JobSlots(int jobs);
  // A place in the queue, taken where the work is added; acquire(ticket)
  // waits for it.
  unsigned long long ticket();
  void acquire(unsigned long long ticket);
  void release();
  int jobs() const { return jobs_; }

 private:
  std::mutex mutex_;
  std::condition_variable freed_;
  int jobs_;
  int free_;
  unsigned long long next_ticket_ = 0, serving_ = 0;
};

// The slot a running task holds. A task that learns it will only wait for a
// while (a child process that reported itself idle) lends the slot to the
// queue and takes one again, as a new ticket, before it works again. With one
// job there is no queue to lend to: lend() and reclaim() do nothing.
class SlotLease {
 public:
  explicit SlotLease(JobSlots* slots) : slots_(slots) {}
  ~SlotLease();
  SlotLease(const SlotLease&) = delete;
  SlotLease& operator=(const SlotLease&) = delete;
  void lend();
  void reclaim();

 private:
  JobSlots* slots_;
  std::mutex mutex_;
  bool held_ = true;
};

class JobGroup {
 public:
  explicit JobGroup(int jobs) : slots_(jobs) {}
  ~JobGroup();
  JobGroup(const JobGroup&) = delete;
  JobGroup& operator=(const JobGroup&) = delete;

  // Starts `task` once a slot is free. With one job, runs it here and now:
  // --jobs 1 is the serial order, task by task as added.
  void add(std::function<void()> task);
  // The same, for a task that may lend its slot while it waits.
  void add_lending(std::function<void(SlotLease&)> task);
  // Waits for every task, those added meanwhile included; rethrows the first
  // exception a task threw.
  void wait();
  int jobs() const { return slots_.jobs(); }

 private:
  JobSlots slots_;
  std::mutex mutex_;
  std::vector<std::future<void>> running_;
};

// One piece of onramp's work that may run beside others: a child process
// (SandboxRunner) or work done in-process (the wheel read). While it is open
// it counts as running; peak() is the most pieces that were open at once at
// any moment while this one was, itself included (1: it ran alone). Child
// processes also feed the time ledger (time_ledger.h) with the wall time
// during which at least one of them ran, so that overlapping children are
// not counted twice.
class WorkSpan {
 public:
  explicit WorkSpan(bool child_process);
  ~WorkSpan();
  WorkSpan(const WorkSpan&) = delete;
  WorkSpan& operator=(const WorkSpan&) = delete;
  int peak() const;

 private:
  int peak_ = 1;
  std::optional<OutsideSpan> outside_;  // a child process: onramp waits on it (time_ledger.h)
};

}  // namespace onramp::util
