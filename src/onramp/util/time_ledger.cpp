#include "onramp/util/time_ledger.h"

#include <chrono>
#include <mutex>

namespace onramp::util {
namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The wall time during which at least one of its spans was open.
struct Union {
  int open = 0;
  double since = 0, total = 0;
  void enter(double t) {
    if (open++ == 0) since = t;
  }
  void leave(double t) {
    if (--open == 0) total += t - since;
  }
  double read(double t) const { return total + (open > 0 ? t - since : 0); }
};

struct Ledger {
  std::mutex mutex;
  Union outside, children;
  double network = 0;
};

Ledger& ledger() {
  static Ledger l;
  return l;
}

}  // namespace

OutsideSpan::OutsideSpan(Spent what) : what_(what), opened_(now()) {
  auto& l = ledger();
  std::lock_guard lock(l.mutex);
  l.outside.enter(opened_);
  if (what_ == Spent::child_processes) l.children.enter(opened_);
}

OutsideSpan::~OutsideSpan() {
  double t = now();
  auto& l = ledger();
  std::lock_guard lock(l.mutex);
  l.outside.leave(t);
  if (what_ == Spent::child_processes) {
    l.children.leave(t);
  } else {
    l.network += t - opened_;
  }
}

double time_spent(Spent where) {
  auto& l = ledger();
  std::lock_guard lock(l.mutex);
  return where == Spent::child_processes ? l.children.read(now()) : l.network;
}

double outside_time() {
  auto& l = ledger();
  std::lock_guard lock(l.mutex);
  return l.outside.read(now());
}

}  // namespace onramp::util
