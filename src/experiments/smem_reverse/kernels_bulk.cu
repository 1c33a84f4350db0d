// smem_reverse, Hopper: the segment moved in and out by the copy engine (cp.async.bulk).
//
// What it does to memory: block b's 16 KiB segment arrives in shared memory by one
// `cp.async.bulk` global -> shared (one thread issues it; it completes on an mbarrier carrying the
// segment's bytes); 256 threads reverse it into a second buffer as float4 quads (quad q of the
// output is quad Q - 1 - q of the input with its 4 lanes swapped: LDS.128 / STS.128 on consecutive
// quads, conflict-free); after `fence.proxy.async.shared::cta` and a barrier, one thread writes
// the reversed segment with one `cp.async.bulk` shared -> global to its mirrored range. DRAM sees
// the same 8 bytes per float as every other variant; the threads never touch global memory. The
// mirrored range starts at n - first - len floats, which is 16-byte aligned only when n is a
// multiple of 4: the variant applies there (n = 4 k), elsewhere it is skipped with that reason.
#include <cuda_runtime.h>

#include <cstdint>

#include "common/hopper.cuh"
#include "common/launch.hpp"
#include "smem_reverse/kernels_bulk.cuh"

namespace memlab::lessons::smem_reverse {
namespace {

namespace hp = memlab::lessons::hopper;

constexpr unsigned kSeg = 4096;  // floats: 16 KiB
constexpr unsigned kThreads = 256;

__global__ void __launch_bounds__(kThreads)
    bulk_reverse(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
#if MEMLAB_SM90
  __shared__ __align__(128) float4 src[kSeg / 4];
  __shared__ __align__(128) float4 dst[kSeg / 4];
  __shared__ __align__(8) std::uint64_t bar;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * kSeg;
  const std::size_t len = n - first < kSeg ? n - first : kSeg;  // a multiple of 4 (n = 4 k)
  const auto quads = static_cast<unsigned>(len / 4);
  const auto bytes = static_cast<std::uint32_t>(len * 4);
  if (threadIdx.x == 0) {
    hp::mbar_init(&bar, 1);
    hp::fence_mbarrier_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    hp::mbar_arrive_expect_tx(&bar, bytes);
    hp::bulk_load(src, in + first, bytes, &bar);
  }
  hp::mbar_wait(&bar, 0);
  for (unsigned q = threadIdx.x; q < quads; q += kThreads) {
    const float4 v = src[quads - 1 - q];
    dst[q] = make_float4(v.w, v.z, v.y, v.x);
  }
  hp::fence_proxy_async_shared();
  __syncthreads();
  if (threadIdx.x == 0) {
    hp::bulk_store(out + (n - first - len), dst, bytes);
    hp::bulk_commit();
    hp::bulk_wait_read<0>();
  }
#endif
}

}  // namespace

void launch_bulk_reverse(const float* in, float* out, std::size_t n, cudaStream_t s) {
  bulk_reverse<<<blocks_for(n, kSeg), kThreads, 0, s>>>(in, out, n);
  MEMLAB_CHECK_LAUNCH(bulk_reverse);
}

}  // namespace memlab::lessons::smem_reverse
