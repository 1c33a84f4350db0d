#include <cuda_runtime.h>

#include <stdexcept>

#include "common/launch.hpp"
#include "syncthreads/kernels.cuh"

namespace memlab::lessons::syncthreads {
namespace {

// Bare barriers; the data is copied through so the result can be checked.
__global__ void barrier_only_kernel(RotateArgs a) {
  const std::size_t g = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long c0 = clock64();
  for (std::uint32_t i = 0; i < a.iters; ++i) __syncthreads();
  const long long c1 = clock64();
  a.out[g] = a.in[g];
  if (g == 0) *a.cycles = static_cast<unsigned long long>(c1 - c0);
}

// s[t] <- s[(t + 1) % B]: each thread reads a word another warp wrote (barrier before), then
// overwrites its own (barrier after, so no one still reads the old value).
template <bool kBlock>
__global__ void rotate_kernel(RotateArgs a) {
  extern __shared__ std::int32_t s[];
  const unsigned t = threadIdx.x;
  const std::size_t g = static_cast<std::size_t>(blockIdx.x) * blockDim.x + t;
  s[t] = a.in[g];
  __syncthreads();
  const unsigned src = kBlock ? (t + 1) % blockDim.x : (t & ~31u) | ((t + 1) & 31u);
  const long long c0 = clock64();
  for (std::uint32_t i = 0; i < a.iters; ++i) {
    const std::int32_t v = s[src];
    if (kBlock) {
      __syncthreads();
    } else {
      __syncwarp();
    }
    s[t] = v;
    if (kBlock) {
      __syncthreads();
    } else {
      __syncwarp();
    }
  }
  const long long c1 = clock64();
  a.out[g] = s[t];
  if (g == 0) *a.cycles = static_cast<unsigned long long>(c1 - c0);
}

// Seed 004's tiled product: C = A B with 16x16 tiles; kSync = false drops both barriers.
template <bool kSync>
__global__ void tiled_kernel(MatmulArgs m) {
  __shared__ float as[kTile][kTile];
  __shared__ float bs[kTile][kTile];
  const int tx = threadIdx.x % kTile, ty = threadIdx.x / kTile;
  const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
  float sum = 0.0f;
  for (int phase = 0; phase < (m.n + kTile - 1) / kTile; ++phase) {
    const int ka = phase * kTile + tx, kb = phase * kTile + ty;
    as[ty][tx] = (row < m.n && ka < m.n) ? m.a[static_cast<std::size_t>(row) * m.n + ka] : 0.0f;
    bs[ty][tx] = (kb < m.n && col < m.n) ? m.b[static_cast<std::size_t>(kb) * m.n + col] : 0.0f;
    if constexpr (kSync) __syncthreads();
    for (int k = 0; k < kTile; ++k) sum += as[ty][k] * bs[k][tx];
    if constexpr (kSync) __syncthreads();
  }
  if (row < m.n && col < m.n) m.c[static_cast<std::size_t>(row) * m.n + col] = sum;
}

}  // namespace

void launch_rotate(Variant v, const RotateArgs& a, cudaStream_t s) {
  const std::size_t smem = a.block * sizeof(std::int32_t);
  switch (v) {
    case Variant::BarrierOnly:
      barrier_only_kernel<<<kBlocks, a.block, 0, s>>>(a);
      MEMLAB_CHECK_LAUNCH(barrier_only_kernel);
      return;
    case Variant::RotateBlock:
      rotate_kernel<true><<<kBlocks, a.block, smem, s>>>(a);
      MEMLAB_CHECK_LAUNCH(rotate_block);
      return;
    case Variant::RotateWarp:
      rotate_kernel<false><<<kBlocks, a.block, smem, s>>>(a);
      MEMLAB_CHECK_LAUNCH(rotate_warp);
      return;
    case Variant::TiledSync:
    case Variant::TiledNoSync:
      throw std::logic_error("syncthreads: a matmul variant is not a rotation");
  }
}

void launch_matmul(Variant v, const MatmulArgs& m, cudaStream_t s) {
  const dim3 grid((m.n + kTile - 1) / kTile, (m.n + kTile - 1) / kTile);
  switch (v) {
    case Variant::TiledSync:
      tiled_kernel<true><<<grid, kTile * kTile, 0, s>>>(m);
      MEMLAB_CHECK_LAUNCH(tiled_sync);
      return;
    case Variant::TiledNoSync:
      tiled_kernel<false><<<grid, kTile * kTile, 0, s>>>(m);
      MEMLAB_CHECK_LAUNCH(tiled_no_sync);
      return;
    case Variant::BarrierOnly:
    case Variant::RotateBlock:
    case Variant::RotateWarp:
      throw std::logic_error("syncthreads: a rotation variant is not a matmul");
  }
}

}  // namespace memlab::lessons::syncthreads
