// multi_gpu_pipeline: the streams pipeline split across GPUs. Variants and napkin math:
// kernels.cuh. Bytes: A and B copied in and C copied out once: 12 x n.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <optional>
#include <vector>

#include "common/variants.hpp"
#include "memlab/bench/distributed.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/bench/parallel.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/cuda/device_guard.hpp"
#include "memlab/cuda/event.hpp"
#include "memlab/cuda/fill.hpp"
#include "memlab/cuda/stream.hpp"
#include "multi_gpu_pipeline/kernels.cuh"

namespace memlab::lessons::multi_gpu_pipeline {
namespace {

using bench::Params;

}  // namespace

float add_work_reference(float a, float b, int work) {
  const float x = a + b;
  float y = x;
  for (int k = 0; k < work && y != 0.5f; ++k) y = std::fma(y, kFmaMul, kFmaAdd);
  return x * (y + y);
}

namespace {

// One GPU's share: its slice [begin, end) of the arrays, its buffers and streams.
struct Gpu {
  int device = 0;
  std::size_t capacity = 0;  // elements its buffers hold
  DeviceBuffer<float> da, db, dc;
  std::vector<Stream> streams;
  std::vector<Event> joins;
};

struct State {
  std::size_t n = 0;
  int work = 0, segments = 1;
  PinnedBuffer<float> ha, hb, hc;
  std::vector<Gpu> gpus;  // GPU 0 holds the whole arrays (one_gpu), the others their slice
  Event fork{cudaEventDisableTiming};
};

std::size_t slice_begin(std::size_t n, int parts, int g) {
  return n * static_cast<std::size_t>(g) / static_cast<std::size_t>(parts);
}

State setup(const Params& p, std::uint64_t seed) {
  State st;
  st.n = static_cast<std::size_t>(p.n("n"));
  st.work = static_cast<int>(p.n("work"));
  st.segments = static_cast<int>(p.n("segments"));
  st.ha = PinnedBuffer<float>(st.n);
  st.hb = PinnedBuffer<float>(st.n);
  st.hc = PinnedBuffer<float>(st.n);
  float* a = st.ha.get();
  float* b = st.hb.get();
  bench::parallel_for(st.n, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) {
      a[i] = random_uniform(seed, i, -1.0f, 1.0f);
      b[i] = random_uniform(seed + 1, i, -1.0f, 1.0f);
    }
  });
  const int count = std::max(device_count_or_zero(), 1);
  for (int g = 0; g < count; ++g) {
    DeviceGuard guard(g);
    Gpu gpu;
    gpu.device = g;
    gpu.capacity = g == 0 ? st.n : slice_begin(st.n, count, g + 1) - slice_begin(st.n, count, g);
    gpu.da = DeviceBuffer<float>(gpu.capacity);
    gpu.db = DeviceBuffer<float>(gpu.capacity);
    gpu.dc = DeviceBuffer<float>(gpu.capacity);
    for (int s = 0; s < kStreamsPerGpu; ++s) {
      gpu.streams.emplace_back();
      gpu.joins.emplace_back(cudaEventDisableTiming);
    }
    st.gpus.push_back(std::move(gpu));
  }
  return st;
}

// GPU `gpu` pipelines elements [begin, end) of the host arrays: its segments breadth-first over
// its 4 streams (all H2D, then all kernels, then all D2H), after `fork`.
void enqueue_slice(State& st, Gpu& gpu, std::size_t begin, std::size_t end) {
  DeviceGuard guard(gpu.device);
  for (Stream& s : gpu.streams) MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(s, st.fork, 0));
  const std::size_t len = end - begin;
  auto seg = [&](int i) {
    return len * static_cast<std::size_t>(i) / static_cast<std::size_t>(st.segments);
  };
  const std::size_t f = sizeof(float);
  for (int i = 0; i < st.segments; ++i) {
    const std::size_t lo = seg(i), cnt = seg(i + 1) - lo;
    cudaStream_t s = gpu.streams[static_cast<std::size_t>(i % kStreamsPerGpu)];
    MEMLAB_CUDA_CHECK(cudaMemcpyAsync(gpu.da.get() + lo, st.ha.get() + begin + lo, cnt * f,
                                      cudaMemcpyHostToDevice, s));
    MEMLAB_CUDA_CHECK(cudaMemcpyAsync(gpu.db.get() + lo, st.hb.get() + begin + lo, cnt * f,
                                      cudaMemcpyHostToDevice, s));
  }
  for (int i = 0; i < st.segments; ++i) {
    const std::size_t lo = seg(i), cnt = seg(i + 1) - lo;
    launch_add_work(gpu.da.get() + lo, gpu.db.get() + lo, gpu.dc.get() + lo, cnt, st.work,
                    gpu.streams[static_cast<std::size_t>(i % kStreamsPerGpu)]);
  }
  for (int i = 0; i < st.segments; ++i) {
    const std::size_t lo = seg(i), cnt = seg(i + 1) - lo;
    MEMLAB_CUDA_CHECK(cudaMemcpyAsync(st.hc.get() + begin + lo, gpu.dc.get() + lo, cnt * f,
                                      cudaMemcpyDeviceToHost,
                                      gpu.streams[static_cast<std::size_t>(i % kStreamsPerGpu)]));
  }
  for (std::size_t k = 0; k < gpu.streams.size(); ++k) gpu.joins[k].record(gpu.streams[k]);
}

void run(State& st, Variant v, cudaStream_t s) {
  st.fork.record(s);
  int parts = 1;
  switch (v) {
    case Variant::OneGpu:
      parts = 1;
      break;
    case Variant::AllGpus:
      parts = static_cast<int>(st.gpus.size());
      break;
  }
  for (int g = 0; g < parts; ++g) {
    enqueue_slice(st, st.gpus[static_cast<std::size_t>(g)], slice_begin(st.n, parts, g),
                  slice_begin(st.n, parts, g + 1));
  }
  for (int g = 0; g < parts; ++g) {
    for (Event& e : st.gpus[static_cast<std::size_t>(g)].joins)
      MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(s, e, 0));
  }
}

bench::Check check(State& st, const Params&, const std::string& name) {
  (void)variant_of(kVariants, name, "multi_gpu_pipeline");
  std::atomic<std::size_t> wrong{0};
  const float* a = st.ha.get();
  const float* b = st.hb.get();
  const float* c = st.hc.get();
  bench::parallel_for(st.n, [&](std::size_t lo, std::size_t hi) {
    std::size_t bad = 0;
    for (std::size_t i = lo; i < hi; ++i) {
      const float want = add_work_reference(a[i], b[i], st.work);
      if (std::memcmp(&want, c + i, sizeof want) != 0) ++bad;
    }
    wrong += bad;
  });
  bench::Check out;
  out.error = static_cast<double>(wrong.load());
  out.ok = wrong == 0;
  if (!out.ok) out.detail = fmt::format(" {} of {} elements differ", wrong.load(), st.n);
  return out;
}

bool leader() {
  return bench::distributed().node_leader();
}

bench::Experiment make() {
  bench::ExperimentBuilder<State> b(
      "multi_gpu_pipeline", "The streams pipeline split across GPUs: one slice per GPU at once");
  b.bytes_convention("A and B copied in, C copied out once: 12 x n (PCIe, not DRAM)")
      .int_axis("n", {"2^26"}, {"2^24"}, 1, std::int64_t{1} << 30, "floats per array")
      .int_axis("work", {"4096"}, {"1024"}, 0, 1 << 20, "dependent FMAs per element")
      .int_axis("segments", {"16"}, {"8"}, 1, 1024, "segments per GPU")
      .test_point({{"n", "1000003"}, {"work", "64"}, {"segments", "7"}})
      .test_point({{"n", "4099"}, {"work", "3"}, {"segments", "3"}})
      .default_suite(false)
      .bytes([](const Params& p) { return 12.0 * static_cast<double>(p.n("n")); })
      .footprint([](const Params& p) { return 12.0 * static_cast<double>(p.n("n")); })
      .flush_l2(false)
      .setup(setup)
      .poison([](State& st, const Params&, cudaStream_t s) {
        MEMLAB_CUDA_CHECK(cudaStreamSynchronize(s));
        float* c = st.hc.get();
        bench::parallel_for(st.n, [c](std::size_t lo, std::size_t hi) {
          std::memset(c + lo, 0xFF, (hi - lo) * sizeof(float));
        });
      })
      .check(check);
  for (const VariantInfo<Variant>& v : kVariants) {
    const Variant id = v.id;
    b.variant(v.name, v.description,
              [id](State& st, const Params&, cudaStream_t s) { run(st, id, s); });
    switch (id) {
      case Variant::OneGpu:
        b.needs_device([](const Params&) { return leader(); },
                       "with --devices or mpirun only the first worker of a host runs it");
        break;
      case Variant::AllGpus:
        b.needs_device(
             [](const Params&) { return leader() && device_count_or_zero() >= 2; },
             "needs two GPUs (on one GPU it is one_gpu); with --devices or mpirun only the "
             "first worker of a host runs it")
            .predict([](const Params&) -> std::optional<bench::Prediction> {
              const int g = device_count_or_zero();
              if (g < 2) return std::nullopt;
              bench::Prediction pr;
              pr.slowdown = 1.0 / g;
              pr.model =
                  fmt::format("{} GPUs, each its own PCIe link: 1/{} of one_gpu's time", g, g);
              return pr;
            });
        break;
    }
  }
  b.baseline(variant_name(kVariants, Variant::OneGpu));
  b.plot({.id = "time",
          .kind = bench::PlotKind::Bars,
          .title = "The pipeline on one GPU and on all",
          .x = {"variant", false, ""},
          .y = {"median_ms", true, "ms"},
          .references = {"baseline"},
          .model = true});
  return b.build();
}

[[maybe_unused]] const bool registered = bench::register_experiment(make());

}  // namespace
}  // namespace memlab::lessons::multi_gpu_pipeline
