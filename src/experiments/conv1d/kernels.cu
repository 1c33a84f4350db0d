#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "common/launch.hpp"
#include "conv1d/kernels.cuh"

namespace memlab::lessons::conv1d {
namespace {

using idx_t = long long;

__constant__ float c_mask[kMaxMask];

// naive: one thread per output. The K mask loads per thread are uniform (every lane reads the same
// word: one transaction per warp, but K load instructions through the LSU per output); the K input
// loads of a warp cover 32 + K - 1 consecutive floats, re-read by neighbouring lanes from L1.
__global__ void naive_kernel(const float* in, const float* mask, float* out, idx_t n, int k) {
  const idx_t i = static_cast<idx_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int r = k / 2;
  float acc = 0.0f;
  for (int j = 0; j < k; ++j) {
    const idx_t x = i - r + j;
    if (x >= 0 && x < n) acc += in[x] * mask[j];
  }
  out[i] = acc;
}

// const_mask: as naive, M from the constant cache (a broadcast: every lane reads c_mask[j]).
__global__ void const_mask_kernel(const float* __restrict__ in, float* __restrict__ out, idx_t n,
                                  int k) {
  const idx_t i = static_cast<idx_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int r = k / 2;
  float acc = 0.0f;
  for (int j = 0; j < k; ++j) {
    const idx_t x = i - r + j;
    if (x >= 0 && x < n) acc += in[x] * c_mask[j];
  }
  out[i] = acc;
}

// tiled_input (seed 000): input tile I = 1024 floats (4 KiB shared), halo r on each side, output
// tile O = 1024 - (K - 1). Each input is loaded once per block (coalesced 4-byte loads; the 2 r
// halo elements twice overall); shared reads tile[tid + j] are stride-1 across the warp:
// conflict-free. Reuse: each shared element is read by up to K outputs. Idle: K - 1 of 1024 threads
// compute nothing. Ghost cells are zeros written into the tile.
__global__ void tiled_input_kernel(const float* __restrict__ in, float* __restrict__ out, idx_t n,
                                   int k) {
  __shared__ float tile[kTileThreads];
  const int o_tile = kTileThreads - (k - 1);
  const idx_t index_o = static_cast<idx_t>(blockIdx.x) * o_tile + threadIdx.x;
  const idx_t index_i = index_o - k / 2;
  tile[threadIdx.x] = (index_i >= 0 && index_i < n) ? in[index_i] : 0.0f;
  __syncthreads();
  if (static_cast<int>(threadIdx.x) < o_tile && index_o < n) {
    float acc = 0.0f;
    for (int j = 0; j < k; ++j) acc += c_mask[j] * tile[threadIdx.x + j];
    out[index_o] = acc;
  }
}

// tiled_output (seed 000's second design): blocks of O = 1024 outputs; shared holds the block's own
// 1024 inputs (4 KiB), loaded once; the r halo elements on each side are read from global memory,
// where the neighbouring block's loads have usually brought them into L2 (or L1). All threads
// compute; the branch per tap (tile or global) diverges only in the warps at the tile edges.
__global__ void tiled_output_kernel(const float* __restrict__ in, float* __restrict__ out, idx_t n,
                                    int k) {
  __shared__ float tile[kTileThreads];
  const idx_t start = static_cast<idx_t>(blockIdx.x) * kTileThreads;
  const idx_t i = start + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i >= n) return;
  const int r = k / 2;
  float acc = 0.0f;
  for (int j = 0; j < k; ++j) {
    const idx_t x = i - r + j;
    float v = 0.0f;
    if (x >= start && x < start + kTileThreads) {
      v = tile[x - start];
    } else if (x >= 0 && x < n) {
      v = in[x];
    }
    acc += c_mask[j] * v;
  }
  out[i] = acc;
}

// register_f4: thread t of the grid owns G float4 groups (g = 4 outputs each, G groups a block
// apart). It loads the window [4 (g - H), 4 (g + H + 1)) with 2 H + 1 aligned 16-byte loads
// (H = ceil(r / 4); ptxas narrows the outer ones to the floats used), computes the 4 outputs from
// registers (K FMAs each, fully unrolled; the taps come from __constant__ via LDC/ULDC), and stores
// one float4 (streaming). DRAM sees each input once: the 2 H neighbouring float4 were loaded by the
// neighbouring lanes in the same instruction and come from L1. G = 1 is used: measured on the H200
// (n = 2^26) it beat G = 2 and G = 4 (97% / 94% / 93% of memcpy at K = 5, 84% / 76% / 76% at
// K = 25): more resident warps hide DRAM latency better than more loads per thread.
template <int K>
struct Window {
  static constexpr int r = K / 2;
  static constexpr int h = (r + 3) / 4;
  static constexpr int floats = 4 * (2 * h + 1);
};

template <int K>
__device__ __forceinline__ void load_window(const float* __restrict__ in, idx_t n, idx_t g,
                                            float (&v)[Window<K>::floats]) {
  constexpr int h = Window<K>::h;
  const idx_t base = 4 * (g - h);
  if (base >= 0 && base + Window<K>::floats <= n) {
#pragma unroll
    for (int q = 0; q < 2 * h + 1; ++q) {
      const float4 f = __ldg(reinterpret_cast<const float4*>(in + base) + q);
      v[4 * q] = f.x;
      v[4 * q + 1] = f.y;
      v[4 * q + 2] = f.z;
      v[4 * q + 3] = f.w;
    }
  } else {
#pragma unroll
    for (int e = 0; e < Window<K>::floats; ++e) {
      const idx_t x = base + e;
      v[e] = (x >= 0 && x < n) ? __ldg(in + x) : 0.0f;
    }
  }
}

template <int K>
__device__ __forceinline__ void compute_store(float* __restrict__ out, idx_t n, idx_t g,
                                              const float (&v)[Window<K>::floats]) {
  constexpr int off = 4 * Window<K>::h - Window<K>::r;
  float o[4];
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    float acc = 0.0f;
#pragma unroll
    for (int j = 0; j < K; ++j) acc = fmaf(c_mask[j], v[off + c + j], acc);
    o[c] = acc;
  }
  const idx_t x = 4 * g;
  if (x + 4 <= n) {
    __stcs(reinterpret_cast<float4*>(out + x), make_float4(o[0], o[1], o[2], o[3]));
  } else {
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      if (x + c < n) out[x + c] = o[c];
    }
  }
}

constexpr int kRegBlock = 256;

template <int K, int G>
__global__ void __launch_bounds__(kRegBlock)
    register_kernel(const float* __restrict__ in, float* __restrict__ out, idx_t n) {
  const idx_t groups = (n + 3) / 4;
  const idx_t first = static_cast<idx_t>(blockIdx.x) * (G * kRegBlock) + threadIdx.x;
  float v[G][Window<K>::floats];
#pragma unroll
  for (int q = 0; q < G; ++q) {
    const idx_t g = first + q * kRegBlock;
    if (g < groups) load_window<K>(in, n, g, v[q]);
  }
#pragma unroll
  for (int q = 0; q < G; ++q) {
    const idx_t g = first + q * kRegBlock;
    if (g < groups) compute_store<K>(out, n, g, v[q]);
  }
}

template <int K, int G>
void launch_register(const float* in, float* out, idx_t n, cudaStream_t s) {
  const std::size_t groups = static_cast<std::size_t>((n + 3) / 4);
  register_kernel<K, G><<<blocks_for(groups, G * kRegBlock), kRegBlock, 0, s>>>(in, out, n);
  MEMLAB_CHECK_LAUNCH(register_kernel);
}

void dispatch_register(const float* in, float* out, idx_t n, int k, cudaStream_t s) {
  switch (k) {
#define MEMLAB_CONV1D_CASE(K)             \
  case K:                                 \
    launch_register<K, 1>(in, out, n, s); \
    return;
    MEMLAB_CONV1D_CASE(1)
    MEMLAB_CONV1D_CASE(3)
    MEMLAB_CONV1D_CASE(5)
    MEMLAB_CONV1D_CASE(7)
    MEMLAB_CONV1D_CASE(9)
    MEMLAB_CONV1D_CASE(11)
    MEMLAB_CONV1D_CASE(13)
    MEMLAB_CONV1D_CASE(15)
    MEMLAB_CONV1D_CASE(17)
    MEMLAB_CONV1D_CASE(19)
    MEMLAB_CONV1D_CASE(21)
    MEMLAB_CONV1D_CASE(23)
    MEMLAB_CONV1D_CASE(25)
#undef MEMLAB_CONV1D_CASE
    default:
      throw std::invalid_argument("conv1d register_f4: unsupported mask width " +
                                  std::to_string(k));
  }
}

// Reference: one thread per output, double accumulation, everything from global memory.
__global__ void reference_kernel(const float* __restrict__ in, const float* __restrict__ mask,
                                 float* __restrict__ out, idx_t n, int k) {
  const idx_t i = static_cast<idx_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int r = k / 2;
  double acc = 0.0;
  for (int j = 0; j < k; ++j) {
    const idx_t x = i - r + j;
    if (x >= 0 && x < n) acc += static_cast<double>(in[x]) * static_cast<double>(mask[j]);
  }
  out[i] = static_cast<float>(acc);
}

}  // namespace

void upload_mask(const float* host_mask, int k) {
  if (k < 1 || k > kMaxMask) throw std::invalid_argument("conv1d: mask width out of range");
  MEMLAB_CUDA_CHECK(
      cudaMemcpyToSymbol(c_mask, host_mask, static_cast<std::size_t>(k) * sizeof(float)));
}

void launch(Variant variant, const float* in, const float* mask, float* out, std::size_t n, int k,
            cudaStream_t stream) {
  const auto nn = static_cast<idx_t>(n);
  constexpr unsigned block = 256;
  switch (variant) {
    case Variant::Naive:
      naive_kernel<<<blocks_for(n, block), block, 0, stream>>>(in, mask, out, nn, k);
      MEMLAB_CHECK_LAUNCH(naive_kernel);
      return;
    case Variant::ConstMask:
      const_mask_kernel<<<blocks_for(n, block), block, 0, stream>>>(in, out, nn, k);
      MEMLAB_CHECK_LAUNCH(const_mask_kernel);
      return;
    case Variant::TiledInput: {
      const auto o_tile = static_cast<unsigned>(kTileThreads - (k - 1));
      tiled_input_kernel<<<blocks_for(n, o_tile), kTileThreads, 0, stream>>>(in, out, nn, k);
      MEMLAB_CHECK_LAUNCH(tiled_input_kernel);
      return;
    }
    case Variant::TiledOutput:
      tiled_output_kernel<<<blocks_for(n, kTileThreads), kTileThreads, 0, stream>>>(in, out, nn, k);
      MEMLAB_CHECK_LAUNCH(tiled_output_kernel);
      return;
    case Variant::RegisterF4:
      dispatch_register(in, out, nn, k, stream);
      return;
  }
}

void reference_gpu(const float* in, const float* mask, float* out, std::size_t n, int k,
                   cudaStream_t stream) {
  reference_kernel<<<blocks_for(n, 256), 256, 0, stream>>>(in, mask, out, static_cast<idx_t>(n), k);
  MEMLAB_CHECK_LAUNCH(reference_kernel);
}

}  // namespace memlab::lessons::conv1d
