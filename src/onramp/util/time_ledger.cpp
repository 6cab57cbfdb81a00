#include "onramp/util/time_ledger.h"

#include <atomic>

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

}  // namespace onramp::util
