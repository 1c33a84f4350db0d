// smem_reverse: out[n-1-i] = in[i] for n floats, the seeds' staticReverse / dynamicReverse
// (seed 000 section 2) generalised to any n. The array is cut into segments of S floats; block b
// reverses segment b ([b S, b S + len), len = S except for a final partial segment) through shared
// memory and writes it to the mirrored range [n - b S - len, n - b S), so both its global read
// and its global write walk ascending addresses.
// Variants: the enumerators of `Variant` below.
// Napkin math (H200): useful bytes 2 n 4 (read in once, write out once); n = 2^28 moves 2 GiB,
// ~0.5 ms at ~4.3 TB/s. Shared memory adds 8 bytes per float of on-chip traffic (write + read,
// conflict-free: consecutive threads use consecutive words), far below its ~128 B/clk/SM, so
// every variant should sit at the DRAM ceiling; the lesson is that shared memory does not speed
// up a reversal (the baseline's writes are already coalesced), it only makes the writes ascend.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "common/variants.hpp"

namespace memlab::lessons::smem_reverse {

inline constexpr unsigned kStaticSeg = 1024;           // floats, static_smem
inline constexpr unsigned kDynSeg = 4096;              // floats, dynamic_smem / dynamic_f4
inline constexpr unsigned kBigSeg = 96 * 1024 / 4;     // floats, dynamic_96k (96 KiB)
inline constexpr std::size_t kBigBytes = kBigSeg * 4;  // 98304 bytes of dynamic shared memory

enum class Variant {
  // No shared memory: out[n-1-i] = in[i]. A warp writes 32 descending neighbours, which are the
  // same 128 bytes as ascending ones: already coalesced (baseline).
  Global,
  // __shared__ float s[1024] (compile-time size), 1024 threads, one float each.
  StaticSmem,
  // extern __shared__ float s[], the segment size (16 KiB: 4096 floats, 256 threads x 16) given at
  // launch as the third <<<>>> argument.
  DynamicSmem,
  // 96 KiB segments (24576 floats, 1024 threads x 24), above the 48 KiB default: needs
  // cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize). Two blocks fit an SM
  // (228 KiB).
  Dynamic96k,
  // 16 KiB segments with 16-byte global loads and stores (float4); the output's float4 grid is
  // shifted by n mod 4, so edge quads are written element-wise.
  DynamicF4,
  // Issue 23: dynamic_f4 with all 4 of a thread's 16-byte loads issued before the first shared
  // store (the segment size a compile-time 4096 floats, the loads unrolled into registers): 16 KiB
  // in flight per block instead of 4 KiB; aligned mirrors store 16 bytes per LDS.128.
  DynamicF4X4,
  // Hopper (sm_90, n a multiple of 4; kernels_bulk.cu): the 16 KiB segment in and out by the copy
  // engine (cp.async.bulk with an mbarrier, then shared -> global), reversed in shared memory as
  // float4 quads.
  Bulk,
  // Hopper (sm_90, n a multiple of 4; kernels_pipelined.cu, issue 23): a persistent grid (3 blocks
  // per SM) with a ring of 4 x 16 KiB stages per block: 3 segment loads in flight while one
  // segment is reversed in place in shared memory (16-byte quad pairs, conflict-free) and the
  // previous one's bulk store drains.
  BulkPipelined,
  // Round two (kernels_pipelined.cu, issue 23): bulk_pipelined with 4 x 8 KiB stages, so 6
  // blocks per SM (twice the independent load -> reverse -> store chains for the same bytes in
  // flight), and an evict-first L2 policy on the bulk loads and stores.
  BulkPipelinedMany,
  // Issue 23, session 5: global with 16-byte accesses and no shared memory: thread q writes output
  // quad q (ascending) from input quad Q - 1 - q (descending) with its 4 lanes reversed in
  // registers. A warp's load is 512 contiguous bytes (32 quads, descending) and so is its store
  // (ascending): both whole sectors, the access pattern of bandwidth's elem_f4, which sits at the
  // memcpy ceiling. Predicted: the ceiling (>= 99% of memcpy): no barrier, no shared-memory round
  // trip, one 16-byte load in flight per thread at full occupancy (2048 x 16 B = 32 KiB per SM,
  // above Little's ~26 KiB). If n is not a multiple of 4, the input's mirror of an output quad is
  // not 16-byte aligned: 4 scalar loads (same sectors) and one 16-byte store; the n mod 4 last
  // floats one by one.
  GlobalF4,
};

inline constexpr VariantInfo<Variant> kVariants[] = {
    {Variant::Global, "global",
     "out[n-1-i] = in[i], no shared memory (descending writes are coalesced)"},
    {Variant::StaticSmem, "static_smem",
     "1024-float static __shared__ segment per block, 1024 threads"},
    {Variant::DynamicSmem, "dynamic_smem",
     "16 KiB extern __shared__ segment sized at launch, 256 threads x 16"},
    {Variant::Dynamic96k, "dynamic_96k",
     "96 KiB dynamic segment (cudaFuncSetAttribute opt-in), 1024 threads x 24"},
    {Variant::DynamicF4, "dynamic_f4", "16 KiB dynamic segment, 16-byte global loads and stores"},
    {Variant::DynamicF4X4, "dynamic_f4_x4",
     "dynamic_f4 with a thread's 4 float4 loads in flight at once (16 KiB per block)"},
    {Variant::Bulk, "bulk",
     "Hopper cp.async.bulk: 16 KiB segment in and out by the copy engine, float4 reversal"},
    {Variant::BulkPipelined, "bulk_pipelined",
     "Hopper cp.async.bulk, persistent: 4 x 16 KiB ring, in-place float4 reversal"},
    {Variant::BulkPipelinedMany, "bulk_pipelined_many",
     "bulk_pipelined with 4 x 8 KiB stages: 6 blocks per SM, evict-first hints"},
    {Variant::GlobalF4, "global_f4",
     "no shared memory, 16-byte loads and stores, each quad's 4 floats reversed in registers"},
};

void launch(Variant variant, const float* in, float* out, std::size_t n, cudaStream_t stream);

}  // namespace memlab::lessons::smem_reverse
