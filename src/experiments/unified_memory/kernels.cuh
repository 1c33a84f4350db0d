// unified_memory: seed 001's "allocate and copy", and its alternatives. The data starts in host
// memory (written by the CPU); a kernel reads it once (reads=1) or many times (reads=16):
//   explicit           cudaMemcpyAsync from pinned memory to a cudaMalloc buffer, then the kernel.
//   managed_fault      cudaMallocManaged, pages on the host (prefetched back before every run); the
//                      kernel's first touch faults and the driver migrates the pages on demand.
//   managed_prefetch   as managed_fault, with cudaMemPrefetchAsync to the GPU before the kernel.
//   managed_readmostly cudaMemAdviseSetReadMostly: a read makes a read-only copy on the GPU and
//                      the host keeps its own; once duplicated, later runs read the GPU copy.
//   zero_copy          mapped pinned host memory: every read crosses PCIe, nothing is migrated.
// The record's time is the whole sequence (including the eviction back to the host for the
// managed variants); the figure gpu_part_ms is what follows it: copy/prefetch + kernel.
// Napkin math (H200, PCIe 5 x16 ~ 50 GB/s): 256 MiB once ~ 5 ms over the link; from HBM ~ 0.07 ms.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace memlab::lessons::unified_memory {

enum class Variant { Explicit, ManagedFault, ManagedPrefetch, ManagedReadMostly, ZeroCopy };

struct VariantInfo {
  Variant id;
  const char* name;
  const char* description;
};

inline constexpr VariantInfo kVariants[] = {
    {Variant::Explicit, "explicit", "cudaMemcpyAsync (pinned -> device), then the kernel"},
    {Variant::ManagedFault, "managed_fault", "cudaMallocManaged, first touch on the GPU: faults"},
    {Variant::ManagedPrefetch, "managed_prefetch", "cudaMallocManaged + cudaMemPrefetchAsync"},
    {Variant::ManagedReadMostly, "managed_readmostly", "cudaMallocManaged + advise read-mostly"},
    {Variant::ZeroCopy, "zero_copy", "mapped pinned host memory read over PCIe"},
};

inline constexpr unsigned kBlocks = 1024;
inline constexpr unsigned kThreads = 256;

// Sums the words of `data` `reads` times (grid-stride, 16-byte loads); one partial per thread.
void launch_read(const std::uint32_t* data, std::size_t words, std::uint32_t reads,
                 std::uint32_t* partial, cudaStream_t stream);

}  // namespace memlab::lessons::unified_memory
