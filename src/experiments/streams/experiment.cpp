// Registration of the streams lesson (the segmented pipeline) and of default_stream.
#include <fmt/format.h>

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "common/intervals.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/bench/parallel.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/fill.hpp"
#include "memlab/model/timeline.hpp"
#include "streams/kernels.cuh"
#include "streams/pipeline.hpp"
#include "streams/reference.hpp"

namespace memlab::lessons::streams {
namespace {

using bench::Params;

// ---------------------------------------------------------------------------------------------
// streams

int copy_engines() {
  static const int engines = [] {
    int device = 0, n = 0;
    MEMLAB_CUDA_CHECK(cudaGetDevice(&device));
    MEMLAB_CUDA_CHECK(cudaDeviceGetAttribute(&n, cudaDevAttrAsyncEngineCount, device));
    return n;
  }();
  return engines;
}

// Stage times measured alone in setup, per point: the timeline model's input. predict() sees
// only the parameters, so setup leaves them here, keyed by the point's label.
struct Calibration {
  StageTimes segment;   // one segment, pinned
  StageTimes whole;     // the whole arrays (serial), pinned
  StageTimes pageable;  // one segment from pageable memory (only where `pageable` runs)
  bool has_pageable = false;
};
std::map<std::string, Calibration>& calibrations() {
  static std::map<std::string, Calibration> m;
  return m;
}

bool pageable_applies(const Params& p) {
  return p.n("streams") == 4;
}

struct State {
  std::size_t n = 0;
  int segments = 1, streams = 1, work = 0;
  PinnedBuffer<float> ha, hb, hc;
  std::vector<float> pa, pb, pc;  // pageable copies of the inputs and a pageable output
  DeviceBuffer<float> da, db, dc;
  std::vector<float> want;
  std::unique_ptr<PipelineRunner> runner;

  Pipeline pinned() const {
    return {ha.get(), hb.get(), hc.get(), da.get(), db.get(), dc.get(), n, segments, work};
  }
  Pipeline pageable() {
    return {pa.data(), pb.data(), pc.data(), da.get(), db.get(), dc.get(), n, segments, work};
  }
};

State setup(const Params& p, std::uint64_t seed) {
  State st;
  st.n = static_cast<std::size_t>(p.n("n"));
  st.segments = static_cast<int>(p.n("segments"));
  st.streams = static_cast<int>(p.n("streams"));
  st.work = static_cast<int>(p.n("work"));
  st.ha = PinnedBuffer<float>(st.n);
  st.hb = PinnedBuffer<float>(st.n);
  st.hc = PinnedBuffer<float>(st.n);
  st.da = DeviceBuffer<float>(st.n);
  st.db = DeviceBuffer<float>(st.n);
  st.dc = DeviceBuffer<float>(st.n);
  st.want.resize(st.n);
  const bool pageable = pageable_applies(p);
  if (pageable) {
    st.pa.resize(st.n);
    st.pb.resize(st.n);
    st.pc.resize(st.n);
  }
  bench::parallel_for(st.n, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      const float a = random_uniform(seed, i, -1.0f, 1.0f);
      const float bb = random_uniform(seed + 1, i, -1.0f, 1.0f);
      st.ha[i] = a;
      st.hb[i] = bb;
      if (pageable) {
        st.pa[i] = a;
        st.pb[i] = bb;
      }
      st.want[i] = add_work_reference(a, bb, st.work);
    }
  });
  st.runner = std::make_unique<PipelineRunner>(st.streams);
  Stream s;
  Calibration c;
  c.segment = time_stages(st.pinned(), st.segments, s, 3);
  c.whole = time_stages(st.pinned(), 1, s, 2);
  if (pageable) {
    c.pageable = time_stages(st.pageable(), st.segments, s, 2);
    c.has_pageable = true;
  }
  calibrations()[p.label()] = c;
  return st;
}

// The issue order of each variant; pageable issues breadth-first from pageable buffers.
Order order_of(Variant v) {
  switch (v) {
    case Variant::Serial:
      return Order::kSerial;
    case Variant::DepthFirst:
      return Order::kDepthFirst;
    case Variant::BreadthFirst:
    case Variant::Pageable:
      return Order::kBreadthFirst;
    case Variant::Rounds:
      return Order::kRounds;
  }
  invalid_variant("streams");
}

bool pageable(Variant v) {
  return v == Variant::Pageable;
}

bench::Check check(State& st, const Params&, const std::string& variant) {
  const float* got =
      pageable(variant_of(kVariants, variant, "streams")) ? st.pc.data() : st.hc.get();
  return bench::check_exact(got, st.want.data(), st.n);
}

std::optional<bench::Prediction> predict(const Params& p, Variant variant) {
  auto it = calibrations().find(p.label());
  if (it == calibrations().end()) return std::nullopt;
  const Calibration& c = it->second;
  bench::Prediction pr;
  if (variant == Variant::Serial) {
    pr.time_ms = c.whole.h2d + c.whole.kernel + c.whole.d2h;
    pr.model = fmt::format("no overlap: H2D {:.3g} + kernel {:.3g} + D2H {:.3g} ms (each alone)",
                           c.whole.h2d, c.whole.kernel, c.whole.d2h);
    return pr;
  }
  const int k = static_cast<int>(p.n("segments"));
  if (variant == Variant::Pageable) {
    if (!c.has_pageable) return std::nullopt;
    pr.time_ms = k * (c.pageable.h2d + c.segment.kernel + c.pageable.d2h);
    pr.model = fmt::format(
        "pageable copies are staged by the host: no overlap, {} x ({:.3g} + "
        "{:.3g} + {:.3g}) ms",
        k, c.pageable.h2d, c.segment.kernel, c.pageable.d2h);
    return pr;
  }
  model::TimelineParams tp;
  tp.segments = model::uniform_segments(k, c.segment.h2d, c.segment.kernel, c.segment.d2h);
  tp.streams = static_cast<int>(p.n("streams"));
  tp.copy_engines = copy_engines();
  tp.order = variant == Variant::DepthFirst ? model::IssueOrder::kDepthFirst
             : variant == Variant::Rounds   ? model::IssueOrder::kRounds
                                            : model::IssueOrder::kBreadthFirst;
  tp.queueing = model::Queueing::kPerStream;
  tp.concurrent_kernels = false;  // each segment's kernel fills the GPU
  const auto r = model::simulate_timeline(tp);
  pr.time_ms = r.makespan;
  pr.model = fmt::format(
      "timeline (per-stream queues, {} copy engines; per segment H2D {:.3g}, kernel {:.3g}, D2H "
      "{:.3g} ms measured alone): makespan {:.3g} ms, ideal speed-up {:.2f}x",
      tp.copy_engines, c.segment.h2d, c.segment.kernel, c.segment.d2h, r.makespan, r.speedup);
  return pr;
}

void inspect(State& st, const Params& p, Variant variant, bench::Extras& x) {
  Stream s;
  const Pipeline pl = pageable(variant) ? st.pageable() : st.pinned();
  auto ops = st.runner->run_instrumented(pl, order_of(variant), s);
  const bool in_order = streams_in_order(ops);
  engine_serialize(ops);
  const OverlapStats o = overlap_stats(ops);
  x.figures.emplace_back("makespan_ms", o.makespan);
  x.figures.emplace_back("concurrency", o.concurrency);
  x.figures.emplace_back("overlap", o.overlap);
  x.figures.emplace_back("h2d_busy_ms", o.engine_busy[0]);
  x.figures.emplace_back("kernel_busy_ms", o.engine_busy[1]);
  x.figures.emplace_back("d2h_busy_ms", o.engine_busy[2]);
  std::string model_json = "null";
  auto it = calibrations().find(p.label());
  if (it != calibrations().end() && !pageable(variant)) {
    const Calibration& c = it->second;
    const double serial = c.whole.h2d + c.whole.kernel + c.whole.d2h;
    x.figures.emplace_back("speedup_vs_stages", serial / o.makespan);
    if (auto pr = predict(p, variant)) {
      const double ideal = serial / pr->time_ms;
      x.figures.emplace_back("model_speedup", ideal);
      x.figures.emplace_back("pct_of_model_speedup", 100.0 * (serial / o.makespan) / ideal);
      model_json = fmt::format(
          "{{\"serial_ms\":{:.6f},\"makespan_ms\":{:.6f},\"segment_h2d_ms\":{:.6f},"
          "\"segment_kernel_ms\":{:.6f},\"segment_d2h_ms\":{:.6f},\"copy_engines\":{}}}",
          serial, pr->time_ms, c.segment.h2d, c.segment.kernel, c.segment.d2h, copy_engines());
    }
  }
  x.text = gantt(ops);
  if (!in_order)
    x.text += "    WARNING: an operation started before its stream predecessor ended\n";
  x.json = fmt::format("{{\"intervals\":{},\"model\":{},\"streams_in_order\":{}}}",
                       intervals_json(ops), model_json, in_order ? "true" : "false");
}

void add(bench::ExperimentBuilder<State>& b, const VariantInfo<Variant>& info) {
  const Variant v = info.id;
  b.variant(info.name, info.description,
            [v](State& st, const Params&, cudaStream_t s) {
              st.runner->enqueue(pageable(v) ? st.pageable() : st.pinned(), order_of(v), s);
            })
      .predict([v](const Params& p) { return predict(p, v); })
      .inspect([v](State& st, const Params& p, bench::Extras& x) { inspect(st, p, v, x); });
  if (pageable(v))
    b.variant_axis("streams", {"4"}, "the pageable pitfall is shown at streams=4 only");
}

double pcie_bytes(const Params& p) {
  return 12.0 * static_cast<double>(p.n("n"));
}

bench::Experiment make_streams() {
  bench::ExperimentBuilder<State> b(
      "streams", "Pipelined C = A + B over PCIe: copy/compute overlap with streams");
  b.bytes_convention("bytes over PCIe: A and B in, C out (12 B per element), each moved once")
      .int_axis("n", {"2^26"}, {"2^26"}, 1, std::int64_t{1} << 28, "floats per array")
      .int_axis("streams", {"1", "2", "4", "8"}, {"4"}, 1, 8, "streams (segment i in i % N)")
      .int_axis("segments", {"8", "32"}, {"8", "32"}, 2, 64, "segments the arrays are split into")
      .int_axis("work", {"4096"}, {"4096"}, 0, std::int64_t{1} << 20,
                "FMAs per element in the kernel (4096: kernel ~ H2D time on an H200)")
      .test_point({{"n", "1"}, {"streams", "4"}, {"segments", "2"}, {"work", "3"}})
      .test_point({{"n", "100003"}, {"streams", "4"}, {"segments", "7"}, {"work", "40"}})
      .test_point({{"n", "65537"}, {"streams", "3"}, {"segments", "64"}, {"work", "0"}})
      .test_point({{"n", "1000003"}, {"streams", "8"}, {"segments", "32"}, {"work", "200"}})
      .bytes(pcie_bytes)
      .footprint([](const Params& p) { return pcie_bytes(p); })
      .flush_l2(false)  // the lesson is about PCIe and overlap, not the L2
      .setup(setup)
      .poison([](State& st, const Params&, cudaStream_t s) {
        st.dc.fill_bytes(0xFF, s);
        std::memset(st.hc.get(), 0xFF, st.hc.bytes());
        if (!st.pc.empty()) std::memset(st.pc.data(), 0xFF, st.pc.size() * sizeof(float));
      })
      .check(check);
  for (const VariantInfo<Variant>& v : kVariants) add(b, v);
  b.baseline(variant_name(kVariants, Variant::Serial));
  b.plot({.id = "speedup",
          .kind = bench::PlotKind::Curve,
          .title = "Speed-up over serial against the number of streams",
          .x = {"streams", false, ""},
          .y = {"speedup", false, "x"},
          .facet = "segments",
          .model = true});
  b.plot({.id = "timeline",
          .kind = bench::PlotKind::Gantt,
          .title = "Copy engines and kernels over time (4 streams, 8 segments)",
          .x = {"time", false, "ms"},
          .y = {"extra:intervals", false, ""},
          .where = {{"streams", "4"}, {"segments", "8"}},
          .model = true});
  return b.build();
}

// ---------------------------------------------------------------------------------------------
// default_stream

constexpr std::size_t kSlice = 4096;  // elements per kernel: 16 blocks of 256, 16 of 132 SMs

struct DefaultState {
  int work = 0;
  DeviceBuffer<float> a, b, c;  // three slices of kSlice
  std::vector<float> want;
  Stream s1{cudaStreamDefault}, s2{cudaStreamDefault};  // blocking: they sync with stream 0
  Event fork{cudaEventDisableTiming}, j1{cudaEventDisableTiming}, j0{cudaEventDisableTiming},
      j2{cudaEventDisableTiming};
};

cudaStream_t middle_of(DefaultStreamVariant v) {
  switch (v) {
    case DefaultStreamVariant::Legacy:
      return cudaStream_t{nullptr};
    case DefaultStreamVariant::PerThread:
      return cudaStreamPerThread;
  }
  invalid_variant("default_stream");
}

// Kernels 1, 0 (the middle one), 2 on slices 0, 1, 2 in s1, middle, s2; marks (optional) are
// event pairs around each kernel.
void enqueue_three(DefaultState& st, cudaStream_t mid, cudaStream_t origin,
                   std::vector<Event>* marks) {
  st.fork.record(origin);
  const cudaStream_t order[3] = {st.s1.get(), mid, st.s2.get()};
  for (cudaStream_t s : order) MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(s, st.fork, 0));
  for (int k = 0; k < 3; ++k) {
    const std::size_t off = static_cast<std::size_t>(k) * kSlice;
    if (marks != nullptr) (*marks)[2 * k].record(order[k]);
    launch_add_work(st.a.get() + off, st.b.get() + off, st.c.get() + off, kSlice, st.work,
                    order[k]);
    if (marks != nullptr) (*marks)[2 * k + 1].record(order[k]);
  }
  st.j1.record(st.s1);
  st.j0.record(mid);
  st.j2.record(st.s2);
  for (const Event* e : {&st.j1, &st.j0, &st.j2}) {
    MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(origin, *e, 0));
  }
}

DefaultState setup_default(const Params& p, std::uint64_t seed) {
  DefaultState st;
  st.work = static_cast<int>(p.n("work"));
  const std::size_t n = 3 * kSlice;
  st.a = DeviceBuffer<float>(n);
  st.b = DeviceBuffer<float>(n);
  st.c = DeviceBuffer<float>(n);
  std::vector<float> ha(n), hb(n);
  st.want.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    ha[i] = random_uniform(seed, i, -1.0f, 1.0f);
    hb[i] = random_uniform(seed + 1, i, -1.0f, 1.0f);
    st.want[i] = add_work_reference(ha[i], hb[i], st.work);
  }
  st.a.copy_from_host(ha.data(), n);
  st.b.copy_from_host(hb.data(), n);
  return st;
}

void inspect_default(DefaultState& st, DefaultStreamVariant variant, bench::Extras& x) {
  Stream origin;
  std::vector<Event> marks;
  for (int i = 0; i < 6; ++i) marks.emplace_back();
  Event zero;
  zero.record(origin);
  enqueue_three(st, middle_of(variant), origin, &marks);
  MEMLAB_CUDA_CHECK(cudaStreamSynchronize(origin));
  MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());  // the middle stream too
  std::vector<Interval> ops;
  const char* names[3] = {"stream1_ms", "middle_ms", "stream2_ms"};
  for (int k = 0; k < 3; ++k) {
    Interval iv;
    iv.segment = k;
    iv.stream = k;
    iv.kind = OpKind::kKernel;
    iv.ready = iv.start = marks[2 * k].elapsed_ms_since(zero);
    iv.end = marks[2 * k + 1].elapsed_ms_since(zero);
    x.figures.emplace_back(names[k], iv.end - iv.start);
    ops.push_back(iv);
  }
  const OverlapStats o = overlap_stats(ops);  // kernels may overlap: no engine_serialize here
  x.figures.emplace_back("wall_ms", o.makespan);
  x.figures.emplace_back("concurrency", o.concurrency);
  x.figures.emplace_back("overlap", o.overlap);
  x.text = gantt(ops);
  x.json = fmt::format("{{\"intervals\":{}}}", intervals_json(ops));
}

bench::Experiment make_default_stream() {
  bench::ExperimentBuilder<DefaultState> b(
      "default_stream",
      "A kernel in the legacy default stream serialises two streams; per-thread does not");
  b.home("streams");
  b.bytes_convention("a, b read and c written once: 12 B per element, 3 x 4096 elements")
      .int_axis("work", {"131072"}, {"131072"}, 0, std::int64_t{1} << 24,
                "FMAs per element (131072: each kernel ~0.3 ms on 16 SMs)")
      .test_point({{"work", "1"}})
      .test_point({{"work", "1000"}})
      .bytes([](const Params&) { return 12.0 * 3 * kSlice; })
      .flops([](const Params& p) { return 2.0 * 3 * kSlice * static_cast<double>(p.n("work")); })
      .flush_l2(false)
      .setup(setup_default)
      .poison([](DefaultState& st, const Params&, cudaStream_t s) { st.c.fill_bytes(0xFF, s); })
      .check([](DefaultState& st, const Params&, const std::string&) {
        std::vector<float> got(st.want.size());
        st.c.copy_to_host(got.data(), got.size());
        return bench::check_exact(got.data(), st.want.data(), got.size());
      });
  for (const VariantInfo<DefaultStreamVariant>& v : kDefaultStreamVariants) {
    const DefaultStreamVariant id = v.id;
    b.variant(v.name, v.description,
              [id](DefaultState& st, const Params&, cudaStream_t s) {
                enqueue_three(st, middle_of(id), s, nullptr);
              })
        .predict([id](const Params&) -> std::optional<bench::Prediction> {
          bench::Prediction pr;
          switch (id) {
            case DefaultStreamVariant::Legacy:
              pr.model = "three kernels one after the other: 3x one kernel";
              pr.slowdown = 1.0;
              break;
            case DefaultStreamVariant::PerThread:
              pr.model = "three kernels at once on 48 of 132 SMs: 1x one kernel";
              pr.slowdown = 1.0 / 3.0;
              break;
          }
          return pr;
        })
        .inspect([id](DefaultState& st, const Params&, bench::Extras& x) {
          inspect_default(st, id, x);
        });
  }
  b.baseline(variant_name(kDefaultStreamVariants, DefaultStreamVariant::Legacy));
  b.plot({.id = "overlap",
          .kind = bench::PlotKind::Bars,
          .title = "Overlap of the two streams' kernels",
          .x = {"variant", false, ""},
          .y = {"figure:overlap", false, ""}});
  b.plot({.id = "timeline",
          .kind = bench::PlotKind::Gantt,
          .title = "The two streams over time",
          .x = {"time", false, "ms"},
          .y = {"extra:intervals", false, ""}});
  return b.build();
}

[[maybe_unused]] const bool registered =
    bench::register_experiment(make_streams()) && bench::register_experiment(make_default_stream());

}  // namespace
}  // namespace memlab::lessons::streams
