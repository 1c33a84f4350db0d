// `memlab run`'s progress line on a terminal (stderr, only on a TTY): the measurement, how many
// of the plan's, the time so far and an estimate of the time left.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "memlab/bench/plan.hpp"

namespace memlab::cli {

// "42s", "3m05s", "1h02m".
std::string format_duration(double seconds);

// "12/759, 1m10s, about 5m20s left": the time left from the mean time per finished measurement
// (`done` finished of `total`); "" left while none has finished.
std::string format_eta(double elapsed_s, std::size_t done, std::size_t total);

// One line per event, redrawn in place; `passes` > 1 for --repeat (the counts run over all).
class ProgressLine {
 public:
  explicit ProgressLine(int passes = 1) : passes_(passes < 1 ? 1 : passes) {}
  void next_pass() { ++pass_; }
  // The text of the line for this event (without the terminal codes): "12/759, 1m10s, about
  // 5m20s left: bandwidth elem_f1 n=1024 op=copy".
  std::string line(const bench::ProgressEvent& e);
  void print(const bench::ProgressEvent& e);  // "\r\x1b[K[memlab] " + line to stderr
  static void clear();

 private:
  int passes_;
  int pass_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace memlab::cli
