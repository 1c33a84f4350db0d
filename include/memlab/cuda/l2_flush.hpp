// The kernels of the measuring loop: the L2 flush and the gate before a sample (src/cuda/fill.cu).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace memlab {

// Reads every 16-byte word of `data` (bytes: a multiple of 16) and writes nothing but, in the
// (practically never taken) case that the XOR of a thread's words equals a constant, `*sink`: the
// loads cannot be elided, and the L2 gains no dirty line.
void read_all(const void* data, std::size_t bytes, unsigned* sink, cudaStream_t stream);

// One thread that spins on %globaltimer for `ns` nanoseconds and touches no memory: the measuring
// loop's gate before the start event, so the host has enqueued the timed work (start event,
// every launch, stop event) before the GPU reaches it (docs/ncu.md, "What the timed region holds").
void gpu_delay(unsigned ns, cudaStream_t stream);

}  // namespace memlab
