// Registration of the unified_memory lesson: explicit copies against managed memory (faults,
// prefetch, read-mostly) and zero-copy, for data read once or many times.
#include <fmt/format.h>

#include <cstring>
#include <string>
#include <vector>

#include "memlab/bench/experiment.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/event.hpp"
#include "memlab/cuda/fill.hpp"
#include "unified_memory/kernels.cuh"

namespace memlab::lessons::unified_memory {
namespace {

using bench::Params;

struct State {
  std::size_t words = 0;
  std::uint32_t reads = 1;
  std::uint32_t want = 0;
  int device = 0;
  PinnedBuffer<std::uint32_t> host;  // mapped: zero_copy reads it in place
  std::uint32_t* host_mapped = nullptr;
  DeviceBuffer<std::uint32_t> dev, partial;
  ManagedBuffer<std::uint32_t> managed, managed_rm;
  std::unique_ptr<Event> e0, e1;
};

cudaMemLocation location(int device) {
  cudaMemLocation l{};
  l.type = device < 0 ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
  l.id = device < 0 ? 0 : device;
  return l;
}

State setup(const Params& p, std::uint64_t seed) {
  State st;
  const std::int64_t bytes = p.n("size");
  std::size_t free_b = 0, total_b = 0;
  MEMLAB_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  // Managed allocations stay well inside the free device memory (no oversubscription).
  if (2.0 * static_cast<double>(bytes) > 0.25 * static_cast<double>(free_b)) {
    throw UsageError(fmt::format(
        "axis size: {} bytes twice (two managed buffers) exceeds a quarter of the free device "
        "memory ({} bytes)",
        bytes, free_b));
  }
  MEMLAB_CUDA_CHECK(cudaGetDevice(&st.device));
  st.words = static_cast<std::size_t>(bytes / 4);
  st.reads = static_cast<std::uint32_t>(p.n("reads"));
  st.host = PinnedBuffer<std::uint32_t>(st.words, cudaHostAllocMapped);
  std::uint32_t sum = 0;
  for (std::size_t i = 0; i < st.words; ++i) {
    const auto w = static_cast<std::uint32_t>(random_u64(seed, i) >> 16);
    st.host[i] = w;
    sum += w;
  }
  st.want = sum * st.reads;
  void* mapped = nullptr;
  MEMLAB_CUDA_CHECK(cudaHostGetDevicePointer(&mapped, st.host.get(), 0));
  st.host_mapped = static_cast<std::uint32_t*>(mapped);
  st.dev = DeviceBuffer<std::uint32_t>(st.words);
  st.partial = DeviceBuffer<std::uint32_t>(std::size_t{kBlocks} * kThreads);
  st.managed = ManagedBuffer<std::uint32_t>(st.words);
  st.managed_rm = ManagedBuffer<std::uint32_t>(st.words);
  std::memcpy(st.managed.get(), st.host.get(), st.words * 4);  // first touch: the CPU
  std::memcpy(st.managed_rm.get(), st.host.get(), st.words * 4);
  MEMLAB_CUDA_CHECK(cudaMemAdvise(st.managed_rm.get(), st.words * 4, cudaMemAdviseSetReadMostly,
                                  location(st.device)));
  st.e0 = std::make_unique<Event>();
  st.e1 = std::make_unique<Event>();
  return st;
}

void run(State& st, Variant v, cudaStream_t s) {
  const std::size_t bytes = st.words * 4;
  const std::uint32_t* src = st.dev.get();
  switch (v) {
    case Variant::Explicit:
      st.e0->record(s);
      MEMLAB_CUDA_CHECK(
          cudaMemcpyAsync(st.dev.get(), st.host.get(), bytes, cudaMemcpyHostToDevice, s));
      break;
    case Variant::ManagedFault:
      MEMLAB_CUDA_CHECK(cudaMemPrefetchAsync(st.managed.get(), bytes, location(-1), 0, s));
      st.e0->record(s);
      src = st.managed.get();
      break;
    case Variant::ManagedPrefetch:
      MEMLAB_CUDA_CHECK(cudaMemPrefetchAsync(st.managed.get(), bytes, location(-1), 0, s));
      st.e0->record(s);
      MEMLAB_CUDA_CHECK(cudaMemPrefetchAsync(st.managed.get(), bytes, location(st.device), 0, s));
      src = st.managed.get();
      break;
    case Variant::ManagedReadMostly:
      MEMLAB_CUDA_CHECK(cudaMemPrefetchAsync(st.managed_rm.get(), bytes, location(-1), 0, s));
      st.e0->record(s);
      src = st.managed_rm.get();
      break;
    case Variant::ZeroCopy:
      st.e0->record(s);
      src = st.host_mapped;
      break;
  }
  launch_read(src, st.words, st.reads, st.partial.get(), s);
  st.e1->record(s);
}

bench::Check check(State& st, const Params&, const std::string&) {
  std::vector<std::uint32_t> got(st.partial.size());
  st.partial.copy_to_host(got.data(), got.size());
  std::uint32_t total = 0;
  for (std::uint32_t x : got) total += x;
  return bench::check_exact(&total, &st.want, 1);
}

bench::Experiment make() {
  bench::ExperimentBuilder<State> b(
      "unified_memory",
      "Explicit copy vs managed memory (faults, prefetch, read-mostly), zero-copy");
  b.bytes_convention("the host data once (size), whatever the number of kernel reads")
      .int_axis("size", {"268435456"}, {"67108864"}, 4096, std::int64_t{1} << 34,
                "bytes of host data (sweep: -a size=1048576,16777216,268435456,1073741824)")
      .int_axis("reads", {"1", "16"}, {"1", "16"}, 1, 1024,
                "times the kernel reads the data (1: read once; 16: read many)")
      .test_point({{"size", "4096"}, {"reads", "1"}})
      .test_point({{"size", "1048592"}, {"reads", "3"}})
      .validate([](const Params& p) {
        if (p.n("size") % 16 != 0) {
          throw UsageError(fmt::format("axis size: {} is not a multiple of 16", p.n("size")));
        }
      })
      .bytes([](const Params& p) { return static_cast<double>(p.n("size")); })
      .footprint([](const Params& p) { return 3.0 * static_cast<double>(p.n("size")); })
      .flush_l2(false)
      .setup(setup)
      .poison([](State& st, const Params&, cudaStream_t s) { st.partial.fill_bytes(0xFF, s); })
      .check(check);
  for (const auto& info : kVariants) {
    const Variant v = info.id;
    b.variant(info.name, info.description, [v](State& st, const Params&, cudaStream_t s) {
       run(st, v, s);
     }).inspect([](State& st, const Params&, bench::Extras& x) {
      x.figures.emplace_back("gpu_part_ms", st.e1->elapsed_ms_since(*st.e0));
    });
  }
  b.baseline("explicit");
  b.plot({.id = "time",
          .kind = bench::PlotKind::Stacked,
          .title = "Time per variant against the reads: GPU part and the rest",
          .x = {"reads", false, ""},
          .y = {"median_ms", true, "ms"},
          .references = {"baseline"},
          .stack = {"figure:gpu_part_ms"}});
  return b.build();
}

[[maybe_unused]] const bool registered = bench::register_experiment(make());

}  // namespace
}  // namespace memlab::lessons::unified_memory
