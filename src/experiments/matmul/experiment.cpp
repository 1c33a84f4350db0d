// Registration of the matmul lesson: FP32 C = A B from the naive kernel to cuBLAS-class tiling.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <vector>

#include "common/cublas.hpp"
#include "common/hopper.hpp"
#include "matmul/kernels.cuh"
#include "matmul/reference.hpp"
#include "matmul/vendor.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/check.hpp"
#include "memlab/cuda/fill.hpp"

namespace memlab::lessons::matmul {
namespace {

using bench::Params;

// Up to this many multiply-adds the check uses the double-precision CPU reference of every
// element; above it (the benchmark sizes) the cuBLAS result computed in setup, plus a
// double-precision check of kSamples sampled elements.
constexpr double kCpuReferenceMacs = 1u << 27;
constexpr int kSamples = 256;
constexpr double kTolerance = 1e-5;

// Event pairs recorded around a variant's own launches (the last kRing of them), so that the
// inspect hook can set the variant's time beside cuBLAS's without timing anything again.
class EventRing {
 public:
  static constexpr int kRing = 32;
  EventRing() {
    for (auto& e : start_) MEMLAB_CUDA_CHECK(cudaEventCreate(&e));
    for (auto& e : stop_) MEMLAB_CUDA_CHECK(cudaEventCreate(&e));
  }
  ~EventRing() {
    for (auto e : start_) cudaEventDestroy(e);
    for (auto e : stop_) cudaEventDestroy(e);
  }
  EventRing(const EventRing&) = delete;
  EventRing& operator=(const EventRing&) = delete;
  void start(cudaStream_t s) { MEMLAB_CUDA_CHECK(cudaEventRecord(start_[next_], s)); }
  void stop(cudaStream_t s) {
    MEMLAB_CUDA_CHECK(cudaEventRecord(stop_[next_], s));
    next_ = (next_ + 1) % kRing;
    count_ = std::min(count_ + 1, kRing);
  }
  // Median of the recorded launches in milliseconds (0 when none).
  double median_ms() const {
    std::vector<double> ms;
    for (int i = 0; i < count_; ++i) {
      MEMLAB_CUDA_CHECK(cudaEventSynchronize(stop_[i]));
      float t = 0;
      MEMLAB_CUDA_CHECK(cudaEventElapsedTime(&t, start_[i], stop_[i]));
      ms.push_back(t);
    }
    if (ms.empty()) return 0;
    std::nth_element(ms.begin(), ms.begin() + static_cast<long>(ms.size() / 2), ms.end());
    return ms[ms.size() / 2];
  }

 private:
  std::array<cudaEvent_t, kRing> start_{}, stop_{};
  int next_ = 0, count_ = 0;
};

struct State {
  int m = 0, n = 0, k = 0;
  std::uint64_t seed = 0;
  DeviceBuffer<float> a, b, c, gpu_ref;
  std::vector<double> cpu_ref;         // small sizes: every element
  std::vector<double> samples;         // large sizes: sampled elements in double precision
  std::vector<std::size_t> positions;  // their row-major indices
  std::unique_ptr<CublasHandle> cublas;
  StreamKWorkspace stream_k;  // the stream-K variants' partials, counters and side stream
  std::vector<std::unique_ptr<EventRing>> rings;
  double cublas_setup_ms = 0;  // median of 5 cuBLAS runs in setup (warm)
};

double macs(const Params& p) {
  return static_cast<double>(p.n("m")) * static_cast<double>(p.n("n")) *
         static_cast<double>(p.n("k"));
}

State setup(const Params& p, std::uint64_t seed) {
  State st;
  st.m = static_cast<int>(p.n("m"));
  st.n = static_cast<int>(p.n("n"));
  st.k = static_cast<int>(p.n("k"));
  st.seed = seed;
  const auto m = static_cast<std::size_t>(st.m), n = static_cast<std::size_t>(st.n),
             k = static_cast<std::size_t>(st.k);
  st.a = DeviceBuffer<float>(m * k);
  st.b = DeviceBuffer<float>(k * n);
  st.c = DeviceBuffer<float>(m * n);
  fill_uniform(st.a.get(), m * k, seed, -1.0f, 1.0f, nullptr);
  fill_uniform(st.b.get(), k * n, seed + 1, -1.0f, 1.0f, nullptr);
  // cuBLAS where it is installed (common/cublas.hpp): the vendor line, the full reference at
  // large sizes and the pct_cublas figure. Without it those are left out.
  if (cublas_available()) st.cublas = std::make_unique<CublasHandle>(kSgemmMath);
  // Allocated here, never in the timed launches (its counters zeroed once, left at 0 by each).
  st.stream_k = StreamKWorkspace(st.m, st.n, st.k);
  for (std::size_t i = 0; i < std::size(kVariants); ++i) {
    st.rings.push_back(std::make_unique<EventRing>());
  }
  if (macs(p) <= kCpuReferenceMacs) {
    st.cpu_ref = reference_product(seed, st.m, st.n, st.k);
  } else {
    if (st.cublas) {
      st.gpu_ref = DeviceBuffer<float>(m * n);
      cublas_sgemm(st.cublas->get(), st.a.get(), st.b.get(), st.gpu_ref.get(), st.m, st.n, st.k,
                   nullptr);
    }
    st.samples = sampled_product(seed, st.m, st.n, st.k, kSamples, st.positions);
  }
  // cuBLAS's time at this point, for the pct_cublas figure of every variant.
  if (st.cublas) {
    EventRing ring;
    for (int i = 0; i < 6; ++i) {
      if (i > 0) ring.start(nullptr);
      cublas_sgemm(st.cublas->get(), st.a.get(), st.b.get(), st.c.get(), st.m, st.n, st.k, nullptr);
      if (i > 0) ring.stop(nullptr);
    }
    st.cublas_setup_ms = ring.median_ms();
  }
  MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
  return st;
}

bench::Check check(State& st, const Params&, const std::string&) {
  std::vector<float> got(st.c.size());
  st.c.copy_to_host(got.data(), got.size());
  if (!st.cpu_ref.empty()) {
    return bench::check_rel_l2(got.data(), st.cpu_ref.data(), got.size(), kTolerance);
  }
  std::vector<float> picked(st.positions.size());
  for (std::size_t s = 0; s < picked.size(); ++s) picked[s] = got[st.positions[s]];
  const bench::Check sampled =
      bench::check_rel_l2(picked.data(), st.samples.data(), picked.size(), kTolerance);
  if (st.gpu_ref.size() == 0) {  // no cuBLAS here: the sampled elements only
    bench::Check only = sampled;
    only.detail += " (sampled elements only: cuBLAS is not installed here)";
    return only;
  }
  // Large sizes: every element against cuBLAS (two FP32 summation orders differ by ~1e-6
  // relative L2 at K = 4096), and sampled elements against double precision.
  std::vector<float> ref(st.gpu_ref.size());
  st.gpu_ref.copy_to_host(ref.data(), ref.size());
  bench::Check all = bench::check_rel_l2(got.data(), ref.data(), got.size(), kTolerance);
  if (!sampled.ok) {
    all.ok = false;
    all.detail += " sampled elements vs double precision: " + sampled.detail;
  }
  all.error = std::max(all.error, sampled.error);
  return all;
}

// What limits a variant: the flop per byte of global loads its block tile gives, and its predicted
// time over the time at the FP32 peak (shared/L1 wavefront model) with the model's one line.
struct Bound {
  double tile_intensity;  // 0: not a tiled kernel of memlab's
  double bound;
  const char* model;
};

// The bounds: an SM issues 4 warp-FMAs per clock and serves 1 shared/L1 wavefront per clock, so a
// kernel needing w wavefronts per warp-FMA runs at most at peak / (4 w).
Bound bound_of(Variant v) {
  switch (v) {
    case Variant::NaiveUncoalesced:
      return {0.25, 132, "L1 wavefronts: ~33 per warp-FMA (A: 32 lines, B: broadcast) -> peak/132"};
    case Variant::Naive:
      return {0.25, 8, "L1 wavefronts: 2 per warp-FMA (A broadcast, B one line) -> peak/8"};
    case Variant::Tiled16:
      return {4, 5,
              "shared wavefronts: 1.25 per warp-FMA (A float4 broadcast per 4 k, B one) -> peak/5"};
    case Variant::Tiled32:
      return {8, 5, "shared wavefronts: 1.25 per warp-FMA -> peak/5"};
    case Variant::Block1d:
      return {16, 1.5, "shared wavefronts: 3 per 8 warp-FMAs -> peak/1.5"};
    case Variant::Block2d:
      return {32, 1.25,
              "FMA-bound but 4-way conflicts on B and 130 registers (1 block/SM) -> peak/1.25"};
    case Variant::Vectorized:
      return {32, 1.0, "FMA pipe: 64 FMAs per 4 LDS.128 -> peak"};
    case Variant::Warptile:
    case Variant::DoubleBuffer:
      return {32, 1.0, "FMA pipe -> peak"};
    case Variant::ThreadTile8x16:
      return {32, 1.0, "FMA pipe: 128 FMAs per 6 LDS.128 -> peak"};
    case Variant::CpAsync:
      return {32, 1.0, "FMA pipe: 512 FMAs per 24 LDS.128, loads off the register file -> peak"};
    case Variant::Tma:
      return {32, 1.0, "FMA pipe: 512 FMAs per 24 LDS.128, 2 copy instructions per k tile -> peak"};
    case Variant::ThreadTileBk16:
      return {32, 1.0, "FMA pipe: 128 FFMA per 6 LDS.128, one barrier per 2048 FFMA -> peak"};
    case Variant::ThreadTile256x128:
      return {256.0 * 128.0 / (2.0 * 384.0), 1.0,
              "FMA pipe: 512 FFMA per 24 LDS.128, 256 x 128 tile, cp.async ring -> peak"};
    case Variant::ThreadTile8x16Db:
      return {32, 1.0,
              "FMA pipe: 128 FFMA per 6 LDS.128, fragments double-buffered, 1 barrier per 1024 "
              "FFMA -> peak"};
    case Variant::ThreadTile8x16Sk:
      return {32, 1.0,
              "FMA pipe: thread_tile_8x16's loop on a stream-K grid (no partly empty last wave) "
              "-> peak"};
    case Variant::ThreadTile8x16Tail:
      return {32, 1.0,
              "FMA pipe: thread_tile_8x16's whole waves, stream-K for the last partial wave "
              "-> peak"};
    case Variant::ThreadTile8x16Snake:
    case Variant::ThreadTile8x16SnakeCols:
      return {32, 1.0, "FMA pipe: 128 FMAs per 6 LDS.128, snake order for operand reuse -> peak"};
    case Variant::ThreadTile8x16SnakeTail:
    case Variant::ThreadTile8x16TailOwn:
      return {32, 1.0,
              "FMA pipe: thread_tile_8x16's own kernel for the whole waves, stream-K for the last "
              "partial wave -> peak"};
    case Variant::Cublas:
      return {0, 1.0, "FMA pipe -> peak (cuBLAS measured 50.5 TFLOP/s: 75%)"};
  }
  invalid_variant("matmul");
}

std::optional<bench::Prediction> predict(const Params& p, double bound, const char* model) {
  bench::Prediction pr;
  pr.model = model;
  // The harness turns flops into time at the FP32 peak: scale them by the bound.
  pr.flops = 2.0 * macs(p) * bound;
  const double m = static_cast<double>(p.n("m")), n = static_cast<double>(p.n("n")),
               k = static_cast<double>(p.n("k"));
  pr.dram_bytes = (m * k + k * n + m * n) * 4.0;
  return pr;
}

void add_figures(State& st, int index, Variant variant, double intensity, bench::Extras& x) {
  const double ms = st.rings[static_cast<std::size_t>(index)]->median_ms();
  if (ms > 0 && st.cublas_setup_ms > 0) {
    x.figures.emplace_back("pct_cublas", 100.0 * st.cublas_setup_ms / ms);
  }
  if (intensity > 0) x.figures.emplace_back("tile_intensity", intensity);
  if (variant != Variant::Cublas) {  // compile-time resources of memlab's own kernels
    const KernelInfo info = kernel_info(variant, st.m, st.n, st.k);
    x.figures.emplace_back("registers", info.registers);
    x.figures.emplace_back("spill_bytes", info.local_bytes);
    x.figures.emplace_back("smem_bytes", info.shared_bytes);
  }
}

bench::Experiment make() {
  bench::ExperimentBuilder<State> b("matmul",
                                    "FP32 C = A B: naive, shared-memory tiles, register "
                                    "blocking, warp tiles, double buffering vs cuBLAS");
  b.bytes_convention("A, B read once and C written once: (M K + K N + M N) * 4 bytes")
      .int_axis("m", {"4096"}, {"2048"}, 1, kMaxDim, "rows of A and C")
      .int_axis("n", {"4096"}, {"2048"}, 1, kMaxDim, "columns of B and C")
      .int_axis("k", {"4096"}, {"2048"}, 1, kMaxDim, "columns of A, rows of B")
      .test_point({{"m", "1"}, {"n", "1"}, {"k", "1"}})
      .test_point({{"m", "17"}, {"n", "33"}, {"k", "9"}})
      .test_point({{"m", "127"}, {"n", "129"}, {"k", "65"}})
      .test_point({{"m", "300"}, {"n", "200"}, {"k", "100"}})
      .test_point({{"m", "256"}, {"n", "384"}, {"k", "72"}})   // the fast kernels' float4 path
      .test_point({{"m", "128"}, {"n", "128"}, {"k", "32"}})   // cp_async: one k tile
      .test_point({{"m", "256"}, {"n", "128"}, {"k", "160"}})  // cp_async: 5 k tiles, 3 stages
      .test_point({{"m", "96"}, {"n", "160"}, {"k", "64"}})    // tiled16/32 without bounds tests
      .test_point({{"m", "128"}, {"n", "256"}, {"k", "16"}})   // thread_tile_bk16: one k tile
      .test_point({{"m", "256"}, {"n", "128"}, {"k", "48"}})   // thread_tile_bk16: 3 k tiles
      .test_point({{"m", "512"}, {"n", "256"}, {"k", "64"}})   // thread_tile_256x128: 2 x 2 blocks
      .test_point({{"m", "128"}, {"n", "256"}, {"k", "8"}})    // thread_tile_8x16_db: one k tile
      // thread_tile_8x16_sk: 288 tiles on 264 slots (H200): nearly every tile split in two;
      // thread_tile_8x16_tail: one wave of 264, then 24 tiles x 8 k tiles over 192 CTAs (8 parts)
      .test_point({{"m", "2304"}, {"n", "2048"}, {"k", "64"}})
      .bytes([](const Params& p) {
        const double m = static_cast<double>(p.n("m")), n = static_cast<double>(p.n("n")),
                     k = static_cast<double>(p.n("k"));
        return (m * k + k * n + m * n) * 4.0;
      })
      .flops([](const Params& p) { return 2.0 * macs(p); })
      .footprint([](const Params& p) {
        const double m = static_cast<double>(p.n("m")), n = static_cast<double>(p.n("n")),
                     k = static_cast<double>(p.n("k"));
        return (m * k + k * n + 2 * m * n) * 4.0;
      })
      .setup(setup)
      .poison([](State& st, const Params&, cudaStream_t s) { st.c.fill_bytes(0xFF, s); })
      .check(check);
  // For learners' kernels (memlab exercise): C = A B, row-major, and the sizes.
  b.kernel_args([](State& st, const Params&) {
    return std::vector<bench::KernelArg>{
        bench::kernel_arg("a", "const float*", st.a.get(), st.a.bytes()),
        bench::kernel_arg("b", "const float*", st.b.get(), st.b.bytes()),
        bench::kernel_arg("c", "float*", st.c.get(), st.c.bytes()),
        bench::kernel_arg("m", "int", st.m),
        bench::kernel_arg("n", "int", st.n),
        bench::kernel_arg("k", "int", st.k)};
  });
  int index = 0;  // the variant's event ring
  for (const VariantInfo<Variant>& v : kVariants) {
    const Variant id = v.id;
    const Bound bound = bound_of(id);
    b.variant(v.name, v.description,
              [id, index](State& st, const Params&, cudaStream_t s) {
                EventRing& ring = *st.rings[static_cast<std::size_t>(index)];
                ring.start(s);
                if (id == Variant::Cublas) {
                  if (!st.cublas) throw bench::SkipPoint(kCublasMissing);
                  cublas_sgemm(st.cublas->get(), st.a.get(), st.b.get(), st.c.get(), st.m, st.n,
                               st.k, s);
                } else {
                  launch(id, st.a.get(), st.b.get(), st.c.get(), st.m, st.n, st.k, s, &st.stream_k);
                }
                ring.stop(s);
              })
        .predict([bound](const Params& p) { return predict(p, bound.bound, bound.model); })
        .inspect([id, index, bound](State& st, const Params&, bench::Extras& x) {
          add_figures(st, index, id, bound.tile_intensity, x);
        });
    if (id == Variant::Cublas)
      b.needs_device([](const Params&) { return cublas_available(); }, kCublasMissing);
    if (id == Variant::CpAsync || id == Variant::ThreadTile256x128) {
      b.needs_device([](const Params&) { return hopper::cc_at_least_or_no_device(8); },
                     "cp.async needs compute capability 8.0");
    }
    if (id == Variant::Tma) {
      b.needs_device([](const Params&) { return hopper::sm90_or_no_device(); }, hopper::kNeedsSm90);
    }
    ++index;
  }
  b.baseline(variant_name(kVariants, Variant::Naive));
  b.vendor(variant_name(kVariants, Variant::Cublas));
  b.plot({.id = "gflops",
          .kind = bench::PlotKind::Ladder,
          .title = "GFLOP/s per kernel against cuBLAS",
          .x = {"variant", false, ""},
          .y = {"gflops", false, "GFLOP/s"},
          .references = {"vendor", "peak_fp32"},
          .model = true});
  b.plot({.id = "roofline",
          .kind = bench::PlotKind::Roofline,
          .title = "Roofline: GFLOP/s against arithmetic intensity",
          .x = {"intensity", true, "FLOP/byte"},
          .y = {"gflops", true, "GFLOP/s"},
          .references = {"peak_fp32", "peak_bandwidth"}});
  return b.build();
}

[[maybe_unused]] const bool registered = bench::register_experiment(make());

}  // namespace
}  // namespace memlab::lessons::matmul
