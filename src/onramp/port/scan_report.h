#pragma once
// The port_scan section: figures, tables and findings from a scan's
// statistics. Lays out what tally_scan() computed; decides severities.
#include <string>

#include "onramp/port/scan_stats.h"
#include "onramp/report/model.h"

namespace onramp::port {

// `command` is the command line that ran the scan: the evidence of the totals.
report::Section scan_section(const ScanStats& stats, const ScanResult& scan, const CudaismRules& rules,
                             const std::string& command);

// 100 * part / whole rounded to one decimal; null when whole is 0.
report::Json percent(size_t part, size_t whole);

}  // namespace onramp::port
