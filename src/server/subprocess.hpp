// Runs a program with an argument vector (no shell), collects stdout and stderr, kills it after a
// timeout. Used by the interim model adapter (model_backend.cpp).
#pragma once

#include <string>
#include <vector>

namespace memlab::server {

struct ProcessResult {
  int exit_code = -1;  // -1: killed or did not start
  bool timed_out = false;
  std::string out;
  std::string err;
};

// Output beyond `max_output` bytes per stream is dropped (the process is not stopped for it).
ProcessResult run_process(const std::vector<std::string>& argv, double timeout_s,
                          std::size_t max_output = std::size_t{4} << 20);

}  // namespace memlab::server
