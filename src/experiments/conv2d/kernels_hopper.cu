// conv2d, Hopper: the input tile with its halo loaded by the Tensor Memory Accelerator (tma), and
// a cluster variant whose blocks share halo rows through distributed shared memory (cluster).
//
// Shapes: a block computes a TW x 32 output tile with 256 threads as 64 columns x 4 row groups;
// each thread keeps 8 output rows in registers, streams its 8 + K - 1 input rows out of shared
// memory (K consecutive floats per row: lanes read consecutive words, no bank conflict) and takes
// the taps from __constant__ (fully unrolled per K). The loaded rows are 64 floats (256 bytes)
// wide and start A = hopper_apron(K) columns left of the block's first output (r = K / 2 rounded
// up to 4 floats: the engine needs the box's innermost start on a 16-byte boundary), so
// TW = 64 - 2A (56 for K = 3..9, 48 for K = 11..15, 64 for K = 1); threads TW .. 63 of each row
// group only wait. Every box lands 256-byte aligned in shared memory (rows of 256 bytes).
//
// What they do to memory:
//   tma      one thread issues one cp.async.bulk.tensor.2d box of 64 x (32 + 2r) floats at
//            (x0 - A, y0 - r) into shared memory, completing on an mbarrier; the engine zero-fills
//            what lies outside the image, which is exactly the zero ghost cells (no bounds checks,
//            no edge path). DRAM/L2 traffic: 64 (32 + 2r) loaded per TW 32 outputs; the
//            halo re-reads (of the neighbouring tiles' rows and columns) are L2 hits, so DRAM sees
//            the image about once: 8 bytes per pixel.
//   cluster  4 blocks stacked vertically form a cluster (cudaLaunchKernelEx, cluster dims 1x4x1).
//            Each block loads by TMA only its own 32 rows (and the cluster's outer halo, r rows,
//            when it is the top or bottom block); after a cluster barrier it copies its upper
//            halo from the block above's shared memory and its lower halo from the block below's
//            (mapa + ld.shared::cluster, 16 bytes per lane), then a second cluster barrier lets
//            every block go on (nobody exits while a neighbour still reads its rows). L2 -> SM
//            traffic falls from 32 + 2r to 32 + 2r / 4 rows per block; the DRAM bytes are the same.
// Both need width % 4 == 0 (the tensor map's row stride is a multiple of 16 bytes).
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/hopper.cuh"
#include "common/hopper.hpp"
#include "common/launch.hpp"
#include "conv2d/kernels_hopper.cuh"

namespace memlab::lessons::conv2d {
namespace {

namespace hp = memlab::lessons::hopper;

constexpr int kBW = kHopperBoxCols;                      // loaded columns: 256-byte rows
constexpr int kTH = 32;                                  // output rows per block
constexpr int kRows = 8;                                 // output rows per thread
constexpr int kThreads = kBW * (kTH / kRows);            // 256
constexpr int kMaxHalo = kMaxMask / 2;                   // 7
constexpr int kTileFloats = (kTH + 2 * kMaxHalo) * kBW;  // 46 rows x 64: 11.5 KiB
constexpr int kCluster = 4;                              // blocks per cluster, stacked in y

__constant__ float c_mask_h[kMaxMask * kMaxMask];

// The box's innermost start (x0 - A, A = apron) on 16 bytes for every block and mask; the taps of
// the last output column inside the 64 loaded columns.
template <int K>
constexpr bool tile_fits() {
  constexpr int A = hopper_apron(K), TW = hopper_tile_cols(K);
  return A % 4 == 0 && TW % 4 == 0 && A >= K / 2 && TW > 0 && (TW - 1) + (A - K / 2) + K <= kBW;
}

// Output rows y0 + 8 ty + o, column x0 + tx, from tile rows 8 ty + o + i (tile row 0 = y0 - r)
// and tile columns tx + A - r + j (tile column 0 = x0 - A).
template <int K>
__device__ __forceinline__ void convolve(const float* tile, float* __restrict__ out, int height,
                                         int width, int x0, int y0) {
  constexpr int R = K / 2, A = hopper_apron(K), TW = hopper_tile_cols(K);
  static_assert(tile_fits<K>(), "TMA box start off 16 bytes, or taps outside the box");
  const int tx = static_cast<int>(threadIdx.x) % kBW, ty = static_cast<int>(threadIdx.x) / kBW;
  if (tx >= TW) return;
  float acc[kRows] = {};
#pragma unroll
  for (int ir = 0; ir < kRows + K - 1; ++ir) {
    const float* row = tile + (ty * kRows + ir) * kBW + tx + (A - R);
    float v[K];
#pragma unroll
    for (int j = 0; j < K; ++j) v[j] = row[j];
#pragma unroll
    for (int o = 0; o < kRows; ++o) {
      const int i = ir - o;
      if (i >= 0 && i < K) {
#pragma unroll
        for (int j = 0; j < K; ++j) acc[o] = fmaf(v[j], c_mask_h[i * K + j], acc[o]);
      }
    }
  }
  const int x = x0 + tx;
  if (x >= width) return;
#pragma unroll
  for (int o = 0; o < kRows; ++o) {
    const int y = y0 + ty * kRows + o;
    if (y < height) out[static_cast<std::size_t>(y) * width + x] = acc[o];
  }
}

template <int K>
__global__ void __launch_bounds__(kThreads)
    conv_tma(const __grid_constant__ CUtensorMap map, float* __restrict__ out, int height,
             int width) {
  constexpr int R = K / 2, A = hopper_apron(K), TW = hopper_tile_cols(K);
  __shared__ __align__(128) float tile[kTileFloats];
  __shared__ __align__(8) std::uint64_t bar;
  const int x0 = static_cast<int>(blockIdx.x) * TW, y0 = static_cast<int>(blockIdx.y) * kTH;
  if (threadIdx.x == 0) {
    hp::mbar_init(&bar, 1);
    hp::fence_mbarrier_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    hp::mbar_arrive_expect_tx(&bar, (kTH + 2 * R) * kBW * 4);
    hp::tma_load_2d(tile, &map, x0 - A, y0 - R, &bar);  // negative coordinates: zero-filled
  }
  hp::mbar_wait(&bar, 0);
  convolve<K>(tile, out, height, width, x0, y0);
}

template <int K>
__global__ void __launch_bounds__(kThreads)
    conv_cluster(const __grid_constant__ CUtensorMap own_map,
                 const __grid_constant__ CUtensorMap halo_map, float* __restrict__ out, int height,
                 int width) {
  constexpr int R = K / 2, A = hopper_apron(K), TW = hopper_tile_cols(K);
  __shared__ __align__(128) float tile[kTileFloats];
  __shared__ __align__(8) std::uint64_t bar;
  const int x0 = static_cast<int>(blockIdx.x) * TW, y0 = static_cast<int>(blockIdx.y) * kTH;
  const std::uint32_t rank = hp::cluster_rank();  // = blockIdx.y mod 4 (cluster dims 1 x 4 x 1)
  const bool top = rank == 0, bottom = rank == kCluster - 1;
  if (threadIdx.x == 0) {
    hp::mbar_init(&bar, 1);
    hp::fence_mbarrier_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    const int halo_boxes = R > 0 ? (top ? 1 : 0) + (bottom ? 1 : 0) : 0;
    hp::mbar_arrive_expect_tx(&bar, (kTH + halo_boxes * R) * kBW * 4);
    hp::tma_load_2d(tile + R * kBW, &own_map, x0 - A, y0, &bar);
    if (R > 0 && top) hp::tma_load_2d(tile, &halo_map, x0 - A, y0 - R, &bar);
    if (R > 0 && bottom) hp::tma_load_2d(tile + (R + kTH) * kBW, &halo_map, x0 - A, y0 + kTH, &bar);
  }
  hp::mbar_wait(&bar, 0);
  hp::cluster_sync();  // every block's own rows have landed
  if constexpr (R > 0) {
    // Upper halo rows 0 .. R - 1 = the block above's tile rows kTH .. kTH + R - 1 (its last own
    // rows); lower halo rows R + kTH .. = the block below's rows R .. 2R - 1 (its first own rows).
    for (int q = static_cast<int>(threadIdx.x); q < R * kBW / 4; q += kThreads) {
      if (!top) {
        *reinterpret_cast<float4*>(tile + 4 * q) =
            hp::cluster_load16(hp::cluster_map(tile + kTH * kBW + 4 * q, rank - 1));
      }
      if (!bottom) {
        *reinterpret_cast<float4*>(tile + (R + kTH) * kBW + 4 * q) =
            hp::cluster_load16(hp::cluster_map(tile + R * kBW + 4 * q, rank + 1));
      }
    }
  }
  hp::cluster_sync();  // halos in place; no block leaves while a neighbour reads its rows
  convolve<K>(tile, out, height, width, x0, y0);
}

CUtensorMap image_map(const Image& img, std::uint32_t rows) {
  const std::uint64_t dims[2] = {static_cast<std::uint64_t>(img.width),
                                 static_cast<std::uint64_t>(img.height)};
  const std::uint64_t strides[1] = {static_cast<std::uint64_t>(img.width) * 4};
  const std::uint32_t box[2] = {kBW, rows};
  return hp::tensor_map(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, img.in, dims, strides, box, false);
}

template <int K>
void launch_k(bool cluster, const Image& img, cudaStream_t s) {
  constexpr int R = K / 2, TW = hopper_tile_cols(K);
  const unsigned gx = blocks_for(static_cast<std::size_t>(img.width), TW);
  const unsigned gy = blocks_for(static_cast<std::size_t>(img.height), kTH);
  if (!cluster) {
    conv_tma<K><<<dim3(gx, gy), kThreads, 0, s>>>(image_map(img, kTH + 2 * R), img.out, img.height,
                                                  img.width);
    MEMLAB_CHECK_LAUNCH(conv_tma);
    return;
  }
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(gx, (gy + kCluster - 1) / kCluster * kCluster);  // whole clusters
  config.blockDim = dim3(kThreads);
  config.dynamicSmemBytes = 0;
  config.stream = s;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 1;
  attr[0].val.clusterDim.y = kCluster;
  attr[0].val.clusterDim.z = 1;
  config.attrs = attr;
  config.numAttrs = 1;
  MEMLAB_CUDA_CHECK(cudaLaunchKernelEx(&config, conv_cluster<K>, image_map(img, kTH),
                                       image_map(img, R > 0 ? R : 1), img.out, img.height,
                                       img.width));
}

}  // namespace

void upload_mask_hopper(const float* mask, int k) {
  const auto kk = static_cast<std::size_t>(k);
  MEMLAB_CUDA_CHECK(cudaMemcpyToSymbol(c_mask_h, mask, kk * kk * sizeof(float)));
}

void launch_hopper(bool cluster, const Image& img, cudaStream_t s) {
  const auto refuse = [](int k) {
    return std::invalid_argument("conv2d: unsupported mask width " + std::to_string(k));
  };
  with_k<1, 3, 5, 7, 9, 11, 13, 15>(img.k, refuse,
                                    [&](auto k) { launch_k<decltype(k)::value>(cluster, img, s); });
}

}  // namespace memlab::lessons::conv2d
