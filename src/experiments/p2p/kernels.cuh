// p2p: copies between two GPUs of one node (issue 15). The source GPU pushes `size` bytes into
// the destination GPU's memory three ways; direction=both runs src -> dst and dst -> src at the
// same time (each pushed by its own source GPU). Every ordered pair is one point (axes src, dst):
// the records form nvbandwidth's matrix.
//
// Variants (enumerators of `Variant`):
//   copy_engine  cudaMemcpyPeerAsync on a stream of the source GPU: a DMA engine of the source
//                writes over the link (nvbandwidth's device_to_device_memcpy_write_ce)
//   sm_copy      a kernel on the source GPU storing 16-byte words through a peer pointer into the
//                destination's memory (nvbandwidth's device_to_device_memcpy_write_sm)
//   host_staged  no peer access: D2H into pinned host memory, then H2D (two PCIe crossings)
//
// Napkin math (2 x H200, NV18 = 18 NVLink 4 links x 25 GB/s = 450 GB/s per direction): 512 MiB
// takes 1.19 ms one way; nvbandwidth reports ~370-390 GB/s for write_ce (protocol overhead).
// Staged through the host: two PCIe gen5 x16 copies at ~55 GB/s each, one after the other:
// ~27 GB/s, 15x slower. Small copies: a peer copy of 8 bytes costs the launch and the link's
// round trip, a few microseconds: the latency floor.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "common/variants.hpp"

namespace memlab::lessons::p2p {

enum class Variant {
  // cudaMemcpyPeerAsync issued on the source GPU's stream: its copy engine pushes the bytes over
  // NVLink (or PCIe) in large DMA writes; no SM is involved.
  CopyEngine,
  // Every SM of the source GPU reads 16-byte words from its own memory and stores them through a
  // peer pointer (peer access enabled) into the destination: the stores travel as NVLink writes.
  // Odd sizes: a byte loop for the unaligned tail.
  SmCopy,
  // What happens without peer access: cudaMemcpyAsync D2H from the source into pinned host
  // memory, then H2D into the destination, on one stream (each byte crosses PCIe twice).
  HostStaged,
};

inline constexpr VariantInfo<Variant> kVariants[] = {
    {Variant::CopyEngine, "copy_engine",
     "cudaMemcpyPeerAsync on the source GPU's stream: its copy engine pushes"},
    {Variant::SmCopy, "sm_copy", "a kernel on the source GPU stores through a peer pointer"},
    {Variant::HostStaged, "host_staged", "D2H into pinned host memory, then H2D: no peer access"},
};

// One copy of `bytes` from `src` (on GPU src_device) to `dst` (on GPU dst_device), enqueued on
// `stream`, a stream of the source GPU (the current device when this is called). `staging` is
// pinned host memory of at least `bytes` (host_staged only); `sm_count` sizes sm_copy's grid.
struct CopyArgs {
  void* dst = nullptr;
  const void* src = nullptr;
  std::size_t bytes = 0;
  int dst_device = 0, src_device = 0;
  void* staging = nullptr;
  int sm_count = 0;
};
void enqueue_copy(Variant variant, const CopyArgs& args, cudaStream_t stream);

}  // namespace memlab::lessons::p2p
