#include "onramp/integration/lend_watch.h"

#include <chrono>
#include <fstream>

#include "onramp/python/sandbox.h"
#include "onramp/report/json_fields.h"

namespace onramp::integration {
namespace fs = std::filesystem;

namespace {
// How often the result file is read: a lent slot is a tenth of a second late at most.
constexpr auto kPoll = std::chrono::milliseconds(50);
}  // namespace

LendWhileIdle::LendWhileIdle(util::SlotLease& lease, fs::path result)
    : lease_(lease), result_(std::move(result)), go_(result_.string() + ".go") {
  fs::remove(result_);  // a file left by an earlier run in this directory is not this run's word
  fs::remove(go_);
  thread_ = std::thread([this] { watch(); });
}

LendWhileIdle::~LendWhileIdle() { finish(); }

void LendWhileIdle::finish() {
  if (thread_.joinable()) {
    stop_ = true;
    thread_.join();
    std::error_code ec;
    fs::remove(go_, ec);
  }
}

void LendWhileIdle::watch() {
  while (!stop_) {
    std::this_thread::sleep_for(kPoll);
    std::ifstream in(result_, std::ios::binary);
    if (!in) continue;
    in.seekg(static_cast<std::streamoff>(offset_));
    std::string chunk((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    offset_ += chunk.size();
    pending_ += chunk;
    for (size_t end; (end = pending_.find('\n')) != std::string::npos;) {
      on_line(pending_.substr(0, end));
      pending_.erase(0, end + 1);
    }
  }
}

LendSignal lend_signal(const std::string& line) {
  // The file is written by code the target can reach: read with the records' own reader.
  python::ScriptRun one;
  python::read_records(line, one);
  if (one.records.size() != 1) return LendSignal::none;
  std::string kind = report::text_field(one.records.front(), "kind");
  return kind == "idle" ? LendSignal::idle : kind == "busy" ? LendSignal::busy : LendSignal::none;
}

void LendWhileIdle::on_line(const std::string& line) {
  switch (lend_signal(line)) {
    case LendSignal::idle:
      lease_.lend();
      break;
    case LendSignal::busy:
      lease_.reclaim();
      std::ofstream(go_) << "go\n";
      break;
    case LendSignal::none:
      break;
  }
}

}  // namespace onramp::integration
