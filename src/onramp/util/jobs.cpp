#include "onramp/util/jobs.h"

#include <algorithm>
#include <set>
#include <thread>

#include "onramp/util/time_ledger.h"

namespace onramp::util {

int default_jobs() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

JobSlots::JobSlots(int jobs) : jobs_(std::max(1, jobs)), free_(jobs_) {}

unsigned long long JobSlots::ticket() {
  std::lock_guard lock(mutex_);
  return next_ticket_++;
}

void JobSlots::acquire(unsigned long long ticket) {
  std::unique_lock lock(mutex_);
  freed_.wait(lock, [this, ticket] { return free_ > 0 && serving_ == ticket; });
  --free_;
  ++serving_;
  lock.unlock();
  freed_.notify_all();  // the next ticket may take another free slot
}

void JobSlots::release() {
  {
    std::lock_guard lock(mutex_);
    ++free_;
  }
  freed_.notify_all();
}

SlotLease::~SlotLease() {
  std::lock_guard lock(mutex_);
  if (slots_ && held_) slots_->release();
}

void SlotLease::lend() {
  std::lock_guard lock(mutex_);
  if (!slots_ || !held_) return;
  held_ = false;
  slots_->release();
}

void SlotLease::reclaim() {
  std::lock_guard lock(mutex_);
  if (!slots_ || held_) return;
  slots_->acquire(slots_->ticket());
  held_ = true;
}

JobGroup::~JobGroup() {
  // A group left by an exception still joins its threads (futures of
  // std::async block in their destructors); their own exceptions are dropped.
  try {
    wait();
  } catch (...) {
  }
}

void JobGroup::add(std::function<void()> task) {
  add_lending([task = std::move(task)](SlotLease&) { task(); });
}

void JobGroup::add_lending(std::function<void(SlotLease&)> task) {
  if (slots_.jobs() == 1) {
    SlotLease none(nullptr);
    task(none);
    return;
  }
  auto future = std::async(std::launch::async, [this, ticket = slots_.ticket(), task = std::move(task)] {
    slots_.acquire(ticket);
    SlotLease lease(&slots_);
    task(lease);
  });
  std::lock_guard lock(mutex_);
  running_.push_back(std::move(future));
}

void JobGroup::wait() {
  std::exception_ptr first;
  for (;;) {
    std::future<void> next;
    {
      std::lock_guard lock(mutex_);
      if (running_.empty()) break;
      next = std::move(running_.front());
      running_.erase(running_.begin());
    }
    try {
      next.get();
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

namespace {

struct OpenWork {
  std::mutex mutex;
  std::set<WorkSpan*> open;
};

OpenWork& open_work() {
  static OpenWork work;
  return work;
}

}  // namespace

WorkSpan::WorkSpan(bool child_process) {
  if (child_process) outside_.emplace(Spent::child_processes);
  auto& w = open_work();
  std::lock_guard lock(w.mutex);
  w.open.insert(this);
  int now = static_cast<int>(w.open.size());
  for (WorkSpan* span : w.open) span->peak_ = std::max(span->peak_, now);
}

WorkSpan::~WorkSpan() {
  auto& w = open_work();
  std::lock_guard lock(w.mutex);
  w.open.erase(this);
}

int WorkSpan::peak() const {
  std::lock_guard lock(open_work().mutex);
  return peak_;
}

}  // namespace onramp::util
