#include "onramp/util/time_ledger.h"

#include <atomic>
#include <chrono>
#include <mutex>

namespace onramp::util {
namespace {

std::atomic<double>& slot(Spent where) {
  static std::atomic<double> child{0}, network{0};
  return where == Spent::child_processes ? child : network;
}

}  // namespace

void add_time(Spent where, double seconds) {
  auto& s = slot(where);
  double old = s.load();
  while (!s.compare_exchange_weak(old, old + seconds)) {
  }
}

double time_spent(Spent where) { return slot(where).load(); }

namespace {

struct Outside {
  std::mutex mutex;
  int open = 0;
  std::chrono::steady_clock::time_point since;
  double total = 0;
};

Outside& outside() {
  static Outside o;
  return o;
}

}  // namespace

OutsideSpan::OutsideSpan() {
  auto& o = outside();
  std::lock_guard lock(o.mutex);
  if (o.open++ == 0) o.since = std::chrono::steady_clock::now();
}

OutsideSpan::~OutsideSpan() {
  auto& o = outside();
  std::lock_guard lock(o.mutex);
  if (--o.open == 0) o.total += std::chrono::duration<double>(std::chrono::steady_clock::now() - o.since).count();
}

double outside_time() {
  auto& o = outside();
  std::lock_guard lock(o.mutex);
  return o.total + (o.open > 0 ? std::chrono::duration<double>(std::chrono::steady_clock::now() - o.since).count() : 0);
}

}  // namespace onramp::util
