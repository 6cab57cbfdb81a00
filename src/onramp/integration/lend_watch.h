#pragma once
// Lends a group's job slot while its interpreter only waits. integration.py,
// given --lend, writes an "idle" record when a check has run a second while
// the process used at most a tenth of one core, and a "busy" record if that
// check returns; it then waits for RESULT_FILE.go before it goes on. This
// watches the result file while the group runs: on "idle" it lends the slot,
// on "busy" it takes one again (a new ticket, behind the work queued
// meanwhile) and writes the go file. Without a queue to lend to (one job)
// nothing is lent and the go file follows "busy" at once.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>
#include <thread>

#include "onramp/util/jobs.h"

namespace onramp::integration {

// What one line of the result file asks of the slot: an "idle" or a "busy"
// record, else nothing (any other record, or a line that is not one).
enum class LendSignal { none, idle, busy };
LendSignal lend_signal(const std::string& line);

class LendWhileIdle {
 public:
  // `result` is the group's result file (it need not exist yet).
  LendWhileIdle(util::SlotLease& lease, std::filesystem::path result);
  ~LendWhileIdle();  // finish()
  LendWhileIdle(const LendWhileIdle&) = delete;
  LendWhileIdle& operator=(const LendWhileIdle&) = delete;
  // Stops watching (the run ended; a slot still lent stays lent).
  void finish();

 private:
  void watch();
  void on_line(const std::string& line);

  util::SlotLease& lease_;
  std::filesystem::path result_, go_;
  std::atomic<bool> stop_{false};
  std::string pending_;  // the last line read, not yet ended by a newline
  std::uintmax_t offset_ = 0;
  std::thread thread_;
};

}  // namespace onramp::integration
