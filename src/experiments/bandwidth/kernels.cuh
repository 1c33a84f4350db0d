// bandwidth: streaming kernels (seed 002's C = A + B and its relatives), the ceilings they aim at.
//
// Every kernel here moves each byte once: what limits it is DRAM, and the question is how close to
// the device-to-device cudaMemcpy it gets. The variants, one step each, are the enumerators of
// `Variant` below.
// Napkin math (H200, one run): 2^28 floats copied = 2 GiB moved; at ~4.3 TB/s that is ~0.5 ms.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "common/variants.hpp"

namespace memlab::lessons::bandwidth {

enum class Op { Copy, Scale, Add, Triad, Fill };

// The fill value: a float whose four bytes are all 0x41, so that cudaMemset(0x41) writes it too.
inline constexpr unsigned char kFillByte = 0x41;

struct Args {
  const float* a;
  const float* b;
  float* c;
  float s;
  std::size_t n;
  float fill;
};

enum class Variant {
  // One thread per 4-byte element (the seeds' vecAdd): coalesced, but each thread issues one small
  // load and exits; many blocks to schedule.
  ElemF1,
  // A resident grid walks the array: fewer blocks, same 4-byte accesses.
  GridstrideF1,
  // One thread per float4: 16-byte accesses, a quarter of the instructions.
  ElemF4,
  // Resident grid, 16-byte accesses.
  GridstrideF4,
  // Each thread loads 4 independent float4 before it stores any: 64 bytes in flight per thread,
  // which hides DRAM latency with fewer warps.
  F4Unroll4,
  // The same with streaming cache hints (ld.global.cs / st.global.cs: evict first), so the output
  // does not push the inputs out of L2.
  F4Unroll4Cs,
  // Hopper (sm_90, op=copy only; kernels_bulk.cu): one thread per block hands the SM's copy engine
  // a 16 KiB chunk, global -> shared (cp.async.bulk, mbarrier) and shared -> global; no thread
  // moves a float.
  BulkCopy,
  // Hopper (sm_90, op=copy only; kernels_ring.cu, issue 23): a persistent grid (3 one-warp blocks
  // per SM), each with a ring of 4 x 16 KiB stages: 3 chunk loads in flight while the oldest
  // chunk's bulk store drains; a stage is reloaded once its store has read it.
  BulkRing,
  // Round two (kernels_ring.cu): bulk_ring with an evict-first L2 policy on every bulk load and
  // store (.L2::cache_hint): streaming data should not push lines out of L2.
  BulkRingHint,
  // Round two: 4 x 8 KiB stages per block, so 6 one-warp blocks per SM: twice the issuing lanes
  // for the same bytes in flight, with the evict-first hints.
  BulkRingMany,
  // cudaMemcpyAsync device-to-device (op=copy only): the ceiling the kernels aim at.
  CudaMemcpy,
  // cudaMemsetAsync (op=fill only): the write-only ceiling.
  CudaMemset,
};

inline constexpr VariantInfo<Variant> kVariants[] = {
    {Variant::ElemF1, "elem_f1", "one thread per 4-byte element (the seeds' vecAdd)"},
    {Variant::GridstrideF1, "gridstride_f1", "resident grid, grid-stride loop, 4-byte accesses"},
    {Variant::ElemF4, "elem_f4", "one thread per float4: 16-byte accesses"},
    {Variant::GridstrideF4, "gridstride_f4", "resident grid, grid-stride loop, 16-byte accesses"},
    {Variant::F4Unroll4, "f4_unroll4", "4 independent float4 loads in flight per thread"},
    {Variant::F4Unroll4Cs, "f4_unroll4_cs",
     "as f4_unroll4 with streaming (evict-first) cache hints"},
    {Variant::BulkCopy, "bulk_copy",
     "Hopper cp.async.bulk: 16 KiB chunks global -> shared -> global by the copy engine"},
    {Variant::BulkRing, "bulk_ring",
     "Hopper cp.async.bulk, persistent: a 4 x 16 KiB ring per block, loads overlap stores"},
    {Variant::BulkRingHint, "bulk_ring_hint",
     "bulk_ring with evict-first L2 cache hints on the bulk loads and stores"},
    {Variant::BulkRingMany, "bulk_ring_many",
     "bulk_ring with 4 x 8 KiB stages: 6 blocks (issuing lanes) per SM, evict-first hints"},
    {Variant::CudaMemcpy, "cudaMemcpy", "cudaMemcpyAsync device-to-device: the copy ceiling"},
    {Variant::CudaMemset, "cudaMemset", "cudaMemsetAsync: the write-only ceiling"},
};

// Enqueues `variant` for `op` (the ceilings: cudaMemcpy for op=copy, cudaMemset for op=fill).
void launch(Op op, Variant variant, const Args& args, cudaStream_t stream);

}  // namespace memlab::lessons::bandwidth
