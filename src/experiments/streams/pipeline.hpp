// The streams pipeline's orchestration: which operation goes into which stream in which order,
// forked from the caller's stream with an event and joined back into it, optionally with an
// event pair around every operation (the instrumented run behind the Gantt chart).
// Includes its siblings by relative path so that the GPU tests can include it directly.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

#include "common/intervals.hpp"
#include "memlab/cuda/event.hpp"
#include "memlab/cuda/stream.hpp"

namespace memlab::lessons::streams {

struct Pipeline {
  const float* ha = nullptr;  // host A, B (inputs) and C (output): pinned or pageable
  const float* hb = nullptr;
  float* hc = nullptr;
  float* da = nullptr;  // device A, B, C: the whole arrays, each segment its own slice
  float* db = nullptr;
  float* dc = nullptr;
  std::size_t n = 0;
  int segments = 1;
  int work = 0;
};

enum class Order { kSerial, kDepthFirst, kBreadthFirst, kRounds };

// Segment i covers [begin(i), begin(i + 1)).
inline std::size_t segment_begin(std::size_t n, int segments, int i) {
  return n * static_cast<std::size_t>(i) / static_cast<std::size_t>(segments);
}

// One operation of the pipeline in the host's issue order.
struct PlannedOp {
  int segment = 0;
  int stream = 0;
  OpKind kind = OpKind::kH2D;
};

// kSerial: three operations over the whole arrays in stream 0. kDepthFirst: per segment H2D,
// kernel, D2H. kBreadthFirst: all H2D, all kernels, all D2H. kRounds (seed 000's loop): rounds of
// `streams` segments, breadth-first inside each round, so that no stream queues a second H2D in
// front of its first kernel. Segment i runs in stream i % streams.
std::vector<PlannedOp> plan(Order order, int segments, int streams);

class PipelineRunner {
 public:
  explicit PipelineRunner(int streams);

  // Enqueues the pipeline; returns at once. kSerial runs in `origin` itself.
  void enqueue(const Pipeline& p, Order order, cudaStream_t origin);

  // The same with an event pair around every operation; synchronises and returns the intervals
  // (milliseconds from an event recorded in `origin` before the fork), in issue order.
  std::vector<Interval> run_instrumented(const Pipeline& p, Order order, cudaStream_t origin);

 private:
  void enqueue_impl(const Pipeline& p, Order order, cudaStream_t origin, std::vector<Event>* marks);
  std::vector<Stream> streams_;
  Event fork_{cudaEventDisableTiming};
  std::vector<Event> joins_;
};

// Times one operation of one segment alone (median of `reps` after a warm-up), in ms: the
// model's input. `segments` = 1 times the whole arrays.
struct StageTimes {
  double h2d = 0, kernel = 0, d2h = 0;
};
StageTimes time_stages(const Pipeline& p, int segments, cudaStream_t stream, int reps);

}  // namespace memlab::lessons::streams
