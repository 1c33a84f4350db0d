// Device-side helpers for Hopper's own data movement (sm_90): mbarriers with transaction counts,
// the Tensor Memory Accelerator (cp.async.bulk.tensor, tiles described by a CUtensorMap), 1D bulk
// copies (cp.async.bulk) and the async-proxy fence. Every body compiles to nothing below sm_90, so
// a build for an older GPU still links; the lessons skip these variants there (hopper.hpp).
//
// The protocol, as the lessons use it:
//   one thread:  mbar_init(bar, 1); fence_mbarrier_init();   then __syncthreads()
//   one thread:  mbar_arrive_expect_tx(bar, bytes); tma_load_2d(dst, &map, x, y, bar);
//   all threads: mbar_wait(bar, phase)   (phase flips each time the barrier completes)
//   writers:     fence_proxy_async_shared() after ordinary shared stores the copy engine reads,
//                then __syncthreads(); one thread: tma_store_2d(...); bulk_commit();
//                bulk_wait_read<0>() before the shared memory is reused or the block exits.
#pragma once

#include <cuda.h>  // CUtensorMap (a 128-byte, 64-byte aligned opaque struct)

#include <cstdint>

namespace memlab::lessons::hopper {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define MEMLAB_SM90 1
#else
#define MEMLAB_SM90 0
#endif

__device__ __forceinline__ std::uint32_t smem_u32(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// Sets the barrier's arrival count; its transaction count starts at 0, its phase at 0.
__device__ __forceinline__ void mbar_init(std::uint64_t* bar, std::uint32_t arrivals) {
#if MEMLAB_SM90
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(arrivals)
               : "memory");
#endif
}
// Makes the initialisation visible to the async proxy (the copy engine) and the other threads.
__device__ __forceinline__ void fence_mbarrier_init() {
#if MEMLAB_SM90
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
}
// One arrival that also announces `bytes` the copy engine will deliver (complete_tx).
__device__ __forceinline__ void mbar_arrive_expect_tx(std::uint64_t* bar, std::uint32_t bytes) {
#if MEMLAB_SM90
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_u32(bar)),
               "r"(bytes)
               : "memory");
#endif
}
// A plain arrival (consumers releasing a stage back to the producer).
__device__ __forceinline__ void mbar_arrive(std::uint64_t* bar) {
#if MEMLAB_SM90
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_u32(bar)) : "memory");
#endif
}
// Spins until the phase with parity `phase` has completed (all arrivals and all bytes).
__device__ __forceinline__ void mbar_wait(std::uint64_t* bar, std::uint32_t phase) {
#if MEMLAB_SM90
  std::uint32_t done = 0;
  do {
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        " selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(smem_u32(bar)), "r"(phase)
        : "memory");
  } while (done == 0);
#endif
}

// Orders this thread's ordinary (generic proxy) shared-memory accesses before later accesses of
// the async proxy (a TMA store reading the tile, wgmma reading operands).
__device__ __forceinline__ void fence_proxy_async_shared() {
#if MEMLAB_SM90
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

// Tensor copies: box at element coordinates (x = innermost, y, ...) of the map's tensor. Loads
// zero-fill the part of the box outside the tensor and still count the whole box's bytes; stores
// write only the part inside the tensor.
__device__ __forceinline__ void tma_load_2d(void* dst, const CUtensorMap* map, int x, int y,
                                            std::uint64_t* bar) {
#if MEMLAB_SM90
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(smem_u32(dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(x), "r"(y), "r"(smem_u32(bar))
      : "memory");
#endif
}
__device__ __forceinline__ void tma_load_3d(void* dst, const CUtensorMap* map, int x, int y, int z,
                                            std::uint64_t* bar) {
#if MEMLAB_SM90
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3, %4}], [%5];\n" ::"r"(smem_u32(dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(x), "r"(y), "r"(z), "r"(smem_u32(bar))
      : "memory");
#endif
}
__device__ __forceinline__ void tma_store_2d(const CUtensorMap* map, int x, int y,
                                             const void* src) {
#if MEMLAB_SM90
  asm volatile(
      "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];\n" ::"l"(
          reinterpret_cast<std::uint64_t>(map)),
      "r"(x), "r"(y), "r"(smem_u32(src))
      : "memory");
#endif
}
__device__ __forceinline__ void tma_prefetch_map(const CUtensorMap* map) {
#if MEMLAB_SM90
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<std::uint64_t>(map)) : "memory");
#endif
}

// 1D bulk copies: `bytes` a multiple of 16, both addresses 16-byte aligned.
__device__ __forceinline__ void bulk_load(void* dst, const void* src, std::uint32_t bytes,
                                          std::uint64_t* bar) {
#if MEMLAB_SM90
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::
          "r"(smem_u32(dst)),
      "l"(src), "r"(bytes), "r"(smem_u32(bar))
      : "memory");
#endif
}
__device__ __forceinline__ void bulk_store(void* dst, const void* src, std::uint32_t bytes) {
#if MEMLAB_SM90
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n" ::"l"(dst),
               "r"(smem_u32(src)), "r"(bytes)
               : "memory");
#endif
}

// The same with an L2 cache policy (`l2_evict_first()`): streaming data that no one reads again.
__device__ __forceinline__ std::uint64_t l2_evict_first() {
  std::uint64_t policy = 0;
#if MEMLAB_SM90
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;\n" : "=l"(policy));
#endif
  return policy;
}
__device__ __forceinline__ void bulk_load_hint(void* dst, const void* src, std::uint32_t bytes,
                                               std::uint64_t* bar, std::uint64_t policy) {
#if MEMLAB_SM90
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
      " [%0], [%1], %2, [%3], %4;\n" ::"r"(smem_u32(dst)),
      "l"(src), "r"(bytes), "r"(smem_u32(bar)), "l"(policy)
      : "memory");
#endif
}
__device__ __forceinline__ void bulk_store_hint(void* dst, const void* src, std::uint32_t bytes,
                                                std::uint64_t policy) {
#if MEMLAB_SM90
  asm volatile(
      "cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%0], [%1], %2, %3;\n" ::"l"(dst),
      "r"(smem_u32(src)), "r"(bytes), "l"(policy)
      : "memory");
#endif
}

// Closes this thread's bulk group (the stores issued since the last commit).
__device__ __forceinline__ void bulk_commit() {
#if MEMLAB_SM90
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
#endif
}
// Waits until at most N of this thread's bulk groups still read their shared-memory source.
template <int N>
__device__ __forceinline__ void bulk_wait_read() {
#if MEMLAB_SM90
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(N) : "memory");
#endif
}
// Waits until at most N of this thread's bulk groups are incomplete (writes visible in global).
template <int N>
__device__ __forceinline__ void bulk_wait() {
#if MEMLAB_SM90
  asm volatile("cp.async.bulk.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

// Thread-block clusters (distributed shared memory).
// This block's rank in its cluster (0 .. cluster size - 1).
__device__ __forceinline__ std::uint32_t cluster_rank() {
  std::uint32_t r = 0;
#if MEMLAB_SM90
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
#endif
  return r;
}
// Every thread of every block of the cluster arrives and waits; orders the blocks' shared-memory
// accesses before it (release) against those after it (acquire), across the cluster.
__device__ __forceinline__ void cluster_sync() {
#if MEMLAB_SM90
  asm volatile(
      "barrier.cluster.arrive.release.aligned;\n"
      "barrier.cluster.wait.acquire.aligned;\n" ::
          : "memory");
#endif
}
// The shared::cluster address of `p` (a shared variable of this block) in block `rank`'s copy.
__device__ __forceinline__ std::uint32_t cluster_map(const void* p, std::uint32_t rank) {
  std::uint32_t out = 0;
#if MEMLAB_SM90
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(out) : "r"(smem_u32(p)), "r"(rank));
#endif
  return out;
}
// A 16-byte load from another block's shared memory (an address from cluster_map).
__device__ __forceinline__ float4 cluster_load16(std::uint32_t addr) {
  float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
#if MEMLAB_SM90
  asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];\n"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "r"(addr)
               : "memory");
#endif
  return v;
}

// Byte offset of the 16-byte chunk `chunk` (0..7) of row `row` in a tile written by the copy
// engine with CU_TENSOR_MAP_SWIZZLE_128B: rows of 128 bytes, chunk index XOR (row mod 8). The
// tile must start on a 1024-byte boundary.
__device__ __forceinline__ std::uint32_t swizzle128(int row, int chunk) {
  return static_cast<std::uint32_t>(row * 128 + ((chunk ^ (row & 7)) << 4));
}

}  // namespace memlab::lessons::hopper
