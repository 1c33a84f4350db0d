#include "exercise/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <vector>

namespace memlab::exercise {

namespace {
std::mutex g_stragglers_mutex;
std::vector<pid_t> g_stragglers;  // workers run_process had to leave unreaped
}  // namespace

void reap_stragglers() {
  const std::lock_guard<std::mutex> lock(g_stragglers_mutex);
  std::erase_if(g_stragglers, [](pid_t pid) { return waitpid(pid, nullptr, WNOHANG) != 0; });
}

ProcessResult run_process(const std::vector<std::string>& argv, const std::string& stdin_path,
                          double timeout_s, std::size_t output_limit) {
  reap_stragglers();  // workers an earlier call could not wait for
  ProcessResult r;
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
    struct rlimit core = {0, 0};
    setrlimit(RLIMIT_CORE, &core);
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
