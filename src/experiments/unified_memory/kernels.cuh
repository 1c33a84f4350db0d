// unified_memory: seed 001's "allocate and copy", and its alternatives. The data starts in host
// memory (written by the CPU) in every sample: before each one, outside the timed region, the
// lesson's prepare hook moves the managed pages back to the host and the CPU writes them (which
// also drops read-mostly's GPU duplicate). A kernel then reads the data once (reads=1) or many
// times (reads=16):
//   explicit           cudaMemcpyAsync from pinned memory to a cudaMalloc buffer, then the kernel.
//   managed_fault      cudaMallocManaged, pages on the host; the kernel's first touch faults and
//                      the driver migrates the pages on demand.
//   managed_prefetch   as managed_fault, with cudaMemPrefetchAsync to the GPU before the kernel.
//   managed_readmostly cudaMemAdviseSetReadMostly: the kernel's reads fault and make a read-only
//                      copy on the GPU (the host keeps its own); the CPU's write before the next
//                      sample invalidates it, so every sample pays the first read.
//   zero_copy          mapped pinned host memory: every read crosses PCIe, nothing is migrated.
// The record's time is the whole sequence from host memory to the kernel's last read; the
// figures transfer_ms (a separate copy or prefetch; 0 where the data moves inside the kernel)
// and kernel_ms split the last sample (honesty.hpp).
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
