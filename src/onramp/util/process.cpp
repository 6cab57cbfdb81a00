#include "onramp/util/process.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "onramp/util/jobs.h"

namespace onramp {
namespace {

using Clock = std::chrono::steady_clock;

// A child that exits may leave grandchildren holding its pipes; after the
// group is killed, output is drained for at most this long.
constexpr auto kDrainGrace = std::chrono::seconds(2);
constexpr auto kWatchdogPeriod = std::chrono::milliseconds(200);
constexpr uint64_t kNprocBackstop = 4096;

struct Pipe {
  int read = -1;
  int write = -1;
};

Result<Pipe> make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return fail(std::string("pipe: ") + std::strerror(errno));
  return Pipe{fds[0], fds[1]};
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

std::string env_value(const std::vector<std::string>& env, const std::string& name) {
  for (const auto& entry : env) {
    if (entry.size() > name.size() && entry.compare(0, name.size(), name) == 0 && entry[name.size()] == '=') {
      return entry.substr(name.size() + 1);
    }
  }
  return {};
}

void set_limit(int resource, uint64_t soft, uint64_t hard) {
  rlimit lim{};
  lim.rlim_cur = soft == 0 ? RLIM_INFINITY : soft;
  lim.rlim_max = hard == 0 ? RLIM_INFINITY : hard;
  ::setrlimit(resource, &lim);
}

// Runs in the forked child: only async-signal-safe calls until exec.
[[noreturn]] void exec_child(const char* program, char* const* argv, char* const* envp, const char* cwd,
                             const Limits& limits, int out_fd, int err_fd, int status_fd) {
  ::setpgid(0, 0);
  int null_fd = ::open("/dev/null", O_RDONLY);
  if (null_fd < 0 || ::dup2(null_fd, 0) < 0 || ::dup2(out_fd, 1) < 0 || ::dup2(err_fd, 2) < 0) {
    int e = errno;
    (void)!::write(status_fd, &e, sizeof e);
    ::_exit(127);
  }
  if (cwd[0] != '\0' && ::chdir(cwd) != 0) {
    int e = errno;
    (void)!::write(status_fd, &e, sizeof e);
    ::_exit(127);
  }
  set_limit(RLIMIT_AS, limits.address_space_bytes, limits.address_space_bytes);
  set_limit(RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds == 0 ? 0 : limits.cpu_seconds + 5);
  // RLIMIT_NPROC counts all of the user's processes, so it is only a backstop
  // against an exponential fork bomb; the watchdog enforces the real limit.
  set_limit(RLIMIT_NPROC, limits.processes + kNprocBackstop, limits.processes + kNprocBackstop);
  set_limit(RLIMIT_FSIZE, limits.file_size_bytes, limits.file_size_bytes);
  rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);  // a crashing target must not drop core files
  ::signal(SIGPIPE, SIG_DFL);
  ::execve(program, argv, envp);
  int e = errno;
  (void)!::write(status_fd, &e, sizeof e);
  ::_exit(127);
}

// Processes in the group, counted from /proc; RLIMIT_NPROC does not bind
// root, so the runner enforces the process limit itself as well.
uint64_t count_group(pid_t pgid) {
  uint64_t count = 0;
  DIR* proc = ::opendir("/proc");
  if (!proc) return 0;
  while (dirent* entry = ::readdir(proc)) {
    if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
    std::ifstream stat(std::string("/proc/") + entry->d_name + "/stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    auto close_paren = line.rfind(')');
    if (close_paren == std::string::npos) continue;
    std::istringstream fields(line.substr(close_paren + 2));
    char state;
    long ppid = 0, pgrp = 0;
    if (fields >> state >> ppid >> pgrp && pgrp == pgid && state != 'Z') ++count;
  }
  ::closedir(proc);
  return count;
}

class ChildPump {
 public:
  ChildPump(pid_t pid, int out_fd, int err_fd, RunResult& result, const Limits& limits)
      : pid_(pid), result_(result), limits_(limits) {
    fds_[0] = out_fd;
    fds_[1] = err_fd;
  }

  void run() {
    auto start = Clock::now();
    auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                                std::chrono::duration<double>(limits_.wall_seconds));
    auto next_watchdog = start + kWatchdogPeriod;
    Clock::time_point drain_deadline{};
    while (true) {
      auto now = Clock::now();
      if (!reaped_ && !result_.timed_out && now >= deadline) {
        kill_group();
        result_.timed_out = true;
      }
      if (!reaped_ && now >= next_watchdog) {
        watchdog();
        next_watchdog = now + kWatchdogPeriod;
      }
      if (!reaped_ && try_reap(now - start)) {
        kill_group();  // grandchildren left behind die with their parent
        drain_deadline = now + kDrainGrace;
      }
      if (reaped_ && ((fds_[0] < 0 && fds_[1] < 0) || now >= drain_deadline)) break;
      pump_once(reaped_ ? 50 : 100);
    }
    close_fd(fds_[0]);
    close_fd(fds_[1]);
  }

 private:
  void kill_group() { ::kill(-pid_, SIGKILL); }

  void watchdog() {
    if (limits_.processes > 0 && count_group(pid_) > limits_.processes) {
      result_.process_limit_hit = true;
      kill_group();
    }
  }

  bool try_reap(Clock::duration elapsed) {
    int status = 0;
    rusage usage{};
    pid_t got = ::wait4(pid_, &status, WNOHANG, &usage);
    if (got != pid_) return false;
    reaped_ = true;
    result_.wall_seconds = std::chrono::duration<double>(elapsed).count();
    result_.peak_rss_bytes = static_cast<uint64_t>(usage.ru_maxrss) * 1024;
    if (WIFEXITED(status)) result_.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result_.signal = WTERMSIG(status);
    return true;
  }

  void pump_once(int timeout_ms) {
    pollfd polls[2];
    int n = 0;
    int which[2];
    for (int i = 0; i < 2; ++i) {
      if (fds_[i] < 0) continue;
      polls[n] = pollfd{fds_[i], POLLIN, 0};
      which[n++] = i;
    }
    if (n == 0) {
      ::usleep(static_cast<useconds_t>(timeout_ms) * 1000);
      return;
    }
    if (::poll(polls, static_cast<nfds_t>(n), timeout_ms) <= 0) return;
    for (int k = 0; k < n; ++k) {
      if (polls[k].revents == 0) continue;
      int i = which[k];
      char buf[65536];
      ssize_t got = ::read(fds_[i], buf, sizeof buf);
      if (got > 0) {
        (i == 0 ? result_.out : result_.err).append(std::string_view(buf, static_cast<size_t>(got)));
      } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
        close_fd(fds_[i]);
      }
    }
  }

  pid_t pid_;
  int fds_[2];
  RunResult& result_;
  const Limits& limits_;
  bool reaped_ = false;
};

}  // namespace

std::string RunResult::outcome() const {
  if (timed_out) {
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(1);
    s << "timed out after " << wall_seconds << " s";
    if (!limit_name.empty()) s << " (" << describe_limit(limit_name, limit_seconds) << ")";
    return s.str();
  }
  if (process_limit_hit) return "killed: process limit";
  if (signal == SIGXCPU && cpu_limit_seconds > 0) {
    return "signal " + std::to_string(signal) + " (" + ::strsignal(signal) + ": " +
           describe_limit(limit_row(Child::kCpuPerProcess).name, static_cast<double>(cpu_limit_seconds)) + ")";
  }
  if (signal != 0) return "signal " + std::to_string(signal) + " (" + ::strsignal(signal) + ")";
  return "exit " + std::to_string(exit_code);
}

std::string find_program(const std::string& name, const std::string& path_var) {
  if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0 ? name : "";
  std::istringstream dirs(path_var);
  for (std::string dir; std::getline(dirs, dir, ':');) {
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    struct stat st{};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return {};
}

Result<RunResult> SandboxRunner::run(const RunRequest& request) {
  if (request.argv.empty()) return fail("internal: empty command");
  std::string program = find_program(request.argv[0], env_value(request.env, "PATH"));
  if (program.empty()) return fail(request.argv[0] + ": program not found");
  std::vector<std::string> argv_s = request.argv, env_s = request.env;
  std::vector<char*> argv = c_strings(argv_s), envp = c_strings(env_s);
  std::string cwd = request.cwd.string();

  // Open from before the fork until the child is reaped and drained: the
  // time ledger's child time and how many ran at once (jobs.h).
  util::WorkSpan span(true);
  auto out = make_pipe(), err = make_pipe(), status = make_pipe();
  if (!out || !err || !status) return fail("cannot create pipes for " + request.argv[0]);
  pid_t pid = ::fork();
  if (pid < 0) return fail(request.argv[0] + ": fork: " + std::strerror(errno));
  if (pid == 0) exec_child(program.c_str(), argv.data(), envp.data(), cwd.c_str(), request.limits,
                           out->write, err->write, status->write);
  ::setpgid(pid, pid);  // also here, so the group exists before any kill
  close_fd(out->write);
  close_fd(err->write);
  close_fd(status->write);

  int child_errno = 0;
  ssize_t got = ::read(status->read, &child_errno, sizeof child_errno);
  close_fd(status->read);
  if (got == sizeof child_errno) {
    ::waitpid(pid, nullptr, 0);
    close_fd(out->read);
    close_fd(err->read);
    return fail(program + ": cannot run: " + std::strerror(child_errno));
  }
  RunResult result;
  result.limit_name = request.limits.limit_name;
  result.limit_seconds = request.limits.wall_seconds;
  result.cpu_limit_seconds = request.limits.cpu_seconds;
  result.out = BoundedCapture(request.limits.capture_bytes, request.limits.capture_tail_bytes);
  result.err = BoundedCapture(request.limits.capture_bytes, request.limits.capture_tail_bytes);
  for (int fd : {out->read, err->read}) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  ChildPump(pid, out->read, err->read, result, request.limits).run();
  result.ran_at_once = span.peak();
  return result;
}

}  // namespace onramp
