// Registration of the tensor_cores lesson: BF16 and TF32 GEMM with mma.sync against cuBLAS.
//
// Accuracy argument (the check): the inputs are rounded to BF16 (or TF32) on the host first, and
// the reference uses exactly those rounded values. A product of two BF16 values has at most 16
// significant bits (TF32: 22), so it is exact in FP32: the only error is the FP32 accumulation
// over K terms. In any order, with round-to-nearest or truncation (tensor cores may truncate), each
// of the K additions errs by at most one FP32 ulp of the partial sum, so per element
//   |c - c_ref| <= K * 2^-23 * sum_k |a_ik b_kj|;
// the check allows twice that (K * 2^-22 * sum|ab|). That bound is loose at large K, so a second
// check bounds the relative L2 error over the checked elements by max(K * 2^-24, 2^-20): random
// rounding errors grow like sqrt(K) and a truncation bias like K/2 ulps, while a lost tile of 16
// k-terms (a real bug) shows as ~sqrt(16/K) >= 4e-2.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "common/cublas.hpp"
#include "common/hopper.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/bench/parallel.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/check.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/cuda/fill.hpp"
#include "tensor_cores/kernels.cuh"
#include "tensor_cores/reference.hpp"
#include "tensor_cores/vendor.hpp"

namespace memlab::lessons::tensor_cores {
namespace {

using bench::Params;

enum class DType { kBf16, kTf32 };
enum class Variant {
  kMmaSync,
  kWgmma,
  kWgmmaPersistent,
  kWgmmaTmaStore,  // wgmma_persistent with the epilogue through shared memory and TMA store
  kWgmmaCluster,   // wgmma in 2-CTA clusters along M, B multicast by TMA (BF16 only)
  kWgmmaClusterPersistent,  // wgmma_cluster made persistent (BF16 only)
  kCublas
};
struct VariantInfo {
  Variant id;
  const char* name;
  const char* description;
};
constexpr VariantInfo kVariants[] = {
    {Variant::kMmaSync, "mma_sync",
     "mma.sync (BF16 m16n8k16 with ldmatrix / TF32 m16n8k8), 4-stage cp.async, 128x128 tiles"},
    {Variant::kWgmma, "wgmma",
     "Hopper wgmma m64n256k16 BF16 (TF32: m64n256k8 on C^T = B^T A^T, B's fragments in "
     "registers), TMA 128B-swizzled 4-stage ring, producer/consumer warpgroups"},
    {Variant::kWgmmaPersistent, "wgmma_persistent",
     "wgmma made persistent: one CTA per SM walks the tiles, the TMA ring runs on across tiles"},
    {Variant::kWgmmaTmaStore, "wgmma_tma_store",
     "wgmma_persistent with the epilogue through shared memory: 64x32 FP32 chunks, 128B-swizzled, "
     "written by TMA store while the next tile's MMAs run"},
    {Variant::kWgmmaCluster, "wgmma_cluster",
     "wgmma in 2-CTA clusters along M: each CTA loads its A and half of B, TMA-multicast to both"},
    {Variant::kWgmmaClusterPersistent, "wgmma_cluster_persistent",
     "wgmma_cluster made persistent: 2-CTA clusters walk the tile pairs, B multicast in each pair, "
     "the TMA ring runs on across pairs"},
    {Variant::kCublas, "cublas", "cublasGemmEx, same types, FP32 compute: the vendor line"},
};

// The wgmma kernels built for BF16 only (wgmma itself runs both dtypes): their plan axis and
// their sm_90a gate.
constexpr bool bf16_only(Variant v) {
  return v == Variant::kWgmmaPersistent || v == Variant::kWgmmaTmaStore ||
         v == Variant::kWgmmaCluster || v == Variant::kWgmmaClusterPersistent;
}

constexpr std::size_t kFullCheckMacs = std::size_t{1} << 26;  // above: sampled elements
constexpr std::size_t kSamples = 4096;

DType dtype_of(const Params& p) {
  return p.s("dtype") == "bf16" ? DType::kBf16 : DType::kTf32;
}

struct DeviceCaps {
  int cc_major = 0, sms = 0, clock_khz = 0;
};
const DeviceCaps& caps() {
  static const DeviceCaps c = [] {
    DeviceCaps d;
    int device = 0;
    MEMLAB_CUDA_CHECK(cudaGetDevice(&device));
    MEMLAB_CUDA_CHECK(
        cudaDeviceGetAttribute(&d.cc_major, cudaDevAttrComputeCapabilityMajor, device));
    MEMLAB_CUDA_CHECK(cudaDeviceGetAttribute(&d.sms, cudaDevAttrMultiProcessorCount, device));
    MEMLAB_CUDA_CHECK(cudaDeviceGetAttribute(&d.clock_khz, cudaDevAttrClockRate, device));
    return d;
  }();
  return c;
}

// Dense tensor-core flops per SM per clock: sm_90 4096 BF16 / 2048 TF32 (wgmma rate; the
// datasheet's 989 TFLOP/s at 132 SMs and 1.83 GHz); sm_80 2048 / 1024.
double tensor_peak(DType t) {
  const double per_clock = caps().cc_major >= 9 ? 4096.0 : 2048.0;
  return caps().sms * caps().clock_khz * 1e3 * (t == DType::kBf16 ? per_clock : per_clock / 2);
}

int round_up(std::int64_t v, int to) {
  return static_cast<int>((v + to - 1) / to * to);
}

struct State {
  DType dtype{};
  Gemm g;
  DeviceBuffer<std::uint16_t> a16, b16;
  DeviceBuffer<float> a32, b32, c;
  Reference ref;
  std::unique_ptr<CublasHandle> cublas;
};

State setup(const Params& p, std::uint64_t seed) {
  State st;
  st.dtype = dtype_of(p);
  const int align = st.dtype == DType::kBf16 ? 8 : 4;  // 16 bytes
  st.g.m = static_cast<int>(p.n("m"));
  st.g.n = static_cast<int>(p.n("n"));
  st.g.k = static_cast<int>(p.n("k"));
  st.g.lda = round_up(st.g.k, align);
  st.g.ldb = round_up(st.g.n, align);
  const std::size_t na = static_cast<std::size_t>(st.g.m) * st.g.lda;
  const std::size_t nb = static_cast<std::size_t>(st.g.k) * st.g.ldb;
  // Random values in [-1, 1], rounded to the input type; padding columns zero.
  std::vector<float> ha(na), hb(nb);
  auto fill = [&](std::vector<float>& h, int rows, int cols, int ld, std::uint64_t s) {
    bench::parallel_for(static_cast<std::size_t>(rows), [&](std::size_t r0, std::size_t r1) {
      for (std::size_t r = r0; r < r1; ++r) {
        for (int j = 0; j < ld; ++j) {
          const float x = j < cols ? random_uniform(s, r * cols + j, -1.0f, 1.0f) : 0.0f;
          h[r * ld + j] = st.dtype == DType::kBf16 ? bf16_value(to_bf16(x)) : to_tf32(x);
        }
      }
    });
  };
  fill(ha, st.g.m, st.g.k, st.g.lda, seed);
  fill(hb, st.g.k, st.g.n, st.g.ldb, seed + 1);
  if (st.dtype == DType::kBf16) {
    std::vector<std::uint16_t> a(na), b(nb);
    for (std::size_t i = 0; i < na; ++i) a[i] = to_bf16(ha[i]);
    for (std::size_t i = 0; i < nb; ++i) b[i] = to_bf16(hb[i]);
    st.a16 = DeviceBuffer<std::uint16_t>(na);
    st.b16 = DeviceBuffer<std::uint16_t>(nb);
    st.a16.copy_from_host(a.data(), na);
    st.b16.copy_from_host(b.data(), nb);
  } else {
    st.a32 = DeviceBuffer<float>(na);
    st.b32 = DeviceBuffer<float>(nb);
    st.a32.copy_from_host(ha.data(), na);
    st.b32.copy_from_host(hb.data(), nb);
  }
  st.c = DeviceBuffer<float>(static_cast<std::size_t>(st.g.m) * st.g.n);
  const double macs = static_cast<double>(st.g.m) * st.g.n * st.g.k;
  const std::size_t samples = macs <= static_cast<double>(kFullCheckMacs) ? 0 : kSamples;
  st.ref = reference_at(ha, st.g.lda, hb, st.g.ldb, st.g.m, st.g.n, st.g.k, samples, seed);
  if (cublas_available()) st.cublas = std::make_unique<CublasHandle>();  // else `cublas` is skipped
  return st;
}

void run(State& st, Variant v, cudaStream_t s) {
  switch (v) {
    case Variant::kMmaSync:
      if (st.dtype == DType::kBf16) {
        launch_mma_bf16(st.a16.get(), st.b16.get(), st.c.get(), st.g, s);
      } else {
        launch_mma_tf32(st.a32.get(), st.b32.get(), st.c.get(), st.g, s);
      }
      return;
    case Variant::kWgmma:
      if (st.dtype == DType::kBf16) {
        launch_wgmma_bf16(st.a16.get(), st.b16.get(), st.c.get(), st.g, s);
      } else {
        launch_wgmma_tf32(st.a32.get(), st.b32.get(), st.c.get(), st.g, s);
      }
      return;
    case Variant::kWgmmaPersistent:  // BF16 only (the only_if)
      launch_wgmma_persistent_bf16(st.a16.get(), st.b16.get(), st.c.get(), st.g, s);
      return;
    case Variant::kWgmmaTmaStore:  // BF16 only, n % 4 == 0 (the only_if)
      launch_wgmma_tma_store_bf16(st.a16.get(), st.b16.get(), st.c.get(), st.g, s);
      return;
    case Variant::kWgmmaCluster:  // BF16 only (the only_if)
      launch_wgmma_cluster_bf16(st.a16.get(), st.b16.get(), st.c.get(), st.g, s);
      return;
    case Variant::kWgmmaClusterPersistent:  // BF16 only (the only_if)
      launch_wgmma_cluster_persistent_bf16(st.a16.get(), st.b16.get(), st.c.get(), st.g, s);
      return;
    case Variant::kCublas:
      if (!st.cublas) throw bench::SkipPoint(kCublasMissing);
      if (st.dtype == DType::kBf16) {
        cublas_gemm_bf16(st.cublas->get(), st.a16.get(), st.b16.get(), st.c.get(), st.g, s);
      } else {
        cublas_gemm_tf32(st.cublas->get(), st.a32.get(), st.b32.get(), st.c.get(), st.g, s);
      }
      return;
  }
}

bench::Check check(State& st, const Params&, const std::string&) {
  std::vector<float> got(st.c.size());
  st.c.copy_to_host(got.data(), got.size());
  const double k = st.g.k;
  const double rel_tol = std::max(k * std::ldexp(1.0, -24), std::ldexp(1.0, -20));
  double num = 0, den = 0, worst = 0;
  std::size_t over = 0;
  std::string detail;
  for (std::size_t i = 0; i < st.ref.value.size(); ++i) {
    const double g = got[st.ref.rows[i] * static_cast<std::size_t>(st.g.n) + st.ref.cols[i]];
    const double w = st.ref.value[i];
    const double bound = k * std::ldexp(1.0, -22) * st.ref.abs_sum[i];
    const double err = std::fabs(g - w);
    if (!(err <= bound)) {  // also catches NaN (poison never overwritten)
      if (over < 5) {
        detail += fmt::format(" C[{}][{}] = {} want {} (bound {:.3g});", st.ref.rows[i],
                              st.ref.cols[i], g, w, bound);
      }
      ++over;
    }
    if (bound > 0) worst = std::max(worst, err / bound);
    num += (g - w) * (g - w);
    den += w * w;
  }
  bench::Check c;
  const double rel = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
  c.error = rel;
  c.ok = over == 0 && rel <= rel_tol;
  if (!c.ok) {
    c.detail = fmt::format(
        "{} of {} checked elements beyond K*2^-22*sum|ab|; rel L2 {:.3g} "
        "(tolerance {:.3g}); worst err/bound {:.3g};{}",
        over, st.ref.value.size(), rel, rel_tol, worst, detail);
  }
  return c;
}

double gemm_flops(const Params& p) {
  return 2.0 * static_cast<double>(p.n("m")) * static_cast<double>(p.n("n")) *
         static_cast<double>(p.n("k"));
}

std::optional<bench::Prediction> predict(const Params& p) {
  if (device_count_or_zero() == 0) return std::nullopt;  // the peak needs the SMs and clock
  const DType t = dtype_of(p);
  bench::Prediction pr;
  const double flops = gemm_flops(p);
  pr.time_ms = 1e3 * flops / tensor_peak(t);
  pr.model = fmt::format(
      "tensor roofline: 2MNK at the dense {} rate ({:.0f} TFLOP/s at the boost "
      "clock)",
      t == DType::kBf16 ? "BF16" : "TF32", tensor_peak(t) / 1e12);
  return pr;
}

double input_bytes(const Params& p) {
  const double e = dtype_of(p) == DType::kBf16 ? 2.0 : 4.0;
  const double m = static_cast<double>(p.n("m")), n = static_cast<double>(p.n("n")),
               k = static_cast<double>(p.n("k"));
  return e * (m * k + k * n) + 4.0 * m * n;
}

bench::Experiment make() {
  constexpr std::int64_t kMaxDim = 32768;
  bench::ExperimentBuilder<State> b(
      "tensor_cores",
      "BF16 and TF32 GEMM on the tensor cores: mma.sync, then wgmma on a TMA ring "
      "(persistent, clusters, TMA-store epilogue) against cuBLAS");
  b.bytes_convention("A and B read once, C written once (compulsory bytes)")
      .choice_axis("dtype", {"bf16", "tf32"}, {"bf16", "tf32"}, {"bf16"},
                   "input type (BF16: m16n8k16; TF32: m16n8k8); accumulation and C in FP32")
      .int_axis("m", {"8192"}, {"4096"}, 1, kMaxDim, "rows of A and C")
      .int_axis("n", {"8192"}, {"4096"}, 1, kMaxDim, "columns of B and C")
      .int_axis("k", {"8192"}, {"4096"}, 1, kMaxDim, "columns of A, rows of B");
  for (const char* t : {"bf16", "tf32"}) {
    b.test_point({{"dtype", t}, {"m", "1"}, {"n", "1"}, {"k", "1"}})
        .test_point({{"dtype", t}, {"m", "17"}, {"n", "33"}, {"k", "9"}})
        .test_point({{"dtype", t}, {"m", "127"}, {"n", "129"}, {"k", "65"}})
        .test_point({{"dtype", t}, {"m", "300"}, {"n", "200"}, {"k", "1000"}})
        .test_point({{"dtype", t}, {"m", "256"}, {"n", "384"}, {"k", "96"}});
  }
  // wgmma's tiles (128 x 256 x 64, 4 stages, 16 block rows per raster group): whole tiles, edges
  // in every dimension, more k tiles than stages, and more block rows than one raster group.
  // wgmma_tma_store runs at those with n % 4 == 0 (n = 200, 256, 300, 384, 520, 2052: last chunks
  // of 8, 32, 12, 32, 8 and 4 columns, chunks past n skipped; m = 128, 200, 256, 300, 2181: the
  // second consumer's rows partial or past m).
  b.test_point({{"dtype", "bf16"}, {"m", "128"}, {"n", "256"}, {"k", "64"}})
      .test_point({{"dtype", "bf16"}, {"m", "129"}, {"n", "257"}, {"k", "65"}})
      .test_point({{"dtype", "bf16"}, {"m", "2181"}, {"n", "300"}, {"k", "72"}})
      .test_point({{"dtype", "bf16"}, {"m", "200"}, {"n", "520"}, {"k", "1000"}})
      // More tiles than an H200 has SMs (18 x 9 = 162 > 132): the persistent kernels' CTAs walk
      // two tiles (ring and wgmma_tma_store's staging buffers carry across tiles); the last block
      // column is 4 wide (the TMA store's narrowest box: 16 bytes), the last block row 5 high.
      .test_point({{"dtype", "bf16"}, {"m", "2181"}, {"n", "2052"}, {"k", "72"}})
      // wgmma_cluster_persistent: 17 block rows (odd: the last pair's rank 1 is past m) x 8 block
      // columns = 9 x 8 = 72 pairs > the H200's 66 clusters, so 6 clusters walk a second pair, and
      // those are pairs of the last pair row (ids 64..71 in the raster: the second group), with
      // the missing partner; 3 k tiles (the last 8 deep), so a second pair starts on stage 3 and
      // reuses stages 0 and 1 after their `empty` (the ring wraps across pairs, not at a pair's
      // start). The 2181 x 2052 point above gives 9 x 9 = 81 pairs (15 clusters walk two) with
      // even block rows. The last block column is 108 wide (n % 4 == 0: wgmma_tma_store too).
      .test_point({{"dtype", "bf16"}, {"m", "2100"}, {"n", "1900"}, {"k", "136"}});
  // wgmma at tf32 (256 x 128 x 32 tiles, 4 stages, 8 block rows per raster group): whole tiles,
  // edges in every dimension with an odd number of k tiles above the stages (5: the two register
  // sets alternate, the last tile uses the first), and more block rows than one raster group
  // (2181 > 8 x 256) with 7 k tiles. The lesson's points above add 1, 3 and 32 k tiles.
  b.test_point({{"dtype", "tf32"}, {"m", "256"}, {"n", "128"}, {"k", "64"}})
      .test_point({{"dtype", "tf32"}, {"m", "257"}, {"n", "129"}, {"k", "150"}})
      .test_point({{"dtype", "tf32"}, {"m", "2181"}, {"n", "300"}, {"k", "200"}});
  b.flops(gemm_flops)
      .bytes(input_bytes)
      .footprint(input_bytes)
      .setup(setup)
      .poison([](State& st, const Params&, cudaStream_t s) { st.c.fill_bytes(0xFF, s); })
      .check(check);
  for (const VariantInfo& info : kVariants) {
    const Variant v = info.id;
    b.variant(info.name, info.description, [v](State& st, const Params&, cudaStream_t s) {
       run(st, v, s);
     }).predict(predict);
    if (v == Variant::kCublas) {
      b.needs_device([](const Params&) { return cublas_available(); }, kCublasMissing);
    }
    if (v == Variant::kMmaSync) {
      // mma.sync BF16/TF32 needs sm_80; without a device (the plan) the variant is listed.
      b.needs_device(
          [](const Params&) { return device_count_or_zero() == 0 || caps().cc_major >= 8; },
          "mma.sync with BF16/TF32 needs compute capability 8.0 or newer");
    }
    if (bf16_only(v))
      b.variant_axis("dtype", {"bf16"}, fmt::format("{}: dtype bf16 only", info.name));
    if (v == Variant::kWgmmaTmaStore) {
      b.only_if([](const Params& p) { return p.n("n") % 4 == 0; },
                "TMA store: needs n a multiple of 4 (16-byte row pitch of C)");
    }
    if (v == Variant::kWgmma || bf16_only(v)) {
      // sm_90a machine code runs on compute capability 9.0 only (not on later GPUs).
      b.needs_device(
          [](const Params&) {
            return wgmma_built() && (device_count_or_zero() == 0 || caps().cc_major == 9);
          },
          "wgmma needs an sm_90a build on a compute capability 9.0 GPU");
    }
  }
  b.baseline("cublas");
  b.vendor("cublas");
  b.plot({.id = "gflops",
          .kind = bench::PlotKind::Ladder,
          .title = "GFLOP/s on the tensor cores: the ladder to cuBLAS",
          .x = {"variant", false, ""},
          .y = {"gflops", false, "GFLOP/s"},
          .facet = "dtype",
          .references = {"vendor"},  // the FP32 peak means nothing on the tensor cores
          .model = true});
  return b.build();
}

[[maybe_unused]] const bool registered = bench::register_experiment(make());

}  // namespace
}  // namespace memlab::lessons::tensor_cores
