#pragma once
// Where a run's wall time went that onramp itself did not spend: inside
// child processes (pip, the sandboxed Python steps, venv creation) and on
// the network (index pages, downloads). The process runner (through
// util/jobs.h's WorkSpan: the time during which at least one child ran, so
// children that ran at once count once) and the HTTP client add to it; the
// audit reads it to state onramp's own share.
namespace onramp::util {

enum class Spent { child_processes, network };

void add_time(Spent where, double seconds);
double time_spent(Spent where);

// Open while a child process runs or a network transfer is in progress: the
// wall time during which at least one was open (outside_time) is the time
// onramp waited on others. A child process and a transfer at once (pip
// resolving while onramp reads an index page) count once.
class OutsideSpan {
 public:
  OutsideSpan();
  ~OutsideSpan();
  OutsideSpan(const OutsideSpan&) = delete;
  OutsideSpan& operator=(const OutsideSpan&) = delete;
};
double outside_time();

}  // namespace onramp::util
