// A captured CUDA graph, owned: capture the work an `enqueue` function puts on a stream (and on
// any stream it forks to with events), instantiate it once, replay it with one call.
#pragma once

#include <cuda_runtime_api.h>

#include <utility>

#include "memlab/cuda/check.hpp"

namespace memlab::lessons::graphs {

class CapturedGraph {
 public:
  CapturedGraph() = default;
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;
  CapturedGraph(CapturedGraph&& o) noexcept
      : graph_(std::exchange(o.graph_, nullptr)), exec_(std::exchange(o.exec_, nullptr)) {}
  CapturedGraph& operator=(CapturedGraph&&) = delete;
  ~CapturedGraph() {
    if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
    if (graph_ != nullptr) cudaGraphDestroy(graph_);
  }

  // Captures what `enqueue(origin)` enqueues. Thread-local mode: other threads' CUDA calls are
  // not affected by this capture.
  template <class Enqueue>
  void capture(cudaStream_t origin, Enqueue&& enqueue) {
    MEMLAB_CUDA_CHECK(cudaStreamBeginCapture(origin, cudaStreamCaptureModeThreadLocal));
    try {
      enqueue(origin);
    } catch (...) {
      cudaGraph_t broken = nullptr;
      cudaStreamEndCapture(origin, &broken);
      if (broken != nullptr) cudaGraphDestroy(broken);
      throw;
    }
    MEMLAB_CUDA_CHECK(cudaStreamEndCapture(origin, &graph_));
    MEMLAB_CUDA_CHECK(cudaGraphInstantiate(&exec_, graph_, 0));
  }
  std::size_t nodes() const {
    std::size_t count = 0;
    MEMLAB_CUDA_CHECK(cudaGraphGetNodes(graph_, nullptr, &count));
    return count;
  }
  void launch(cudaStream_t stream) const { MEMLAB_CUDA_CHECK(cudaGraphLaunch(exec_, stream)); }

 private:
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace memlab::lessons::graphs
