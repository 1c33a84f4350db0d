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

namespace memlab::exercise {

ProcessResult run_process(const std::vector<std::string>& argv, const std::string& stdin_path,
                          double timeout_s, std::size_t output_limit) {
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
  bool open_fd = true;
  char buf[4096];
  int status = 0;
  bool reaped = false;
  while (open_fd || !reaped) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      r.timed_out = true;
      break;
    }
    if (!open_fd) {
      const pid_t w = waitpid(pid, &status, WNOHANG);
      if (w == pid) {
        reaped = true;
        break;
      }
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
      } else {
        const auto room = output_limit > r.output.size() ? output_limit - r.output.size() : 0;
        const auto take = std::min<std::size_t>(room, static_cast<std::size_t>(n));
        r.output.append(buf, take);
        if (take < static_cast<std::size_t>(n)) r.output_truncated = true;
      }
    }
  }
  close(out[0]);
  if (!reaped) {
    if (!r.timed_out) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
    }
    waitpid(pid, &status, 0);
  }
  kill(-pid, SIGKILL);  // leftovers of the group (a sanitizer's helper), if any
  if (!r.timed_out) {
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
