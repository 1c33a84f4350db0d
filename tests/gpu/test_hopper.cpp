// Issue 16's Hopper variants (TMA, cp.async pipelines, bulk copies, clusters, wgmma), each at
// every test point of its lesson where it applies: against the CPU reference, output poisoned,
// twice (a result that changes between runs is a race). test_lessons leaves opt-in variants out;
// this names them one by one (scripts/device/verify.sh hopper runs exactly these) and checks what a
// GPU older than sm_90 must do: skip them at every point, with the reason. wgmma also gets an exact
// test: integer-valued BF16 (and TF32) inputs, so every product and partial sum is an integer below
// 2^24 and the FP32 result must equal the integer reference bit for bit.
#include <gtest/gtest.h>

#include "gpu_test.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "memlab/bench/experiment.hpp"
#include "memlab/bench/runner.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/cuda/fill.hpp"
#include "memlab/cuda/stream.hpp"
#include "tensor_cores/kernels.cuh"

namespace memlab::bench {
namespace {

using memlab::gpu_test::have_device;

struct Named {
  const char* lesson;
  const char* variant;
  int min_cc;  // compute capability major it needs
};

// The variants issue 16 added (opt-in until this file had passed on a GPU) and issue 23's.
const Named kHopper[] = {
    {"transpose", "tma", 9},
    {"matmul", "cp_async", 8},
    {"matmul", "tma", 9},
    {"bandwidth", "bulk_copy", 9},
    {"smem_reverse", "bulk", 9},
    {"tensor_cores", "wgmma", 9},
    {"tensor_cores", "wgmma_persistent", 9},
    {"tensor_cores", "wgmma_cluster", 9},
    {"tensor_cores", "wgmma_tma_store", 9},
    {"tensor_cores", "wgmma_cluster_persistent", 9},
    {"conv2d", "tma", 9},
    {"conv2d", "cluster", 9},
    // Issue 23: the pipelined (persistent, ring-buffered) steps of the memory-bound ladder.
    {"transpose", "tma_pipelined", 9},
    {"bandwidth", "bulk_ring", 9},
    {"smem_reverse", "bulk_pipelined", 9},
    // Issue 23, round two: more independent chains per SM, evict-first hints.
    {"transpose", "tma_pipelined_many", 9},
    {"bandwidth", "bulk_ring_hint", 9},
    {"bandwidth", "bulk_ring_many", 9},
    {"smem_reverse", "bulk_pipelined_many", 9},
    // Issue 23, round three: the warp-specialised TMA transpose.
    {"transpose", "tma_ws", 9},
};

int cc_major() {
  int device = 0, major = 0;
  MEMLAB_CUDA_CHECK(cudaGetDevice(&device));
  MEMLAB_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  return major;
}

class HopperVariant : public testing::TestWithParam<Named> {};

TEST_P(HopperVariant, MatchesTheReferenceAtEveryTestPointWhereItApplies) {
  if (!have_device()) GTEST_SKIP() << "skipped: no CUDA device";
  const Named n = GetParam();
  const Experiment* e = find_experiment(n.lesson);
  ASSERT_NE(e, nullptr) << n.lesson;
  const Variant* v = e->find_variant(n.variant);
  ASSERT_NE(v, nullptr) << n.lesson << " " << n.variant;
  const bool old_gpu = cc_major() < n.min_cc;
  Stream stream;
  int applied = 0;
  for (const auto& values : e->test_points) {
    Params p(values);
    if (e->validate) e->validate(p);
    if (!v->runs_here(p)) {
      EXPECT_FALSE(v->applies_to(p) ? v->needs_reason.empty() : v->only.empty())
          << n.variant << " " << p.label() << ": no reason";
      continue;
    }
    EXPECT_FALSE(old_gpu) << n.variant << " applies at " << p.label() << " on compute capability "
                          << cc_major();
    if (old_gpu) continue;
    auto instance = e->setup(p, point_seed(4242, e->name, p));
    for (int run = 0; run < 2; ++run) {
      const Check c = verify_variant(*e, *instance, p, *v, stream);
      EXPECT_TRUE(c.ok) << n.lesson << " " << n.variant << " " << p.label() << " run " << run
                        << ": " << c.detail;
    }
    ++applied;
  }
  if (old_gpu) GTEST_SKIP() << "skipped at every point (as it must): " << v->needs_reason;
  EXPECT_GE(applied, 2) << n.lesson << " " << n.variant
                        << ": its lesson's test points exercise it fewer than twice";
}

INSTANTIATE_TEST_SUITE_P(Issue16, HopperVariant, testing::ValuesIn(kHopper),
                         [](const testing::TestParamInfo<Named>& param_info) {
                           return std::string(param_info.param.lesson) + "_" +
                                  param_info.param.variant;
                         });

std::uint16_t bf16_of_int(int v) {
  const float f = static_cast<float>(v);
  std::uint32_t bits = 0;
  std::memcpy(&bits, &f, sizeof bits);
  return static_cast<std::uint16_t>(bits >> 16);  // small integers are exact in BF16
}

// The exact tests' operands: A (m x k) and B (k x n), integers in [-3, 3] from two seeds.
struct IntOperands {
  std::size_t m, n, k;
  std::vector<int> a, b;
};
IntOperands int_operands(std::size_t m, std::size_t n, std::size_t k, std::uint64_t seed_a,
                         std::uint64_t seed_b) {
  IntOperands x{m, n, k, std::vector<int>(m * k), std::vector<int>(k * n)};
  for (std::size_t i = 0; i < x.a.size(); ++i) {
    x.a[i] = static_cast<int>(random_u64(seed_a, i) % 7) - 3;
  }
  for (std::size_t i = 0; i < x.b.size(); ++i) {
    x.b[i] = static_cast<int>(random_u64(seed_b, i) % 7) - 3;
  }
  return x;
}
// A rows x cols integer matrix as the kernel's element type `T` (via `to`), rows padded to `ld`.
template <class T, class To>
std::vector<T> padded(const std::vector<int>& v, std::size_t rows, std::size_t cols, std::size_t ld,
                      To to) {
  std::vector<T> out(rows * ld, T{});
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) out[r * ld + c] = to(v[r * cols + c]);
  }
  return out;
}
// C (m x n, FP32) against the integer product, bit for bit; the first 5 mismatches are reported.
void expect_exact(const std::string& what, const std::vector<float>& got, const IntOperands& x) {
  int bad = 0;
  for (std::size_t i = 0; i < x.m && bad < 5; ++i) {
    for (std::size_t j = 0; j < x.n && bad < 5; ++j) {
      std::int64_t want = 0;
      for (std::size_t p = 0; p < x.k; ++p) want += x.a[i * x.k + p] * x.b[p * x.n + j];
      if (got[i * x.n + j] != static_cast<float>(want)) {
        ADD_FAILURE() << what << " " << x.m << "x" << x.n << "x" << x.k << ": C[" << i << "][" << j
                      << "] = " << got[i * x.n + j] << ", want " << want;
        ++bad;
      }
    }
  }
}

TEST(HopperWgmma, IntegerInputsAreExactAtOddSizes) {
  if (!have_device()) GTEST_SKIP() << "skipped: no CUDA device";
  using lessons::tensor_cores::Gemm;
  if (!lessons::tensor_cores::wgmma_built() || cc_major() != 9) {
    GTEST_SKIP() << "skipped: wgmma needs an sm_90a build on a compute capability 9.0 GPU";
  }
  struct Size {
    int m, n, k;
  };
  // Whole tiles; one short of a tile; one past; many k tiles (ring wraps); a 1 x 1 x 1; and n
  // multiples of 4 one chunk (32 columns) short and 4 columns past a tile (wgmma_tma_store).
  const Size sizes[] = {{128, 256, 64}, {127, 255, 63}, {129, 257, 65}, {300, 520, 777},
                        {1, 1, 1},      {2200, 40, 24}, {127, 252, 63}, {129, 260, 65}};
  // The BF16 wgmma kernels; the persistent ones also with 3 CTAs, so each walks several tiles
  // and the ring's stages and phases (and wgmma_tma_store's staging buffers) carry across tile
  // boundaries. The 2-CTA cluster kernel sees odd block-row counts (1, 3: the second CTA of the
  // last cluster computes nothing) and even ones. wgmma_tma_store runs where n % 4 == 0 only (C's
  // tensor map), as the lesson plans it: 128 x 256, 300 x 520, 2200 x 40, 127 x 252, 129 x 260.
  // The persistent cluster kernel runs with all the clusters that fit and with 2 clusters: pairs
  // per cluster 1 (1, 1, 2, 6, 1, 9, 1, 2 pairs: odd block-row counts 1, 1, 3, 1, 1 with the
  // missing partner) and up to 5 (2200 x 40: 9 pairs of 18 block rows; 300 x 520: 6 pairs with
  // 13 k tiles each, 3 per cluster, the ring wrapping inside and across pairs).
  struct Launcher {
    const char* name;
    int max_ctas;             // -1: the non-persistent kernel, -2: the cluster kernel; else the cap
                              // (0: none) on CTAs, or on clusters for the persistent cluster kernel
    bool tma_store;           // wgmma_tma_store (persistent, max_ctas as above)
    bool cluster_persistent;  // wgmma_cluster_persistent (max_ctas: clusters)
  };
  const Launcher launchers[] = {{"wgmma", -1, false, false},
                                {"wgmma_persistent", 0, false, false},
                                {"wgmma_persistent/3", 3, false, false},
                                {"wgmma_cluster", -2, false, false},
                                {"wgmma_tma_store", 0, true, false},
                                {"wgmma_tma_store/3", 3, true, false},
                                {"wgmma_cluster_persistent", 0, false, true},
                                {"wgmma_cluster_persistent/2", 2, false, true}};
  Stream stream;
  for (const Launcher& l : launchers) {
    for (const Size& s : sizes) {
      if (l.tma_store && s.n % 4 != 0) continue;
      Gemm g;
      g.m = s.m;
      g.n = s.n;
      g.k = s.k;
      g.lda = (s.k + 7) / 8 * 8;
      g.ldb = (s.n + 7) / 8 * 8;
      const auto m = static_cast<std::size_t>(s.m), n = static_cast<std::size_t>(s.n),
                 k = static_cast<std::size_t>(s.k);
      const IntOperands x = int_operands(m, n, k, 11, 12);
      const std::vector<std::uint16_t> ha =
          padded<std::uint16_t>(x.a, m, k, static_cast<std::size_t>(g.lda), bf16_of_int);
      const std::vector<std::uint16_t> hb =
          padded<std::uint16_t>(x.b, k, n, static_cast<std::size_t>(g.ldb), bf16_of_int);
      DeviceBuffer<std::uint16_t> da(ha.size()), db(hb.size());
      DeviceBuffer<float> dc(m * n);
      da.copy_from_host(ha.data(), ha.size());
      db.copy_from_host(hb.data(), hb.size());
      dc.fill_bytes(0xFF, stream.get());  // NaN: an element never written fails
      if (l.cluster_persistent) {
        lessons::tensor_cores::launch_wgmma_cluster_persistent_bf16(da.get(), db.get(), dc.get(), g,
                                                                    stream.get(), l.max_ctas);
      } else if (l.tma_store) {
        lessons::tensor_cores::launch_wgmma_tma_store_bf16(da.get(), db.get(), dc.get(), g,
                                                           stream.get(), l.max_ctas);
      } else if (l.max_ctas == -1) {
        lessons::tensor_cores::launch_wgmma_bf16(da.get(), db.get(), dc.get(), g, stream.get());
      } else if (l.max_ctas == -2) {
        lessons::tensor_cores::launch_wgmma_cluster_bf16(da.get(), db.get(), dc.get(), g,
                                                         stream.get());
      } else {
        lessons::tensor_cores::launch_wgmma_persistent_bf16(da.get(), db.get(), dc.get(), g,
                                                            stream.get(), l.max_ctas);
      }
      MEMLAB_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
      std::vector<float> got(m * n);
      dc.copy_to_host(got.data(), got.size());
      expect_exact(l.name, got, x);
    }
  }
}

// The TF32 `wgmma` kernel (C^T = B^T A^T, 256 x 128 x 32 tiles, B's fragments in registers):
// small integers are exact in TF32, so the FP32 result must equal the integer reference bit for
// bit at sizes around its tiles, with odd and even numbers of k tiles (the two register sets) and
// more block rows than one raster group (2200 > 8 x 256).
TEST(HopperWgmma, Tf32IntegerInputsAreExactAtOddSizes) {
  if (!have_device()) GTEST_SKIP() << "skipped: no CUDA device";
  using lessons::tensor_cores::Gemm;
  if (!lessons::tensor_cores::wgmma_built() || cc_major() != 9) {
    GTEST_SKIP() << "skipped: wgmma needs an sm_90a build on a compute capability 9.0 GPU";
  }
  struct Size {
    int m, n, k;
  };
  const Size sizes[] = {{256, 128, 32}, {255, 127, 31}, {257, 129, 33}, {300, 520, 777},
                        {1, 1, 1},      {2200, 40, 24}, {130, 300, 161}};
  Stream stream;
  for (const Size& s : sizes) {
    Gemm g;
    g.m = s.m;
    g.n = s.n;
    g.k = s.k;
    g.lda = (s.k + 3) / 4 * 4;  // 16 bytes
    g.ldb = (s.n + 3) / 4 * 4;
    const auto m = static_cast<std::size_t>(s.m), n = static_cast<std::size_t>(s.n),
               k = static_cast<std::size_t>(s.k);
    const IntOperands x = int_operands(m, n, k, 13, 14);
    const auto to_float = [](int v) { return static_cast<float>(v); };
    const std::vector<float> ha =
        padded<float>(x.a, m, k, static_cast<std::size_t>(g.lda), to_float);
    const std::vector<float> hb =
        padded<float>(x.b, k, n, static_cast<std::size_t>(g.ldb), to_float);
    DeviceBuffer<float> da(ha.size()), db(hb.size()), dc(m * n);
    da.copy_from_host(ha.data(), ha.size());
    db.copy_from_host(hb.data(), hb.size());
    dc.fill_bytes(0xFF, stream.get());  // NaN: an element never written fails
    lessons::tensor_cores::launch_wgmma_tf32(da.get(), db.get(), dc.get(), g, stream.get());
    MEMLAB_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    std::vector<float> got(m * n);
    dc.copy_to_host(got.data(), got.size());
    expect_exact("wgmma tf32", got, x);
  }
}

}  // namespace
}  // namespace memlab::bench
