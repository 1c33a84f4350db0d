#include "streams/pipeline.hpp"

#include <algorithm>

#include "memlab/cuda/check.hpp"
#include "streams/kernels.cuh"

namespace memlab::lessons::streams {

std::vector<PlannedOp> plan(Order order, int segments, int streams) {
  std::vector<PlannedOp> ops;
  if (order == Order::kSerial) {
    for (OpKind k : {OpKind::kH2D, OpKind::kKernel, OpKind::kD2H}) ops.push_back({0, 0, k});
    return ops;
  }
  if (order == Order::kDepthFirst) {
    for (int i = 0; i < segments; ++i) {
      for (OpKind k : {OpKind::kH2D, OpKind::kKernel, OpKind::kD2H}) {
        ops.push_back({i, i % streams, k});
      }
    }
    return ops;
  }
  if (order == Order::kRounds) {
    for (int first = 0; first < segments; first += streams) {
      const int last = std::min(segments, first + streams);
      for (OpKind k : {OpKind::kH2D, OpKind::kKernel, OpKind::kD2H}) {
        for (int i = first; i < last; ++i) ops.push_back({i, i % streams, k});
      }
    }
    return ops;
  }
  for (OpKind k : {OpKind::kH2D, OpKind::kKernel, OpKind::kD2H}) {
    for (int i = 0; i < segments; ++i) ops.push_back({i, i % streams, k});
  }
  return ops;
}

namespace {

// One operation on one slice [b, e) in stream s.
void enqueue_op(const Pipeline& p, OpKind kind, std::size_t b, std::size_t e, cudaStream_t s) {
  const std::size_t bytes = (e - b) * sizeof(float);
  switch (kind) {
    case OpKind::kH2D:
      MEMLAB_CUDA_CHECK(cudaMemcpyAsync(p.da + b, p.ha + b, bytes, cudaMemcpyHostToDevice, s));
      MEMLAB_CUDA_CHECK(cudaMemcpyAsync(p.db + b, p.hb + b, bytes, cudaMemcpyHostToDevice, s));
      break;
    case OpKind::kKernel:
      launch_add_work(p.da + b, p.db + b, p.dc + b, e - b, p.work, s);
      break;
    case OpKind::kD2H:
      MEMLAB_CUDA_CHECK(cudaMemcpyAsync(p.hc + b, p.dc + b, bytes, cudaMemcpyDeviceToHost, s));
      break;
  }
}

}  // namespace

PipelineRunner::PipelineRunner(int streams) {
  for (int i = 0; i < streams; ++i) {
    streams_.emplace_back(cudaStreamNonBlocking);
    joins_.emplace_back(cudaEventDisableTiming);
  }
}

void PipelineRunner::enqueue(const Pipeline& p, Order order, cudaStream_t origin) {
  enqueue_impl(p, order, origin, nullptr);
}

void PipelineRunner::enqueue_impl(const Pipeline& p, Order order, cudaStream_t origin,
                                  std::vector<Event>* marks) {
  const auto ops = plan(order, p.segments, static_cast<int>(streams_.size()));
  const bool serial = order == Order::kSerial;
  if (!serial) {
    fork_.record(origin);
    for (auto& s : streams_) MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(s, fork_, 0));
  }
  std::size_t m = 0;
  for (const auto& op : ops) {
    cudaStream_t s = serial ? origin : streams_[static_cast<std::size_t>(op.stream)].get();
    const std::size_t b = serial ? 0 : segment_begin(p.n, p.segments, op.segment);
    const std::size_t e = serial ? p.n : segment_begin(p.n, p.segments, op.segment + 1);
    if (marks != nullptr) (*marks)[m++].record(s);
    enqueue_op(p, op.kind, b, e, s);
    if (marks != nullptr) (*marks)[m++].record(s);
  }
  if (!serial) {
    for (std::size_t i = 0; i < streams_.size(); ++i) {
      joins_[i].record(streams_[i]);
      MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(origin, joins_[i], 0));
    }
  }
}

std::vector<Interval> PipelineRunner::run_instrumented(const Pipeline& p, Order order,
                                                       cudaStream_t origin) {
  const auto ops = plan(order, p.segments, static_cast<int>(streams_.size()));
  std::vector<Event> marks;
  marks.reserve(2 * ops.size());
  for (std::size_t i = 0; i < 2 * ops.size(); ++i) marks.emplace_back();
  Event zero;
  zero.record(origin);
  enqueue_impl(p, order, origin, &marks);
  MEMLAB_CUDA_CHECK(cudaStreamSynchronize(origin));
  std::vector<Interval> out;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    Interval iv;
    iv.segment = ops[i].segment;
    iv.stream = ops[i].stream;
    iv.kind = ops[i].kind;
    iv.ready = marks[2 * i].elapsed_ms_since(zero);
    iv.end = marks[2 * i + 1].elapsed_ms_since(zero);
    iv.start = iv.ready;
    out.push_back(iv);
  }
  return out;
}

StageTimes time_stages(const Pipeline& p, int segments, cudaStream_t stream, int reps) {
  const std::size_t e = segment_begin(p.n, segments, 1);
  StageTimes t;
  Event a, b;
  for (OpKind k : {OpKind::kH2D, OpKind::kKernel, OpKind::kD2H}) {
    enqueue_op(p, k, 0, e, stream);  // warm-up
    std::vector<double> ms;
    for (int r = 0; r < reps; ++r) {
      a.record(stream);
      enqueue_op(p, k, 0, e, stream);
      b.record(stream);
      b.synchronize();
      ms.push_back(b.elapsed_ms_since(a));
    }
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2];
    (k == OpKind::kH2D ? t.h2d : k == OpKind::kKernel ? t.kernel : t.d2h) = median;
  }
  return t;
}

}  // namespace memlab::lessons::streams
