// bandwidth, Hopper: a copy done by the copy engine of each SM (cp.async.bulk), not by threads.
//
// What it does to memory: block b owns 16 KiB of the array. One thread (of 32) issues a single
// `cp.async.bulk` global -> shared of the whole chunk, completing on an mbarrier whose transaction
// count is the chunk's bytes, then a single `cp.async.bulk` shared -> global of the same buffer to
// `c`. No thread loads or stores a float: 2 instructions move 32 KiB (16 in, 16 out), against
// 2048 16-byte loads and stores for elem_f4. DRAM sees every byte once in and once out, whole
// lines, as for the vector kernels. 13 blocks of 17 KiB fit an SM, so ~208 KiB are in flight per
// SM while the oldest blocks drain their stores. A final chunk whose length is not a multiple of
// 16 bytes copies its last 1-3 floats by threads.
#include <cuda_runtime.h>

#include <cstdint>

#include "bandwidth/kernels_bulk.cuh"
#include "common/hopper.cuh"
#include "common/launch.hpp"

namespace memlab::lessons::bandwidth {
namespace {

namespace hp = memlab::lessons::hopper;

constexpr unsigned kChunk = 4096;  // floats per block: 16 KiB
constexpr unsigned kThreads = 32;

__global__ void __launch_bounds__(kThreads)
    bulk_copy(const float* __restrict__ a, float* __restrict__ c, std::size_t n) {
#if MEMLAB_SM90
  __shared__ __align__(128) float buf[kChunk];
  __shared__ __align__(8) std::uint64_t bar;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * kChunk;
  const std::size_t len = n - first < kChunk ? n - first : kChunk;
  const std::size_t bulk = len & ~std::size_t{3};  // whole 16-byte quads
  const auto bytes = static_cast<std::uint32_t>(bulk * 4);
  if (threadIdx.x == 0 && bytes > 0) {
    hp::mbar_init(&bar, 1);
    hp::fence_mbarrier_init();  // visible to the copy engine (one thread: no barrier needed)
    hp::mbar_arrive_expect_tx(&bar, bytes);
    hp::bulk_load(buf, a + first, bytes, &bar);
    hp::mbar_wait(&bar, 0);
    hp::bulk_store(c + first, buf, bytes);
    hp::bulk_commit();
    hp::bulk_wait_read<0>();  // buf must outlive the engine's read of it
  }
  if (threadIdx.x < len - bulk) c[first + bulk + threadIdx.x] = a[first + bulk + threadIdx.x];
#endif
}

}  // namespace

void launch_bulk_copy(const float* a, float* c, std::size_t n, cudaStream_t s) {
  bulk_copy<<<blocks_for(n, kChunk), kThreads, 0, s>>>(a, c, n);
  MEMLAB_CHECK_LAUNCH(bulk_copy);
}

}  // namespace memlab::lessons::bandwidth
