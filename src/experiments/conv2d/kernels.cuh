// conv2d: out[y][x] = sum_{i,j < K} in[y - r + i][x - r + j] * M[i][j], r = K / 2, zero ghost
// cells outside the image. Seed 000 sections 3-4 (2D tiles with halo, mask in __constant__).
//
// Variants: the enumerators of `Variant` below (FP32; useful bytes = image read once + output
// written once = 8 H W).
//
// Napkin math (H200, 16384^2 floats = 1 GiB per image): 2 GiB useful -> 0.51 ms at ~4.2 TB/s.
// Flops 2 K^2 per pixel: K = 5: 13.4 GFLOP = 0.2 ms at 67 TFLOP/s (memory bound);
// K = 15: 121 GFLOP = 1.8 ms (compute bound: the roofline is the FMA rate).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <type_traits>

#include "common/variants.hpp"

namespace memlab::lessons::conv2d {

inline constexpr int kMaxMask = 15;  // __constant__ float c_mask[15 * 15]

enum class Variant {
  // One thread per output (32x8 blocks); K^2 taps from global/L1, mask from global.
  Naive,
  // As naive, mask in __constant__ (one broadcast per warp and tap).
  ConstMask,
  // Seed 000's kernel: 32x32-thread blocks = input tile, O = 33 - K outputs per side (28 for
  // K = 5, 18 for K = 15), halo r, shared 4 KiB; 1 - O^2/1024 of the threads only load. Reuse
  // (global reads per output, untiled / tiled) = K^2 O^2 / 32^2.
  TiledInput,
  // 32x16 output-tile blocks; shared holds the block's own 32x16 inputs (2 KiB); the halo ring
  // ((32 + 2r)(16 + 2r) - 512 pixels) comes from global via L1/L2.
  TiledOutput,
  // Each thread computes R rows x 4 columns (R = 8 for K <= 5, else 4): it streams R + K - 1 input
  // rows, each a window of 4 (2H + 1) floats (H = ceil(r / 4)) read with 16-byte loads, and adds
  // each row into every output row it touches from registers (fully unrolled per K; in the SASS no
  // FFMA takes a c[0x3] operand: the taps are loaded into registers, 465 LDC/ULDC for 3600 FFMA at
  // K = 15). No shared memory; the horizontal halo comes from L1 (the neighbouring lanes' loads).
  // 16-byte loads/stores need width % 4 == 0; otherwise 4-byte loads. K <= 5 (stream_kernel):
  // each output row is stored as soon as it is complete (K rows of accumulators live) and the next
  // row's window is loaded before the current row's FMAs (one row of loads in flight): 88.6% of
  // memcpy at K = 5.
  Register,
  // register_rowloop (issue 23, kernels_rowloop.cu, K >= 7): register's R x 4 tile (R = 4) with the
  // loop over the R + K - 1 input rows rolled (`#pragma unroll 1`): one iteration (<= 4 x 4 x K
  // FFMA, 5 16-byte loads of the next row issued before them) fits the instruction cache, which
  // the fully unrolled 3600-FFMA body of register does not at K = 15 (stall no_instruction).
  RegisterRowloop,
  // register_taps (issue 23, kernels_taps.cu, K >= 7): R = 3 rows x C = 8 columns per thread (4 on
  // the 4-byte fallback), the loop over the K mask rows rolled: mask row i's taps come into
  // registers once (LDS.128 from a shared copy), then output row o adds input row i + o from a
  // circular register window of R rows, unrolled by R so the rotation is renaming (no window
  // copy); one new input row per mask row, loaded after output row 0 frees its slot. Interior
  // blocks run unchecked in one kernel, border blocks bounds-checked in a second.
  RegisterTaps,
  // register_taps2: register_taps with R = 2 rows per thread (2 x 8 outputs, a 2-slot window):
  // half the unrolled loop body (2 x 240 FFMA at K = 15 against 3 x 360), fewer registers.
  RegisterTaps2,
  // register_prefetch (issue 23, K <= 5): register's streamed kernel (stream_kernel) that also
  // requests the thread's 16 bytes of the input row 2 rows beyond the next one into L2
  // (prefetch.global.L2: no register, no wait): 3 rows per warp on their way from DRAM, not 1.
  RegisterPrefetch,
  // register_deep (issue 23, K <= 5): register's streamed kernel with the windows loaded 2 rows
  // ahead into a 3-row register ring (slot t % 3, renamed by the unroll): the loads of 2 input
  // rows per thread are in flight behind the FMAs of the current one, not 1; no prefetch hint.
  RegisterDeep,
  // register_deep3 (session 6, K <= 5): register_deep with __launch_bounds__(256, 3) on the
  // 16-byte path too: an 85-register cap instead of 64, 24 warps per SM instead of 32.
  RegisterDeep3,
  // register_deep12 (session 6, K <= 5): register_deep with R = 12 output rows per thread (128 x
  // 96 block tile): 16 input rows per 12 output rows (1.33x L2 -> SM, not 1.5x), same ring and cap.
  RegisterDeep12,
  // register_deep_shfl (session 6, round 2, K <= 5): register_deep's shape exactly (R = 8, 2 rows
  // ahead in a 3-row ring, 32 x 8 blocks, 4 blocks per SM) with the horizontal halo by
  // register_strip's warp shuffles: per row one LDG.128 per thread and one LDG.64 for the warp's
  // edge lanes instead of 3 window loads (16-byte path; width % 4 != 0: register_deep's kernel).
  RegisterDeepShfl,
  // register_deep_l2p (session 7, K <= 5): register_deep exactly, its 16-byte window loads issued
  // as ld.global.nc.L2::256B.v4.f32 (a DRAM miss fetches the whole 256-byte block into L2); the
  // 4-byte path (width % 4 != 0) is register_deep's kernel. Asks: is DRAM at 81% of peak a
  // miss-granularity effect?
  RegisterDeepL2p,
  // register_strip (issue 23, kernels_strip.cu, K <= 5): register_deep's streamed kernel with
  // 16-row strips (20 input rows per 16 output rows: 1.25x L2 -> SM, not 1.5x), the windows loaded
  // 3 rows ahead into a 4-row ring, and the horizontal halo by warp shuffles: one LDG.128 per row
  // and thread, plus one LDG.64 per row and warp for the 2 edge lanes (16-byte path).
  RegisterStrip,
  // register_strip_ld: register_strip with register_deep's window loads for the halo (own float4 +
  // 2 halo loads per row), no shuffles: the A/B of the shuffles at the same strip and depth.
  RegisterStripLd,
  // register_strip_wide: register_strip with 256 x 1-thread blocks (1024 columns x 16 rows): the 8
  // warps of a block read 4 KB of consecutive bytes per input row at about the same time, not 8
  // strips of 512 bytes in 8 rows 16 apart (DRAM page locality; 256 x 1 blocks measured 1.5%
  // faster than 32 x 8 at R = 16 in the first register ladder, roll_b against roll_a).
  RegisterStripWide,
  // smem_ring (session 7, kernels_ring.cu, K <= 5, width % 4 == 0): the bytes in flight held in
  // shared memory instead of registers. A 64-thread block owns 256 output columns (+ a 16-byte
  // halo chunk each side) x a band of kRingBand output rows; its input rows stream through a
  // kRingSlots-row shared ring by cp.async.cg 16-byte copies issued kRingSlots - 1 rows ahead
  // (zero-fill outside the image); each thread reads each ring row once (3 LDS.128) into
  // register_deep's K live accumulator rows of 4 columns. width % 4 != 0: register_deep's kernel.
  SmemRing,
  // smem_ring_wave (session 10, kernels_ring.cu): smem_ring's kernel with the band sized so that
  // the grid is one wave of resident blocks (about 335 rows at 16384^2 on 132 SMs, at least
  // kRingBand): no tail wave, and 4 halo rows per ~400 instead of per 64 (smem_ring's two losses).
  SmemRingWave,
  // Only with separable=yes (M = col x row): a row pass (K taps, in -> tmp) and a column pass
  // (K taps, tmp -> out), 2 K instead of K^2 FMAs per pixel. Useful bytes still 8 H W; the
  // intermediate costs another 8 H W of DRAM traffic (16 H W total).
  Separable,
  // Hopper (sm_90, width % 4 == 0; kernels_hopper.cu): TW x 32 output tiles (TW = 64 - 2 x the
  // halo rounded up to 4 floats, hopper_tile_cols), the 64 x (32 + 2r) input tile with its halo
  // loaded by one TMA box starting on a 16-byte boundary (zero ghost cells = the engine's
  // out-of-bounds fill), taps from __constant__, 8 rows per thread.
  Tma,
  // As tma, 4 blocks stacked in a cluster: each loads its own 32 rows, and its halo rows come from
  // the neighbouring blocks' shared memory (distributed shared memory, cluster barriers).
  Cluster,
};

inline constexpr VariantInfo<Variant> kVariants[] = {
    {Variant::Naive, "naive", "one thread per output; image and mask from global memory"},
    {Variant::ConstMask, "const_mask", "one thread per output; mask in __constant__ (broadcast)"},
    {Variant::TiledInput, "tiled_input",
     "seed 000: 32x32-thread blocks load input tile + halo into shared, (33-K)^2 compute"},
    {Variant::TiledOutput, "tiled_output",
     "32x16 output-tile blocks, own inputs in shared, halo from L1/L2"},
    {Variant::Register, "register",
     "R x 4 outputs per thread, register window of 16-byte row loads, mask in __constant__"},
    {Variant::RegisterRowloop, "register_rowloop",
     "register's R x 4 window with the input-row loop rolled: the body fits the I-cache (K >= 7)"},
    {Variant::RegisterTaps, "register_taps",
     "R x 8 per thread, mask-row loop rolled: taps in registers, circular window renamed (K >= 7)"},
    {Variant::RegisterTaps2, "register_taps2",
     "register_taps with 2 x 8 outputs per thread: half the unrolled loop body (K >= 7)"},
    {Variant::RegisterPrefetch, "register_prefetch",
     "register's streamed R x 4 tile plus an L2 prefetch 2 rows ahead of the next row (K <= 5)"},
    {Variant::RegisterDeep, "register_deep",
     "register's streamed R x 4 tile, window loads 2 rows ahead in a 3-row register ring (K <= 5)"},
    {Variant::RegisterDeep3, "register_deep3",
     "register_deep at 3 blocks per SM: an 85-register cap for the 3-row ring (K <= 5)"},
    {Variant::RegisterDeep12, "register_deep12",
     "register_deep with 12 output rows per thread: 1.33x L2 -> SM row traffic (K <= 5)"},
    {Variant::RegisterDeepShfl, "register_deep_shfl",
     "register_deep with the halo by warp shuffles: one float4 load per row and thread (K <= 5)"},
    {Variant::RegisterDeepL2p, "register_deep_l2p",
     "register_deep with L2::256B window loads: a DRAM miss fills 256 bytes into L2 (K <= 5)"},
    {Variant::RegisterStrip, "register_strip",
     "16-row strips, loads 3 rows ahead in a 4-row ring, halo by warp shuffles (K <= 5)"},
    {Variant::RegisterStripLd, "register_strip_ld",
     "register_strip with the halo by window loads instead of shuffles (K <= 5)"},
    {Variant::RegisterStripWide, "register_strip_wide",
     "register_strip with 256 x 1-thread blocks: 4 KB row segments per block (K <= 5)"},
    {Variant::SmemRing, "smem_ring",
     "256-column strips, input rows in a cp.async shared-memory ring 7 rows ahead (K <= 5)"},
    {Variant::SmemRingWave, "smem_ring_wave",
     "smem_ring with bands sized to one wave of resident blocks: no tail, 1% halo rows (K <= 5)"},
    {Variant::Separable, "separable",
     "separable mask only: row pass + column pass through an intermediate"},
    {Variant::Tma, "tma", "Hopper TMA: input tile + halo as one box, zero fill = ghost cells"},
    {Variant::Cluster, "cluster",
     "Hopper cluster of 4 blocks: own rows by TMA, halo rows from neighbours' shared memory"},
};

// Copies the K x K mask (row-major) and, for the separable path, its row and column factors
// (may be null) into __constant__ memory.
void upload_mask(const float* mask, const float* row, const float* col, int k);

struct Image {
  const float* in;
  float* out;
  int height, width, k;
};

// The mask-width dispatch of the launch files: f(std::integral_constant<int, K>{}) for the K in
// Ks equal to k (one template instance of f per listed K); any other k throws refuse(k), the
// caller's exception (its type and message).
template <int K, int... Ks, class Refuse, class F>
decltype(auto) with_k(int k, Refuse&& refuse, F&& f) {
  if (k == K) return f(std::integral_constant<int, K>{});
  if constexpr (sizeof...(Ks) > 0) {
    return with_k<Ks...>(k, refuse, f);
  } else {
    throw refuse(k);
  }
}

// `mask` is the same mask in global memory (naive); `tmp` an H x W buffer (separable only).
void launch(Variant variant, const Image& img, const float* mask, float* tmp, cudaStream_t stream);

// Register-variant rows per thread for mask width k.
int register_rows(int k);

// register_deep12's rows per thread (K <= 5).
int register_deep12_rows();

// Reference on the GPU with double accumulation (see common/gpu_check.hpp).
void reference_gpu(const Image& img, const float* mask, cudaStream_t stream);

}  // namespace memlab::lessons::conv2d
