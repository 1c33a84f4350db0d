// Registration of the graphs lesson (experiment `graphs`): a chain of small dependent kernels
// launched one by one on a stream, captured into a CUDA graph, or fused into one kernel.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "graphs/graph.hpp"
#include "graphs/kernels.cuh"
#include "graphs/model.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/bench/parallel.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/event.hpp"
#include "memlab/cuda/fill.hpp"
#include "memlab/cuda/stream.hpp"

namespace memlab::lessons::graphs {
namespace {

using bench::Params;

enum class Variant { kStream, kGraph, kFused };
struct VariantInfo {
  Variant id;
  const char* name;
  const char* description;
};
constexpr VariantInfo kVariants[] = {
    {Variant::kStream, "stream", "one cudaLaunchKernel per kernel of the chain"},
    {Variant::kGraph, "graph", "the chain captured once into a CUDA graph, one cudaGraphLaunch"},
    {Variant::kFused, "fused", "the whole chain's work in one kernel: no launch between steps"},
};

constexpr int kCyclesPerFma = 4;  // dependent FP32 FMA latency on sm_80/sm_90

int device_clock_khz() {
  int device = 0, khz = 0;
  MEMLAB_CUDA_CHECK(cudaGetDevice(&device));
  MEMLAB_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
  return khz;
}

// FMA steps per kernel for `work_us` microseconds of dependent FMAs at the boost clock.
int burn_steps(std::int64_t work_us, int clock_khz) {
  return static_cast<int>(work_us * clock_khz / 1000 / kCyclesPerFma);
}

struct State {
  std::size_t n = 0;
  int kernels = 0;
  int burn = 0;
  DeviceBuffer<float> in, out;
  std::vector<float> want;
  Stream capture_stream;
  CapturedGraph graph;
};

void enqueue(const State& st, Variant v, cudaStream_t s) {
  switch (v) {
    case Variant::kStream:
      for (int k = 0; k < st.kernels; ++k) {
        launch_chain_step(k == 0 ? st.in.get() : st.out.get(), st.out.get(), st.n, st.burn, k, s);
      }
      return;
    case Variant::kGraph:
      st.graph.launch(s);
      return;
    case Variant::kFused:
      launch_chain_fused(st.in.get(), st.out.get(), st.n, st.burn, st.kernels, s);
      return;
  }
}

// The CPU reference: the chain's steps in order, in float with std::fma (bit-exact with the GPU's
// __fmaf_rn). The burn loop stops at its fixed point 0.5, so any `burn` costs at most ~60 steps.
float reference_chain(float x, int burn, int kernels) {
  for (int k = 0; k < kernels; ++k) {
    float t = x;
    for (int s = 0; s < burn; ++s) {
      const float next = std::fma(t, kBurnMul, kBurnAdd);
      if (next == t) break;
      t = next;
    }
    x = std::fma(x, kDecay, (t - 0.5f) + step_constant(k));
  }
  return x;
}

State setup(const Params& p, std::uint64_t seed) {
  State st;
  int device = 0, sms = 0;
  MEMLAB_CUDA_CHECK(cudaGetDevice(&device));
  MEMLAB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  st.n = static_cast<std::size_t>(sms) * 256 - 37;  // one block per SM, the last one ragged
  st.kernels = static_cast<int>(p.n("kernels"));
  st.burn = burn_steps(p.n("work_us"), device_clock_khz());
  st.in = DeviceBuffer<float>(st.n);
  st.out = DeviceBuffer<float>(st.n);
  fill_uniform(st.in.get(), st.n, seed, -1.0f, 1.0f, nullptr);
  st.want.resize(st.n);
  bench::parallel_for(st.n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      st.want[i] = reference_chain(random_uniform(seed, i, -1.0f, 1.0f), st.burn, st.kernels);
    }
  });
  st.graph.capture(st.capture_stream, [&](cudaStream_t s) { enqueue(st, Variant::kStream, s); });
  MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
  return st;
}

double time_us(const State& st, Variant v, cudaStream_t s, double* host_us) {
  Event start, stop;
  std::vector<double> gpu, host;
  for (int rep = 0; rep < 7; ++rep) {
    MEMLAB_CUDA_CHECK(cudaStreamSynchronize(s));
    start.record(s);
    const auto t0 = std::chrono::steady_clock::now();
    enqueue(st, v, s);
    const auto t1 = std::chrono::steady_clock::now();
    stop.record(s);
    stop.synchronize();
    if (rep == 0) continue;  // warm-up
    gpu.push_back(1e3 * static_cast<double>(stop.elapsed_ms_since(start)));
    host.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  std::sort(gpu.begin(), gpu.end());
  std::sort(host.begin(), host.end());
  *host_us = host[host.size() / 2];
  return gpu[gpu.size() / 2];
}

// Times the three variants back to back and reports the overhead per kernel with and without a
// graph: (variant - fused) / kernels, and the host's own cost per launch call.
void inspect(State& st, const Params&, bench::Extras& x) {
  Stream s;
  double host_stream = 0, host_graph = 0, host_fused = 0;
  const double t_stream = time_us(st, Variant::kStream, s, &host_stream);
  const double t_graph = time_us(st, Variant::kGraph, s, &host_graph);
  const double t_fused = time_us(st, Variant::kFused, s, &host_fused);
  const double k = st.kernels;
  x.figures = {{"stream_us_per_kernel", t_stream / k},
               {"graph_us_per_kernel", t_graph / k},
               {"fused_us_per_kernel", t_fused / k},
               {"overhead_stream_us_per_kernel", (t_stream - t_fused) / k},
               {"overhead_graph_us_per_kernel", (t_graph - t_fused) / k},
               {"host_us_per_cudaLaunchKernel", host_stream / k},
               {"host_us_per_cudaGraphLaunch", host_graph},
               {"graph_speedup", t_stream / t_graph},
               {"graph_nodes", static_cast<double>(st.graph.nodes())}};
  x.text = fmt::format(
      "  per kernel: stream {:.2f} us, graph {:.2f} us, fused {:.2f} us -> overhead {:.2f} us "
      "(stream) vs {:.2f} us (graph); host {:.2f} us per cudaLaunchKernel\n",
      t_stream / k, t_graph / k, t_fused / k, (t_stream - t_fused) / k, (t_graph - t_fused) / k,
      host_stream / k);
}

std::optional<bench::Prediction> predict(Variant v, const Params& p) {
  const int kernels = static_cast<int>(p.n("kernels"));
  const double work = static_cast<double>(p.n("work_us"));
  bench::Prediction pr;
  switch (v) {
    case Variant::kStream:
      pr.time_ms = 1e-3 * chain_stream_us(kernels, work);
      pr.model = fmt::format("launch: kernels x max({} us host launch, work + {} us gap)",
                             kHostLaunchUs, kGapStreamUs);
      break;
    case Variant::kGraph:
      pr.time_ms = 1e-3 * chain_graph_us(kernels, work);
      pr.model = fmt::format("launch: {} us graph launch + kernels x (work + {} us node gap)",
                             kGraphLaunchUs, kGapGraphUs);
      break;
    case Variant::kFused:
      pr.time_ms = 1e-3 * chain_fused_us(kernels, work);
      pr.model = "launch: one launch + kernels x work";
      break;
  }
  return pr;
}

bench::Experiment make() {
  bench::ExperimentBuilder<State> b(
      "graphs", "A chain of small kernels: stream launches vs a CUDA graph vs one fused kernel");
  b.bytes_convention("none: the chain's data (~135 KB) stays in L2; the lesson is time per kernel")
      .int_axis("work_us", {"2", "5", "10", "20", "50", "100"}, {"2", "20"}, 0, 10000,
                "dependent-FMA work per kernel in microseconds at the boost clock (kernel length)")
      .int_axis("kernels", {"200"}, {"100"}, 1, 100000, "kernels in the chain")
      .test_point({{"work_us", "0"}, {"kernels", "1"}})
      .test_point({{"work_us", "0"}, {"kernels", "37"}})
      .test_point({{"work_us", "1"}, {"kernels", "13"}})
      .flush_l2(false)
      .footprint([](const Params&) { return 2.0 * 132 * 256 * 4; })
      .setup(setup)
      .poison([](State& st, const Params&, cudaStream_t s) { st.out.fill_bytes(0xFF, s); })
      .check([](State& st, const Params&, const std::string&) {
        std::vector<float> got(st.n);
        st.out.copy_to_host(got.data(), st.n);
        return bench::check_exact(got.data(), st.want.data(), st.n);
      });
  for (const VariantInfo& info : kVariants) {
    const Variant v = info.id;
    b.variant(info.name, info.description, [v](State& st, const Params&, cudaStream_t s) {
       enqueue(st, v, s);
     }).predict([v](const Params& p) { return predict(v, p); });
    if (v == Variant::kGraph) b.inspect(inspect);
  }
  b.baseline("stream");
  b.plot({.id = "chain",
          .kind = bench::PlotKind::Curve,
          .title = "The kernel chain against the work per kernel",
          .x = {"work_us", true, "us"},
          .y = {"median_ms", true, "ms"},
          .references = {"baseline"},
          .model = true});
  b.plot({.id = "overhead",
          .kind = bench::PlotKind::Curve,
          .title = "Launch overhead per kernel: stream launches",
          .x = {"work_us", true, "us"},
          .y = {"figure:overhead_stream_us_per_kernel", false, "us"},
          .variants = {"graph"}});
  b.plot({.id = "overhead_graph",
          .kind = bench::PlotKind::Curve,
          .title = "Launch overhead per kernel: one graph launch",
          .x = {"work_us", true, "us"},
          .y = {"figure:overhead_graph_us_per_kernel", false, "us"},
          .variants = {"graph"}});
  return b.build();
}

[[maybe_unused]] const bool registered = bench::register_experiment(make());

}  // namespace
}  // namespace memlab::lessons::graphs
