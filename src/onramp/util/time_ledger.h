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

}  // namespace onramp::util
