// Runs a child process with a wall-time limit, its stdin from a file, stdout and stderr captured
// up to a limit (the rest drained and dropped). The child gets its own process group, so a
// compute-sanitizer wrapper and the worker under it are killed together. Host-only.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace memlab::exercise {

// The explicit limits of a worker, as Jobe and Autolab set them (docs/class-lab.md says why each
// value): applied in the child between fork and exec, so a compute-sanitizer wrapper and the
// worker under it share them. No RLIMIT_AS: CUDA reserves far more address space than it uses.
struct ProcessLimits {
  std::uint64_t file_bytes = 64ull << 20;  // RLIMIT_FSIZE: a larger write gets SIGXFSZ
  std::uint64_t open_files = 1024;         // RLIMIT_NOFILE (soft and hard)
  std::uint64_t extra_processes = 256;     // RLIMIT_NPROC = this user's tasks now + this
  std::uint64_t data_bytes = 16ull << 30;  // RLIMIT_DATA: private writable memory (host heap)
  bool no_network = true;                  // seccomp: socket() other than AF_UNIX fails (EACCES)
};

// What run_process applies for these limits and `timeout_s`, `output_limit` (recorded with each
// attempt): {wall_s, output_bytes, core_bytes, file_bytes, open_files, processes, cpu_s,
// data_bytes, network: "blocked (...)" | "not blocked: <why>"}.
nlohmann::json limits_json(const ProcessLimits& limits, double timeout_s, std::size_t output_limit);

struct ProcessResult {
  bool started = false;
  std::string start_error;
  bool timed_out = false;  // killed (SIGKILL) at the limit
  bool exited = false;
  int exit_status = 0;  // when exited
  int signal = 0;       // when killed by a signal (other than our SIGKILL at the limit)
  std::string output;   // stdout + stderr, at most output_limit bytes
  bool output_truncated = false;
  bool cancelled = false;  // killed because *cancel became true
  bool unreaped = false;   // closed its output but had not exited 20 s later (killed, left)
  double wall_s = 0;
};

// Reaps children that an earlier run_process had to leave (unreaped); called by run_process.
void reap_stragglers();

// `cancel` (optional): checked every 200 ms; once true the process group is killed.
ProcessResult run_process(const std::vector<std::string>& argv, const std::string& stdin_path,
                          double timeout_s, std::size_t output_limit,
                          const ProcessLimits& limits = {},
                          const std::atomic<bool>* cancel = nullptr);

}  // namespace memlab::exercise
