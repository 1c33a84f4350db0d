// smem_ring (session 7, issue 23, K <= 5, width % 4 == 0): bytes in flight without registers.
// register_deep holds its loads ahead in registers (2 rows x 12 floats per thread, 64-register
// cap): ncu showed DRAM at 81.4% of peak with ~21-28 KB per SM in flight. Here a block of 64
// threads owns a strip of kRingCols = 256 output columns and walks down a band of kRingBand = 64
// output rows; its input rows (the strip plus one 16-byte chunk of halo each side: 66 chunks,
// kRingRowBytes = 1056 bytes) stream into a shared ring of kRingSlots = 8 rows by cp.async.cg
// 16-byte copies (L2 -> shared, bypassing L1), issued 7 rows ahead; a copy of a chunk outside the
// image (rows above / below, columns left / right) has src-size 0 and writes 16 zero bytes, which
// are exactly the zero ghost cells. Thread i copies chunk 1 + i, threads 0 and 63 also the halo
// chunks. Per input row t: cp.async.wait_group 6 (this thread's copies of row t landed),
// __syncthreads (everyone's landed; everyone is done with row t - 1, whose slot is refilled
// next), the copies of row t + 7 into that slot, then each thread reads its window of row t once
// (3 LDS.128: chunks i, i + 1, i + 2, floats 4i .. 4i + 11; consecutive 16-byte addresses across a
// warp, no bank conflict) and adds it into register_deep's K live accumulator rows (output row o
// = t - i takes mask row i, taps from a __constant__ copy of the mask), storing each output row's
// float4 (__stcs) as soon as it is complete. The loop over input rows is rolled and unrolled by K,
// so the accumulator slot of output row o (o % K) is a compile-time index (renaming, no copies).
// The K - 1 input rows at each end of a band add into output rows outside it (rows -4 .. -1 and
// 64 .. 67 at K = 5): those FFMAs run unguarded and are never stored (6.25% more FFMA at K = 5).
//
// Napkin math (H200, 132 SMs, 16384^2 fp32, K = 5; register_deep 544.8 us = 92.4% of memcpy,
// 95% = 535 us, 4.27 TB/s copy):
// - Occupancy: __launch_bounds__(64, 16) caps at 64 registers; ptxas -v (sm_90, 0 spills): 48 /
//   46 / 21 registers at K = 5 / 3 / 1, 8448 bytes of static shared memory. At 48 registers 21
//   blocks fit an SM (3072 registers each), 42 warps (register_deep: 32).
// - Grid: 64 strips x 256 bands = 16384 blocks, 132 x 21 = 2772 resident: 5.9 waves.
// - Shared per SM: 21 x (8448 B + 1 KB the system reserves per block) = 194 KB <= 200 KB (the
//   carveout is set to the maximum, 228 KB of shared; the kernel reads no data through L1).
// - Bytes in flight per SM: 21 blocks x 7 rows x 1056 B = 155 KB at most (register_deep 32 KB at
//   most, ~21-28 KB on average; 95% of memcpy needs ~2.0 TB/s of reads x ~1 us = ~15 KB per SM,
//   a copy kernel keeps far more): 20 MB on the chip, under the 60 MB L2.
// - L2 -> SM bytes per output byte: (R + 4) / R rows x (W + 8) / W columns = 68 / 64 x 264 / 256
//   = 1.096 (register_deep: 12 / 8 = 1.5 rows, plus the halo sectors). DRAM: 8 bytes per pixel
//   (the halo rows and chunks are the neighbour bands' and strips' rows, in the same wave: L2
//   hits).
// - Instructions per output float4 (thread and output row): 3 x 68 / 64 = 3.2 LDS.128, 100 FFMA
//   (106 with the band ends; taps as constant operands), 1.06 cp.async (+ the 2 halo chunks per row
//   and block), 1 STG.128, 1 bar.sync + wait_group + commit, ~30 integer / branch (the copy
//   addresses and zero-fill predicates, in the PTX): ~140 warp instructions per 128 outputs. At 95%
//   of memcpy an SM makes 1.92 outputs per clock (1980 MHz): 0.015 warp rows per clock, 2.1 of 4
//   issue slots (53%), FMA pipe 40% (register_deep 41.5%), shared memory 12 LDS wavefronts + ~4 of
//   cp.async writes per warp row = 24% of its 128 bytes per clock.
// - Prediction (not yet measured): 92-96% of memcpy (524-547 us). Limiter attacked: the bytes in
//   flight (and the 1.5x L2 -> SM row re-reads) of register_deep. Risks: one barrier per input row
//   couples a block's 2 warps; the 5.9 waves' tail; the band ends (4 of 68 rows issue no copies,
//   the first waits a full DRAM latency). At register_deep's 92.4% it would say the limit is not
//   the bytes in flight, but the DRAM read/write stream itself.
//
// smem_ring_wave (session 10): the same kernel, the band a launch argument. Measured on an H100
// (session 8, ncu): smem_ring lost on two counts the napkin math above got wrong, not on its bytes
// in flight: (1) DRAM reads 8.0% above the image, the 4 halo rows of each 64-row band fetched again
// because the band that shares them is not resident at the same time; (2) 20 blocks per SM (not
// 21), so 16384 blocks are 6.2 waves and the last one idles most SMs for most of a block's time.
// Here bands per strip = floor(resident blocks / strips) (occupancy API x SMs), band = ceil(height
// / bands), at least kRingBand: one wave. The run-time band made ptxas take 56 registers at K = 5
// (18 blocks per SM); __launch_bounds__(64, kRingWaveBlocksPerSm = 20) gets 40 (0 spills), and
// shared memory bounds it at 24 blocks per SM (24 x (8448 + 1024) B = 227 KB; 177 KB in flight).
// At 16384^2 on 132 SMs x 24: 64 strips x 49 bands of 335 rows = 3136 blocks <= 3168, halo rows
// 4 / 335 = 1.2% (DRAM ~ +1% instead of +8%), no tail, the band ends' unstored FFMAs 1.2% instead
// of 6.25%.
// Prediction (H100, where smem_ring took 841 us at 84.0% and register_deep 731 us at 96.7%): the
// tail alone costs up to 7 / 6.2 - 1 = 13% and the halo rows ~7% of the reads: ~700-740 us, 95-100%
// of memcpy, if the shared-memory pipe (mio_throttle 6.2, not_selected 4.8 at 48% issue active)
// keeps up at the higher rate. On the H200 (register_deep 92.5%; a 1.43x faster DRAM whose
// latency wants more bytes in flight per SM than register_deep's 21-28 KB) 93-96%. Risk: one wave
// of equal blocks all start and end together (a cold first ring fill per block, once per SM slot).
// Measured on an H100 (session 10, docs/conv2d.md): 84.5% of memcpy, level with smem_ring (84.8%):
// one wave and 5% extra DRAM reads instead of 9%, the same 827 us; both stall on the MIO queue.
// width % 4 != 0: register_deep's kernel (the 16-byte chunks need 16-byte row starts; kernels.cu
// dispatches). Edges: threads whose float4 lies right of the image copy zeros and store nothing,
// and still take part in every barrier; a band below the image end has rows = height - y0.
#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "common/launch.hpp"
#include "conv2d/kernels_ring.cuh"
#include "conv2d/window.cuh"

namespace memlab::lessons::conv2d {
namespace {

using idx_t = long long;

__constant__ float c_mask_ring[kMaxMask * kMaxMask];

constexpr int kThreads = kRingCols / 4;  // one float4 of output columns each
constexpr int kChunks = kThreads + 2;    // 16-byte chunks per ring row: halo, 64 own, halo
constexpr int kS = kRingSlots;
static_assert(kChunks * 16 == kRingRowBytes, "ring row = strip + one chunk each side");
static_assert((kS & (kS - 1)) == 0 && kS >= 6, "slot t % S by a mask; S - 1 >= 5 rows ahead");

// 16 bytes global -> shared (L2 only); !full: src-size 0, nothing is read, 16 zero bytes written.
__device__ __forceinline__ void cp_async16(unsigned dst, const float* src, bool full) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src),
               "r"(full ? 16 : 0)
               : "memory");
}
__device__ __forceinline__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;" ::: "memory");
}
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}

// Wave (smem_ring_wave): the band is the launch's `band`; otherwise kRingBand (smem_ring's kernel
// as it was: a run-time band costs ptxas 8 more registers at K = 5, 56 instead of 48).
template <int K, bool Wave>
__global__ void __launch_bounds__(kThreads, Wave ? kRingWaveBlocksPerSm : kRingBlocksPerSm)
    ring_kernel(const float* __restrict__ in, float* __restrict__ out, int height, int width,
                int launch_band) {
  constexpr int r = Win<K>::r, h = Win<K>::h, F = Win<K>::floats, off = Win<K>::off;
  __shared__ float4 ring[kS][kChunks];
  const int tid = static_cast<int>(threadIdx.x);
  const int xb = static_cast<int>(blockIdx.x) * kRingCols;  // the strip's first output column
  const int x0 = xb + 4 * tid;                              // this thread's 4 output columns
  const int band = Wave ? launch_band : kRingBand;
  const int y0 = static_cast<int>(blockIdx.y) * band;
  const int rows = min(band, height - y0);  // output rows of this band (>= 1)
  const int n = rows + K - 1;               // input rows y0 - r .. y0 + rows - 1 + r
  const bool own_in = x0 < width;  // width % 4 == 0: the float4 is wholly inside or outside
  // Threads 0 and kThreads - 1 also copy the halo chunk left / right of the strip (none at K = 1).
  const bool halo = h > 0 && (tid == 0 || tid == kThreads - 1);
  const int xh = tid == 0 ? xb - 4 : xb + kRingCols;
  const bool halo_in = xh >= 0 && xh < width;
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(&ring[0][0]));
  const unsigned own_dst = base + 16u * static_cast<unsigned>(1 + tid);
  const unsigned halo_dst = base + (tid == 0 ? 0u : 16u * (kChunks - 1));
  // Input row t of the band (image row y0 - r + t) into slot t % S; one commit group per call,
  // empty past the band, so that wait_group counts rows.
  const auto issue = [&](int t) {
    if (t < n) {
      const int y = y0 - r + t;
      const bool row_in = y >= 0 && y < height;
      const float* row = in + static_cast<idx_t>(row_in ? y : 0) * width;
      const unsigned slot = static_cast<unsigned>(t % kS) * kRingRowBytes;
      cp_async16(own_dst + slot, row_in && own_in ? row + x0 : in, row_in && own_in);
      if (halo) cp_async16(halo_dst + slot, row_in && halo_in ? row + xh : in, row_in && halo_in);
    }
    cp_async_commit();
  };
  float acc[K][4];  // output row o of the band in slot o % K
#pragma unroll
  for (int s = 0; s < K; ++s) {
#pragma unroll
    for (int c = 0; c < 4; ++c) acc[s][c] = 0.0f;
  }
#pragma unroll
  for (int t = 0; t < kS - 1; ++t) issue(t);
  float* const dst = out + static_cast<idx_t>(y0) * width + x0;  // output row 0 of the band
#pragma unroll 1
  for (int t0 = 0; t0 < n; t0 += K) {
#pragma unroll
    for (int u = 0; u < K; ++u) {  // t = t0 + u, t0 % K == 0: t % K == u at compile time
      const int t = t0 + u;
      if (t >= n) break;  // block-uniform
      cp_async_wait<kS - 2>();
      __syncthreads();
      issue(t + kS - 1);  // into slot (t - 1) % S, free since the barrier
      float w[F];
      const float4* src = &ring[t % kS][1 + tid - h];
#pragma unroll
      for (int q = 0; q < F / 4; ++q) {
        const float4 f = src[q];
        w[4 * q] = f.x;
        w[4 * q + 1] = f.y;
        w[4 * q + 2] = f.z;
        w[4 * q + 3] = f.w;
      }
#pragma unroll
      for (int i = 0; i < K; ++i) {  // mask row i of input row t: output row t - i, slot u - i
        const int s = ((u - i) % K + K) % K;
#pragma unroll
        for (int c = 0; c < 4; ++c) {
          if (i == 0) acc[s][c] = 0.0f;
#pragma unroll
          for (int j = 0; j < K; ++j) {
            acc[s][c] = fmaf(c_mask_ring[i * K + j], w[off + c + j], acc[s][c]);
          }
        }
      }
      const int o = t - (K - 1);  // output row completed by input row t, slot (u + 1) % K
      if (o >= 0 && o < rows && own_in) {
        const float(&q)[4] = acc[(u + 1) % K];
        __stcs(reinterpret_cast<float4*>(dst + static_cast<idx_t>(o) * width),
               make_float4(q[0], q[1], q[2], q[3]));
      }
    }
  }
}

template <int K, bool Wave>
void set_carveout() {
  // 20-24 blocks x 9.3 KB per SM: ask for the largest shared carveout (once per process would do;
  // repeating it is cheap and holds on every device). Before the occupancy query, which reads it.
  MEMLAB_CUDA_CHECK(cudaFuncSetAttribute(ring_kernel<K, Wave>,
                                         cudaFuncAttributePreferredSharedMemoryCarveout,
                                         cudaSharedmemCarveoutMaxShared));
}

// smem_ring_wave's band, its kernel's carveout already set: the strips times the bands fill one
// wave of resident blocks (occupancy API x SMs), each band at least kRingBand rows (below that the
// K - 1 halo rows of a band cost more than the tail they save).
template <int K>
int wave_band(int height, int width) {
  const int strips = static_cast<int>(blocks_for(static_cast<std::size_t>(width), kRingCols));
  const int slots = static_cast<int>(resident_blocks(ring_kernel<K, true>, kThreads));
  const int bands = std::max(1, slots / strips);
  return std::max(kRingBand, (height + bands - 1) / bands);
}

const char* name_of(bool wave) {
  return wave ? "smem_ring_wave" : "smem_ring";
}

// The refusal of a mask width other than 1, 3 or 5 (with_k's refuse).
auto refuse_k(bool wave) {
  return [wave](int k) {
    return std::invalid_argument(std::string("conv2d ") + name_of(wave) + ": mask width " +
                                 std::to_string(k) + " (needs 1..5)");
  };
}

}  // namespace

void upload_mask_ring(const float* mask, int k) {
  const auto kk = static_cast<std::size_t>(k);
  MEMLAB_CUDA_CHECK(cudaMemcpyToSymbol(c_mask_ring, mask, kk * kk * sizeof(float)));
}

int ring_band(const Image& img, bool wave) {
  if (!wave) return kRingBand;
  return with_k<1, 3, 5>(img.k, refuse_k(wave), [&](auto k) {
    constexpr int K = decltype(k)::value;
    set_carveout<K, true>();
    return wave_band<K>(img.height, img.width);
  });
}

void launch_ring(const Image& img, bool wave, cudaStream_t stream, int band) {
  if (img.width % 4 != 0) {
    throw std::invalid_argument(std::string("conv2d ") + name_of(wave) +
                                ": the 16-byte ring copies need width % 4 == 0");
  }
  if (band < 0) throw std::invalid_argument(std::string("conv2d ") + name_of(wave) + ": band < 0");
  with_k<1, 3, 5>(img.k, refuse_k(wave), [&](auto k) {
    constexpr int K = decltype(k)::value;
    // smem_ring's kernel (its compile-time band) unless a test overrides the band; the wave kernel
    // for smem_ring_wave, and for any other band.
    const bool own = !wave && (band == 0 || band == kRingBand);
    if (own) {
      set_carveout<K, false>();
    } else {
      set_carveout<K, true>();
      if (band == 0) band = wave_band<K>(img.height, img.width);
    }
    const dim3 grid(blocks_for(static_cast<std::size_t>(img.width), kRingCols),
                    blocks_for(static_cast<std::size_t>(img.height),
                               static_cast<unsigned>(own ? kRingBand : band)));
    if (own) {
      ring_kernel<K, false>
          <<<grid, kThreads, 0, stream>>>(img.in, img.out, img.height, img.width, kRingBand);
    } else {
      ring_kernel<K, true>
          <<<grid, kThreads, 0, stream>>>(img.in, img.out, img.height, img.width, band);
    }
    MEMLAB_CHECK_LAUNCH(ring_kernel);
  });
}

}  // namespace memlab::lessons::conv2d
