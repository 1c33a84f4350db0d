// The kernel behind the measuring loop's L2 flush (src/cuda/fill.cu).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace memlab {

// Reads every 16-byte word of `data` (bytes: a multiple of 16) and writes nothing but, in the
// (practically never taken) case that the XOR of a thread's words equals a constant, `*sink`: the
// loads cannot be elided, and the L2 gains no dirty line.
void read_all(const void* data, std::size_t bytes, unsigned* sink, cudaStream_t stream);

}  // namespace memlab
