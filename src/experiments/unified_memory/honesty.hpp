// unified_memory's honesty rule (issue 19): the data starts in host memory in every sample, so
// every variant moves the `size` bytes from the host to the GPU at least once, whatever `reads`.
// None can then be faster than the link: explicit's copy (its transfer_ms figure; its whole time
// where the figure is missing) measures the link. A variant whose time is under kLinkFloor x that
// copy moved less than the data over PCIe: its data was already on the GPU (the 12-01 run's
// managed_readmostly: 0.317 ms against explicit's 4.92 ms). Host-only (tests/host and tests/gpu).
#pragma once

#include <string>
#include <vector>

#include "memlab/bench/record.hpp"

namespace memlab::lessons::unified_memory {

// The figures of the timed split (docs/unified_memory.md): transfer_ms is the separate copy or
// prefetch before the kernel (0 where the data moves inside the kernel: faults, zero-copy reads);
// kernel_ms the kernel, with whatever migration or PCIe reads happen inside it.
inline constexpr const char* kTransferFigure = "transfer_ms";
inline constexpr const char* kKernelFigure = "kernel_ms";

// Below this fraction of explicit's copy a variant cannot have crossed PCIe with the data (run to
// run spread is ~1%; zero-copy and prefetch measured at 0.93 and 0.88x of explicit's rate).
inline constexpr double kLinkFloor = 0.8;

// One line per timed unified_memory record faster than the link allows (empty: all honest):
// variant, point, its time and explicit's copy at the same point.
std::vector<std::string> faster_than_the_link(const std::vector<bench::Record>& records);

}  // namespace memlab::lessons::unified_memory
