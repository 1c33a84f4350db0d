// Hardware counters through CUPTI's range profiler (`memlab run --counters`), with libcupti opened
// at run time (dlopen, like NVML): memlab builds and runs without it and then says once why there
// are no counters. Which counters a variant gets: bench/counters.hpp.
//
// Host-only header: no CUDA or CUPTI types.
#pragma once

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace memlab {

// Counters cannot be collected here: the library is missing, the GPU or driver refuses
// (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: NVreg_RestrictProfilingToAdminUsers=1), another profiler
// holds the device (ncu), ... The message is one line, naming the path or the CUPTI error.
class CountersUnavailable : public std::runtime_error {
 public:
  explicit CountersUnavailable(const std::string& message) : std::runtime_error(message) {}
};

// The files memlab tries, in order: $MEMLAB_CUPTI_LIBRARY alone when it is set; else
// libcupti.so.13 and libcupti.so through the loader's search path, then lib64/ and
// extras/CUPTI/lib64/ of $CUDA_HOME, $CUDA_PATH, the toolkit memlab was built with and
// /usr/local/cuda.
std::vector<std::string> cupti_library_candidates();

// Opens libcupti once per process (the first call decides) and resolves the entry points.
// Returns "" when it is usable, else the one-line reason (same text on every call).
std::string cupti_load_error();
// The file that was opened ("" when none).
std::string cupti_library_path();

// Checks metric names against a chip ("GH100") with CUPTI's host API: no GPU needed. Returns ""
// when all are known, else the first unknown name and CUPTI's error; `passes` (may be null) gets
// the replays the range profiler needs for all of them together. Throws CountersUnavailable when
// libcupti cannot be opened.
std::string check_metric_names(const std::string& chip, const std::vector<std::string>& metrics,
                               int* passes);

// A profiling session on one device's primary context (the current CUDA device). Never used
// while timing: a counters pass enables the range profiler, replays the work until every pass
// is submitted, and disables it again.
class CounterSession {
 public:
  // Throws CountersUnavailable (library missing, privileges, unsupported device, ...).
  explicit CounterSession(int device);
  ~CounterSession();
  CounterSession(const CounterSession&) = delete;
  CounterSession& operator=(const CounterSession&) = delete;

  struct Result {
    std::vector<double> values;  // one per metric, in the order asked
    int passes = 0;
  };
  // One user range around `work` (which enqueues and is synchronised by the session), replayed
  // until CUPTI has all passes; `before_pass` runs before each replay outside the range (e.g. the
  // L2 flush, so that every pass starts cold like the timed samples). Throws CountersUnavailable
  // for a refusal, std::runtime_error for other CUPTI failures.
  Result collect(const std::vector<std::string>& metrics, const std::function<void()>& before_pass,
                 const std::function<void()>& work);
  const std::string& chip() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace memlab
