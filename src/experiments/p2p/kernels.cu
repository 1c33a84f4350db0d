#include <cuda_runtime.h>

#include <cstdint>

#include "memlab/cuda/check.hpp"
#include "p2p/kernels.cuh"

namespace memlab::lessons::p2p {
namespace {

constexpr unsigned kBlock = 512;

// Grid-stride copy in 16-byte words (both buffers come from cudaMalloc: 256-byte aligned), then
// the last bytes % 16 one byte per thread. Loads are local and coalesced; the stores go to the
// peer GPU as NVLink writes of whole 32-byte sectors (a warp writes 512 contiguous bytes), so the
// link, not the SMs, is the limit once enough stores are in flight: every SM, four blocks each.
__global__ void peer_copy_kernel(unsigned char* __restrict__ dst,
                                 const unsigned char* __restrict__ src, std::size_t bytes) {
  const std::size_t words = bytes / 16;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint4* s = reinterpret_cast<const uint4*>(src);
  uint4* d = reinterpret_cast<uint4*>(dst);
  for (std::size_t i = first; i < words; i += stride) d[i] = s[i];
  const std::size_t tail = 16 * words + first;
  if (tail < bytes) dst[tail] = src[tail];  // at most 15 bytes: the first threads take one each
}

}  // namespace

void enqueue_copy(Variant variant, const CopyArgs& a, cudaStream_t stream) {
  if (a.bytes == 0) return;
  switch (variant) {
    case Variant::CopyEngine:
      MEMLAB_CUDA_CHECK(
          cudaMemcpyPeerAsync(a.dst, a.dst_device, a.src, a.src_device, a.bytes, stream));
      return;
    case Variant::SmCopy: {
      const std::size_t words = a.bytes / 16;
      const std::size_t want = (words + kBlock - 1) / kBlock;
      const std::size_t cap = static_cast<std::size_t>(a.sm_count > 0 ? a.sm_count : 1) * 4;
      const unsigned blocks = static_cast<unsigned>(want < 1 ? 1 : (want < cap ? want : cap));
      peer_copy_kernel<<<blocks, kBlock, 0, stream>>>(
          static_cast<unsigned char*>(a.dst), static_cast<const unsigned char*>(a.src), a.bytes);
      MEMLAB_CHECK_LAUNCH(peer_copy_kernel);
      return;
    }
    case Variant::HostStaged:
      MEMLAB_CUDA_CHECK(cudaMemcpyAsync(a.staging, a.src, a.bytes, cudaMemcpyDeviceToHost, stream));
      MEMLAB_CUDA_CHECK(cudaMemcpyAsync(a.dst, a.staging, a.bytes, cudaMemcpyHostToDevice, stream));
      return;
  }
  invalid_variant("p2p");
}

}  // namespace memlab::lessons::p2p
