#include "exercise/process.hpp"

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

namespace memlab::exercise {

namespace {
std::mutex g_stragglers_mutex;
std::vector<pid_t> g_stragglers;  // workers run_process had to leave unreaped

#if defined(__x86_64__)
constexpr unsigned kAuditArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr unsigned kAuditArch = AUDIT_ARCH_AARCH64;
#else
constexpr unsigned kAuditArch = 0;  // no filter: limits_json says "not blocked"
#endif
#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#endif

// socket() for any family but AF_UNIX fails with EACCES; so does io_uring (it can open sockets)
// and any syscall of another ABI (x32, i386: their socket calls have other numbers). CUDA and
// compute-sanitizer talk over AF_UNIX sockets, pipes and shared memory only.
// Async-signal-safe: called in the child between fork and exec.
bool block_network() {
  if (kAuditArch == 0) return false;
  constexpr unsigned kDeny = SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA);
  sock_filter filter[] = {
      /*0*/ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
      /*1*/ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kAuditArch, 0, 7),
      /*2*/ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      /*3*/ BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 5, 0),
      /*4*/ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 4, 0),
      /*5*/ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 0, 2),
      /*6*/ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])),
      /*7*/ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1),
      /*8*/ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      /*9*/ BPF_STMT(BPF_RET | BPF_K, kDeny),
  };
  sock_fprog prog{static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return false;
  return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0;
}

// Whether the filter works here: a child installs it and tries an AF_INET socket (once).
std::string network_probe() {
  static const std::string verdict = [] {
    const pid_t pid = fork();
    if (pid < 0) return std::string("not blocked: fork failed");
    if (pid == 0) {
      if (!block_network()) _exit(2);
      const int fd = socket(AF_INET, SOCK_STREAM, 0);
      _exit(fd < 0 && errno == EACCES ? 0 : 3);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
      return std::string("blocked (seccomp: socket() other than AF_UNIX fails with EACCES)");
    if (WIFEXITED(status) && WEXITSTATUS(status) == 2)
      return std::string("not blocked: seccomp is not available (prctl failed)");
    return std::string("not blocked: the seccomp filter did not stop an AF_INET socket");
  }();
  return verdict;
}

// Tasks (threads) of this real user now: RLIMIT_NPROC counts them all, the server's included.
std::uint64_t tasks_of_this_user() {
  const uid_t uid = getuid();
  std::uint64_t n = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream status(entry.path() / "status");
    std::string line;
    bool mine = false;
    while (std::getline(status, line)) {
      if (line.rfind("Uid:", 0) == 0) mine = std::stoul(line.substr(4)) == uid;
      if (line.rfind("Threads:", 0) == 0 && mine) n += std::stoull(line.substr(8));
    }
  }
  return n;
}

}  // namespace

nlohmann::json limits_json(const ProcessLimits& limits, double timeout_s,
                           std::size_t output_limit) {
  return {{"wall_s", timeout_s},
          {"cpu_s", std::ceil(timeout_s) + 10},
          {"output_bytes", output_limit},
          {"core_bytes", 0},
          {"file_bytes", limits.file_bytes},
          {"open_files", limits.open_files},
          {"extra_processes", limits.extra_processes},
          {"processes_enforced", getuid() != 0},  // root is exempt from RLIMIT_NPROC
          {"data_bytes", limits.data_bytes},
          {"network", limits.no_network ? network_probe() : std::string("not blocked: off")}};
}

void reap_stragglers() {
  const std::lock_guard<std::mutex> lock(g_stragglers_mutex);
  std::erase_if(g_stragglers, [](pid_t pid) { return waitpid(pid, nullptr, WNOHANG) != 0; });
}

ProcessResult run_process(const std::vector<std::string>& argv, const std::string& stdin_path,
                          double timeout_s, std::size_t output_limit, const ProcessLimits& limits,
                          const std::atomic<bool>* cancel) {
  reap_stragglers();  // workers an earlier call could not wait for
  ProcessResult r;
  // Everything the child applies is computed here: after fork only async-signal-safe calls.
  const bool no_network = limits.no_network && network_probe().rfind("blocked", 0) == 0;
  const rlim_t nproc = static_cast<rlim_t>(tasks_of_this_user() + limits.extra_processes);
  const rlim_t cpu_s = static_cast<rlim_t>(std::ceil(timeout_s) + 10);
  const struct {
    int resource;
    rlim_t value;
  } rlimits[] = {{RLIMIT_CORE, 0},
                 {RLIMIT_FSIZE, static_cast<rlim_t>(limits.file_bytes)},
                 {RLIMIT_NOFILE, static_cast<rlim_t>(limits.open_files)},
                 {RLIMIT_NPROC, nproc},
                 {RLIMIT_CPU, cpu_s},
                 {RLIMIT_DATA, static_cast<rlim_t>(limits.data_bytes)}};
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) {
    r.start_error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) {
    r.start_error = std::string("fork: ") + std::strerror(errno);
    close(out[0]);
    close(out[1]);
    return r;
  }
  if (pid == 0) {  // child: only async-signal-safe calls until exec
    setpgid(0, 0);
    const int in = open(stdin_path.c_str(), O_RDONLY);
    if (in >= 0) dup2(in, 0);
    dup2(out[1], 1);
    dup2(out[1], 2);
    for (const auto& l : rlimits) {
      struct rlimit v = {l.value, l.value};
      struct rlimit old {};
      // Never raise a limit that is lower already (the hard limit cannot go back up).
      if (getrlimit(l.resource, &old) == 0 && old.rlim_max != RLIM_INFINITY &&
          old.rlim_max < v.rlim_max) {
        v.rlim_cur = v.rlim_max = old.rlim_max;
      }
      setrlimit(l.resource, &v);
    }
    if (no_network && !block_network()) {
      const char msg[] = "memlab: could not block the network for the exercise worker\n";
      (void)!write(2, msg, sizeof msg - 1);
      _exit(126);
    }
    execv(args[0], args.data());
    const char msg[] = "memlab: could not start the exercise worker\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(127);
  }
  setpgid(pid, pid);  // also here: no race with the child's own call
  close(out[1]);
  r.started = true;
  const auto deadline = t0 + std::chrono::duration<double>(timeout_s);
  // A worker that has closed its output (it reported, then _exit) may still take a while to
  // leave: the driver tears down its context, and a kernel spinning in an endless loop must be
  // stopped first. Give it a grace, then SIGKILL, then stop waiting: the parent never blocks on
  // a child that the kernel cannot reap yet (it is reaped by a later waitpid, see reap_stragglers).
  constexpr std::chrono::seconds kGrace{10};
  std::chrono::steady_clock::time_point eof_at{};
  bool open_fd = true;
  bool killed = false;
  char buf[4096];
  int status = 0;
  bool reaped = false;
  while (open_fd || !reaped) {
    const auto now = std::chrono::steady_clock::now();
    if (cancel != nullptr && cancel->load() && !killed) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      killed = true;
      r.cancelled = true;
      eof_at = open_fd ? now : eof_at;
      open_fd = false;
    }
    if (now >= deadline && !killed) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      killed = true;
      r.timed_out = open_fd;  // still running and writing: the limit stopped it
      eof_at = open_fd ? now : eof_at;
      open_fd = false;
    }
    if (!open_fd) {
      const pid_t w = waitpid(pid, &status, WNOHANG);
      if (w == pid) {
        reaped = true;
        break;
      }
      if (!killed && now - eof_at > kGrace) {
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
        killed = true;
      }
      if (now - eof_at > 2 * kGrace) break;  // not reapable yet; do not hang the caller
      usleep(2000);
      continue;
    }
    const auto left_ms = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
    pollfd p{out[0], POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(std::min<long long>(left_ms.count() + 1, 200)));
    if (ready < 0 && errno != EINTR) break;
    if (ready > 0) {
      const ssize_t n = read(out[0], buf, sizeof buf);
      if (n <= 0) {
        open_fd = false;
        eof_at = std::chrono::steady_clock::now();
      } else {
        const auto room = output_limit > r.output.size() ? output_limit - r.output.size() : 0;
        const auto take = std::min<std::size_t>(room, static_cast<std::size_t>(n));
        r.output.append(buf, take);
        if (take < static_cast<std::size_t>(n)) r.output_truncated = true;
      }
    }
  }
  close(out[0]);
  r.unreaped = !reaped;
  if (r.unreaped) {
    const std::lock_guard<std::mutex> lock(g_stragglers_mutex);
    g_stragglers.push_back(pid);
  }
  kill(-pid, SIGKILL);  // leftovers of the group (a sanitizer's helper), if any
  if (reaped && !r.timed_out) {
    if (WIFEXITED(status)) {
      r.exited = true;
      r.exit_status = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
      r.signal = WTERMSIG(status);
    }
  }
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace memlab::exercise
