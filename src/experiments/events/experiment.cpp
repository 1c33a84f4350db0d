// Registration of the events lesson: timing pitfalls, cross-stream dependencies, two streams.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "common/intervals.hpp"
#include "events/kernels.cuh"
#include "memlab/bench/experiment.hpp"
#include "memlab/bench/parallel.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/event.hpp"
#include "memlab/cuda/fill.hpp"
#include "memlab/cuda/stream.hpp"

namespace memlab::lessons::events {
namespace {

using bench::Params;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct State {
  std::size_t n = 0;
  int work = 0;
  DeviceBuffer<float> in, x, y, z;
  std::vector<float> want_x;
  Stream sa, sb;
  Event fork{cudaEventDisableTiming}, dep{cudaEventDisableTiming}, ja{cudaEventDisableTiming},
      jb{cudaEventDisableTiming};
};

State setup(const Params& p, std::uint64_t seed) {
  State st;
  st.n = static_cast<std::size_t>(p.n("n"));
  st.work = static_cast<int>(p.n("work"));
  st.in = DeviceBuffer<float>(st.n);
  st.x = DeviceBuffer<float>(st.n);
  st.y = DeviceBuffer<float>(st.n);
  st.z = DeviceBuffer<float>(st.n);
  fill_uniform(st.in.get(), st.n, seed, -1.0f, 1.0f, nullptr);
  st.want_x.resize(st.n);
  bench::parallel_for(st.n, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      st.want_x[i] = work_reference(random_uniform(seed, i, -1.0f, 1.0f), st.work);
    }
  });
  MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
  return st;
}

// A in stream a, the event `dep`, stream b waits for it, B in stream b; forked from and joined
// into `origin`. With wait = false the dependency is left out (the demonstration of the race).
void enqueue_cross(State& st, cudaStream_t origin, bool wait) {
  st.fork.record(origin);
  MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(st.sa, st.fork, 0));
  MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(st.sb, st.fork, 0));
  launch_work(st.in.get(), st.x.get(), st.n, st.work, 0, st.sa);
  st.dep.record(st.sa);
  if (wait) MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(st.sb, st.dep, 0));
  launch_consume(st.x.get(), st.y.get(), st.n, st.sb);
  st.ja.record(st.sa);
  st.jb.record(st.sb);
  MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(origin, st.ja, 0));
  MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(origin, st.jb, 0));
}

// Two kernels on half the resident grid each, in streams a and b at once. `marks` (optional):
// event pairs around each kernel.
void enqueue_two(State& st, cudaStream_t origin, std::vector<Event>* marks) {
  st.fork.record(origin);
  const unsigned half = half_resident_blocks();
  const cudaStream_t s[2] = {st.sa.get(), st.sb.get()};
  float* out[2] = {st.x.get(), st.z.get()};
  for (int k = 0; k < 2; ++k) {
    MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(s[k], st.fork, 0));
    if (marks != nullptr) (*marks)[2 * k].record(s[k]);
    launch_work(st.in.get(), out[k], st.n, st.work, half, s[k]);
    if (marks != nullptr) (*marks)[2 * k + 1].record(s[k]);
  }
  st.ja.record(st.sa);
  st.jb.record(st.sb);
  MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(origin, st.ja, 0));
  MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(origin, st.jb, 0));
}

bench::Check check(State& st, const Params&, const std::string& variant) {
  std::vector<float> got(st.n);
  st.x.copy_to_host(got.data(), st.n);
  bench::Check c = bench::check_exact(got.data(), st.want_x.data(), st.n);
  if (!c.ok) return c;
  switch (variant_of(kVariants, variant, "events")) {
    case Variant::Kernel:
      break;
    case Variant::CrossStream: {
      st.y.copy_to_host(got.data(), st.n);
      std::vector<float> want(st.n);
      for (std::size_t i = 0; i < st.n; ++i) want[i] = consume_reference(st.want_x[i]);
      c = bench::check_exact(got.data(), want.data(), st.n);
      if (!c.ok) c.detail = " y = 2x + 1 (B after A):" + c.detail;
      break;
    }
    case Variant::TwoStreams:
      st.z.copy_to_host(got.data(), st.n);
      c = bench::check_exact(got.data(), st.want_x.data(), st.n);
      break;
  }
  return c;
}

// Timing pitfalls, each the median of 5.
void inspect_kernel(State& st, bench::Extras& x) {
  Stream s;
  Event a, b;
  std::vector<double> nosync, devsync, ev;
  for (int r = 0; r < 5; ++r) {
    auto t0 = Clock::now();
    launch_work(st.in.get(), st.x.get(), st.n, st.work, 0, s);
    nosync.push_back(ms_since(t0));  // only the launch: the kernel is still running
    MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());

    t0 = Clock::now();
    launch_work(st.in.get(), st.x.get(), st.n, st.work, 0, s);
    MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
    devsync.push_back(ms_since(t0));  // launch + run + the synchronisation's own latency

    a.record(s);
    launch_work(st.in.get(), st.x.get(), st.n, st.work, 0, s);
    b.record(s);
    b.synchronize();
    ev.push_back(b.elapsed_ms_since(a));  // the GPU's own timestamps
  }
  x.figures.emplace_back("host_timer_no_sync_ms", median(nosync));
  x.figures.emplace_back("host_timer_device_sync_ms", median(devsync));
  x.figures.emplace_back("event_ms", median(ev));

  // Reading the elapsed time before the stop event completed.
  a.record(s);
  launch_work(st.in.get(), st.x.get(), st.n, st.work, 0, s);
  b.record(s);
  std::string early;
  double not_ready = 0;
  try {
    const float ms = b.elapsed_ms_since(a);
    early = fmt::format(
        "read before the stop event completed: {:.4f} ms (the kernel had already "
        "finished: no error)",
        ms);
  } catch (const CudaError& e) {
    not_ready = e.code() == cudaErrorNotReady ? 1.0 : 0.0;
    early = fmt::format("read before the stop event completed: CudaError {} ({}): no time",
                        cudaGetErrorName(e.code()), e.what());
  }
  (void)cudaGetLastError();  // do not leave cudaErrorNotReady for the next launch check
  b.synchronize();
  x.figures.emplace_back("early_read_not_ready", not_ready);
  x.text = fmt::format(
      "    host timer, launch only: {:.4f} ms; with cudaDeviceSynchronize: {:.4f} ms; events: "
      "{:.4f} ms\n    {}\n",
      median(nosync), median(devsync), median(ev), early);
}

void inspect_cross(State& st, bench::Extras& x) {
  Stream s;
  Event a, b;
  a.record(s);
  const auto t0 = Clock::now();
  enqueue_cross(st, s, true);
  const double enqueue_ms = ms_since(t0);
  const cudaError_t q = cudaEventQuery(st.dep);  // A still running when the host got control?
  (void)cudaGetLastError();
  b.record(s);
  b.synchronize();
  const double gpu_ms = b.elapsed_ms_since(a);
  x.figures.emplace_back("host_enqueue_ms", enqueue_ms);
  x.figures.emplace_back("gpu_ms", gpu_ms);
  x.figures.emplace_back("A_running_when_host_returned", q == cudaErrorNotReady ? 1.0 : 0.0);

  // The same without cudaStreamWaitEvent: B reads x while A is still writing it.
  st.x.fill_bytes(0xFF, s);
  st.y.fill_bytes(0xFF, s);
  s.synchronize();
  enqueue_cross(st, s, false);
  s.synchronize();
  std::vector<float> got(st.n);
  st.y.copy_to_host(got.data(), st.n);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < st.n; ++i) wrong += got[i] != consume_reference(st.want_x[i]);
  const double frac = st.n > 0 ? static_cast<double>(wrong) / static_cast<double>(st.n) : 0.0;
  x.figures.emplace_back("wrong_without_wait", frac);
  x.text = fmt::format(
      "    host enqueued A, event, wait, B in {:.4f} ms; the GPU took {:.4f} ms; A was {} when "
      "the host returned\n    without cudaStreamWaitEvent {:.1f}% of y was wrong (B read x "
      "before A wrote it)\n",
      enqueue_ms, gpu_ms, q == cudaErrorNotReady ? "still running" : "already done", 100.0 * frac);
}

void inspect_two(State& st, bench::Extras& x) {
  Stream s;
  std::vector<Event> marks;
  for (int i = 0; i < 4; ++i) marks.emplace_back();
  Event zero;
  zero.record(s);
  enqueue_two(st, s, &marks);
  s.synchronize();
  std::vector<Interval> ops;
  for (int k = 0; k < 2; ++k) {
    Interval iv;
    iv.segment = k;
    iv.stream = k;
    iv.kind = OpKind::kKernel;
    iv.ready = iv.start = marks[2 * k].elapsed_ms_since(zero);
    iv.end = marks[2 * k + 1].elapsed_ms_since(zero);
    ops.push_back(iv);
  }
  const auto o = overlap_stats(ops);
  const double d0 = ops[0].end - ops[0].start, d1 = ops[1].end - ops[1].start;
  const double both =
      std::max(0.0, std::min(ops[0].end, ops[1].end) - std::max(ops[0].start, ops[1].start));
  x.figures.emplace_back("stream0_ms", d0);
  x.figures.emplace_back("stream1_ms", d1);
  x.figures.emplace_back("wall_ms", o.makespan);
  x.figures.emplace_back("sum_over_wall", o.concurrency);
  x.figures.emplace_back("overlap_of_shorter", std::min(d0, d1) > 0 ? both / std::min(d0, d1) : 0);
  x.text = gantt(ops);
  x.json = fmt::format("{{\"intervals\":{}}}", intervals_json(ops));
}

void add(bench::ExperimentBuilder<State>& b, const VariantInfo<Variant>& v) {
  switch (v.id) {
    case Variant::Kernel:
      b.variant(v.name, v.description, [](State& st, const Params&, cudaStream_t s) {
         launch_work(st.in.get(), st.x.get(), st.n, st.work, 0, s);
       }).inspect([](State& st, const Params&, bench::Extras& x) { inspect_kernel(st, x); });
      return;
    case Variant::CrossStream:
      b.variant(v.name, v.description,
                [](State& st, const Params&, cudaStream_t s) { enqueue_cross(st, s, true); })
          .variant_bytes([](const Params& p) { return 16.0 * static_cast<double>(p.n("n")); })
          .predict([](const Params&) -> std::optional<bench::Prediction> {
            bench::Prediction pr;
            pr.model = "B (a few us) waits for A: about the time of A alone";
            pr.slowdown = 1.0;
            return pr;
          })
          .inspect([](State& st, const Params&, bench::Extras& x) { inspect_cross(st, x); });
      return;
    case Variant::TwoStreams:
      b.variant(v.name, v.description,
                [](State& st, const Params&, cudaStream_t s) { enqueue_two(st, s, nullptr); })
          .variant_bytes([](const Params& p) { return 16.0 * static_cast<double>(p.n("n")); })
          .variant_flops([](const Params& p) {
            return 4.0 * static_cast<double>(p.n("n")) * static_cast<double>(p.n("work"));
          })
          .predict([](const Params&) -> std::optional<bench::Prediction> {
            bench::Prediction pr;
            pr.model = "twice the work on the whole GPU at once: 2x the single kernel";
            pr.slowdown = 2.0;
            return pr;
          })
          .inspect([](State& st, const Params&, bench::Extras& x) { inspect_two(st, x); });
      return;
  }
}

bench::Experiment make() {
  bench::ExperimentBuilder<State> b("events",
                                    "CUDA events: timing pitfalls, cross-stream dependencies");
  b.bytes_convention("in read once, outputs written once (8 B per element per kernel)")
      .int_axis("n", {"2^22"}, {"2^22"}, 1, std::int64_t{1} << 28, "elements")
      .int_axis("work", {"8192"}, {"8192"}, 0, std::int64_t{1} << 24,
                "FMAs per element in the slow kernel (A)")
      .test_point({{"n", "1"}, {"work", "5"}})
      .test_point({{"n", "100003"}, {"work", "64"}})
      .test_point({{"n", "1048579"}, {"work", "300"}})
      .bytes([](const Params& p) { return 8.0 * static_cast<double>(p.n("n")); })
      .flops([](const Params& p) {
        return 2.0 * static_cast<double>(p.n("n")) * static_cast<double>(p.n("work"));
      })
      .flush_l2(false)
      .setup(setup)
      .poison([](State& st, const Params&, cudaStream_t s) {
        st.x.fill_bytes(0xFF, s);
        st.y.fill_bytes(0xFF, s);
        st.z.fill_bytes(0xFF, s);
      })
      .check(check);
  for (const VariantInfo<Variant>& v : kVariants) add(b, v);
  b.baseline(variant_name(kVariants, Variant::Kernel));
  b.plot({.id = "time",
          .kind = bench::PlotKind::Bars,
          .title = "Event-timed milliseconds per variant",
          .x = {"variant", false, ""},
          .y = {"median_ms", true, "ms"}});
  b.plot({.id = "timeline",
          .kind = bench::PlotKind::Gantt,
          .title = "What the GPU did, per stream",
          .x = {"time", false, "ms"},
          .y = {"extra:intervals", false, ""}});
  return b.build();
}

[[maybe_unused]] const bool registered = bench::register_experiment(make());

}  // namespace
}  // namespace memlab::lessons::events
