#pragma once
// Where a run's wall time went that onramp itself did not spend: inside
// child processes (pip, the sandboxed Python steps, venv creation) and on
// the network (index pages, downloads). The process runner (through
// util/jobs.h's WorkSpan) and the HTTP client open a span while they wait;
// the audit reads the totals to state onramp's own share.
namespace onramp::util {

enum class Spent {
  child_processes,  // wall time during which at least one child ran (children at once count once)
  network,          // the sum of the transfers' times
};

// Open while a child process runs or a network transfer is in progress.
class OutsideSpan {
 public:
  explicit OutsideSpan(Spent what);
  ~OutsideSpan();
  OutsideSpan(const OutsideSpan&) = delete;
  OutsideSpan& operator=(const OutsideSpan&) = delete;

 private:
  Spent what_;
  double opened_;  // seconds on the ledger's clock
};

double time_spent(Spent where);
// The wall time during which at least one span of either kind was open: a
// child process and a transfer at once (pip resolving while onramp reads an
// index page) count once.
double outside_time();

}  // namespace onramp::util
