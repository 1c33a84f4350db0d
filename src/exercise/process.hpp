// Runs a child process with a wall-time limit, its stdin from a file, stdout and stderr captured
// up to a limit (the rest drained and dropped). The child gets its own process group, so a
// compute-sanitizer wrapper and the worker under it are killed together. Host-only.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace memlab::exercise {

struct ProcessResult {
  bool started = false;
  std::string start_error;
  bool timed_out = false;  // killed (SIGKILL) at the limit
  bool exited = false;
  int exit_status = 0;  // when exited
  int signal = 0;       // when killed by a signal (other than our SIGKILL at the limit)
  std::string output;   // stdout + stderr, at most output_limit bytes
  bool output_truncated = false;
  bool unreaped = false;  // closed its output but had not exited 20 s later (killed, left)
  double wall_s = 0;
};

// Reaps children that an earlier run_process had to leave (unreaped); called by run_process.
void reap_stragglers();

ProcessResult run_process(const std::vector<std::string>& argv, const std::string& stdin_path,
                          double timeout_s, std::size_t output_limit);

}  // namespace memlab::exercise
